"""Heuristic evaluation: flags touched and distance to the next flag, as win shares.

Each player's strength is `2 * (coins already won + flags touched this race) + 1 / (1 + d)`,
where `d` is the fewest steps from his pawn to his next flag over face-up cards (pawns
ignored, the flag's own card counted passable: it may be flipped back). A pawn walled off
by face-down cards counts `d` as its straight-line distance plus 4. Shares are a softmax
of the strengths, so they lie in [0, 1] and sum to 1; a finished game gives its returns.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from chaosgames.core.grid import Square, bfs_distances
from chaosgames.games.royal_racers.board import SIZE

if TYPE_CHECKING:
    from chaosgames.games.royal_racers.state import RoyalRacersState

DETOUR = 4


def distance_to_next_flag(state: RoyalRacersState, player: int) -> int | None:
    """Steps over face-up cards from the pawn to its next flag; None when walled off."""
    pawn = state.pawns[player]
    touched = state.progress[player]
    if pawn < 0 or touched >= state.nflags:
        return None
    target = state.flag_sq[player * state.nflags + touched]
    if target < 0:
        return None
    down = state.down

    def passable(square: Square) -> bool:
        x, y = square
        return 0 <= x < SIZE and 0 <= y < SIZE and not down >> (y * SIZE + x) & 1

    dist = bfs_distances([(target % SIZE, target // SIZE)], passable)
    return dist.get((pawn % SIZE, pawn // SIZE))


def strength(state: RoyalRacersState, player: int, totals: list[int]) -> float:
    value = 2.0 * (totals[player] + state.progress[player])
    pawn = state.pawns[player]
    if pawn < 0 or state.progress[player] >= state.nflags:
        return value
    d = distance_to_next_flag(state, player)
    if d is None:
        target = state.flag_sq[player * state.nflags + state.progress[player]]
        d = abs(pawn % SIZE - target % SIZE) + abs(pawn // SIZE - target // SIZE) + DETOUR
    return value + 1.0 / (1 + d)


def evaluate(state: RoyalRacersState) -> list[float]:
    """Per-player estimated win share, each in [0, 1], summing to 1."""
    if state.is_terminal():
        return state.returns()
    totals = state.totals()
    values = [strength(state, p, totals) for p in range(state.n)]
    top = max(values)
    weights = [math.exp(v - top) for v in values]
    total = sum(weights)
    return [w / total for w in weights]
