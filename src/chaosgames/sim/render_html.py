"""The lab's pages in HTML, self-contained, with matplotlib plots as embedded PNGs.

The pages are Jinja2 templates (sim/templates, autoescaped); this module gives them their
blocks (tables, plots, pictures, paragraphs) and draws the plots."""

from __future__ import annotations

import base64
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

import jinja2

from chaosgames.sim.summary import Rate, Summary
from chaosgames.sim.tables import Table, pct, seat_name

PAGES = jinja2.Environment(
    loader=jinja2.PackageLoader("chaosgames.sim", "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
)
"""The lab pages' templates (sim/templates): page.html lays out the sections, blocks.html each
kind of block, report.html, book.html and sweep.html are the three pages."""


@dataclass(frozen=True, slots=True)
class Plot:
    """A matplotlib figure as an embedded PNG; `alt` says what it shows (its titles)."""

    alt: str
    png: str  # base64


@dataclass(frozen=True, slots=True)
class Picture:
    """A position drawn by its game's `render_svg` (SVG), under a caption."""

    caption: str
    svg: str


@dataclass(frozen=True, slots=True)
class Paragraph:
    """A paragraph of text, with words in bold before it where `lead` gives them."""

    text: str
    lead: str = ""


Block: TypeAlias = Table | Plot | Picture | Paragraph


@dataclass(frozen=True, slots=True)
class Section:
    """A section of a page: a heading (none if empty) and its blocks in order."""

    heading: str
    blocks: Sequence[Block]


PAGES.tests.update(
    lab_table=lambda b: isinstance(b, Table),
    plot=lambda b: isinstance(b, Plot),
    picture=lambda b: isinstance(b, Picture),
)


def render_page(template: str, title: str, sections: Sequence[Section], **context: Any) -> str:
    """The whole page `template` (report.html, book.html, sweep.html): every text escaped."""
    return PAGES.get_template(template).render(title=title, sections=sections, **context)


def pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def png(figure: Any) -> Plot:
    """The figure as a PNG, described by its panels' titles (the page's text for it)."""
    alt = "; ".join(t for t in (axes.get_title() for axes in figure.axes) if t) or "plot"
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    pyplot().close(figure)
    return Plot(alt, base64.b64encode(buffer.getvalue()).decode("ascii"))


def rate_plot(title: str, rates: Mapping[str, Rate], fair: float) -> Plot:
    plt = pyplot()
    names = list(rates)
    values = [rates[n].rate for n in names]
    # Clamped at 0: the interval's ends may miss the rate by a rounding error at 0% or 100%.
    lows = [max(0.0, rates[n].rate - rates[n].interval[0]) for n in names]
    highs = [max(0.0, rates[n].interval[1] - rates[n].rate) for n in names]
    figure, axes = plt.subplots(figsize=(6, 0.5 + 0.5 * len(names)))
    axes.barh(names, values, xerr=[lows, highs], color="#4c78a8", capsize=4)
    axes.axvline(fair, color="#e45756", linestyle="--", label=f"fair share {pct(fair)}")
    axes.set_xlim(0, 1)
    axes.set_xlabel("win rate (Wilson 95% interval)")
    axes.set_title(title)
    axes.invert_yaxis()
    axes.legend(loc="lower right")
    return png(figure)


def histogram(title: str, values: Sequence[float], xlabel: str) -> Plot:
    plt = pyplot()
    figure, axes = plt.subplots(figsize=(6, 3))
    low, high = int(min(values)), int(max(values))
    whole = all(float(v).is_integer() for v in values)
    bins: Any = list(range(low, high + 2)) if whole and high - low <= 40 else 30
    axes.hist(values, bins=bins, color="#72b7b2", edgecolor="white", align="left" if whole else "mid")
    axes.set_xlabel(xlabel)
    axes.set_ylabel("games")
    axes.set_title(title)
    return png(figure)


def summary_plots(summary: Summary) -> list[Block]:
    """Win rate by agent and by seat (when some game ended by the rulebook), length, lead changes;
    each titled with its variant and n (a plot copied alone still says what it shows), and a
    variant whose options change the board (a course) first shows its first position."""
    plots: list[Block] = []
    picture = first_position(summary.game, summary.options)
    if picture is not None:
        plots.append(Picture(f"{summary.name}: the first position", picture))
    name, ended = summary.name, f"{summary.finished} games the rulebook ended"
    if summary.finished:
        plots.append(rate_plot(f"{name}: win rate by agent ({ended})", summary.by_agent, summary.fair_share))
        seats = {seat_name(s): r for s, r in summary.by_seat.items()}
        plots.append(rate_plot(f"{name}: win rate by seat ({ended})", seats, summary.fair_share))
    lengths = summary.rounds if any(summary.rounds) else summary.actions
    plots.append(
        histogram(
            f"{name}: game length ({summary.games} games)",
            lengths,
            "rounds" if lengths is summary.rounds else "actions (no rounds)",
        )
    )
    plots.append(
        histogram(
            f"{name}: lead changes (comebacks {pct(summary.comeback_rate)} of {summary.comeback_chances})",
            summary.lead_changes,
            "lead changes",
        )
    )
    return plots


PICTURED_OPTIONS = frozenset(("course", "boards"))
"""Options that change the board: a variant with one is shown by its first position."""


def first_position(game: str, options: Mapping[str, Any]) -> str | None:
    """The variant's first position drawn (SVG with its legend) where its options change the
    board (a Chaos Cruisers course, Cardboard Machines' boards); None otherwise."""
    if not PICTURED_OPTIONS & set(options):
        return None
    from chaosgames.core import ChaosGamesError, load_game

    try:
        loaded = load_game(game, **dict(options))
        return loaded.render_svg(loaded.new_initial_state(), legend=True)
    except ChaosGamesError:
        return None
