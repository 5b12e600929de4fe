"""The checkerboard: the 32 dark squares in standard 1-32 numbering, and move tables.

Square numbers follow the standard American checkers diagram: the first player (the
one who moves first, "Black" in the books) starts on squares 1-12 at the top and moves
down the board towards 29-32; the second player starts on 21-32 and moves up. Row 0 is
the top row (squares 1-4); on even rows the dark squares are columns 1, 3, 5, 7, on odd
rows columns 0, 2, 4, 6. Internally square `n` is index `n - 1` and bit `1 << (n - 1)`
of a 32-bit bitboard.
"""

from __future__ import annotations

SQUARES = 32
FULL = (1 << SQUARES) - 1

# Directions as (row step, column step); men of player 0 use the first two, men of
# player 1 the last two, kings all four.
DOWN_LEFT, DOWN_RIGHT, UP_LEFT, UP_RIGHT = 0, 1, 2, 3
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, -1), (1, 1), (-1, -1), (-1, 1))
FORWARD: tuple[tuple[int, ...], tuple[int, ...]] = ((DOWN_LEFT, DOWN_RIGHT), (UP_LEFT, UP_RIGHT))
ALL_DIRECTIONS = (DOWN_LEFT, DOWN_RIGHT, UP_LEFT, UP_RIGHT)


def row_col(index: int) -> tuple[int, int]:
    """Row (0 = top) and column (0 = left) of square index `index` (square index + 1)."""
    row, k = divmod(index, 4)
    return row, 2 * k + (1 if row % 2 == 0 else 0)


def index_at(row: int, col: int) -> int:
    """The square index at (row, col), or -1 off the board or on a light square."""
    if not (0 <= row < 8 and 0 <= col < 8) or (row + col) % 2 == 0:
        return -1
    return row * 4 + col // 2


def _ray(index: int, direction: int, steps: int) -> int:
    row, col = row_col(index)
    dr, dc = DIRECTIONS[direction]
    return index_at(row + dr * steps, col + dc * steps)


# NEIGHBOUR[i][d]: the square one diagonal step away (-1 off board); RAY2/RAY3 likewise.
NEIGHBOUR: tuple[tuple[int, ...], ...] = tuple(tuple(_ray(i, d, 1) for d in range(4)) for i in range(32))
RAY2: tuple[tuple[int, ...], ...] = tuple(tuple(_ray(i, d, 2) for d in range(4)) for i in range(32))
RAY3: tuple[tuple[int, ...], ...] = tuple(tuple(_ray(i, d, 3) for d in range(4)) for i in range(32))

# The far row where each player's men are crowned, and each player's home row.
CROWN_ROW = (0xF << 28, 0xF)
HOME_ROW: tuple[tuple[int, ...], tuple[int, ...]] = ((0, 1, 2, 3), (28, 29, 30, 31))
START = (0xFFF, 0xFFF << 20)

# The squares of each byte of a bitboard, by byte position (square indices).
_SQUARES_OF_BYTE: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(8 * k + i for i in range(8) if b >> i & 1) for b in range(256)) for k in range(4)
)
_B0, _B1, _B2, _B3 = _SQUARES_OF_BYTE


_SQUARES_MEMO: dict[int, tuple[int, ...]] = {}
"""squares_of's answers: a chaos listing asks for the squares of the same few sets of pieces
(the player's, those that can capture, those with Ambush or Leap) again and again; in
random games four in five are found here. Emptied when full (it holds only answers)."""
_SQUARES_MEMO_LIMIT = 1 << 15


def squares_of(bits: int) -> tuple[int, ...]:
    """The square indices of a bitboard, lowest first (four table look-ups, no loop)."""
    found = _SQUARES_MEMO.get(bits)
    if found is None:
        if len(_SQUARES_MEMO) >= _SQUARES_MEMO_LIMIT:
            _SQUARES_MEMO.clear()
        found = _SQUARES_MEMO[bits] = (
            _B0[bits & 255] + _B1[bits >> 8 & 255] + _B2[bits >> 16 & 255] + _B3[bits >> 24]
        )
    return found
