"""Heuristic evaluation: material turned into win shares.

A man counts 1, a king 1.5; in chaos games a shield adds 0.1 and a potion 0.15 (they
are worth a little, much less than a piece). The material difference d (first player
minus second) becomes the first player's share 1 / (1 + exp(-d / 2)), so one man up is
about 0.62 and three men up about 0.82.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from chaosgames.games.chaos_checkers.plain import PlainState

if TYPE_CHECKING:
    from chaosgames.games.chaos_checkers.state import ChaosState

MAN, KING, SHIELD, POTION = 1.0, 1.5, 0.1, 0.15
SCALE = 2.0


def material(state: ChaosState | PlainState) -> tuple[float, float]:
    """Each player's material score."""
    if isinstance(state, PlainState):
        p0, p1 = state.pieces()
        kings = state.kings
        return (
            MAN * (p0 & ~kings).bit_count() + KING * (p0 & kings).bit_count(),
            MAN * (p1 & ~kings).bit_count() + KING * (p1 & kings).bit_count(),
        )
    scores = [0.0, 0.0]
    for piece in state.board:
        if piece is None:
            continue
        value = KING if piece.king else MAN
        if piece.shield >= 0:
            value += SHIELD
        if piece.potion >= 0:
            value += POTION
        scores[piece.owner] += value
    return scores[0], scores[1]


def heuristic(state: ChaosState | PlainState) -> list[float]:
    """Per-player share of the win, in [0, 1], summing to 1."""
    if state.is_terminal():
        return list(state.returns())
    mine, theirs = material(state)
    share = 1.0 / (1.0 + math.exp(-(mine - theirs) / SCALE))
    return [share, 1.0 - share]
