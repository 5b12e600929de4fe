"""Names shared by the rule modules: the phases of a turn and a few markers."""

from __future__ import annotations

from enum import IntEnum


class Phase(IntEnum):
    """Where the game stands: setup's chance nodes, then the rulebook's turn (change gear,
    move, test for stress) with the malfunction's bonus move, and the end."""

    FIRST = 0
    """Chance: the starting player."""
    BOARDS = 1
    """Chance: the boards of the track, one draw each."""
    GEAR = 2
    MOVE = 3
    BONUS = 4
    """A malfunction's bonus move: one space forward."""
    RETURN_STRESS = 5
    """Before the stress dice: return 1 stress, or keep it."""
    ROLL = 6
    """Chance: the stress dice, one at a time."""
    RESOLVE = 7
    """The remaining stress dice, in the order the player chooses."""
    TURN_OVER = 8
    """The turn is over once crashed cars are placed."""
    OVER = 9

    @property
    def label(self) -> str:
        """The phase as state documents write it ("return", "turn_over" ...)."""
        return PHASE_NAMES[self]


FIRST, BOARDS, GEAR, MOVE, BONUS, RETURN_STRESS, ROLL, RESOLVE, TURN_OVER, OVER = map(int, Phase)
"""The phases as plain ints, which states hold: the rules compare and index by the phase at
every action, and the interpreter's fast paths take exact ints only (an IntEnum member
goes the generic way, about 3% of a search's instructions)."""
PHASE_NAMES = ("first", "boards", "gear", "move", "bonus", "return", "roll", "resolve", "turn_over", "over")
OFF = -1
"""Position of a car that is not on the track (crashed and waiting, or out of the race)."""
LEFT, RIGHT, MALF = 0, 1, 2
"""Indices of the remaining stress dice after blanks and pairs are removed."""
GHOST_SUPPLY = 10
"""The box holds 10 ghost miniatures."""
