"""Setup (rulebook "Setup"): pieces at random, then shields, then potions, in a fixed order.

"Each player picks 3 colors ... takes four of the 3-pip pieces of each color and sets
those pieces on the board at random on their side of the board in the standard checkers
setup ... Each player takes all 2-pip pieces of their colors and places them in to a
small bag and gives it to their opponent. Both players take all of the 1-pip pieces ...
and puts them in to a single dice pouch." Shields are then drawn "starting with the piece
furthest away and to the left and working across each row", and the players "take turns
drawing a 1-pip piece from the shared bag" for the potions, in the same order.

Each setup phase is 24 chance draws, one per piece; `setup_slot` says whose piece and
which square draw number k covers. `setup_odds` gives a draw's outcomes, `setup_draw`
plays one.
"""

from __future__ import annotations

from typing import Any

from chaosgames.core.chance import weighted
from chaosgames.games.chaos_checkers.actions import SETUP_DRAWS, ChaosAction, SetupDraw
from chaosgames.games.chaos_checkers.chaos_position import (
    CLEAR_GHOST,
    PIECES,
    POWERS,
    ChaosPosition,
    added,
    from_bag,
    piece_of,
    taken,
)
from chaosgames.games.chaos_checkers.colours import TEN, TRIOS_PER_COLOUR, Counts
from chaosgames.games.chaos_checkers.phases import PLACE, POTION, SETUP_PHASES, SHIELD, TURN, Phase

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


_SLOTS = {phase: tuple(setup_slot(phase, k) for k in range(DRAWS_PER_PHASE)) for phase in SETUP_PHASES}
"""setup_slot(phase, k), made once."""
_PLACE_DRAWS, _SHIELD_DRAWS, _POTION_DRAWS = SETUP_DRAWS[PLACE], SETUP_DRAWS[SHIELD], SETUP_DRAWS[POTION]
Odds = tuple[list[tuple[ChaosAction, float]], list[ChaosAction]]
"""A draw's outcomes with their probabilities, and the outcomes alone (the legal actions)."""
_PLACE_ODDS: dict[tuple[Any, ...], Odds] = {}
"""The odds of a setup placement by (square, the player's colours, how many of each are
placed): a few thousand at most, met again in every game. The lists are shared, never
changed (`chance_outcomes` hands out copies)."""
_SHIELD_ODDS: dict[tuple[int, Counts], Odds] = {}
"""The odds of a setup shield draw by (square, shield bag); a bag holds the opponent's
three colours before play, five of each: at most 216 bags a colour set."""


def with_outcomes(odds: list[tuple[ChaosAction, float]]) -> Odds:
    """`odds` and its outcomes alone."""
    return odds, [outcome for outcome, _ in odds]


def setup_odds(state: ChaosPosition) -> Odds:
    """The odds of the setup draw `state` waits for (never changed in place: those of
    placements and shields are shared between states)."""
    phase = state.phase
    player, square = _SLOTS[phase][state.setup_index]
    if phase is PLACE:
        board = state.board
        placed = [piece.colour for sq in SETUP_ORDER[player] if (piece := board[sq]) is not None]
        colours = state.game.colours[player]
        key = (square, colours, *[placed.count(c) for c in colours])
        odds = _PLACE_ODDS.get(key)
        if odds is None:
            draws = _PLACE_DRAWS[square]
            left = [(draws[c], PIECES_PER_COLOUR - placed.count(c)) for c in colours]
            odds = _PLACE_ODDS[key] = with_outcomes(weighted(left))
        return odds
    if phase is SHIELD:
        bag = state.bags[player]
        odds = _SHIELD_ODDS.get((square, bag))
        if odds is None:
            odds = _SHIELD_ODDS[(square, bag)] = with_outcomes(from_bag(_SHIELD_DRAWS[square], bag))
        return odds
    return with_outcomes(from_bag(_POTION_DRAWS[square], state.pouch))


def setup_draw(state: ChaosPosition, draw: SetupDraw) -> None:
    """Play a setup draw: a piece set on its square, or a piece's shield or potion."""
    kind, square, colour = draw.kind, draw.square, draw.colour
    player = 0 if square < 12 else 1
    if kind is PLACE:
        state._put(square, piece_of(player, colour, False, -1, -1))
    elif kind is SHIELD:
        _setup_shield(state, square, colour)
        state.bags = taken(state.bags, player, colour)
    else:
        _setup_potion(state, square, colour)
        state.pouch = added(state.pouch, colour, -1)
    state.setup_index += 1
    if state.setup_index == DRAWS_PER_PHASE:
        state.setup_index = 0
        following = SETUP_PHASES.index(state.phase) + 1
        state.phase = SETUP_PHASES[following] if following < len(SETUP_PHASES) else TURN


def _setup_shield(state: ChaosPosition, square: int, colour: int) -> None:
    """The setup gives the piece on `square` its shield: `_put`, with less to do (the
    setup draws one shield a piece, so it had none: only one shield bitboard changes)."""
    owner, hue, king, _, potion = state._piece_on(square)
    state.board[square] = PIECES[owner][hue][king][colour + 1][potion + 1]
    state.shielded[colour] |= 1 << square


def _setup_potion(state: ChaosPosition, square: int, colour: int) -> None:
    """The setup gives the piece on `square` its potion: `_put`, with less to do (the
    setup draws one potion a piece, so it had none: only the Ghost or Ambush/Leap
    bitboard may change)."""
    owner, hue, king, shield, _ = state._piece_on(square)
    state.board[square] = PIECES[owner][hue][king][shield + 1][colour + 1]
    if colour == CLEAR_GHOST:
        state.ghosts |= 1 << square
    elif colour in POWERS:
        state.powered |= 1 << square
