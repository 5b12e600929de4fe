"""The playing field: 36 cards (ace to nine of four suits) in a 6x6 grid.

Squares are numbered 0..35 as `y * 6 + x` (x = column a-f left to right, y = row 1-6
bottom to top, as in chess), so `a1` is 0 and `f6` is 35. Cards are numbered 0..35 as
`(rank - 1) * 4 + suit`; ranks run 1 (ace) to 9, suits are the card suits s, h, d, c.
"""

from __future__ import annotations

from chaosgames.core.grid import ORTHOGONAL

SIZE = 6
SQUARES = SIZE * SIZE
COLUMNS = "abcdef"

RANK_NAMES = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9")
SUITS = ("suns", "moons", "crowns", "arms")
"""Players are named after their piecepack suit, in seat (turn) order."""

CARD_SUITS = "shdc"
CARD_SUIT_SYMBOLS = "♠♥♦♣"
NUM_CARDS = 36

LOWEST_FIXED_RANK = 6
"""Setup a) and the first flip rule: cards ranked 6 through 9 always remain face up."""


def square(x: int, y: int) -> int:
    return y * SIZE + x


def square_name(sq: int) -> str:
    return f"{COLUMNS[sq % SIZE]}{sq // SIZE + 1}"


SQUARE_NAMES: tuple[str, ...] = tuple(square_name(sq) for sq in range(SQUARES))
SQUARE_BY_NAME: dict[str, int] = {name: sq for sq, name in enumerate(SQUARE_NAMES)}


def card_rank(card: int) -> int:
    return card // 4 + 1


def card_name(card: int) -> str:
    return f"{RANK_NAMES[card // 4 + 1]}{CARD_SUITS[card % 4]}"


CARD_NAMES: tuple[str, ...] = tuple(card_name(c) for c in range(NUM_CARDS))
CARD_BY_NAME: dict[str, int] = {name.casefold(): c for c, name in enumerate(CARD_NAMES)}
RANK_OF: tuple[int, ...] = tuple(card_rank(c) for c in range(NUM_CARDS))


def card_label(card: int) -> str:
    """The card as players read it: rank and suit symbol (`A♥`, `7♣`)."""
    return f"{RANK_NAMES[RANK_OF[card]]}{CARD_SUIT_SYMBOLS[card % 4]}"


RANK_WORDS = ("", "ace", "2", "3", "4", "5", "6", "7", "8", "9")
SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs")


def card_words(card: int) -> str:
    """The card as a sentence says it: `the ace of hearts`, `the 7 of clubs`."""
    return f"the {RANK_WORDS[RANK_OF[card]]} of {SUIT_WORDS[card % 4]}"


def a_rank(rank: int) -> str:
    """`an ace`, `a 2`, `an 8`: a card of that rank, in a sentence."""
    return f"an {RANK_WORDS[rank]}" if rank in (1, 8) else f"a {RANK_WORDS[rank]}"


def _neighbours(sq: int) -> tuple[int, ...]:
    x, y = sq % SIZE, sq // SIZE
    found = []
    for dx, dy in ORTHOGONAL:
        nx, ny = x + dx, y + dy
        if 0 <= nx < SIZE and 0 <= ny < SIZE:
            found.append(square(nx, ny))
    return tuple(sorted(found))


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(sq) for sq in range(SQUARES))
"""Orthogonal neighbours of each square in square order (movement is one space, no
diagonals; moves are listed in square order)."""

DEAL_ORDER: tuple[int, ...] = tuple(square(x, y) for y in range(SIZE - 1, -1, -1) for x in range(SIZE))
"""Setup b): cards are laid out in reading order, top row (row 6) first, left to right."""

# Setup e) and figure 2: four quadrants of 3x3 cards, numbered clockwise as seen from
# above the table: north-west, north-east, south-east, south-west.
QUADRANT_NAMES = ("north-west", "north-east", "south-east", "south-west")


def _quadrant(sq: int) -> int:
    x, y = sq % SIZE, sq // SIZE
    if y >= 3:
        return 0 if x < 3 else 1
    return 2 if x >= 3 else 3


QUADRANT_OF: tuple[int, ...] = tuple(_quadrant(sq) for sq in range(SQUARES))
QUADRANT_SQUARES: tuple[tuple[int, ...], ...] = tuple(
    tuple(sq for sq in DEAL_ORDER if QUADRANT_OF[sq] == q) for q in range(4)
)

CENTRE: tuple[int, ...] = (square(2, 3), square(3, 3), square(2, 2), square(3, 2))
"""Setup c) and figure 1: the centre four squares c4, d4, c3, d3 (one per quadrant)."""

READING_RANK: tuple[int, ...] = tuple(DEAL_ORDER.index(sq) for sq in range(SQUARES))
"""Position of each square in reading order, for deterministic tie-breaks."""
