"""What a game of Chaos Checkers waits for: its phases (see state.py's docstring).

A draw names the phase it is made in (`SetupDraw.kind`, `Draw.kind`), so the phases live
here, where the actions can name them.
"""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """What the game waits for; the value is the phase's name in state documents and in
    the notation of the draws made in it."""

    PLACE = "place"
    SHIELD = "shield"
    POTION = "potion"
    TURN = "turn"
    MOVE = "move"
    DEFEND = "defend"
    DRAW_SHIELD = "draw-shield"
    KEEP_SHIELD = "keep-shield"
    DRAW_POTION = "draw-potion"
    KEEP_POTION = "keep-potion"
    OVER = "over"


# The phases as module names: reading a member through the Enum class costs several times
# as much, and the phase is compared at every action.
PLACE, SHIELD, POTION, TURN, MOVE, DEFEND = (
    Phase.PLACE,
    Phase.SHIELD,
    Phase.POTION,
    Phase.TURN,
    Phase.MOVE,
    Phase.DEFEND,
)
DRAW_SHIELD, KEEP_SHIELD, DRAW_POTION, KEEP_POTION, OVER = (
    Phase.DRAW_SHIELD,
    Phase.KEEP_SHIELD,
    Phase.DRAW_POTION,
    Phase.KEEP_POTION,
    Phase.OVER,
)
SETUP_PHASES = (PLACE, SHIELD, POTION)
PHASES = tuple(Phase)
DRAW_PHASES = (DRAW_SHIELD, DRAW_POTION)
KEEP_PHASES = (KEEP_SHIELD, KEEP_POTION)
REWARD_PHASES = (*DRAW_PHASES, *KEEP_PHASES)
