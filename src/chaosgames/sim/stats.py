"""The statistics the lab reports: Wilson intervals and two-sample significance tests.

Win rates count a shared win as the player's share (a two-way tie is half a win), so a
"success count" may be fractional; the formulas take it as it is.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

STANDARD_NORMAL = NormalDist()
Z95 = STANDARD_NORMAL.inv_cdf(0.975)


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); (0, 1) without trials."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # At 0 or all successes the interval ends exactly at 0 or 1 (not a rounding error away).
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return (low, high)


def normal_two_sided_p(z: float) -> float:
    """P(|Z| >= |z|) for a standard normal Z."""
    return 2 * STANDARD_NORMAL.cdf(-abs(z))


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
    return statistics.fmean(values) if values else 0.0


def variance(values: Sequence[float]) -> float:
    return statistics.variance(values) if len(values) >= 2 else 0.0


def percentile(values: Sequence[float], share: float) -> float:
    """The value below which `share` of the values lie (linear interpolation); 0 when empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    at = share * (len(ordered) - 1)
    low = math.floor(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


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
