"""`sweep`: one game played over a grid of option values, each figure plotted against them.

`chaosgames sweep GAME --seat ... --option laps=1..3 --option coin_retrieval=sun,never` plays
every combination of the values as its own job with the same seed: game i of every grid
point has the same dice seed and agent seeds (common random numbers), so the differences
between points are less blurred by luck. Each point's figures come with their 95% intervals
(`sim.feel`); plots show each figure against the first swept option with its band. With
targets (`balance>=0.9`, `minutes=20..40`), the points that meet them are named, both by
their estimate and by their whole interval.

A grid serves the few options a designer sweeps at once; a search over many (Optuna, say)
would need far more games per point than a study budget holds to rank the points honestly.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from chaosgames.core.errors import quote
from chaosgames.sim.feel import SECONDS_PER_DECISION, Figure, balance, balance_interval, within_range
from chaosgames.sim.jobs import Job, LabSettings
from chaosgames.sim.lab import simulate
from chaosgames.sim.render_html import Plot, png, pyplot
from chaosgames.sim.stats import _t_interval, bootstrap_interval, percentile, wilson
from chaosgames.sim.storage import LabError, LabStore
from chaosgames.sim.summary import Summary, summarise
from chaosgames.sim.tables import Table
from chaosgames.sim.variants import read_json_file, shown_value, split_top_level

MAX_POINTS = 200
"""The most grid points one sweep plays (a typing slip in a range is not a million jobs)."""

_RANGE = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*\.\.\s*(-?\d+(?:\.\d+)?)\s*(?::\s*(\d+(?:\.\d+)?)\s*)?$")


def parse_values(key: str, text: str) -> list[Any]:
    """'1,2,3', '1..5', '10..40:10', 'grand-loop,@long.json': the values of one option."""
    found = _RANGE.match(text)
    if found:
        return _range(key, *found.groups())
    if ".." in text and not text.lstrip().startswith(("{", "[", '"')):
        raise LabError(
            f"Cannot read the range {quote(text)} of option {key}: write start..stop or start..stop:step "
            "with numbers (e.g. laps=1..3, goal=10..40:10)."
        )
    values = []
    for part in split_top_level(text):
        value = part.strip()
        if not value:
            raise LabError(f"The values of option {key} have an empty one in {quote(text)}.")
        values.append(read_json_file(value[1:], "option file") if value.startswith("@") else value)
    return values


def _range(key: str, start: str, stop: str, step: str | None) -> list[Any]:
    whole = all(s is None or "." not in s for s in (start, stop, step))
    a, b = float(start), float(stop)
    d = float(step) if step is not None else 1.0
    if d <= 0:
        raise LabError(f"The step of option {key}'s range must be more than 0, not {step}.")
    if b < a:
        raise LabError(
            f"Option {key}'s range {start}..{stop} runs backwards: write the smaller number first."
        )
    count = math.floor((b - a) / d + 1e-9) + 1
    if count > MAX_POINTS:
        raise LabError(
            f"Option {key}'s range {start}..{stop} has {count:,} values; a sweep takes at most {MAX_POINTS}."
        )
    values = [a + i * d for i in range(count)]
    return [str(round(v)) if whole else f"{v:g}" for v in values]


def parse_grid(pairs: Sequence[str]) -> tuple[dict[str, list[Any]], dict[str, Any]]:
    """`--option` pairs as the swept options (several values) and the fixed ones."""
    swept: dict[str, list[Any]] = {}
    fixed: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        key = key.strip()
        if not sep or not key or not text.strip():
            raise LabError(f"Options are given as key=value or key=a,b,c or key=1..5, not {quote(pair)}.")
        if key in swept or key in fixed:
            raise LabError(f"The option {quote(key)} is given twice.")
        values = parse_values(key, text.strip())
        if len(values) > 1:
            swept[key] = values
        else:
            fixed[key] = values[0]
    if not swept:
        raise LabError(
            "A sweep needs an option with several values, e.g. --option laps=1,2,3 "
            "or --option goal=10..40:10."
        )
    points = math.prod(len(v) for v in swept.values())
    if points > MAX_POINTS:
        raise LabError(f"The grid has {points:,} points; a sweep takes at most {MAX_POINTS}.")
    return swept, fixed


METRICS: dict[str, str] = {
    "balance": "balance (1 - seat win-rate range)",
    "completion": "completion (ended by the rulebook)",
    "draws": "natural draws",
    "minutes": f"median table minutes at {SECONDS_PER_DECISION} s a decision",
    "decisions": "decisions per game",
    "lead_changes": "lead changes per game",
    "drama": "drama",
    "decisiveness": "winner clear from (share of the game)",
    "real_decisions": "real decisions",
    "first_player": "first-player advantage",
}
"""What a sweep measures at every point, by the names targets use."""


def point_figures(summary: Summary) -> dict[str, Figure]:
    """The sweep's figures of one grid point, each with its interval."""
    out: dict[str, Figure] = {}
    finished = [r.returns for r in summary.rows if r.ended_by_rules and r.returns is not None]
    lo, hi = wilson(summary.finished, summary.games)
    out["completion"] = Figure(
        METRICS["completion"], summary.finished / summary.games, lo, hi, summary.games, True
    )
    if finished:
        lo, hi = wilson(summary.draws, len(finished))
        out["draws"] = Figure(METRICS["draws"], summary.draws / len(finished), lo, hi, len(finished), True)
        lo, hi = balance_interval(finished)
        out["balance"] = Figure(METRICS["balance"], balance(finished), lo, hi, len(finished), True)
        first = summary.by_seat.get(0)
        if first is not None and first.games:
            lo, hi = first.interval
            fair = summary.fair_share
            out["first_player"] = Figure(
                METRICS["first_player"], first.rate - fair, lo - fair, hi - fair, first.games, True
            )
    if summary.decisions:
        minutes = [d * SECONDS_PER_DECISION / 60 for d in summary.decisions]
        lo, hi = bootstrap_interval(minutes, lambda v: percentile(v, 0.5))
        out["minutes"] = Figure(METRICS["minutes"], percentile(minutes, 0.5), lo, hi, len(minutes))
        out["decisions"] = _mean_figure("decisions", [float(d) for d in summary.decisions])
    out["lead_changes"] = _mean_figure("lead_changes", [float(v) for v in summary.lead_changes])
    feel = summary.feel
    for name, values, percent in (
        ("drama", [f["drama"] for f in feel if f.get("drama") is not None], False),
        ("decisiveness", [f["decided_at"] for f in feel if f.get("decided_at") is not None], True),
        ("real_decisions", [f["real"] / f["judged"] for f in feel if f.get("judged")], True),
    ):
        if values:
            out[name] = _mean_figure(name, values, percent)
    return out


def _mean_figure(name: str, values: Sequence[float], percent: bool = False) -> Figure:
    m, lo, hi = within_range(*_t_interval(values), percent)
    return Figure(METRICS[name], m, lo, hi, len(values), percent)


@dataclass(frozen=True)
class Target:
    """A figure's wanted range: `balance>=0.9`, `minutes=20..40`, `drama<=0.1`."""

    metric: str
    low: float
    high: float
    text: str

    def met(self, figure: Figure | None, whole_interval: bool) -> bool:
        if figure is None:
            return False
        if whole_interval:
            return self.low <= figure.low and figure.high <= self.high
        return self.low <= figure.value <= self.high


_NUMBER = r"-?[0-9]+(?:\.[0-9]+)?"
_TARGET = re.compile(rf"^\s*([a-z_]+)\s*(>=|<=|=)\s*({_NUMBER})\s*(?:\.\.\s*({_NUMBER}))?\s*$")


def parse_target(text: str) -> Target:
    found = _TARGET.match(text)
    names = ", ".join(METRICS)
    if not found:
        raise LabError(
            f"Cannot read the target {quote(text)}: write figure>=x, figure<=x or figure=a..b "
            f"(e.g. balance>=0.9, minutes=20..40); the figures are {names}."
        )
    metric, op, first, second = found.groups()
    if metric not in METRICS:
        raise LabError(f"There is no figure {quote(metric)} to aim at; the figures are {names}.")
    try:
        a = float(first)
        b = float(second) if second is not None else None
    except ValueError:
        raise LabError(f"Cannot read the numbers of the target {quote(text)}.") from None
    if op == "=":
        if b is None:
            raise LabError(f"The target {quote(text)} gives a range as a..b (e.g. minutes=20..40).")
        if b < a:
            raise LabError(f"The target {quote(text)} runs backwards: write the smaller number first.")
        return Target(metric, a, b, text.strip())
    if b is not None:
        raise LabError(
            f"The target {quote(text)} gives a bound with >= or <=, a range with = (minutes=20..40)."
        )
    return (
        Target(metric, a, math.inf, text.strip())
        if op == ">="
        else Target(metric, -math.inf, a, text.strip())
    )


@dataclass
class SweepPoint:
    values: dict[str, Any]
    summary: Summary
    figures: dict[str, Figure]
    meets: bool | None = None
    """Meets every target by its estimate (None without targets)."""
    meets_surely: bool | None = None
    """Meets every target with its whole 95% interval."""

    @property
    def name(self) -> str:
        return ", ".join(f"{k}={shown_value(v)}" for k, v in self.values.items())


@dataclass
class SweepResult:
    game: str
    swept: dict[str, list[Any]]
    fixed: dict[str, Any]
    points: list[SweepPoint]
    targets: list[Target] = field(default_factory=list)


def sweep(
    game: str,
    seats: Sequence[str],
    games: int,
    option_pairs: Sequence[str],
    settings: LabSettings,
    *,
    targets: Sequence[str] = (),
    on_point: Callable[[int, int], None] | None = None,
) -> SweepResult:
    """Play the grid (resumable: each point is a job) and read its figures back."""
    swept, fixed = parse_grid(option_pairs)
    wanted = [parse_target(t) for t in targets]
    grid = [dict(zip(swept, combo, strict=True)) for combo in itertools.product(*swept.values())]
    jobs = []
    for values in grid:
        options = {**dict(settings.options), **fixed, **values}
        jobs.append(Job.build(game, seats, settings.seed, options, settings.max_actions))
    points = []
    for number, (values, job) in enumerate(zip(grid, jobs, strict=True), start=1):
        point_settings = LabSettings(
            db=settings.db,
            seed=settings.seed,
            options=dict(job.options),
            workers=settings.workers,
            backend=settings.backend,
            max_actions=settings.max_actions,
        )
        simulate(game, seats, games, point_settings)
        with LabStore(settings.db) as store:
            rows = [r for r in store.rows("WHERE job = ?", (job.key,)) if r.idx < games]
        (summary,) = summarise(rows)
        point = SweepPoint(values, summary, point_figures(summary))
        if wanted:
            point.meets = all(t.met(point.figures.get(t.metric), False) for t in wanted)
            point.meets_surely = all(t.met(point.figures.get(t.metric), True) for t in wanted)
        points.append(point)
        if on_point is not None:
            on_point(number, len(grid))
    return SweepResult(jobs[0].game, swept, fixed, points, wanted)


def sweep_table_rows(result: SweepResult) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The sweep as one table: a row per point, a column per figure (value and interval)."""
    shown = [m for m in METRICS if any(m in p.figures for p in result.points)]
    header = ("point", "games", *shown)
    if result.targets:
        header = (*header, "meets the targets (estimate / whole interval)")
    rows = []
    for p in result.points:
        cells = [p.name, str(p.summary.games)]
        for m in shown:
            f = p.figures.get(m)
            cells.append("-" if f is None else f"{f.text()} ({f.interval()})")
        if result.targets:
            cells.append(f"{'yes' if p.meets else 'no'} / {'yes' if p.meets_surely else 'no'}")
        rows.append(tuple(cells))
    return header, rows


TRANSPOSED_POINTS = 5
"""A sweep of at most this many points is shown a column per point (it fits a terminal)."""


def sweep_table(result: SweepResult) -> Table:
    """The sweep as one table: a row per figure and a column per point when the points are
    few (read across, a figure against the option), else a row per point."""
    header, rows = sweep_table_rows(result)
    title = "Sweep: " + describe_grid(result.swept)
    if len(result.points) > TRANSPOSED_POINTS:
        return Table(title, header, tuple(rows))
    columns = list(zip(header, *rows, strict=True))
    turned = [(METRICS.get(c[0], c[0]), *c[1:]) for c in columns[1:]]
    return Table(title, ("figure (95% interval)", *columns[0][1:]), tuple(turned))


def sweep_plots(result: SweepResult) -> list[Plot]:
    """Each figure against the first swept option, with its 95% band (one line per value of
    the other swept options)."""
    plt = pyplot()
    first = next(iter(result.swept))
    others = [k for k in result.swept if k != first]
    labels = [shown_value(v) for v in result.swept[first]]
    plots = []
    for metric, title in METRICS.items():
        if not any(metric in p.figures for p in result.points):
            continue
        figure, axes = plt.subplots(figsize=(6, 3))
        series: dict[str, list[SweepPoint]] = {}
        for p in result.points:
            series.setdefault(
                ", ".join(f"{k}={shown_value(p.values[k])}" for k in others) or "all", []
            ).append(p)
        for name, points in series.items():
            xs = list(range(len(points)))
            figs = [p.figures.get(metric) for p in points]
            ys = [f.value if f else math.nan for f in figs]
            lows = [f.low if f and math.isfinite(f.low) else math.nan for f in figs]
            highs = [f.high if f and math.isfinite(f.high) else math.nan for f in figs]
            axes.plot(xs, ys, marker="o", label=name)
            axes.fill_between(xs, lows, highs, alpha=0.2)
        for target in result.targets:
            if target.metric == metric:
                for bound in (target.low, target.high):
                    if math.isfinite(bound):
                        axes.axhline(bound, color="#e45756", linestyle="--", linewidth=1)
        axes.set_xticks(range(len(labels)), labels=labels)
        axes.set_xlabel(first)
        axes.set_title(f"{title} (95% band)")
        if others:
            axes.legend(fontsize=7)
        plots.append(png(figure))
    return plots


def describe_grid(swept: Mapping[str, list[Any]]) -> str:
    return "; ".join(f"{k}: {', '.join(shown_value(v) for v in values)}" for k, values in swept.items())
