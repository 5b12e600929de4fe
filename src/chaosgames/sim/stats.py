"""The statistics the lab reports: Wilson intervals and two-sample significance tests.

Win rates count a shared win as the player's share (a two-way tie is half a win), so a
"success count" may be fractional; the formulas take it as it is.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

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


# -- tests a designer can trust (scipy, statsmodels) -------------------------------------

ALPHA = 0.05
"""The level of every test, two-sided, after the correction for the report's many tests."""
POWER = 0.8
"""The power the 'games needed' figures aim for."""
MONTE_CARLO_DRAWS = 20_000
"""Draws of the seat-balance test's null distribution (fixed seed: the same p every time)."""


@dataclass(frozen=True)
class Test:
    """One claim's test: the difference it measures with its 95% interval, its p-value, the
    games it rests on, and the name of the test."""

    name: str
    estimate: float
    low: float
    high: float
    p_value: float
    n: int
    paired: bool = False
    adjusted: float | None = None
    """The p-value after Holm's correction over the report's claims."""

    @property
    def significant(self) -> bool:
        return (self.adjusted if self.adjusted is not None else self.p_value) < ALPHA

    @property
    def difference(self) -> float:
        return self.estimate


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (statsmodels), in the order given."""
    if not p_values:
        return []
    from statsmodels.stats.multitest import multipletests

    return [float(p) for p in multipletests(list(p_values), alpha=ALPHA, method="holm")[1]]


def gated_holm(
    p_values: Sequence[float], families: Sequence[Sequence[float]]
) -> tuple[list[float], list[list[float]]]:
    """Holm's procedure over the claims `p_values`, with each claim's family of follow-up
    tests (`families[i]`, e.g. the seats after a seat-balance test) tested only once that
    claim is rejected, at the share of the 5% the claim held: the graphical procedure of
    Bretz, Maurer, Brannath and Posch (2009), so the whole report's chance of one false claim,
    follow-ups included, stays at most 5%. Each claim starts with 1/m of the level; a rejected
    claim with a family passes its share to its family (split equally), one without to the
    other claims (Holm's step); a rejected follow-up passes its share to its siblings. Without
    families this is Holm's procedure. Returns the adjusted p-values of the claims and of each
    family, in the order given (a follow-up whose claim is not rejected gets at least its claim's)."""
    nodes: list[float] = list(p_values)
    tops = len(nodes)
    family_of: list[list[int]] = []
    for family in families:
        family_of.append(list(range(len(nodes), len(nodes) + len(family))))
        nodes.extend(family)
    size = len(nodes)
    if not tops:
        return [], [[] for _ in families]
    weight = [1 / tops if i < tops else 0.0 for i in range(size)]
    edges = [[0.0] * size for _ in range(size)]
    for i in range(tops):
        targets = family_of[i] if i < len(family_of) and family_of[i] else [k for k in range(tops) if k != i]
        for k in targets:
            edges[i][k] = 1 / len(targets)
    for members in family_of:
        for f in members:
            for k in members:
                if k != f:
                    edges[f][k] = 1 / (len(members) - 1)
    adjusted = [1.0] * size
    active = set(range(size))
    highest = 0.0
    while active:
        j = min(active, key=lambda i: (nodes[i] / weight[i] if weight[i] > 0 else math.inf, i))
        if weight[j] <= 0:
            break  # what is left can no longer be rejected: adjusted p 1
        highest = max(highest, min(1.0, nodes[j] / weight[j]))
        adjusted[j] = highest
        active.remove(j)
        weight, edges = _pass_on(j, active, weight, edges)
    return adjusted[:tops], [[adjusted[f] for f in members] for members in family_of]


def _pass_on(
    j: int, active: set[int], weight: list[float], edges: list[list[float]]
) -> tuple[list[float], list[list[float]]]:
    """The graph after rejecting `j` (Bretz et al. 2009, Algorithm 1): its weight goes along its
    edges, and an edge into it is led on to where its edges go."""
    new_weight = list(weight)
    new_edges = [list(row) for row in edges]
    for left in active:
        new_weight[left] = weight[left] + weight[j] * edges[j][left]
        for k in active:
            if k == left:
                new_edges[left][k] = 0.0
                continue
            loop = 1 - edges[left][j] * edges[j][left]
            new_edges[left][k] = (
                (edges[left][k] + edges[left][j] * edges[j][k]) / loop if loop > 1e-12 else 0.0
            )
    new_weight[j] = 0.0
    return new_weight, new_edges


def binomial_p(successes: float, trials: int, share: float) -> float:
    """The exact two-sided binomial test of a rate against `share` (shared wins rounded)."""
    if trials <= 0:
        return 1.0
    from scipy.stats import binomtest

    k = min(trials, max(0, round(successes)))
    return float(binomtest(k, trials, share).pvalue)


def seat_balance_p(wins: Sequence[float]) -> float:
    """Whether the seats win equally: the exact binomial test with two seats, else the
    chi-square statistic of the wins by seat against equal shares, its null distribution
    drawn (multinomial, fixed seed) rather than approximated (a study has few games)."""
    seats, total = len(wins), sum(wins)
    if seats < 2 or total <= 0:
        return 1.0
    if seats == 2:
        return binomial_p(wins[0], round(total), 0.5)
    import numpy as np

    n = round(total)
    expected = total / seats
    observed = sum((w - expected) ** 2 for w in wins) / expected
    draws = np.random.default_rng(0).multinomial(n, [1 / seats] * seats, size=MONTE_CARLO_DRAWS)
    simulated = ((draws - n / seats) ** 2).sum(axis=1) / (n / seats)
    return float((np.sum(simulated >= observed - 1e-9) + 1) / (MONTE_CARLO_DRAWS + 1))


def _t_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of `values` and its 95% t interval."""
    from scipy import stats as sps

    m = mean(values)
    if len(values) < 2:
        return m, -math.inf, math.inf
    half = float(sps.t.ppf(0.975, len(values) - 1)) * math.sqrt(variance(values) / len(values))
    return m, m - half, m + half


def paired_test(a: Sequence[float], b: Sequence[float], binary: bool) -> Test:
    """b - a over pairs played with the same dice and agent seeds (common random numbers):
    the exact McNemar test for outcomes that are 0 or 1, else the paired t-test."""
    differences = [y - x for x, y in zip(a, b, strict=True)]
    estimate, low, high = _t_interval(differences)
    n = len(differences)
    if binary:
        up = sum(1 for d in differences if d > 0)
        down = sum(1 for d in differences if d < 0)
        p = binomial_p(up, up + down, 0.5) if up + down else 1.0
        return Test("McNemar (exact, paired)", estimate, low, high, p, n, True)
    from scipy.stats import ttest_rel

    p = 1.0 if n < 2 or variance(differences) == 0 else float(ttest_rel(b, a).pvalue)
    if n >= 2 and variance(differences) == 0 and estimate != 0:
        p = 0.0
    return Test("paired t", estimate, low, high, p, n, True)


def unpaired_test(a: Sequence[float], b: Sequence[float], binary: bool) -> Test:
    """b - a between independent samples: Fisher's exact test for outcomes that are 0 or 1
    (Newcombe's interval), else Welch's t-test."""
    n = len(a) + len(b)
    if not a or not b:
        return Test("none (a side has no games)", 0.0, -math.inf, math.inf, 1.0, n)
    if binary:
        from scipy.stats import fisher_exact

        sa, sb = round(sum(a)), round(sum(b))
        p = float(fisher_exact([[sa, len(a) - sa], [sb, len(b) - sb]])[1])
        la, ha = wilson(sa, len(a))
        lb, hb = wilson(sb, len(b))
        pa, pb = sa / len(a), sb / len(b)
        d = pb - pa
        low = d - math.sqrt((pb - lb) ** 2 + (ha - pa) ** 2)
        high = d + math.sqrt((hb - pb) ** 2 + (pa - la) ** 2)
        return Test("Fisher (exact)", d, low, high, p, n)
    from scipy.stats import ttest_ind

    ma, mb = mean(a), mean(b)
    if len(a) < 2 or len(b) < 2:
        return Test("Welch t", mb - ma, -math.inf, math.inf, 1.0, n)
    va, vb = variance(a) / len(a), variance(b) / len(b)
    if va + vb == 0:
        return Test("Welch t", mb - ma, mb - ma, mb - ma, 1.0 if ma == mb else 0.0, n)
    from scipy import stats as sps

    freedom = (va + vb) ** 2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1))
    half = float(sps.t.ppf(0.975, freedom)) * math.sqrt(va + vb)
    p = float(ttest_ind(b, a, equal_var=False).pvalue)
    return Test("Welch t", mb - ma, mb - ma - half, mb - ma + half, p, n)


def _z(p: float) -> float:
    return STANDARD_NORMAL.inv_cdf(p)


def games_needed_rate(share: float, observed: float, alpha: float = ALPHA) -> int | None:
    """Games for a rate truly at `observed` to show against `share` (exact-ish normal
    approximation, two-sided `alpha`, power `POWER`); None when they are equal."""
    d = observed - share
    if abs(d) < 1e-9:
        return None
    za, zb = _z(1 - alpha / 2), _z(POWER)
    root = za * math.sqrt(share * (1 - share)) + zb * math.sqrt(max(observed * (1 - observed), 1e-9))
    return math.ceil((root / d) ** 2)


def games_needed_difference(test: Test, spread: float, alpha: float = ALPHA) -> int | None:
    """Games (or pairs) per side for a difference as large as `test.estimate` to show, where
    `spread` is the standard deviation of one game's figure (of a pair's difference when
    paired); None when the difference is 0."""
    if abs(test.estimate) < 1e-12 or spread <= 0:
        return None
    za, zb = _z(1 - alpha / 2), _z(POWER)
    factor = 1 if test.paired else 2
    return math.ceil(factor * ((za + zb) * spread / test.estimate) ** 2)


def bootstrap_interval(
    values: Sequence[Any], statistic: Callable[[Sequence[Any]], float], draws: int = 2000
) -> tuple[float, float]:
    """The 95% percentile bootstrap interval of `statistic` over games (fixed seed)."""
    import random

    if len(values) < 2:
        return (-math.inf, math.inf)
    rng = random.Random(0)
    found = sorted(statistic([values[rng.randrange(len(values))] for _ in values]) for _ in range(draws))
    return (found[int(0.025 * draws)], found[int(0.975 * draws) - 1])
