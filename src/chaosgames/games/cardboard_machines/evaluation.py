"""Heuristic win shares: lives and round tokens first, then place on the track and stress."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from chaosgames.games.cardboard_machines.boards import LANES
from chaosgames.games.cardboard_machines.phases import OFF

if TYPE_CHECKING:
    from chaosgames.games.cardboard_machines.state import CardboardState

LIFE_WEIGHT = 1.0
TOKEN_WEIGHT = 1.2
ROW_WEIGHT = 0.08
"""Per table row from the back: cars near the back crash when their board scrolls away."""
STRESS_WEIGHT = 0.15


def score(st: CardboardState, player: int) -> float:
    if st.lives[player] == 0:
        return -math.inf
    value = LIFE_WEIGHT * st.lives[player] + TOKEN_WEIGHT * st.tokens[player]
    value -= STRESS_WEIGHT * min(st.stress[player], 8)
    if st.pos[player] != OFF and st.board_ids:
        value += ROW_WEIGHT * st.table_row(st.pos[player])
    return value


KNOWN_LIMIT = 1 << 14
"""Verdicts kept by `evaluate` before it starts afresh (a search of 300 iterations meets a
few hundred different ones)."""
_known: dict[tuple[int, ...], list[float]] = {}
"""Win shares by (back, lives, tokens, stress, positions): all `win_shares` reads."""


def evaluate(st: CardboardState) -> list[float]:
    if st.result is not None:
        return list(st.result)
    if not st.board_ids:  # setup: not worth keeping
        return win_shares(st)
    # A search asks again and again about the same few positions (after each stress die,
    # each gear ...): about six questions in seven repeat an earlier one.
    key = (st.back, *st.lives, *st.tokens, *st.stress, *st.pos)
    shares = _known.get(key)
    if shares is None:
        if len(_known) >= KNOWN_LIMIT:
            _known.clear()
        shares = _known[key] = win_shares(st)
    return shares[:]  # the caller's own list


def win_shares(st: CardboardState) -> list[float]:
    """A softmax of score() over the players still in the race."""
    # score() for every player in one pass: the same arithmetic in the same order, so the
    # same floats; min(stress, 8) written out and constants bound.
    tokens, stress, pos = st.tokens, st.stress, st.pos
    on_track = bool(st.board_ids)
    back_row = 2 * st.back
    scores: list[float] = []
    for p, life in enumerate(st.lives):
        if life == 0:
            scores.append(NO_SCORE)
            continue
        strain = stress[p]
        value = LIFE_WEIGHT * life + TOKEN_WEIGHT * tokens[p]
        value -= STRESS_WEIGHT * (strain if strain < 8 else 8)
        if on_track and pos[p] != OFF:
            value += ROW_WEIGHT * (pos[p] // LANES - back_row)
        scores.append(value)
    top = max(scores)
    exp = math.exp
    weights = [0.0 if s == NO_SCORE else exp(s - top) for s in scores]
    total = sum(weights)
    return [w / total for w in weights]


NO_SCORE = -math.inf
"""The score of a player out of the race."""
