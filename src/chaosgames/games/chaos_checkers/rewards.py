"""The rewards of a capture or a crown (rules.md "Rewards of a capture or a crown"; the
rulebook gives them under "Shields", "Potions" and kinging).

"Discard your current shield ... replace it with a new random shield" after a capture;
a capturing piece that did not use its own potion this turn replaces its potion with a
new draw; several captures draw that many and keep one, the rest going back. Crowning
replaces the potion too. The draws are chance actions (`draw-shield=blue`), the pick the
capturing player's (`keep-potion=red`).
"""

from __future__ import annotations

from chaosgames.games.chaos_checkers.actions import Draw
from chaosgames.games.chaos_checkers.board import CROWN_ROW
from chaosgames.games.chaos_checkers.chaos_position import (
    ChaosPosition,
    Reward,
    added,
    given,
    piece_of,
    taken,
    with_potion,
    with_shield,
)
from chaosgames.games.chaos_checkers.phases import DRAW_POTION, DRAW_SHIELD, KEEP_POTION, KEEP_SHIELD, Phase

_UNREWARDED = tuple(tuple(Reward(square, 0, False, kept) for square in range(32)) for kept in (False, True))
"""[kept potion][square]: the Reward of a move that neither captured nor crowned."""


def finish_move(state: ChaosPosition, at: int, n: int) -> None:
    """The move ended on `at` after `n` captures: crowning, the end of the game or the rewards."""
    state.pending = None
    piece = state.board[at]
    assert piece is not None
    owner, colour, king, shield, potion = piece
    crowned = not king and bool(CROWN_ROW[owner] >> at & 1)
    if crowned:
        piece = piece_of(owner, colour, True, shield, potion)
        state._put(at, piece)
        state.turn_quiet = False
    if not (state.pieces1 if state.turn == 0 else state.pieces0):
        # "The first player to eliminate all opposing pieces wins": no rewards to draw.
        state.moves_made += 1
        state._finish((1.0, 0.0) if state.turn == 0 else (0.0, 1.0))
        return
    # "If you do not use a potion ability on the piece you are moving and capture ...,
    # discard this existing potion and replace it": a piece that used its own potion
    # this turn keeps what it now holds (Ambush or Leap, a Wild pick, a potion moved
    # onto it by its own Telekinesis); one left with none still receives a new one.
    kept = state.used == at and potion >= 0
    if not (n or crowned):
        state.reward = _UNREWARDED[kept][at]
        state._end_turn()  # what _potion_reward does for a move that earns nothing
        return
    state.reward = Reward(at, n, crowned, kept)
    if n:
        # "Discard your current shield ... replace it with a new random shield".
        if shield >= 0:
            state.bags = given(state.bags, owner, shield)
            state._put(at, with_shield(piece, -1))
        _start_draws(state, DRAW_SHIELD, min(n, sum(state.bags[state.turn])))
    else:
        _potion_reward(state)


def _potion_reward(state: ChaosPosition) -> None:
    """After the shield: the potion a capture or a crown earns, or the end of the turn."""
    reward = state.reward
    at, n = reward.square, reward.captures
    if reward.crowned:
        # Crowning: a fresh potion replaces whatever the piece holds. Drawing the capture
        # reward first would be discarded at once, so it is skipped (same odds).
        state._discard_potion(at)
        _start_draws(state, DRAW_POTION, min(1, sum(state.pouch)))
    elif n and not reward.kept_potion:
        # A capture without using the mover's potion on it: replace the potion.
        state._discard_potion(at)
        _start_draws(state, DRAW_POTION, min(n, sum(state.pouch)))
    else:
        state._end_turn()


def _start_draws(state: ChaosPosition, phase: Phase, count: int) -> None:
    """Start `count` chance draws of `phase` (none: go straight on)."""
    state.hand = ()
    state.draws_left = count
    if count:
        state.phase = phase
    elif phase == DRAW_SHIELD:
        _potion_reward(state)
    else:
        state._end_turn()


def take_draw(state: ChaosPosition, draw: Draw) -> None:
    """Play a reward drawn (chance) or the piece the capturing player keeps of those drawn."""
    kind, colour = draw.kind, draw.colour
    if kind is DRAW_SHIELD:
        state.bags = taken(state.bags, state.turn, colour)
        _drawn(state, colour, KEEP_SHIELD)
    elif kind is DRAW_POTION:
        state.pouch = added(state.pouch, colour, -1)
        _drawn(state, colour, KEEP_POTION)
    else:
        _keep(state, kind, colour)


def _drawn(state: ChaosPosition, colour: int, keep_phase: Phase) -> None:
    """A piece of `colour` drawn; after the last draw, keep one (a choice when they differ)."""
    state.hand = (*state.hand, colour)
    state.draws_left -= 1
    if state.draws_left:
        return
    if len(set(state.hand)) == 1:
        _keep(state, keep_phase, state.hand[0])
    else:
        state.phase = keep_phase


def _keep(state: ChaosPosition, kind: Phase, colour: int) -> None:
    """Keep one drawn piece; the others go back to their bag."""
    at = state.reward.square
    piece = state.board[at]
    assert piece is not None
    rest = list(state.hand)
    rest.remove(colour)
    state.hand = ()
    if kind is KEEP_SHIELD:
        state._put(at, with_shield(piece, colour))
        for c in rest:
            state.bags = given(state.bags, state.turn, c)
        _potion_reward(state)
    else:
        state._put(at, with_potion(piece, colour))
        for c in rest:
            state.pouch = added(state.pouch, c)
        state._end_turn()
