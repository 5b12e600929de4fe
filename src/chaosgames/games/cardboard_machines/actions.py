"""Actions and their notation.

Every action is a `Move(kind, arg)`; its text is `kind:arg`, or `kind` alone when there is
no argument. Spaces are named by their row on the table (1 = the back row of the back
board ... 12 = the front row of the front board) and their lane (a = leftmost ... f).

    first:2        chance: player 2 starts
    board:5        chance: board 5 is drawn for the next place of the track
    gear:4         change to gear 4 (gear:N with N the current gear = no change)
    move:left      step to the space in front on the left (also move:ahead, move:right)
    scroll         drive off the front edge: the back board is flipped and added in front
    stop           end the move early (1 stress per space not moved)
    ghost:11c      place a ghost on the new board (ghost:none declines)
    place:5a       put a crashed car on an edge space of the third board from the back
    return / keep  give back 1 stress before the stress test, or keep it
    roll:3         chance: a stress die shows 3 (1 blank, 2-3 left, 4-5 right, 6 malfunction)
    swerve:left    resolve a remaining swerve die (swerve:right)
    malfunction    resolve a remaining malfunction die
    buyoff:left    (option buy_off_swerve) take 1 stress to cancel a swerve die
"""

from __future__ import annotations

import re
from typing import NamedTuple

from chaosgames.games.cardboard_machines.boards import LANES

COLUMN_LETTERS = "abcdef"


class Move(NamedTuple):
    """One action of Cardboard Machines (see the module docstring for the notation)."""

    kind: str
    arg: str = ""

    def __str__(self) -> str:
        return f"{self.kind}:{self.arg}" if self.arg else self.kind


SCROLL = Move("scroll")
STOP = Move("stop")
RETURN = Move("return")
KEEP = Move("keep")
MALFUNCTION = Move("malfunction")
GHOST_NONE = Move("ghost", "none")


def space_name(table_row: int, col: int) -> str:
    """'7c' for table row index 6 (0-based), lane 2."""
    return f"{table_row + 1}{COLUMN_LETTERS[col]}"


NOTATION = re.compile(
    r"^(?:first:\d+|board:\d+|gear:\d+|move:(?:left|ahead|right)|scroll|stop|return|keep|malfunction"
    r"|ghost:(?:none|\d+[a-f])|place:\d+[a-f]|roll:\d+|swerve:(?:left|right)|buyoff:(?:left|right))$"
)

ACCEPTED = (
    "first:N, board:N, gear:N, move:left|ahead|right, scroll, stop, ghost:<space>|ghost:none, "
    "place:<space>, return, keep, roll:N, swerve:left|right, malfunction, buyoff:left|right "
    f"(a space is a table row 1-12 and a lane a-{COLUMN_LETTERS[LANES - 1]}, e.g. 7c)"
)


def well_formed(text: str) -> bool:
    return NOTATION.match(text) is not None
