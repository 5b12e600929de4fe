"""Names shared by the rule modules: the phases of a turn and a few markers."""

from __future__ import annotations

from enum import Enum

from chaosgames.core.constants import CHANCE, TERMINAL

MOVER = -3
"""`Phase.decider` of the phases where the player taking her turn decides."""


class Phase(Enum):
    """Where the game stands: setup's chance nodes, then the rulebook's turn (change gear,
    move, test for stress) with the malfunction's bonus move, and the end.

    Each phase carries its `label` (as state documents write it) and its `decider` (CHANCE,
    MOVER or TERMINAL: who acts when no crashed car or ghost is waiting), which the state
    asks at every action; the rules compare phases by identity (`is`)."""

    FIRST = ("first", CHANCE)
    """Chance: the starting player."""
    BOARDS = ("boards", CHANCE)
    """Chance: the boards of the track, one draw each."""
    GEAR = ("gear", MOVER)
    MOVE = ("move", MOVER)
    BONUS = ("bonus", MOVER)
    """A malfunction's bonus move: one space forward."""
    RETURN_STRESS = ("return", MOVER)
    """Before the stress dice: return 1 stress, or keep it."""
    ROLL = ("roll", CHANCE)
    """Chance: the stress dice, one at a time."""
    RESOLVE = ("resolve", MOVER)
    """The remaining stress dice, in the order the player chooses."""
    TURN_OVER = ("turn_over", MOVER)
    """The turn is over once crashed cars are placed."""
    OVER = ("over", TERMINAL)

    def __init__(self, label: str, decider: int) -> None:
        self.label = label
        self.decider = decider


FIRST, BOARDS, GEAR, MOVE, BONUS, RETURN_STRESS, ROLL, RESOLVE, TURN_OVER, OVER = Phase
"""The phases by their short names, for the rules that test them at every action."""
PHASE_NAMES = tuple(phase.label for phase in Phase)
"""The labels in the order of the phases (the research encoding's one-hot order)."""
OFF = -1
"""Position of a car that is not on the track (crashed and waiting, or out of the race)."""
LEFT, RIGHT, MALF = 0, 1, 2
"""Indices of the remaining stress dice after blanks and pairs are removed."""
GHOST_SUPPLY = 10
"""The box holds 10 ghost miniatures."""
