"""Actions and their notation. Squares are written `x,y` (x to the right, y up).

start:4,1      setup: put the deciding cruiser on square (4, 1) of the sun gate tile
lead:blue      chance: blue wins a tie for the next place in the playing order (rule 4)
speed:+1  speed:-1  speed:=      adjust speed by one, or keep it
nitro:3  brake:4                 play a speed coin (nitro-boost / shock-brake), then discard it
move:N3  move:N2E1               move exactly `speed` squares: a leg, then at most one
                                 90-degree turn (N, E, S, W)
reenter:8,1    out of bounds: the cruiser's player puts it back on that gate-tile square
lift:6,2       chaos round: pick up the tile whose lower-left square is (6, 2)
lay:6,-2       chaos round: put the lifted tile with its lower-left square at (6, -2)
stop           chaos round: move no more tiles
obstacle:3,4   chaos round: put an obstacle coin on square (3, 4)
no-obstacle    chaos round: keep the coin (only when no square is allowed)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, TypeAlias

from chaosgames.core.grid import Square
from chaosgames.core.notation import Form, Notation

COLOURS: tuple[str, ...] = ("red", "black", "yellow", "blue")
"""Cruiser colours, in the order of the race progress chart."""

DIRECTIONS: tuple[tuple[str, int, int], ...] = (("N", 0, 1), ("E", 1, 0), ("S", 0, -1), ("W", -1, 0))

MAX_SPEED = 5
"""The highest speed; null (0) is the lowest."""


@dataclass(frozen=True, slots=True)
class Word:
    """An action that is one word, such as `stop`."""

    word: ClassVar[str] = ""
    """The action's notation: its kind's word (each kind sets its own)."""

    def __str__(self) -> str:
        return self.word


@dataclass(frozen=True, slots=True)
class OnSquare:
    """An action that names one square: `word:x,y`. Each kind below is its own type
    (a start is never equal to a re-entry on the same square)."""

    square: Square
    """The square (x, y), x to the right and y up; a tile is named by its lower-left square."""
    word: ClassVar[str] = ""
    """The word before the square in the notation (each kind sets its own)."""

    def __str__(self) -> str:
        return f"{self.word}:{self.square[0]},{self.square[1]}"


class Start(OnSquare):
    """Setup: place the deciding cruiser on a square of the sun gate tile."""

    __slots__ = ()
    word = "start"


@dataclass(frozen=True, slots=True)
class Lead:
    """Chance: the cruiser that takes the next place in the playing order among the tied."""

    cruiser: int
    """The cruiser by colour: 0 red, 1 black, 2 yellow, 3 blue (COLOURS)."""

    def __str__(self) -> str:
        return f"lead:{COLOURS[self.cruiser]}"


@dataclass(frozen=True, slots=True)
class Speed:
    """Speed adjustment: change +1, -1 or 0 (`coin` 0), or play speed coin `coin` (2-5)."""

    change: int
    """The change of speed: +1 or -1, 0 to keep it; a coin's sign (+1 nitro-boost, -1
    shock-brake)."""
    coin: int = 0
    """The speed coin played (2-5), 0 for none."""
    after: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """The speed this choice leaves from each speed 0-5, held between null and 5 as the
    rulebook says (`movement.adjusted_speed`); made once, as search reads it at every
    speed choice (the rules hand out the prebuilt choices of movement's tables)."""
    _hash: int = field(init=False, repr=False, compare=False)
    """`hash((change, coin))`, the hash a dataclass makes, made once (search keys its
    tree by these objects)."""

    def __post_init__(self) -> None:
        try:
            delta = self.change * (self.coin or 1)
            after = tuple(max(0, min(MAX_SPEED, speed + delta)) for speed in range(MAX_SPEED + 1))
        except Exception:  # not numbers: made from bad input, refused before it is played
            after = ()
        object.__setattr__(self, "after", after)
        object.__setattr__(self, "_hash", hash((self.change, self.coin)))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[Speed], tuple[int, int]]:
        # Made again where it is unpickled or copied: the hash is this process's own.
        return Speed, (self.change, self.coin)

    def __str__(self) -> str:
        if self.coin:
            return f"{'nitro' if self.change > 0 else 'brake'}:{self.coin}"
        return {1: "speed:+1", -1: "speed:-1", 0: "speed:="}[self.change]


@dataclass(frozen=True, slots=True)
class Move:
    """Movement: `first` squares in direction `d1`, then `second` squares in direction `d2`
    (a 90-degree turn; `second` 0 and `d2` -1 for a straight move). Directions index NESW."""

    d1: int
    """The first leg's direction: an index of DIRECTIONS (0 N, 1 E, 2 S, 3 W)."""
    first: int
    """The first leg's squares (1-5)."""
    d2: int = -1
    """The direction after the 90-degree turn, -1 for a straight move."""
    second: int = 0
    """The squares after the turn, 0 for a straight move."""
    path: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False)
    """The unit steps in order (`steps()`), made once: search walks them at every move
    (the rules hand out the prebuilt paths of movement's tables)."""
    _hash: int = field(init=False, repr=False, compare=False)
    """`hash((d1, first, d2, second))`, the hash a dataclass makes, made once."""

    def __post_init__(self) -> None:
        try:
            path = tuple(self.steps()) if 0 <= self.first + self.second <= MAX_SPEED else ()
        except Exception:  # no such direction, or not numbers: made from bad input, refused
            path = ()  # before it is played
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "_hash", hash((self.d1, self.first, self.d2, self.second)))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[Move], tuple[int, int, int, int]]:
        # Made again where it is unpickled or copied: the hash is this process's own.
        return Move, (self.d1, self.first, self.d2, self.second)

    def __str__(self) -> str:
        text = f"move:{DIRECTIONS[self.d1][0]}{self.first}"
        if self.second:
            text += f"{DIRECTIONS[self.d2][0]}{self.second}"
        return text

    def steps(self) -> list[tuple[int, int]]:
        """The unit steps in order."""
        _, dx, dy = DIRECTIONS[self.d1]
        out = [(dx, dy)] * self.first
        if self.second:
            _, dx, dy = DIRECTIONS[self.d2]
            out += [(dx, dy)] * self.second
        return out


class Reenter(OnSquare):
    """Out of bounds: the square of the gate tile the cruiser is put back on."""

    __slots__ = ()
    word = "reenter"


class Lift(OnSquare):
    """Chaos round: pick up a tile (given by its lower-left square)."""

    __slots__ = ()
    word = "lift"


class Lay(OnSquare):
    """Chaos round: put the lifted tile down (given by its lower-left square)."""

    __slots__ = ()
    word = "lay"


class StopRelocating(Word):
    """Chaos round: the last player moves no more tiles."""

    __slots__ = ()
    word = "stop"


class Obstacle(OnSquare):
    """Chaos round: put an obstacle coin (null or ace) on a square."""

    __slots__ = ()
    word = "obstacle"


class KeepObstacle(Word):
    """Chaos round: no square may take the obstacle, so the player keeps it."""

    __slots__ = ()
    word = "no-obstacle"


CruisersAction: TypeAlias = (
    Start | Lead | Speed | Move | Reenter | Lift | Lay | StopRelocating | Obstacle | KeepObstacle
)
"""Every action of Chaos Cruisers, the tie-breaking chance outcome (Lead) included."""

_XY = r"-?[0-9]{1,6},-?[0-9]{1,6}"


def normalise(text: str) -> str:
    """Spaces dropped; the word lower-case, move directions upper-case."""
    text = "".join(text.split())
    head, sep, tail = text.partition(":")
    head = head.lower()
    tail = tail.upper() if head == "move" else tail.lower()
    return head + sep + tail


NOTATION = Notation(
    Form("start:x,y", rf"start:{_XY}"),
    Form("lead:colour", r"lead:(red|black|yellow|blue)", chance=True),
    Form("speed:+1, speed:-1, speed:=", r"speed:(\+1|-1|=)"),
    Form("nitro:N, brake:N", r"(nitro|brake):[2-5]"),
    Form("move:N3, move:N2E1", r"move:[NESW][1-5]([NESW][1-4])?"),
    Form("reenter:x,y", rf"reenter:{_XY}"),
    Form("lift:x,y", rf"lift:{_XY}"),
    Form("lay:x,y", rf"lay:{_XY}"),
    Form("stop", r"stop"),
    Form("obstacle:x,y", rf"obstacle:{_XY}"),
    Form("no-obstacle", r"no-obstacle"),
    normalise=normalise,
)
"""Every well-formed action text (after `normalise`); Game.parse_action reads it."""
