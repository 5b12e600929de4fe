"""Everything at the table: the boards, the cars, the ghosts and the turn in progress, as the
rule modules read and change them (`Table`).

The table holds six boards; `back` counts how many boards have scrolled away, so the
track's rows are numbered absolutely (the back board covers rows `2*back` and
`2*back + 1`) and a space is the int `row * 6 + col`.

The rule modules take a `Table`; the state (state.py) is a Table that adds the contract
(who acts, the legal actions, applying one) by calling them, so they never name it back.
"""

from __future__ import annotations

from typing import Any

from chaosgames.core.game import State
from chaosgames.games.cardboard_machines.actions import COLUMN_LETTERS, MachineAction, space_name
from chaosgames.games.cardboard_machines.boards import (
    BOARD_SPACES,
    LANES,
    SIDES,
    TABLE_ROWS,
    Side,
    Track,
    track,
)
from chaosgames.games.cardboard_machines.phases import FIRST, OFF
from chaosgames.games.cardboard_machines.rules_in_force import MachinesRules

NO_TRACK = Track((), (), (), (-2, -1), ())
"""The lookup tables while the track is not laid yet (setup)."""


class Table(State[MachineAction]):
    """A game of Cardboard Machines as the rules see it (see the module docstring)."""

    __slots__ = (
        "back",
        "board_ids",
        "changed_gear",
        "dice",
        "drawn",
        "first",
        "gear",
        "ghost_pending",
        "ghosts",
        "lap",
        "lap_claimed",
        "lives",
        "mover",
        "moves_left",
        "must_continue",
        "overflow",
        "pending",
        "phase",
        "pos",
        "rerolls",
        "result",
        "sides",
        "start_row",
        "stress",
        "stressed",
        "to_roll",
        "tokens",
        "tokens_left",
        "track",
        "turn",
        "unused",
    )

    game: MachinesRules[Any, Any]

    def __init__(self, game: MachinesRules[Any, Any]) -> None:
        super().__init__(game)
        n = game.num_players
        self.phase = FIRST
        self.first = -1
        self.drawn: list[int] = []
        self.back = 0
        self.board_ids: list[int] = []
        self.sides: list[int] = []
        self.unused: list[int] = []
        self.track = NO_TRACK
        self.pos = [OFF] * n
        self.start_row = [0] * n
        self.gear = [1] * n
        self.stress = [0] * n
        self.lives = [3] * n
        self.tokens = [0] * n
        self.ghosts: set[int] = set()
        self.tokens_left: int = game.options["round_tokens"]
        self.lap = 0
        self.lap_claimed = False
        self.mover = 0
        self.turn = 0
        self.reset_turn_fields()
        self.pending: list[int] = []
        self.ghost_pending = False
        self.result: list[float] | None = None

    def reset_turn_fields(self) -> None:
        """What a turn tracks, cleared for the next mover (and at setup)."""
        self.moves_left = 0
        self.changed_gear = False
        self.stressed = False
        self.must_continue = False
        self.overflow = False
        self.to_roll = 0
        self.rerolls = 0
        self.dice = [0, 0, 0]

    # -- the track ---------------------------------------------------------------------

    def retrack(self) -> None:
        """Look the boards up again after they changed (laid, scrolled, read, edited)."""
        self.track = track(tuple(self.board_ids), tuple(self.sides)) if self.board_ids else NO_TRACK

    def _invalidate(self) -> None:
        super()._invalidate()
        self.retrack()

    def side_of_row(self, row: int) -> Side:
        b = row // 2 - self.back
        return SIDES[self.board_ids[b]][self.sides[b]]

    def terrain_at(self, space: int) -> bool:
        return self.track.terrain[space - BOARD_SPACES * self.back]

    def front_row(self) -> int:
        return 2 * self.back + TABLE_ROWS - 1

    def table_row(self, space: int) -> int:
        """0 for the back row of the back board ... 11 for the front row of the front board."""
        return space // LANES - 2 * self.back

    def name(self, space: int) -> str:
        return space_name(space - BOARD_SPACES * self.back)

    def on_table(self, space: int) -> bool:
        return 0 <= self.table_row(space) < TABLE_ROWS

    def targets(self, space: int) -> tuple[tuple[int, int], ...]:
        """(direction -1/0/1, space) of the spaces in front of `space` (none from the front row)."""
        return tuple((d, space + delta) for d, delta in self.track.ahead[space - BOARD_SPACES * self.back])

    # -- the cars ----------------------------------------------------------------------

    def car_at(self, space: int, besides: int) -> int:
        """The player whose car is on `space`, other than `besides`; -1 if none."""
        if space in self.pos:
            for p, s in enumerate(self.pos):
                if s == space and p != besides:
                    return p
        return -1

    def alive(self) -> list[int]:
        return [p for p in range(self.game.num_players) if self.lives[p] > 0]

    def add_stress(self, player: int, amount: int) -> None:
        if amount > 0:
            self.stress[player] += amount
            if player == self.mover:
                self.stressed = True

    def _space_named(self, name: str) -> int:
        """The space of a name such as '7c' (for tests and tools; actions hold spaces)."""
        return (int(name[:-1]) - 1 + 2 * self.back) * LANES + COLUMN_LETTERS.index(name[-1])
