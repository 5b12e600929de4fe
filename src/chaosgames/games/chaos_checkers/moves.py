"""Moves of plain American checkers: whole moves (multi-jumps included) as one action.

A move is written in the standard notation: the squares it visits joined by '-' for a
step (`11-15`) or by 'x' for a capture (`22x15`, `15x22x29`). Every possible step is
made once at import; capture moves are interned by path, so the same move is always the
same object (the legality check is an identity hit on the cached legal list).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from chaosgames.games.chaos_checkers.board import DIRECTIONS, NEIGHBOUR, RAY2


@dataclass(frozen=True, slots=True)
class PlainMove:
    """A whole move of plain checkers (`chaos=False`): `11-15`, `22x15`, `15x22x29`.

    Only this module makes them, once each (see the module docstring), so a search keys
    its tree by the same few hundred objects: their hash is made once (`_hash`)."""

    path: tuple[int, ...]
    """The squares (0-31) the piece visits, its start first."""
    captured: int
    """The squares captured, a 32-bit bitboard (0 for a step)."""
    src: int
    """Bit of the starting square."""
    dst: int
    """Bit of the final square."""
    _hash: int = field(init=False, repr=False, compare=False)
    """`hash((path, captured, src, dst))`, made once (see above); the hash the move had as
    a tuple, so sets of moves iterate as they did."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.path, self.captured, self.src, self.dst)))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[PlainMove], tuple[tuple[int, ...], int, int, int]]:
        # Made again where it is unpickled or copied: the hash is never carried over.
        return PlainMove, (self.path, self.captured, self.src, self.dst)

    def __str__(self) -> str:
        return ("x" if self.captured else "-").join(str(i + 1) for i in self.path)


_JUMPS: dict[tuple[int, ...], PlainMove] = {}


def jump_move(path: tuple[int, ...]) -> PlainMove:
    """The (interned) capture move along `path`, whose steps each jump one square."""
    move = _JUMPS.get(path)
    if move is None:
        captured = 0
        for a, b in itertools.pairwise(path):
            over = _OVER[a].get(b)
            if over is None:
                raise ValueError(f"{a + 1} to {b + 1} is not a jump")
            captured |= 1 << over
        move = PlainMove(path, captured, 1 << path[0], 1 << path[-1])
        _JUMPS[path] = move
    return move


# _OVER[a][b]: the square jumped when jumping from a to b.
_OVER: tuple[dict[int, int], ...] = tuple(
    {RAY2[a][d]: NEIGHBOUR[a][d] for d in range(4) if RAY2[a][d] >= 0} for a in range(32)
)

STEP: dict[tuple[int, int], PlainMove] = {
    (a, NEIGHBOUR[a][d]): PlainMove((a, NEIGHBOUR[a][d]), 0, 1 << a, 1 << NEIGHBOUR[a][d])
    for a in range(32)
    for d in range(len(DIRECTIONS))
    if NEIGHBOUR[a][d] >= 0
}
"""Every one-square step, by (from, to)."""


def _shift_masks(direction: int) -> tuple[tuple[int, int], ...]:
    """(shift, source mask) pairs that move every square one step in `direction`."""
    masks: dict[int, int] = {}
    for a in range(32):
        b = NEIGHBOUR[a][direction]
        if b >= 0:
            masks[b - a] = masks.get(b - a, 0) | (1 << a)
    return tuple(sorted(masks.items()))


SHIFTS: tuple[tuple[tuple[int, int], ...], ...] = tuple(_shift_masks(d) for d in range(4))

STEP_BY_DST: tuple[dict[int, PlainMove], ...] = tuple(
    {1 << NEIGHBOUR[a][d]: STEP[(a, NEIGHBOUR[a][d])] for a in range(32) if NEIGHBOUR[a][d] >= 0}
    for d in range(4)
)
"""STEP_BY_DST[d][bit of destination]: the step in direction d ending there."""

JUMP_TABLE: tuple[tuple[tuple[tuple[int, int, int], ...], ...], ...] = tuple(
    tuple(
        tuple((1 << NEIGHBOUR[a][d], RAY2[a][d], 1 << RAY2[a][d]) for d in dirs if RAY2[a][d] >= 0)
        for a in range(32)
    )
    for dirs in ((0, 1), (2, 3), (0, 1, 2, 3))
)
"""JUMP_TABLE[kind][square]: (bit jumped, landing index, landing bit); kind 0 = men of
player 0 (down), 1 = men of player 1 (up), 2 = kings (all four)."""
