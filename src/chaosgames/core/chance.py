"""Chance nodes: helpers to describe them and to sample them.

Nothing in a state draws random numbers. A state at a chance node lists its outcomes
with their probabilities; whoever drives the game (a test, an agent, the CLI) picks one,
usually with `resolve_chance` and a seeded `random.Random`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar

from chaosgames.core.constants import CHANCE

if TYPE_CHECKING:
    from chaosgames.core.game import Action, State

T = TypeVar("T")


def uniform(outcomes: Sequence[T]) -> list[tuple[T, float]]:
    """Each outcome equally likely (a die roll, a coin flip, a draw of distinct pieces)."""
    p = 1.0 / len(outcomes)
    return [(o, p) for o in outcomes]


def weighted(counts: Mapping[T, int] | Iterable[tuple[T, int]]) -> list[tuple[T, float]]:
    """Outcomes in proportion to counts (a draw from a bag holding several alike pieces)."""
    items = list(counts.items()) if isinstance(counts, Mapping) else list(counts)
    items = [(o, n) for o, n in items if n > 0]
    total = sum(n for _, n in items)
    return [(o, n / total) for o, n in items]


def exact_total(outcomes: Sequence[tuple[object, float]]) -> Fraction:
    """The sum of the probabilities, without float drift, for checks."""
    return sum((Fraction(p).limit_denominator(10**9) for _, p in outcomes), Fraction(0))


def sample_outcome(outcomes: Sequence[tuple[T, float]], rng: random.Random) -> T:
    """One outcome drawn with its probability; one call to rng.random(), so replays agree."""
    return outcome_at(outcomes, rng.random())


def outcome_at(outcomes: Sequence[tuple[T, float]], draw: float) -> T:
    """The outcome a uniform draw in [0, 1) picks: the first whose running probability
    passes it. A driver that draws ahead knows every outcome to come."""
    acc = 0.0
    for outcome, p in outcomes:
        acc += p
        if draw < acc:
            return outcome
    return outcomes[-1][0]


def resolve_chance(state: State[Any], rng: random.Random) -> list[Action]:
    """Apply sampled chance outcomes until a player decides or the game ends.

    Returns the outcomes applied, in order, so a caller can record them.
    """
    applied: list[Action] = []
    while state.current_player() == CHANCE:
        outcome = sample_outcome(state.chance_outcomes(), rng)
        state.apply_action(outcome)
        applied.append(outcome)
    return applied
