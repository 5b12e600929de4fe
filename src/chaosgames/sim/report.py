"""`report`: what a lab database says, as a Rich summary and an HTML page with plots.

Games are grouped by configuration (game and options). For each: win rate by agent and
by seat with Wilson 95% intervals against the fair share, game length, lead changes and
the comeback rate (the half-time leader by the heuristic did not win), draws and capped
games. `compare` sets two option selections side by side and tests each difference.
"""

from __future__ import annotations

import base64
import html
import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from chaosgames.sim.stats import Comparison, mean, two_means, two_proportions, wilson
from chaosgames.sim.storage import LabError, Store


@dataclass
class Rate:
    """A win rate: shares of wins over seat-games, with its Wilson 95% interval."""

    wins: float = 0.0
    games: int = 0

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)


@dataclass
class Summary:
    """The figures of one configuration (a game with one set of options)."""

    game: str
    options: dict[str, Any]
    players: int
    games: int = 0
    capped: int = 0
    draws: int = 0
    by_agent: dict[str, Rate] = field(default_factory=dict)
    by_seat: dict[int, Rate] = field(default_factory=dict)
    rounds: list[int] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    lead_changes: list[int] = field(default_factory=list)
    comebacks: int = 0
    comeback_chances: int = 0
    """Games with a single winner and a half-time leader."""

    @property
    def fair_share(self) -> float:
        return 1.0 / self.players

    @property
    def finished(self) -> int:
        return self.games - self.capped

    @property
    def title(self) -> str:
        return f"{self.game} {json.dumps(self.options, sort_keys=True)}"

    def add(self, row: Mapping[str, Any]) -> None:
        self.games += 1
        self.rounds.append(row["rounds"])
        self.actions.append(row["actions"])
        self.lead_changes.append(row["lead_changes"])
        if row["capped"]:
            self.capped += 1
            return
        if row["winner"] is None:
            self.draws += 1
        elif row["leader_at_half"] is not None:
            self.comeback_chances += 1
            self.comebacks += row["winner"] != row["leader_at_half"]
        for seat, (agent, share) in enumerate(zip(row["seats"], row["returns"], strict=True)):
            for rate in (self.by_agent.setdefault(agent, Rate()), self.by_seat.setdefault(seat, Rate())):
                rate.wins += share
                rate.games += 1


def summarise(rows: Sequence[Mapping[str, Any]]) -> list[Summary]:
    """One summary per configuration, in the order first met."""
    groups: dict[str, Summary] = {}
    for row in rows:
        key = json.dumps([row["game"], row["options"]], sort_keys=True)
        summary = groups.get(key)
        if summary is None:
            summary = groups[key] = Summary(row["game"], row["options"], len(row["seats"]))
        summary.add(row)
    return list(groups.values())


# -- comparisons ---------------------------------------------------------------------------


def parse_selection(text: str) -> dict[str, str]:
    """'players=3,goal=20' -> {'players': '3', 'goal': '20'}."""
    selection: dict[str, str] = {}
    for item in text.split(","):
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise LabError(
                f"Cannot read {item.strip()!r} in --compare {text!r}: write option=value, "
                "several separated by commas (e.g. --compare players=3 --compare players=4)."
            )
        selection[key.strip()] = value.strip()
    return selection


def _matches(options: Mapping[str, Any], selection: Mapping[str, str]) -> bool:
    for key, wanted in selection.items():
        value = options.get(key)
        text = value if isinstance(value, str) else json.dumps(value)
        if text.casefold() != wanted.casefold():
            return False
    return True


@dataclass
class CompareLine:
    metric: str
    comparison: Comparison
    percent: bool


@dataclass
class CompareResult:
    labels: tuple[str, str]
    sizes: tuple[int, int]
    lines: list[CompareLine]


def compare(rows: Sequence[Mapping[str, Any]], selections: Sequence[Mapping[str, str]]) -> CompareResult:
    """Two option selections side by side; each difference tested at the 5% level."""
    if len(selections) != 2:
        raise LabError(
            "--compare takes exactly two option sets, e.g. --compare players=3 --compare players=4."
        )
    known = {key for row in rows for key in row["options"]}
    for selection in selections:
        unknown = sorted(set(selection) - known)
        if unknown:
            raise LabError(
                f"No stored game has option {', '.join(unknown)}; the options are {', '.join(sorted(known))}."
            )
    chosen = [[r for r in rows if _matches(r["options"], s)] for s in selections]
    labels = tuple(",".join(f"{k}={v}" for k, v in s.items()) for s in selections)
    for label, group in zip(labels, chosen, strict=True):
        if not group:
            raise LabError(f"No stored game matches {label}.")
        if len({r["game"] for r in group}) > 1:
            raise LabError(f"Games of several kinds match {label}; add --game to pick one.")
    a, b = (_pooled(group) for group in chosen)
    lines: list[CompareLine] = []
    for agent in sorted(set(a.by_agent) | set(b.by_agent)):
        ra, rb = a.by_agent.get(agent, Rate()), b.by_agent.get(agent, Rate())
        lines.append(
            CompareLine(f"win rate of {agent}", two_proportions(ra.wins, ra.games, rb.wins, rb.games), True)
        )
    for seat in sorted(set(a.by_seat) | set(b.by_seat)):
        ra, rb = a.by_seat.get(seat, Rate()), b.by_seat.get(seat, Rate())
        label = f"win rate of seat {seat + 1}"
        lines.append(CompareLine(label, two_proportions(ra.wins, ra.games, rb.wins, rb.games), True))
    lines.append(CompareLine("draws", two_proportions(a.draws, a.games, b.draws, b.games), True))
    lines.append(CompareLine("capped games", two_proportions(a.capped, a.games, b.capped, b.games), True))
    lines.append(
        CompareLine(
            "comebacks",
            two_proportions(a.comebacks, a.comeback_chances, b.comebacks, b.comeback_chances),
            True,
        )
    )
    lines.append(CompareLine("rounds per game", two_means(a.rounds, b.rounds), False))
    lines.append(CompareLine("actions per game", two_means(a.actions, b.actions), False))
    lines.append(CompareLine("lead changes", two_means(a.lead_changes, b.lead_changes), False))
    return CompareResult((labels[0], labels[1]), (a.games, b.games), lines)


def _pooled(rows: Sequence[Mapping[str, Any]]) -> Summary:
    summary = Summary(rows[0]["game"], {}, len(rows[0]["seats"]))
    for row in rows:
        summary.add(row)
    return summary


# -- output ----------------------------------------------------------------------------------


@dataclass
class Report:
    summaries: list[Summary]
    comparison: CompareResult | None
    html_path: Path | None


def report(
    db: str | Path,
    out: str | Path | None = None,
    *,
    compare_options: Sequence[str] = (),
    game: str | None = None,
    console: Console | None = None,
) -> Report:
    """Summarise `db` on the console and, if `out` is given, in an HTML page with plots."""
    with Store(db, create=False) as store:
        rows = store.rows("WHERE game = ?", (game,)) if game else store.rows()
    if not rows:
        where = f" for {game}" if game else ""
        raise LabError(f"The lab database {str(db)!r} holds no games{where} yet.")
    summaries = summarise(rows)
    comparison = compare(rows, [parse_selection(t) for t in compare_options]) if compare_options else None
    console = console or Console()
    for summary in summaries:
        _print_summary(console, summary)
    if comparison is not None:
        console.print(_compare_table(comparison))
    path = None
    if out is not None:
        path = Path(out)
        try:
            path.write_text(_html(summaries, comparison, str(db)), encoding="utf-8")
        except OSError as exc:
            raise LabError(f"Cannot write the report to {str(out)!r}: {exc.strerror}.") from None
        console.print(f"Report written to [bold]{path}[/bold].")
    return Report(summaries, comparison, path)


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _interval(rate: Rate) -> str:
    lo, hi = rate.interval
    return f"{_pct(lo)} - {_pct(hi)}"


def _verdict(rate: Rate, fair: float) -> str:
    lo, hi = rate.interval
    if lo > fair:
        return "above fair share"
    if hi < fair:
        return "below fair share"
    return "within"


def _rate_table(title: str, rates: Mapping[Any, Rate], fair: float, name: Any) -> Table:
    table = Table(title=title)
    for column in ("", "seat-games", "win rate", "95% interval", f"vs fair share {_pct(fair)}"):
        table.add_column(column)
    for key, rate in rates.items():
        table.add_row(name(key), str(rate.games), _pct(rate.rate), _interval(rate), _verdict(rate, fair))
    return table


def _facts(summary: Summary) -> list[tuple[str, str]]:
    comeback = summary.comebacks / summary.comeback_chances if summary.comeback_chances else 0.0
    return [
        ("games", str(summary.games)),
        ("draws (shared results)", f"{summary.draws} ({_pct(summary.draws / summary.games)})"),
        ("capped (no result)", f"{summary.capped} ({_pct(summary.capped / summary.games)})"),
        ("rounds per game", f"mean {mean(summary.rounds):.1f}, {min(summary.rounds)}-{max(summary.rounds)}"),
        ("actions per game", f"mean {mean(summary.actions):.1f}"),
        ("lead changes per game", f"mean {mean(summary.lead_changes):.2f}"),
        ("comeback rate", f"{_pct(comeback)} of {summary.comeback_chances} games with a half-time leader"),
    ]


def _print_summary(console: Console, summary: Summary) -> None:
    console.rule(f"[bold]{summary.title}")
    facts = Table(show_header=False)
    for key, value in _facts(summary):
        facts.add_row(key, value)
    console.print(facts)
    console.print(_rate_table("Win rate by agent", summary.by_agent, summary.fair_share, str))
    console.print(
        _rate_table("Win rate by seat", summary.by_seat, summary.fair_share, lambda s: f"seat {s + 1}")
    )


def _compare_table(result: CompareResult) -> Table:
    a, b = result.labels
    table = Table(title=f"Comparison: {a} ({result.sizes[0]} games) vs {b} ({result.sizes[1]} games)")
    for column in ("", a, b, "difference", "p-value", "significant (5%)"):
        table.add_column(column)
    for line in result.lines:
        c = line.comparison
        show = _pct if line.percent else (lambda v: f"{v:.2f}")
        diff = f"{100 * c.difference:+.1f} pts" if line.percent else f"{c.difference:+.2f}"
        table.add_row(
            line.metric, show(c.a), show(c.b), diff, f"{c.p_value:.3f}", "yes" if c.significant else "no"
        )
    return table


# -- HTML ------------------------------------------------------------------------------------


def _png(figure: Any) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(figure)
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f'<img alt="plot" src="data:image/png;base64,{data}">'


def _rate_plot(title: str, rates: Mapping[str, Rate], fair: float) -> str:
    import matplotlib.pyplot as plt

    names = list(rates)
    values = [rates[n].rate for n in names]
    # Clamped at 0: the interval's ends may miss the rate by a rounding error at 0% or 100%.
    lows = [max(0.0, rates[n].rate - rates[n].interval[0]) for n in names]
    highs = [max(0.0, rates[n].interval[1] - rates[n].rate) for n in names]
    figure, axes = plt.subplots(figsize=(6, 0.5 + 0.5 * len(names)))
    axes.barh(names, values, xerr=[lows, highs], color="#4c78a8", capsize=4)
    axes.axvline(fair, color="#e45756", linestyle="--", label=f"fair share {_pct(fair)}")
    axes.set_xlim(0, 1)
    axes.set_xlabel("win rate (Wilson 95% interval)")
    axes.set_title(title)
    axes.invert_yaxis()
    axes.legend(loc="lower right")
    return _png(figure)


def _histogram(title: str, values: Sequence[int], xlabel: str) -> str:
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6, 3))
    low, high = min(values), max(values)
    bins = list(range(low, high + 2)) if high - low <= 40 else 30
    axes.hist(values, bins=bins, color="#72b7b2", edgecolor="white", align="left")
    axes.set_xlabel(xlabel)
    axes.set_ylabel("games")
    axes.set_title(title)
    return _png(figure)


def _html_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _rate_rows(rates: Mapping[Any, Rate], fair: float, name: Any) -> list[list[str]]:
    return [[name(k), str(r.games), _pct(r.rate), _interval(r), _verdict(r, fair)] for k, r in rates.items()]


def _html_summary(summary: Summary) -> str:
    import matplotlib

    matplotlib.use("Agg")
    header = ["", "seat-games", "win rate", "95% interval", f"vs fair share {_pct(summary.fair_share)}"]
    lengths = summary.rounds if any(summary.rounds) else summary.actions
    comeback = summary.comebacks / summary.comeback_chances if summary.comeback_chances else 0.0
    parts = [
        f"<h2>{html.escape(summary.title)}</h2>",
        _html_table(["", ""], _facts(summary)),
        "<h3>Win rate by agent</h3>",
        _html_table(header, _rate_rows(summary.by_agent, summary.fair_share, str)),
        "<h3>Win rate by seat</h3>",
        _html_table(header, _rate_rows(summary.by_seat, summary.fair_share, lambda s: f"seat {s + 1}")),
    ]
    if summary.finished:
        parts.append(_rate_plot("Win rate by agent", summary.by_agent, summary.fair_share))
        seats = {f"seat {s + 1}": r for s, r in summary.by_seat.items()}
        parts.append(_rate_plot("Win rate by seat", seats, summary.fair_share))
    parts.append(
        _histogram("Game length", lengths, "rounds" if lengths is summary.rounds else "actions (no rounds)")
    )
    parts.append(
        _histogram(f"Lead changes (comeback rate {_pct(comeback)})", summary.lead_changes, "lead changes")
    )
    return "\n".join(parts)


def _html_comparison(result: CompareResult) -> str:
    a, b = result.labels
    rows = []
    for line in result.lines:
        c = line.comparison
        show = _pct if line.percent else (lambda v: f"{v:.2f}")
        diff = f"{100 * c.difference:+.1f} pts" if line.percent else f"{c.difference:+.2f}"
        rows.append(
            [line.metric, show(c.a), show(c.b), diff, f"{c.p_value:.3f}", "yes" if c.significant else "no"]
        )
    header = ["", f"{a} ({result.sizes[0]} games)", f"{b} ({result.sizes[1]} games)"]
    return (
        f"<h2>Comparison: {html.escape(a)} vs {html.escape(b)}</h2>"
        "<p>Rates by the two-proportion z-test, means by Welch's test; significant at p &lt; 0.05.</p>"
        + _html_table([*header, "difference", "p-value", "significant (5%)"], rows)
    )


STYLE = """
body { font-family: sans-serif; max-width: 60em; margin: 2em auto; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
td, th { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; }
img { display: block; margin: 0.5em 0; }
"""


def _html(summaries: Sequence[Summary], comparison: CompareResult | None, db: str) -> str:
    sections = [_html_summary(s) for s in summaries]
    if comparison is not None:
        sections.insert(0, _html_comparison(comparison))
    return (
        "<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>chaosgames lab report</title>"
        f"<style>{STYLE}</style></head><body>\n<h1>chaosgames lab report</h1>"
        f"<p>Database: {html.escape(db)}. Win rates count a shared win as a share; "
        "intervals are Wilson 95%. The leader is the player the game's heuristic rates highest; "
        "a comeback is a game won by someone other than the half-time leader.</p>\n"
        + "\n".join(sections)
        + "\n</body></html>\n"
    )
