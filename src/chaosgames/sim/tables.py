"""The report's tables, built once from the figures; the renderers only lay them out."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from chaosgames.sim.stats import mean
from chaosgames.sim.summary import ENDINGS, CompareResult, Rate, Summary


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


def rate_table(title: str, rates: Mapping[Any, Rate], fair: float, name: Callable[[Any], str]) -> Table:
    header = ("", "seat-games", "win rate", "95% interval", f"vs fair share {pct(fair)}")
    rows = tuple(
        (name(k), str(r.games), pct(r.rate), interval(r), verdict(r, fair)) for k, r in rates.items()
    )
    return Table(title, header, rows)


def seat_name(seat: int) -> str:
    return f"seat {seat + 1}"


def facts_table(summary: Summary) -> Table:
    games = summary.games
    finished = summary.finished
    rows = [
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


def summary_tables(summary: Summary) -> list[Table]:
    """The facts, the win rate by agent and by seat (rulebook ends only)."""
    fair = summary.fair_share
    return [
        facts_table(summary),
        rate_table("Win rate by agent", summary.by_agent, fair, str),
        rate_table("Win rate by seat", summary.by_seat, fair, seat_name),
    ]


def compare_table(result: CompareResult) -> Table:
    a, b = result.labels
    rows = []
    for line in result.lines:
        c = line.comparison
        show: Callable[[float], str] = pct if line.percent else (lambda v: f"{v:.2f}")
        diff = f"{100 * c.difference:+.1f} pts" if line.percent else f"{c.difference:+.2f}"
        rows.append(
            (line.metric, show(c.a), show(c.b), diff, f"{c.p_value:.3f}", "yes" if c.significant else "no")
        )
    header = (
        "",
        f"{a} ({result.sizes[0]} games)",
        f"{b} ({result.sizes[1]} games)",
        "difference",
        "p-value",
        "significant (5%)",
    )
    return Table(f"Comparison: {a} vs {b}", header, tuple(rows))
