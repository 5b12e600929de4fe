"""The claims a report or the balance book makes, each tested, corrected and with its n.

A report says a seat wins more than its share, hard beats easy, the dice decide, or the
player changes how games end, only where a test says so after Holm's correction over every
claim of the report. Per-seat claims are made only after the overall seat-balance test of
their variant rejects equal seats (a gate: with four seats and a dozen variants, some seat's
interval misses its fair share by chance alone). A claim the data do not support says so,
with the games it rests on and how many a difference of the size seen would need.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from chaosgames.sim.stats import (
    ALPHA,
    Test,
    binomial_p,
    games_needed_rate,
    gated_holm,
    seat_balance_p,
    wilson,
)
from chaosgames.sim.summary import Rate, Summary, distinct_games


def pct(value: float) -> str:
    return f"{100 * value:.1f}%"


@dataclass
class Claim:
    """One statement and its test; `shown` once corrected (see `correct`)."""

    variant: str
    topic: str
    if_shown: str
    if_not: str
    test: Test
    needed: int | None = None
    """Games (of the unit the test counts) a true effect of the size seen would need."""
    follows: list[Claim] = field(default_factory=list)
    """Claims tested only when this one is shown (the seats after the seat-balance test)."""
    need: Callable[[float], int | None] | None = field(default=None, repr=False)
    """Games needed at a given level: `correct` asks it at the level Holm's first step
    uses (5% over the number of claims), so the figure allows for the correction."""

    @property
    def shown(self) -> bool:
        return self.test.significant

    def sentence(self) -> str:
        t = self.test
        said = self.if_shown if self.shown else self.if_not
        p = f"Holm p {t.adjusted:.3f}" if t.adjusted is not None else f"p {t.p_value:.3f}"
        more = ""
        if not self.shown and self.needed is not None:
            more = f"; about {self.needed:,} would show an effect of the size seen"
        return f"{self.variant}: {said} (n {t.n}, {p}{more})."


def _rate_test(name: str, rate: Rate, share: float) -> Test:
    lo, hi = rate.interval
    return Test(name, rate.rate, lo, hi, binomial_p(rate.wins, rate.games, share), rate.games)


def seat_claims(summary: Summary) -> Claim | None:
    """The overall seat-balance claim of a variant, its per-seat claims following."""
    seats = sorted(summary.by_seat)
    if len(seats) < 2 or not summary.finished:
        return None
    by_seat = summary.by_seat
    alike = one_game_note(summary)
    wins = [by_seat[s].wins for s in seats]
    fair = summary.fair_share
    worst = max(seats, key=lambda s: abs(by_seat[s].rate - fair))
    rate = by_seat[worst]
    p = seat_balance_p(wins)
    lo, hi = rate.interval
    test = Test(
        "seat balance (exact binomial / multinomial chi-square)", rate.rate, lo, hi, p, summary.finished
    )
    follows = []
    for seat in seats:
        r = by_seat[seat]
        more = "more" if r.rate > fair else "less"
        follows.append(
            Claim(
                summary.name,
                f"seat {seat + 1}",
                f"seat {seat + 1} wins {more} than its fair share of {pct(fair)}: "
                f"{pct(r.rate)} ({_interval(r)})",
                f"seat {seat + 1}'s {pct(r.rate)} ({_interval(r)}) is not shown to differ from {pct(fair)}",
                _rate_test("exact binomial", r, fair),
                games_needed_rate(fair, r.rate),
                need=_need(fair, r.rate),
            )
        )
    return Claim(
        summary.name,
        "seat balance",
        f"the seats do not win equally (most off: seat {worst + 1}, {pct(rate.rate)} ({_interval(rate)}) "
        f"against a fair share of {pct(fair)}{alike})",
        f"no seat advantage is shown (most off: seat {worst + 1}, {pct(rate.rate)} ({_interval(rate)}), "
        f"fair share {pct(fair)}{alike})",
        test,
        games_needed_rate(fair, rate.rate),
        follows,
        _need(fair, rate.rate),
    )


def _need(share: float, observed: float) -> Callable[[float], int | None]:
    return lambda alpha: games_needed_rate(share, observed, alpha)


def _interval(rate: Rate) -> str:
    lo, hi = rate.interval
    return f"{pct(lo)}-{pct(hi)}"


def skill_claim(variant: str, hard: str, rate: Rate, players: int) -> Claim | None:
    if not rate.games:
        return None
    fair = 1 / players
    return Claim(
        variant,
        "skill",
        f"hard ({hard}) beats easy: it wins {pct(rate.rate)} ({_interval(rate)}) "
        f"against a fair share of {pct(fair)}",
        f"hard ({hard}) wins {pct(rate.rate)} ({_interval(rate)}); "
        f"skill is not shown against a fair share of {pct(fair)}",
        _rate_test("exact binomial", rate, fair),
        games_needed_rate(fair, rate.rate),
        need=_need(fair, rate.rate),
    )


def chance_claim(variant: str, pairs: int, changed: int, players: int, same: int = 0) -> Claim | None:
    """How often the winner changes with other dice and the same players, against a fair
    lottery between the seats (1 - 1/players): below it, play decides more than the dice.
    No claim where every replay played its original over (`same`): the variant has no chance
    for other dice to change, so 'the dice decide less than a lottery' would say nothing."""
    if not pairs or same >= pairs:
        return None
    lottery = 1 - 1 / players
    share = changed / pairs
    lo, hi = wilson(changed, pairs)
    test = Test("exact binomial", share, lo, hi, binomial_p(changed, pairs, lottery), pairs)
    less = "less" if share < lottery else "more"
    return Claim(
        variant,
        "chance share",
        f"other dice change the winner {less} often than a lottery would: {pct(share)} ({pct(lo)}-{pct(hi)}) "
        f"of replays against {pct(lottery)}",
        f"other dice changed the winner in {pct(share)} ({pct(lo)}-{pct(hi)}) of replays; "
        f"not shown to differ from a lottery's {pct(lottery)}",
        test,
        games_needed_rate(lottery, share),
        need=_need(lottery, share),
    )


def one_game_note(summary: Summary) -> str:
    """A note for the claims of a variant whose games were all one game played over move for
    move (no chance in the variant, and players that do not draw on their seeds): its games are
    a fair sample of what these players do, which is that one game, and say nothing of how
    other players would fare. Empty otherwise."""
    finished = [r for r in summary.rows if r.ended_by_rules and r.returns is not None]
    if len(finished) < 2 or any(r.opening is None for r in finished) or len(distinct_games(finished)) > 1:
        return ""
    return (
        f"; all {len(finished)} games were one game played over move for move, so this is that "
        "game's result with these players, not the rules' for others"
    )


def player_claim(variant: str, by_lineup: Mapping[tuple[str, ...], Counter[str]]) -> Claim | None:
    """Whether the player (one agent in every seat) changes how games end: an exact-as-drawn
    test of independence between the lineup and the ending (chi-square statistic, its null
    drawn by permutation with a fixed seed)."""
    lineups = [k for k, c in by_lineup.items() if sum(c.values()) > 0]
    if len(lineups) < 2:
        return None
    endings = sorted({e for k in lineups for e in by_lineup[k]})
    p = independence_p([[by_lineup[k][e] for e in endings] for k in lineups])
    top = max(endings, key=lambda e: max(by_lineup[k][e] / sum(by_lineup[k].values()) for k in lineups))
    parts = "; ".join(
        f"{k[0]} in every seat: {pct(by_lineup[k][top] / sum(by_lineup[k].values()))} of "
        f"{sum(by_lineup[k].values())}"
        for k in lineups
    )
    n = sum(sum(by_lineup[k].values()) for k in lineups)
    test = Test("permutation chi-square", 0.0, math.nan, math.nan, p, n)
    return Claim(
        variant,
        "player",
        f"the player changes how games end ('{top}': {parts}); read this variant's figures with its player",
        f"how games end is not shown to depend on the player ('{top}': {parts})",
        test,
    )


def independence_p(table: Sequence[Sequence[int]], draws: int = 5000) -> float:
    """The permutation p-value of the chi-square statistic of a lineup-by-ending table."""
    import numpy as np

    counts = np.array(table, dtype=float)
    if counts.shape[1] < 2 or counts.sum() == 0:
        return 1.0

    def statistic(t: np.ndarray) -> float:
        expected = t.sum(axis=1, keepdims=True) * t.sum(axis=0, keepdims=True) / t.sum()
        mask = expected > 0
        return float((((t - expected) ** 2)[mask] / expected[mask]).sum())

    observed = statistic(counts)
    rows = np.repeat(np.arange(counts.shape[0]), counts.sum(axis=1).astype(int))
    cols = np.repeat(np.tile(np.arange(counts.shape[1]), counts.shape[0]), counts.flatten().astype(int))
    rng = np.random.default_rng(0)
    hits = 0
    for _ in range(draws):
        shuffled = rng.permutation(cols)
        t = np.zeros_like(counts)
        np.add.at(t, (rows, shuffled), 1)
        hits += statistic(t) >= observed - 1e-9
    return (hits + 1) / (draws + 1)


def summary_claims(summary: Summary) -> list[Claim]:
    """The claims one variant's figures make (before the correction)."""
    out = [seat_claims(summary)]
    for hard, rate in summary.skill.items():
        out.append(skill_claim(summary.name, hard, rate, summary.players))
    out.append(
        chance_claim(
            summary.name, summary.chance_pairs, summary.chance_changed, summary.players, summary.chance_same
        )
    )
    out.append(player_claim(summary.name, summary.by_lineup))
    return [c for c in out if c is not None]


def correct(claims: Sequence[Claim]) -> list[Claim]:
    """Holm's correction over `claims`, each claim's follow-ups (the seats after a variant's
    seat-balance test) tested only once it is shown, with the share of the level it held
    (`stats.gated_holm`): no per-seat claim escapes the report's correction."""
    adjusted, follow_ps = gated_holm(
        [c.test.p_value for c in claims], [[f.test.p_value for f in c.follows] for c in claims]
    )
    out = []
    for claim, p, follow_p in zip(claims, adjusted, follow_ps, strict=True):
        fixed = replace(claim, test=replace(claim.test, adjusted=p))
        share = ALPHA / len(claims) / max(1, len(claim.follows))
        fixed.follows = [
            replace(
                f,
                test=replace(f.test, adjusted=q),
                needed=None if q < ALPHA else (f.need(share) if f.need is not None else f.needed),
            )
            for f, q in zip(claim.follows, follow_p, strict=True)
        ]
        if fixed.shown:
            fixed.needed = None
        elif claim.need is not None:
            fixed.needed = claim.need(ALPHA / len(claims))
        out.append(fixed)
    return out


def seat_verdicts(claims: Sequence[Claim]) -> dict[tuple[str, str], str]:
    """(variant, 'seat N') -> 'more' / 'less' / 'not shown' as the corrected claims say."""
    out = {}
    for claim in claims:
        for follow in claim.follows:
            verdict = "not shown"
            if follow.test.adjusted is not None and follow.shown:
                verdict = "above fair share" if "more" in follow.if_shown else "below fair share"
            out[(claim.variant, follow.topic)] = verdict
    return out
