"""The statistics the lab reports: Wilson intervals and two-sample significance tests.

Win rates count a shared win as the player's share (a two-way tie is half a win), so a
"success count" may be fractional; the formulas take it as it is.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); (0, 1) without trials."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def normal_two_sided_p(z: float) -> float:
    """P(|Z| >= |z|) for a standard normal Z."""
    return math.erfc(abs(z) / math.sqrt(2))


@dataclass(frozen=True)
class Comparison:
    """Two samples compared: the difference (b - a), its z statistic and p-value."""

    a: float
    b: float
    difference: float
    z: float
    p_value: float

    @property
    def significant(self) -> bool:
        """At the 5% level, two-sided."""
        return self.p_value < 0.05


def two_proportions(successes_a: float, trials_a: int, successes_b: float, trials_b: int) -> Comparison:
    """The pooled two-proportion z-test of p_a = p_b."""
    pa = successes_a / trials_a if trials_a else 0.0
    pb = successes_b / trials_b if trials_b else 0.0
    if trials_a == 0 or trials_b == 0:
        return Comparison(pa, pb, pb - pa, 0.0, 1.0)
    pooled = (successes_a + successes_b) / (trials_a + trials_b)
    spread = math.sqrt(pooled * (1 - pooled) * (1 / trials_a + 1 / trials_b))
    if spread == 0:
        return Comparison(pa, pb, pb - pa, 0.0, 1.0 if pa == pb else 0.0)
    z = (pb - pa) / spread
    return Comparison(pa, pb, pb - pa, z, normal_two_sided_p(z))


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def variance(values: Sequence[float]) -> float:
    if len(values) < 2:
        return 0.0
    m = mean(values)
    return sum((v - m) ** 2 for v in values) / (len(values) - 1)


def two_means(a: Sequence[float], b: Sequence[float]) -> Comparison:
    """Welch's test of equal means with the normal approximation (fine for the lab's sample sizes)."""
    ma, mb = mean(a), mean(b)
    if len(a) < 2 or len(b) < 2:
        return Comparison(ma, mb, mb - ma, 0.0, 1.0)
    spread = math.sqrt(variance(a) / len(a) + variance(b) / len(b))
    if spread == 0:
        return Comparison(ma, mb, mb - ma, 0.0, 1.0 if ma == mb else 0.0)
    z = (mb - ma) / spread
    return Comparison(ma, mb, mb - ma, z, normal_two_sided_p(z))
