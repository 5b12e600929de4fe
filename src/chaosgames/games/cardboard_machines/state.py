"""The position of a game of Cardboard Machines and the order of its decisions.

The table holds six boards; `back` counts how many boards have scrolled away, so the
track's rows are numbered absolutely (the back board covers rows `2*back` and
`2*back + 1`) and a space is the int `row * 6 + col`. The phases follow the rulebook's
turn: change gear, move, test for stress; crash placements and ghost placement
interrupt whatever is going on and are decided first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from chaosgames.core.chance import uniform
from chaosgames.core.constants import CHANCE, TERMINAL
from chaosgames.core.game import ENDED_BY_CAP, ENDED_BY_RULES, State, shared_actions
from chaosgames.games.cardboard_machines import (
    crashing,
    document,
    end_of_game,
    movement,
    setup,
    stress_test,
    text,
)
from chaosgames.games.cardboard_machines.actions import (
    COLUMN_LETTERS,
    GEARS,
    KEEP,
    NO_GHOST,
    RETURN,
    ROLLS,
    Kind,
    Move,
    space_name,
)
from chaosgames.games.cardboard_machines.boards import (
    BOARD_IDS,
    BOARD_SPACES,
    LANES,
    SIDES,
    START_BOARD,
    TABLE_ROWS,
    Side,
    Track,
    track,
)
from chaosgames.games.cardboard_machines.phases import (
    BOARDS,
    BONUS,
    FIRST,
    GEAR,
    MOVE,
    OFF,
    OVER,
    RESOLVE,
    RETURN_STRESS,
    ROLL,
    TURN_OVER,
)

if TYPE_CHECKING:
    from chaosgames.games.cardboard_machines.game import CardboardMachines

ROLL_OUTCOMES: tuple[tuple[Move, float], ...] = tuple(uniform(list(ROLLS)))
ROLL_ACTIONS: list[Move] = shared_actions(outcome for outcome, _ in ROLL_OUTCOMES)
GEAR_ACTIONS: list[Move] = shared_actions(GEARS)
"""The legal actions of every stress die roll and of every gear change, handed to the
core's cache (shared: the cache is replaced, never changed)."""
FIRSTS = tuple(Move(Kind.FIRST, p) for p in range(4))
BOARD_DRAWS = tuple(Move(Kind.BOARD, b) for b in BOARD_IDS)
NO_TRACK = Track((), (), (), (-2, -1), ())
"""The lookup tables while the track is not laid yet (setup)."""
_MOVER = -3
SHARED_LISTS = ("board_ids", "drawn", "ghosts", "pending", "result", "sides", "start_row", "unused")
"""Lists (and the set of ghosts) that clones share: the rules replace them, never change
them in place (setup, scrolls, crashes and ghosts: rare), which spares a search seven copies
a clone."""
_DECIDER = (CHANCE, CHANCE, _MOVER, _MOVER, _MOVER, _MOVER, CHANCE, _MOVER, _MOVER, TERMINAL)
"""Who decides in each phase (when no crashed car or ghost is waiting)."""


class CardboardState(State[Move]):
    """A position of Cardboard Machines (see the module docstring)."""

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

    game: CardboardMachines

    def __init__(self, game: CardboardMachines) -> None:
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

    # -- the track ---------------------------------------------------------------------

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

    # -- the contract ------------------------------------------------------------------

    def current_player(self) -> int:
        pending = self.pending
        if pending:
            return pending[0]
        if self.ghost_pending:
            return self.mover
        decider = _DECIDER[self.phase]
        return self.mover if decider == _MOVER else decider

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        if self.pending or self.ghost_pending:
            return []
        phase = self.phase
        if phase == ROLL:
            return list(ROLL_OUTCOMES)
        if phase == FIRST:
            return uniform(list(FIRSTS[: self.game.num_players]))
        if phase == BOARDS:
            drawn = self.drawn
            return uniform([BOARD_DRAWS[b] for b in BOARD_IDS if b != START_BOARD and b not in drawn])
        return []

    def _legal_actions(self) -> list[Move]:
        if self.pending:
            return crashing.placement_options(self)
        if self.ghost_pending:
            return movement.ghost_options(self)
        phase = self.phase
        if phase == GEAR:
            return list(GEARS)
        if phase == MOVE:
            return movement.move_options(self)
        if phase == RESOLVE:
            return stress_test.resolve_options(self)
        if phase == RETURN_STRESS:
            return [RETURN, KEEP]
        if phase == BONUS:
            return stress_test.bonus_options(self)
        return []

    def _apply_action(self, action: Move) -> list[Move] | None:
        kind, arg = action
        RULES[kind](self, arg)
        if self.pending or self.ghost_pending:
            return None
        phase = self.phase
        if phase == TURN_OVER:
            # A finished turn passes on once every crashed car is placed.
            end_of_game.end_turn(self)
            phase = self.phase
        # The next legal actions, when they are known without asking: a stress die's six
        # faces (which spares a second chance_outcomes()), the next player's gears.
        if phase == ROLL:
            return ROLL_ACTIONS
        if phase == GEAR:
            return GEAR_ACTIONS
        return None

    def clone(self) -> CardboardState:
        new = object.__new__(CardboardState)
        # Shared, not copied: the lists the rules only ever replace (SHARED_LISTS).
        new.game = self.game
        self._copy_caches_to(new)
        new.phase = self.phase
        new.first = self.first
        new.drawn = self.drawn
        new.back = self.back
        new.board_ids = self.board_ids
        new.sides = self.sides
        new.unused = self.unused
        new.track = self.track
        new.pos = self.pos[:]
        new.start_row = self.start_row
        new.gear = self.gear[:]
        new.stress = self.stress[:]
        new.lives = self.lives[:]
        new.tokens = self.tokens[:]
        new.ghosts = self.ghosts
        new.tokens_left = self.tokens_left
        new.lap = self.lap
        new.lap_claimed = self.lap_claimed
        new.mover = self.mover
        new.turn = self.turn
        new.moves_left = self.moves_left
        new.changed_gear = self.changed_gear
        new.stressed = self.stressed
        new.must_continue = self.must_continue
        new.overflow = self.overflow
        new.to_roll = self.to_roll
        new.rerolls = self.rerolls
        new.dice = self.dice[:]
        new.pending = self.pending
        new.ghost_pending = self.ghost_pending
        new.result = self.result
        return new

    def returns(self) -> list[float]:
        if self.result is None:
            return [0.0] * self.game.num_players
        return list(self.result)

    def ended_by(self) -> str | None:
        if self.phase != OVER:
            return None
        # The turn count reaches max_turns only in the turn that the cap ends.
        cap = self.game.max_turns
        return ENDED_BY_CAP if cap and self.turn >= cap else ENDED_BY_RULES

    def round_number(self) -> int:
        return 0 if self.phase in (FIRST, BOARDS) else self.lap + 1

    def to_json(self) -> dict[str, Any]:
        return {**self.game.doc_header(), **document.write(self)}

    def _observation(self, player: int | None) -> dict[str, Any]:
        # Everything at the table is open: boards, cars, dice, tokens.
        doc = {"player": player, **document.write(self)}
        if self.phase == OVER:
            doc["ended_by"] = self.ended_by()
        return doc

    def __str__(self) -> str:
        return text.render_text(self)


# -- applying actions: each kind of action to the rule that plays it -----------------------


def _end_move(st: CardboardState) -> None:
    """Ending in terrain crashes; otherwise the stress test follows."""
    here = st.pos[st.mover]
    if st.track.terrain[here - BOARD_SPACES * st.back]:  # terrain_at, written out
        crashing.crash_mover(st, here)
    else:
        stress_test.begin(st)


def _step(st: CardboardState, direction: int) -> None:
    if st.phase == MOVE:
        movement.step(st, direction)
        if st.phase == MOVE and st.moves_left == 0:
            _end_move(st)
    else:
        stress_test.bonus_step(st, direction)


def _stop(st: CardboardState, _: int) -> None:
    movement.stop(st)
    _end_move(st)


def _place(st: CardboardState, table_space: int) -> None:
    crashing.place(st, table_space + BOARD_SPACES * st.back)


def _ghost(st: CardboardState, table_space: int) -> None:
    movement.place_ghost(st, None if table_space == NO_GHOST else table_space + BOARD_SPACES * st.back)


RULES: dict[Kind, Callable[[CardboardState, int], None]] = {
    Kind.FIRST: setup.choose_first,
    Kind.BOARD: setup.draw_board,
    Kind.GEAR: movement.change_gear,
    Kind.MOVE: _step,
    Kind.SCROLL: lambda st, _: movement.drive_off_front(st),
    Kind.STOP: _stop,
    Kind.GHOST: _ghost,
    Kind.PLACE: _place,
    Kind.RETURN: stress_test.give_back,
    Kind.KEEP: stress_test.keep,
    Kind.ROLL: stress_test.roll,
    Kind.SWERVE: stress_test.swerve,
    Kind.MALFUNCTION: lambda st, _: stress_test.malfunction(st),
    Kind.BUYOFF: stress_test.buy_off,
}
"""The rule each kind of action plays, given the action's argument."""
