"""The report's tables, built once from the figures; the renderers only lay them out."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from chaosgames.sim.claims import Claim
from chaosgames.sim.compare import CompareResult
from chaosgames.sim.feel import figures
from chaosgames.sim.stats import mean, wilson
from chaosgames.sim.summary import ENDINGS, Rate, Summary


@dataclass(frozen=True)
class Table:
    """A titled table of text cells; an empty header makes a two-column list of facts."""

    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


def pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def interval(rate: Rate) -> str:
    lo, hi = rate.interval
    return f"{pct(lo)} - {pct(hi)}"


def verdict(rate: Rate, fair: float) -> str:
    lo, hi = rate.interval
    if lo > fair:
        return "above fair share"
    if hi < fair:
        return "below fair share"
    return "within"


def rate_table(
    title: str,
    rates: Mapping[Any, Rate],
    fair: float,
    name: Callable[[Any], str],
    verdicts: Mapping[Any, str] | None = None,
) -> Table:
    """Win rates with their intervals; the last column is the corrected claim where
    `verdicts` gives it (see `sim.claims`), else whether the interval holds the fair share."""
    header = ("", "seat-games", "win rate", "95% interval", f"vs fair share {pct(fair)}")
    rows = tuple(
        (
            name(k),
            str(r.games),
            pct(r.rate),
            interval(r),
            verdicts.get(k, "not shown") if verdicts is not None else verdict(r, fair),
        )
        for k, r in rates.items()
    )
    return Table(title, header, rows)


def seat_name(seat: int) -> str:
    return f"seat {seat + 1}"


def facts_table(summary: Summary) -> Table:
    games = summary.games
    finished = summary.finished
    rows = [
        ("variant", summary.name),
        ("options (those not at their default)", summary.variant.description),
        ("hash of its game and options", f"v-{summary.variant.key}"),
        ("games", str(games)),
        *(
            (f"ended {ENDINGS[ending]}", f"{count} ({pct(count / games)})")
            for ending, count in sorted(summary.endings.items())
        ),
        ("draws (shared results, of rulebook ends)", f"{summary.draws} ({pct(summary.draws / finished)})")
        if finished
        else ("draws (shared results, of rulebook ends)", "-"),
        ("rounds per game", f"mean {mean(summary.rounds):.1f}, {min(summary.rounds)}-{max(summary.rounds)}"),
        ("actions per game", f"mean {mean(summary.actions):.1f}"),
        ("lead changes per game", f"mean {mean(summary.lead_changes):.2f}"),
        (
            "comeback rate",
            f"{pct(summary.comeback_rate)} of {summary.comeback_chances} games with a half-time leader",
        ),
    ]
    if summary.decisions:
        rows.append(("decisions per game", f"mean {mean(summary.decisions):.1f}"))
    if summary.branching:
        rows.append(("branching factor (legal actions per decision)", f"mean {mean(summary.branching):.1f}"))
    return Table("", (), tuple(rows))


def endings_table(summary: Summary) -> Table:
    """How the games ended, in the rulebook's words, each with its rate and interval."""
    rows = []
    for finish, count in summary.finishes.most_common():
        lo, hi = wilson(count, summary.games)
        rows.append((finish, str(count), pct(count / summary.games), f"{pct(lo)} - {pct(hi)}"))
    return Table("How the games ended", ("ending", "games", "rate", "95% interval"), tuple(rows))


def feel_table(summary: Summary) -> Table:
    """The game-feel figures (sim/feel.py), each with its interval and n."""
    rows = []
    for f in figures(summary):
        value = f.text() + (f" (SD {f.spread:.1f})" if f.spread is not None else "")
        rows.append((f.name, value, f.interval(), str(f.n)))
    return Table("How it plays", ("figure", "value", "95% interval", "games"), tuple(rows))


def luck_table(summary: Summary) -> Table | None:
    rows = []
    for hard, rate in summary.skill.items():
        rows.append(
            (f"hard ({hard}) against easy: win rate", pct(rate.rate), interval(rate), str(rate.games))
        )
    if summary.chance_pairs and summary.chance_same == summary.chance_pairs:
        rows.append(
            (
                "chance share: none, every replay with other dice played its game over move for move",
                "-",
                "-",
                str(summary.chance_pairs),
            )
        )
    elif summary.chance_pairs:
        lo, hi = wilson(summary.chance_changed, summary.chance_pairs)
        share = summary.chance_changed / summary.chance_pairs
        rows.append(
            (
                f"chance share: winner changed with other dice (a lottery: {pct(1 - summary.fair_share)})",
                pct(share),
                f"{pct(lo)} - {pct(hi)}",
                str(summary.chance_pairs),
            )
        )
    if not rows:
        return None
    return Table("Luck and skill", ("figure", "value", "95% interval", "games"), tuple(rows))


def summary_tables(summary: Summary, claims: Sequence[Claim] = ()) -> list[Table]:
    """The facts, how games ended, how it plays, luck and skill, the win rate by agent and
    by seat (rulebook ends only; the seats' verdicts as the corrected claims give them)."""
    fair = summary.fair_share
    seats = None
    mine = [c for c in claims if c.variant == summary.name and c.topic == "seat balance"]
    if mine:
        seats = {}
        for follow in mine[0].follows:
            seat = int(follow.topic.split()[1]) - 1
            shown = mine[0].shown and follow.test.adjusted is not None and follow.shown
            seats[seat] = (
                ("above" if follow.test.estimate > fair else "below") + " fair share"
                if shown
                else "not shown"
            )
    tables = [facts_table(summary), endings_table(summary), feel_table(summary)]
    luck = luck_table(summary)
    if luck is not None:
        tables.append(luck)
    tables += [
        rate_table("Win rate by agent", summary.by_agent, fair, str),
        rate_table("Win rate by seat", summary.by_seat, fair, seat_name, seats),
    ]
    return tables


def claims_table(claims: Sequence[Claim], title: str = "Claims (Holm's correction over the report)") -> Table:
    """Every claim with its test: n, p, Holm's p, and the games it would need."""
    rows = []
    for claim in claims:
        for c in [claim, *(claim.follows if claim.shown else [])]:
            t = c.test
            rows.append(
                (
                    c.variant,
                    c.topic,
                    c.if_shown if c.shown else c.if_not,
                    str(t.n),
                    f"{t.p_value:.3f}",
                    f"{t.adjusted:.3f}" if t.adjusted is not None else "-",
                    "yes" if c.shown else "no",
                    f"{c.needed:,}" if c.needed is not None and not c.shown else "-",
                )
            )
    header = ("variant", "claim", "what the data say", "n", "p", "Holm p", "shown", "games needed")
    return Table(title, header, tuple(rows))


def compare_table(result: CompareResult) -> Table:
    a, b = result.labels
    rows = []
    for line in result.lines:
        t = line.test
        show: Callable[[float], str] = pct if line.percent else (lambda v: f"{v:.2f}")
        if line.percent:  # a difference of two shares lies between -100 and +100 points
            low, high = max(-1.0, t.low), min(1.0, t.high)
            diff = f"{100 * t.estimate:+.1f} pts ({100 * low:+.1f} to {100 * high:+.1f})"
        else:
            diff = f"{t.estimate:+.2f} ({t.low:+.2f} to {t.high:+.2f})"
        rows.append(
            (
                line.metric,
                show(line.a),
                show(line.b),
                diff.replace("inf", "∞"),
                str(t.n),
                t.name,
                f"{t.p_value:.3f}",
                f"{t.adjusted:.3f}" if t.adjusted is not None else "-",
                "yes" if t.significant else "no",
                f"{line.needed:,}" if line.needed is not None else "-",
            )
        )
    how = f"{result.paired} pairs in common random numbers" if result.paired else "unpaired"
    header = (
        "",
        f"{a} ({result.sizes[0]} games)",
        f"{b} ({result.sizes[1]} games)",
        "difference (95% interval)",
        "n",
        "test",
        "p",
        "Holm p",
        "shown",
        "pairs needed" if result.paired else "games needed per variant",
    )
    return Table(f"Comparison: {a} vs {b} ({how})", header, tuple(rows))
