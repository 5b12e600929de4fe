"""The position of a game of Cardboard Machines and the order of its decisions.

The table holds six boards; `back` counts how many boards have scrolled away, so the
track's rows are numbered absolutely (the back board covers rows `2*back` and
`2*back + 1`) and a space is the int `row * 6 + col`. The phases follow the rulebook's
turn: change gear, move, test for stress; crash placements and ghost placement
interrupt whatever is going on and are decided first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chaosgames.core.chance import uniform
from chaosgames.core.constants import CHANCE, TERMINAL
from chaosgames.core.game import ENDED_BY_CAP, ENDED_BY_RULES, Action, State
from chaosgames.games.cardboard_machines import crashing, end_of_game, movement, setup, stress_test
from chaosgames.games.cardboard_machines.actions import (
    COLUMN_LETTERS,
    GHOST_NONE,
    KEEP,
    RETURN,
    Move,
    space_name,
)
from chaosgames.games.cardboard_machines.boards import (
    BOARD_IDS,
    FRONT,
    LANES,
    SIDES,
    START_BOARD,
    TABLE_ROWS,
    Side,
)
from chaosgames.games.cardboard_machines.phases import (
    BOARDS,
    BONUS,
    FIRST,
    GEAR,
    LEFT,
    MALF,
    MOVE,
    OFF,
    OVER,
    PHASE_NAMES,
    RESOLVE,
    RETURN_STRESS,
    RIGHT,
    ROLL,
    TURN_OVER,
)

if TYPE_CHECKING:
    from chaosgames.games.cardboard_machines.game import CardboardMachines

GEAR_ACTIONS: tuple[Action, ...] = tuple(Move("gear", str(g)) for g in range(1, 7))
ROLL_OUTCOMES: tuple[tuple[Action, float], ...] = tuple(uniform([Move("roll", str(f)) for f in range(1, 7)]))


class CardboardState(State):
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

    def side_of_row(self, row: int) -> Side:
        b = row // 2 - self.back
        return SIDES[self.board_ids[b]][self.sides[b]]

    def board_of_row(self, row: int) -> int:
        return self.board_ids[row // 2 - self.back]

    def terrain_at(self, space: int) -> bool:
        row = space // LANES
        return self.side_of_row(row).terrain[(row % 2) * LANES + space % LANES]

    def front_row(self) -> int:
        return 2 * self.back + TABLE_ROWS - 1

    def table_row(self, space: int) -> int:
        """0 for the back row of the back board ... 11 for the front row of the front board."""
        return space // LANES - 2 * self.back

    def name(self, space: int) -> str:
        return space_name(self.table_row(space), space % LANES)

    def on_table(self, space: int) -> bool:
        return 0 <= self.table_row(space) < TABLE_ROWS

    def targets(self, space: int) -> tuple[tuple[int, int], ...]:
        """(lateral step, space) of the spaces in front of `space` (not from the front row)."""
        row = space // LANES
        pairs = FRONT[(self.side_of_row(row).offset, self.side_of_row(row + 1).offset)][space % LANES]
        base = (row + 1) * LANES
        return tuple((step, base + col) for step, col in pairs)

    def car_at(self, space: int, besides: int) -> int:
        """The player whose car is on `space`, other than `besides`; -1 if none."""
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

    # -- the contract ------------------------------------------------------------------

    def current_player(self) -> int:
        phase = self.phase
        if phase == OVER:
            return TERMINAL
        if self.pending:
            return self.pending[0]
        if self.ghost_pending:
            return self.mover
        if phase in (FIRST, BOARDS, ROLL):
            return CHANCE
        return self.mover

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.current_player() != CHANCE:
            return []
        if self.phase == FIRST:
            return uniform([Move("first", str(p + 1)) for p in range(self.game.num_players)])
        if self.phase == BOARDS:
            return uniform(
                [Move("board", str(b)) for b in BOARD_IDS if b != START_BOARD and b not in self.drawn]
            )
        return list(ROLL_OUTCOMES)

    def _legal_actions(self) -> list[Action]:
        if self.pending:
            return [Move("place", self.name(s)) for s in crashing.placement_spaces(self)]
        if self.ghost_pending:
            return [*(Move("ghost", self.name(s)) for s in movement.ghost_spaces(self)), GHOST_NONE]
        phase = self.phase
        if phase == GEAR:
            return list(GEAR_ACTIONS)
        if phase == MOVE:
            return movement.move_options(self)
        if phase == BONUS:
            return movement.bonus_options(self)
        if phase == RETURN_STRESS:
            return [RETURN, KEEP]
        if phase == RESOLVE:
            return stress_test.resolve_options(self)
        return []

    def _apply_action(self, action: Action) -> None:
        assert isinstance(action, Move)
        kind, arg = action.kind, action.arg
        if kind == "place":
            crashing.place(self, self._space_named(arg))
        elif kind == "ghost":
            movement.place_ghost(self, None if arg == "none" else self._space_named(arg))
        elif kind == "first":
            setup.choose_first(self, int(arg) - 1)
        elif kind == "board":
            setup.draw_board(self, int(arg))
        elif kind == "gear":
            movement.change_gear(self, int(arg))
        elif kind == "move":
            if self.phase == MOVE:
                movement.step(self, arg)
            else:
                movement.bonus_step(self, arg)
        elif kind == "scroll":
            movement.drive_off_front(self)
        elif kind == "stop":
            movement.stop(self)
        elif kind in ("return", "keep"):
            stress_test.return_stress(self, kind == "return")
        elif kind == "roll":
            stress_test.roll(self, int(arg))
        elif kind == "swerve":
            stress_test.swerve(self, LEFT if arg == "left" else RIGHT)
        elif kind == "malfunction":
            stress_test.malfunction(self)
        elif kind == "buyoff":
            stress_test.buy_off(self, LEFT if arg == "left" else RIGHT)
        self._settle()

    def _space_named(self, text: str) -> int:
        row = int(text[:-1]) - 1 + 2 * self.back
        return row * LANES + COLUMN_LETTERS.index(text[-1])

    def _settle(self) -> None:
        """A finished turn passes on once every crashed car is placed."""
        if self.phase == TURN_OVER and not self.pending and not self.ghost_pending:
            end_of_game.end_turn(self)

    def clone(self) -> CardboardState:
        new = object.__new__(CardboardState)
        new.game = self.game
        self._copy_caches_to(new)
        new.phase = self.phase
        new.first = self.first
        new.drawn = self.drawn[:]
        new.back = self.back
        new.board_ids = self.board_ids[:]
        new.sides = self.sides[:]
        new.unused = self.unused[:]
        new.pos = self.pos[:]
        new.start_row = self.start_row[:]
        new.gear = self.gear[:]
        new.stress = self.stress[:]
        new.lives = self.lives[:]
        new.tokens = self.tokens[:]
        new.ghosts = set(self.ghosts)
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
        new.pending = self.pending[:]
        new.ghost_pending = self.ghost_pending
        new.result = None if self.result is None else self.result[:]
        return new

    def returns(self) -> list[float]:
        if self.result is None:
            return [0.0] * self.game.num_players
        return list(self.result)

    def ended_by(self) -> str | None:
        if self.phase != OVER:
            return None
        # The turn count reaches max_turns only in the turn that the cap ends.
        cap = self.game.options["max_turns"]
        return ENDED_BY_CAP if cap and self.turn >= cap else ENDED_BY_RULES

    def round_number(self) -> int:
        return 0 if self.phase in (FIRST, BOARDS) else self.lap + 1

    def to_json(self) -> dict[str, Any]:
        return {**self.game.doc_header(), **self._public()}

    def observation(self, player: int | None) -> dict[str, Any]:
        # Everything at the table is open: boards, cars, dice, tokens.
        doc = {"player": player, **self._public()}
        if self.phase == OVER:
            doc["ended_by"] = self.ended_by()
        return doc

    def _public(self) -> dict[str, Any]:
        return {
            "phase": PHASE_NAMES[self.phase],
            "first": self.first,
            "drawn": list(self.drawn),
            "back": self.back,
            "boards": [[b, s] for b, s in zip(self.board_ids, self.sides, strict=True)],
            "unused": list(self.unused),
            "cars": [
                {
                    "pos": self.pos[p],
                    "start_row": self.start_row[p],
                    "gear": self.gear[p],
                    "stress": self.stress[p],
                    "lives": self.lives[p],
                    "tokens": self.tokens[p],
                }
                for p in range(self.game.num_players)
            ],
            "ghosts": sorted(self.ghosts),
            "tokens_left": self.tokens_left,
            "lap": self.lap,
            "lap_claimed": self.lap_claimed,
            "mover": self.mover,
            "turn": self.turn,
            "moves_left": self.moves_left,
            "changed_gear": self.changed_gear,
            "stressed": self.stressed,
            "must_continue": self.must_continue,
            "overflow": self.overflow,
            "to_roll": self.to_roll,
            "rerolls": self.rerolls,
            "dice": {"left": self.dice[LEFT], "right": self.dice[RIGHT], "malfunction": self.dice[MALF]},
            "pending": list(self.pending),
            "ghost_pending": self.ghost_pending,
            "result": self.result,
        }

    def __str__(self) -> str:
        from chaosgames.games.cardboard_machines.render import render_text

        return render_text(self)
