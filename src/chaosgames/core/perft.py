"""Perft: the number of action sequences of a given length, a move-generator check.

Counts leaves of the game tree `depth` actions deep (chance outcomes count as actions,
so it is mainly useful for games without chance, like plain checkers).
"""

from __future__ import annotations

from typing import Any

from chaosgames.core.game import State


def perft(state: State[Any], depth: int) -> int:
    """How many distinct sequences of `depth` legal actions start at `state`."""
    legal = state.legal_actions()
    if depth <= 1:
        return len(legal) if depth == 1 else 1
    total = 0
    for action in legal:
        child = state.clone()
        child.apply_action(action)
        total += perft(child, depth - 1)
    return total
