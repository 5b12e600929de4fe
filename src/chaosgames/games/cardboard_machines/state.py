"""The position of a game of Cardboard Machines and the order of its decisions.

What stands on the table is a `Table` (table.py); the state adds who acts, the legal
actions and applying one, by the rule modules. The phases follow the rulebook's turn:
change gear, move, test for stress; crash placements and ghost placement interrupt
whatever is going on and are decided first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chaosgames.core.chance import uniform
from chaosgames.core.game import ENDED_BY_CAP, ENDED_BY_RULES, shared_actions
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
    GEARS,
    KEEP,
    NO_GHOST,
    RETURN,
    ROLLS,
    Kind,
    MachineAction,
)
from chaosgames.games.cardboard_machines.boards import BOARD_IDS, BOARD_SPACES, START_BOARD
from chaosgames.games.cardboard_machines.phases import (
    BOARDS,
    BONUS,
    FIRST,
    GEAR,
    MOVE,
    MOVER,
    OVER,
    RESOLVE,
    RETURN_STRESS,
    ROLL,
    TURN_OVER,
)
from chaosgames.games.cardboard_machines.table import Table

ROLL_OUTCOMES: tuple[tuple[MachineAction, float], ...] = tuple(uniform(list(ROLLS)))
ROLL_ACTIONS: list[MachineAction] = shared_actions(outcome for outcome, _ in ROLL_OUTCOMES)
GEAR_ACTIONS: list[MachineAction] = shared_actions(GEARS)
"""The legal actions of every stress die roll and of every gear change, handed to the
core's cache (shared: the cache is replaced, never changed)."""
STRESS_TEST_ACTIONS: list[MachineAction] = shared_actions([RETURN, KEEP])
"""Return 1 stress before the stress dice, or keep it."""
FIRSTS = tuple(MachineAction(Kind.FIRST, p) for p in range(4))
BOARD_DRAWS = tuple(MachineAction(Kind.BOARD, b) for b in BOARD_IDS)
SHARED_LISTS = ("board_ids", "drawn", "ghosts", "pending", "result", "sides", "start_row", "unused")
"""Lists (and the set of ghosts) that clones share: the rules replace them, never change
them in place (setup, scrolls, crashes and ghosts: rare), which spares a search seven copies
a clone."""


class CardboardState(Table):
    """A position of Cardboard Machines (see the module docstring): the table (table.py)
    and the contract, which plays the rule modules."""

    __slots__ = ()

    # -- the contract ------------------------------------------------------------------

    def current_player(self) -> int:
        pending = self.pending
        if pending:
            return pending[0]
        if self.ghost_pending:
            return self.mover
        decider = self.phase.decider
        return self.mover if decider == MOVER else decider

    def chance_outcomes(self) -> list[tuple[MachineAction, float]]:
        if self.pending or self.ghost_pending:
            return []
        phase = self.phase
        if phase is ROLL:
            return list(ROLL_OUTCOMES)
        if phase is FIRST:
            return uniform(list(FIRSTS[: self.game.num_players]))
        if phase is BOARDS:
            drawn = self.drawn
            return uniform([BOARD_DRAWS[b] for b in BOARD_IDS if b != START_BOARD and b not in drawn])
        return []

    def _legal_actions(self) -> list[MachineAction]:
        if self.pending:
            return crashing.placement_options(self)
        if self.ghost_pending:
            return movement.ghost_options(self)
        phase = self.phase
        if phase is GEAR:
            return GEAR_ACTIONS
        if phase is MOVE:
            return movement.move_options(self)
        if phase is RESOLVE:
            return stress_test.resolve_options(self)
        if phase is RETURN_STRESS:
            return STRESS_TEST_ACTIONS
        if phase is BONUS:
            return stress_test.bonus_options(self)
        return []

    def _apply_action(self, action: MachineAction) -> list[MachineAction] | None:
        RULES[action.kind](self, action.arg)
        if self.pending or self.ghost_pending:
            return None
        phase = self.phase
        if phase is TURN_OVER:
            # A finished turn passes on once every crashed car is placed.
            end_of_game.end_turn(self)
            phase = self.phase
        # The next legal actions, when they are known without asking: a stress die's six
        # faces (which spares a second chance_outcomes()), the next player's gears.
        if phase is ROLL:
            return ROLL_ACTIONS
        if phase is GEAR:
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
        if self.phase is not OVER:
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
        if self.phase is OVER:
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
    if st.phase is MOVE:
        movement.step(st, direction)
        if st.phase is MOVE and st.moves_left == 0:
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
