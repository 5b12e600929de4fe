"""Setup: the shuffle (b), the starting squares (c), the flags (d) and their placement (e).

Flags are numbered by their place in the race: index 0 is the first flag to touch and
index `flags - 1` is the highest flag, which lies under the starting pawn and is touched
last. Face values: ace .. N for N <= 5 flags, null .. 5 for six flags.
"""

from __future__ import annotations

from functools import cache

from chaosgames.games.royal_racers.actions import DIE_FACES
from chaosgames.games.royal_racers.board import CENTRE, NUM_CARDS, QUADRANT_SQUARES


def flag_face(flags: int, index: int) -> int:
    """The number on the tile (0 = null): consecutive, highest under the start."""
    first = 1 if flags <= 5 else 0
    return first + index


def flag_face_name(flags: int, index: int) -> str:
    return DIE_FACES[flag_face(flags, index)]  # tiles and dice carry the same six faces


def remaining_cards(where: list[int]) -> list[int]:
    """Cards of the 36-card deck not yet laid out (the shuffle draws uniformly from these),
    given the square of each card (-1: still in the deck)."""
    return [card for card in range(NUM_CARDS) if where[card] < 0]


def free_centre_squares(pawns: list[int]) -> list[int]:
    """Setup c): centre squares nobody has chosen yet (only one pawn per space)."""
    return [sq for sq in CENTRE if sq not in pawns]


def race_starter(race: int, players: int) -> int:
    """Player 1 starts the first race; each later race of a campaign starts one seat later."""
    return race % players


def passer_of(placer: int, players: int) -> int:
    """Setup d): whose flags `placer` places: flags are passed to the player on the
    owner's left (the next seat), so they come from the player on the placer's right."""
    return (placer - 1) % players


@cache
def placement_order(players: int, flags: int, starter: int) -> tuple[tuple[int, int, int], ...]:
    """Setup e): every placement as (placer, owner, flag index), in order.

    Flags are placed lowest first; for each flag number every player in turn places that
    flag for the player on his right; who places first moves one seat on with each number.
    """
    order = []
    for index in range(flags - 1):
        first = (starter + index) % players
        for seat in range(players):
            placer = (first + seat) % players
            order.append((placer, passer_of(placer, players), index))
    return tuple(order)


def placement_quadrant(start_quadrant: int, index: int) -> int:
    """Setup e): the first flag goes in the owner's quadrant, each next one clockwise on."""
    return (start_quadrant + index) % 4


def placement_squares(quadrant: int, flag_at: list[int]) -> list[int]:
    """Cards of the quadrant that carry no flag yet (one flag per card)."""
    return [sq for sq in QUADRANT_SQUARES[quadrant] if flag_at[sq] < 0]
