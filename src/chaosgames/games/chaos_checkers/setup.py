"""Setup (rulebook "Setup"): pieces at random, then shields, then potions, in a fixed order.

"Each player picks 3 colors ... takes four of the 3-pip pieces of each color and sets
those pieces on the board at random on their side of the board in the standard checkers
setup ... Each player takes all 2-pip pieces of their colors and places them in to a
small bag and gives it to their opponent. Both players take all of the 1-pip pieces ...
and puts them in to a single dice pouch." Shields are then drawn "starting with the piece
furthest away and to the left and working across each row", and the players "take turns
drawing a 1-pip piece from the shared bag" for the potions, in the same order.

Each setup phase is 24 chance draws, one per piece; `setup_slot` says whose piece and
which square draw number k covers.
"""

from __future__ import annotations

from chaosgames.games.chaos_checkers.colours import TEN, TRIOS_PER_COLOUR
from chaosgames.games.chaos_checkers.phases import POTION, Phase

Counts = tuple[int, ...]
"""How many pyramids of each colour (indexed by colour code) a bag, pouch or pile holds."""

PIECES_PER_COLOUR = 4
"""Four 3-pips of each of a player's three colours start on the board (twelve pieces)."""
DRAWS_PER_PHASE = 24
"""One draw per piece on the board: the place, shield and potion phases each make 24."""
# The first player sits at the top, so its far left is square 12; the second player's
# far left is square 21.
SETUP_ORDER: tuple[tuple[int, ...], tuple[int, ...]] = (tuple(range(11, -1, -1)), tuple(range(20, 32)))
START_SQUARES = frozenset(SETUP_ORDER[0] + SETUP_ORDER[1])
"""The squares of the standard checkers setup, where the pieces are placed."""


def setup_slot(phase: Phase, k: int) -> tuple[int, int]:
    """(player, square) of setup draw number `k` (0-23) of setup phase `phase`."""
    if phase is POTION:
        # The players take turns drawing potions, each covering its pieces in order.
        player, k = k % 2, k // 2
    else:
        player, k = divmod(k, 12)
    return player, SETUP_ORDER[player][k]


def shield_bag(opponent_colours: tuple[int, int, int]) -> Counts:
    """A player's shield bag before setup: the opponent's 2-pips, five of each colour."""
    bag = [0] * TEN
    for c in opponent_colours:
        bag[c] = TRIOS_PER_COLOUR
    return tuple(bag)
