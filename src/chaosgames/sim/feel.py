"""How a variant plays, beyond who wins: each figure with its 95% interval and its n.

Ludii's metrics and a few more: balance, first-player advantage, completion, natural draws,
duration (mean and spread), decisiveness (how early the winner is clear), lead changes and
drama (by the game's heuristic), the share of real decisions (more than one sensible
choice), the branching factor over time and the share of the state a seat cannot see.
The per-game figures come from `match.MatchResult.feel`; games stored before it was kept
count only in the figures their row holds (each figure says its n).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from chaosgames.sim.stats import STANDARD_NORMAL, mean, wilson
from chaosgames.sim.summary import Summary

SECONDS_PER_DECISION = 20
"""Table time is estimated at 20 seconds a decision."""


@dataclass(frozen=True)
class Figure:
    """One figure of a variant: its value, 95% interval, the games it rests on, and a note."""

    name: str
    value: float
    low: float
    high: float
    n: int
    percent: bool = False
    spread: float | None = None
    """The standard deviation of the games' values, where the spread matters (duration)."""

    def show(self, value: float) -> str:
        return f"{100 * value:.1f}%" if self.percent else f"{value:.2f}"

    def text(self) -> str:
        return self.show(self.value)

    def interval(self) -> str:
        if not (math.isfinite(self.low) and math.isfinite(self.high)):
            return "-"
        return f"{self.show(self.low)} - {self.show(self.high)}"


def _t(name: str, values: Sequence[float], percent: bool = False, spread: bool = False) -> Figure | None:
    from chaosgames.sim.stats import _t_interval, variance

    if not values:
        return None
    m, lo, hi = within_range(*_t_interval(values), percent)
    return Figure(name, m, lo, hi, len(values), percent, variance(values) ** 0.5 if spread else None)


def within_range(m: float, lo: float, hi: float, percent: bool) -> tuple[float, float, float]:
    """A mean's t interval cut to the values its figure can take (every figure here counts or
    measures something, so none is below 0; a share is at most 1): a lead-change rate of
    -0.34 is no claim the games support."""
    return m, max(0.0, lo), min(1.0, hi) if percent else hi


def balance(returns: Sequence[Sequence[float]]) -> float:
    """1 - (best seat's win rate - worst seat's): 1 when every seat wins as often."""
    if not returns:
        return 1.0
    seats = len(returns[0])
    rates = [sum(r[s] for r in returns) / len(returns) for s in range(seats)]
    return 1.0 - (max(rates) - min(rates))


def balance_interval(returns: Sequence[Sequence[float]]) -> tuple[float, float]:
    """A 95% interval for `balance`: from every seat's Wilson interval at 5% over the seats
    (Bonferroni, so all hold at once), the smallest and largest range of win rates they allow.
    A bootstrap collapses to a point when one seat won every game (a sweep's one-lap race
    did); this never does, and is conservative."""
    if not returns:
        return (0.0, 1.0)
    seats = len(returns[0])
    z = STANDARD_NORMAL.inv_cdf(1 - 0.025 / seats)
    bounds = [wilson(sum(r[s] for r in returns), len(returns), z) for s in range(seats)]
    widest = max(h for _, h in bounds) - min(lo for lo, _ in bounds)
    narrowest = max(0.0, max(lo for lo, _ in bounds) - min(h for _, h in bounds))
    return (1.0 - widest, 1.0 - narrowest)


def figures(summary: Summary) -> list[Figure]:
    """The variant's figures, in the order a designer reads them."""
    out: list[Figure | None] = []
    finished = [r.returns for r in summary.rows if r.ended_by_rules and r.returns is not None]
    lo, hi = wilson(summary.finished, summary.games)
    out.append(
        Figure(
            "completion (ended by the rulebook)",
            summary.finished / summary.games,
            lo,
            hi,
            summary.games,
            True,
        )
    )
    if finished:
        lo, hi = wilson(summary.draws, len(finished))
        out.append(
            Figure(
                "natural draws (of rulebook ends)", summary.draws / len(finished), lo, hi, len(finished), True
            )
        )
        lo, hi = balance_interval(finished)
        out.append(
            Figure("balance (1 - seat win-rate range)", balance(finished), lo, hi, len(finished), True)
        )
        first = summary.by_seat.get(0)
        if first is not None and first.games:
            lo, hi = first.interval
            fair = summary.fair_share
            out.append(
                Figure(
                    "first-player advantage (seat 1 minus fair share)",
                    first.rate - fair,
                    lo - fair,
                    hi - fair,
                    first.games,
                    True,
                )
            )
    out.append(_t("decisions per game (spread: SD)", summary.decisions, spread=True))
    minutes = [d * SECONDS_PER_DECISION / 60 for d in summary.decisions]
    out.append(_t(f"table minutes at {SECONDS_PER_DECISION} s a decision (spread: SD)", minutes, spread=True))
    out.append(_t("rounds per game (spread: SD)", summary.rounds, spread=True))
    out.append(_t("lead changes per game", summary.lead_changes))
    feel = summary.feel
    out.append(
        _t(
            "drama (winner's mean deficit to the leader, heuristic)",
            [f["drama"] for f in feel if f.get("drama") is not None],
        )
    )
    out.append(
        _t(
            "decisiveness: winner clear from (share of the game)",
            [f["decided_at"] for f in feel if f.get("decided_at") is not None],
            percent=True,
        )
    )
    out.append(
        _t(
            "real decisions (two or more sensible choices)",
            [f["real"] / f["judged"] for f in feel if f.get("judged")],
            percent=True,
        )
    )
    out.append(_t("branching factor (legal actions per decision)", summary.branching))
    curves = [f["branching_curve"] for f in feel if len(f.get("branching_curve") or []) == 10]
    for part, name in ((0, "first"), (4, "middle"), (9, "last")):
        out.append(_t(f"branching factor, {name} tenth of the game", [c[part] for c in curves]))
    out.append(
        _t(
            "hidden share of the state (what the deciding seat cannot see)",
            [f["hidden"] for f in feel if f.get("hidden") is not None],
            percent=True,
        )
    )
    return [f for f in out if f is not None]


def mean_curve(summary: Summary) -> list[float]:
    """The branching factor in each tenth of the game, over the games that have it."""
    curves = [f["branching_curve"] for f in summary.feel if len(f.get("branching_curve") or []) == 10]
    return [mean([c[i] for c in curves]) for i in range(10)] if curves else []
