"""Actions and their notation.

Every action is a `MachineAction(kind, arg)`: what is done and one whole number saying
with what.
Its text is `kind:arg`, or `kind` alone when there is no argument; the rules hand out the
actions of the tables below (one object per action: see `MachineAction`). Spaces are named by
their row on the table (1 = the back row of the back board ... 12 = the front row of the
front board) and their lane (a = leftmost ... f); the action holds the table space
`(row - 1) * 6 + lane`, so it reads the same wherever the track has scrolled to.

    first:2        chance: player 2 starts                          arg: the player (0-based)
    board:5        chance: board 5 is drawn for the next place      arg: the board
    gear:4         change to gear 4 (gear:N with N the current gear = no change)
    move:left      step to the space in front on the left (also move:ahead, move:right)
                                                                    arg: -1, 0 or 1
    scroll         drive off the front edge: the back board is flipped and added in front
    stop           end the move early (1 stress per space not moved)
    ghost:11c      place a ghost on the new board (ghost:none declines: arg NO_GHOST)
    place:5a       put a crashed car on an edge space of the third board from the back
    return / keep  give back 1 stress before the stress test, or keep it
    roll:3         chance: a stress die shows 3 (1 blank, 2-3 left, 4-5 right, 6 malfunction)
    swerve:left    resolve a remaining swerve die (swerve:right)    arg: LEFT or RIGHT
    malfunction    resolve a remaining malfunction die
    buyoff:left    (option buy_off_swerve) take 1 stress to cancel a swerve die
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from chaosgames.core.notation import Form, Notation
from chaosgames.games.cardboard_machines.boards import LANES, TABLE_ROWS
from chaosgames.games.cardboard_machines.phases import LEFT, RIGHT

COLUMN_LETTERS = "abcdef"
TABLE_SPACES = TABLE_ROWS * LANES
NO_GHOST = -1
"""The argument of `ghost:none`."""
DIRECTIONS = {-1: "left", 0: "ahead", 1: "right"}
"""A step's direction (the sign of its lateral shift) by its name in `move:` notation."""
SWERVE_SIDES = {LEFT: "left", RIGHT: "right"}
"""A swerve die's side by its name in `swerve:` and `buyoff:` notation."""


class Kind(Enum):
    """What an action does; its value is the notation before the colon (a kind is never
    compared with text: `str(action)` is the notation)."""

    FIRST = "first"
    BOARD = "board"
    GEAR = "gear"
    MOVE = "move"
    SCROLL = "scroll"
    STOP = "stop"
    GHOST = "ghost"
    PLACE = "place"
    RETURN = "return"
    KEEP = "keep"
    ROLL = "roll"
    SWERVE = "swerve"
    MALFUNCTION = "malfunction"
    BUYOFF = "buyoff"

    # The rules look up what a kind does at every action: a member is its own only
    # instance, so its identity hashes it (Enum's own hash is a call into Python).
    __hash__ = object.__hash__


def space_name(table_space: int) -> str:
    """'7c' for table space 38 (table row 7, lane c)."""
    row, lane = divmod(table_space, LANES)
    return f"{row + 1}{COLUMN_LETTERS[lane]}"


def _argument(kind: Kind, arg: int) -> str:
    if kind is Kind.MOVE:
        return DIRECTIONS[arg]
    if kind is Kind.SWERVE or kind is Kind.BUYOFF:
        return SWERVE_SIDES[arg]
    if kind is Kind.PLACE or kind is Kind.GHOST:
        return "none" if arg == NO_GHOST else space_name(arg)
    if kind is Kind.FIRST:
        return str(arg + 1)
    return str(arg)


_BARE = frozenset({Kind.SCROLL, Kind.STOP, Kind.RETURN, Kind.KEEP, Kind.MALFUNCTION})


@dataclass(frozen=True, slots=True)
class MachineAction:
    """One action of Cardboard Machines (see the module docstring); `str()` is its notation.

    The rules hand out the prebuilt Moves of this module's tables, so a search keys its
    tree by the same few hundred objects: their hash is made once (`_hash`)."""

    kind: Kind
    """What is done."""
    arg: int = 0
    """With what: the player (0-based) of `first`, the board of `board`, the gear of `gear`,
    the direction -1/0/1 (left/ahead/right) of `move`, the table space `(row - 1) * 6 + lane`
    of `ghost` and `place` (NO_GHOST for `ghost:none`), the face 1-6 of `roll`, the die
    LEFT/RIGHT of `swerve` and `buyoff`; 0 for the kinds without an argument."""
    _hash: int = field(init=False, repr=False, compare=False)
    """`hash((kind, arg))`, made once (see above)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.kind, self.arg)))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[MachineAction], tuple[Kind, int]]:
        # Made again where it is unpickled or copied: the hash is this process's own.
        return MachineAction, (self.kind, self.arg)

    def __str__(self) -> str:
        kind = self.kind
        if kind in _BARE:
            return kind.value
        return f"{kind.value}:{self.argument()}"

    def argument(self) -> str:
        """The argument as the notation writes it: 'left', '7c', 'none', '3' ..."""
        return _argument(self.kind, self.arg)


SCROLL = MachineAction(Kind.SCROLL)
STOP = MachineAction(Kind.STOP)
RETURN = MachineAction(Kind.RETURN)
KEEP = MachineAction(Kind.KEEP)
MALFUNCTION = MachineAction(Kind.MALFUNCTION)
GHOST_NONE = MachineAction(Kind.GHOST, NO_GHOST)
GEARS = tuple(MachineAction(Kind.GEAR, g) for g in range(1, 7))
"""`gear:1` ... `gear:6`, in the order they are offered."""
STEPS = {d: MachineAction(Kind.MOVE, d) for d in DIRECTIONS}
SWERVES = {side: MachineAction(Kind.SWERVE, side) for side in SWERVE_SIDES}
BUYOFFS = {side: MachineAction(Kind.BUYOFF, side) for side in SWERVE_SIDES}
PLACES = tuple(MachineAction(Kind.PLACE, t) for t in range(TABLE_SPACES))
GHOSTS = tuple(MachineAction(Kind.GHOST, t) for t in range(TABLE_SPACES))
ROLLS = tuple(MachineAction(Kind.ROLL, face) for face in range(1, 7))

NOTATION = Notation(
    Form("first:1", r"first:[0-9]+", chance=True),
    Form("board:5", r"board:[0-9]+", chance=True),
    Form("gear:3", r"gear:[0-9]+"),
    Form("move:left|ahead|right", r"move:(?:left|ahead|right)"),
    Form("scroll", r"scroll"),
    Form("stop", r"stop"),
    Form("ghost:11c|none", r"ghost:(?:none|[0-9]+[a-f])"),
    Form("place:5a", r"place:[0-9]+[a-f]"),
    Form("return", r"return"),
    Form("keep", r"keep"),
    Form("roll:3", r"roll:[0-9]+", chance=True),
    Form("swerve:left|right", r"swerve:(?:left|right)"),
    Form("malfunction", r"malfunction"),
    Form("buyoff:left|right", r"buyoff:(?:left|right)"),
)
"""Spaces are a table row 1-12 and a lane a-f, e.g. `7c`."""
