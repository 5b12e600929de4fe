"""Heuristic evaluation: race progress turned into win shares.

Each cruiser scores 12 points per gate on the chart minus the squares still to cover to
its next gate (capped at 40), plus its speed / 2. A player's score is that of his trailing
cruiser (with two cruisers each, both must finish). Shares are a softmax of the scores
with temperature 6, so a gate's lead is worth a clear favourite but not a certainty.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from chaosgames.games.chaos_cruisers.state import ChaosCruisersState

GATE_POINTS = 12.0
DISTANCE_CAP = 40
TEMPERATURE = 6.0


def cruiser_score(state: ChaosCruisersState, cruiser: int) -> float:
    if state.finished(cruiser):
        return GATE_POINTS * (len(state.game.chart) + 1)
    distance = min(state.distance_to_next_gate(cruiser), DISTANCE_CAP)
    return GATE_POINTS * state.progress[cruiser] - distance + state.speed[cruiser] / 2


def win_shares(state: ChaosCruisersState) -> list[float]:
    if state.is_terminal():
        return list(state.returns())
    game = state.game
    scores = [min(cruiser_score(state, c) for c in game.cruisers_of[p]) for p in range(game.num_players)]
    top = max(scores)
    weights = [math.exp((s - top) / TEMPERATURE) for s in scores]
    total = sum(weights)
    shares = [w / total for w in weights]
    # Keep the sum exactly 1 despite rounding.
    shares[-1] = max(0.0, 1.0 - sum(shares[:-1]))
    return shares
