"""The report's tables as a self-contained HTML page, with matplotlib plots as embedded PNGs."""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Mapping, Sequence
from typing import Any

from chaosgames.sim.summary import Rate, Summary
from chaosgames.sim.tables import Table, pct, seat_name

STYLE = """
body { font-family: sans-serif; max-width: 60em; margin: 2em auto; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
td, th { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; }
img { display: block; margin: 0.5em 0; max-width: 100%; }
figure { margin: 1em 0; }
figure svg { display: block; max-width: 100%; height: auto; }
"""


def html_table(table: Table) -> str:
    title = f"<h3>{html.escape(table.title)}</h3>" if table.title else ""
    header = table.header or ("", "")
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in table.rows)
    return f"{title}<table><tr>{head}</tr>{body}</table>"


def section(heading: str, tables: Sequence[Table], plots: Sequence[str]) -> str:
    return f"<h2>{html.escape(heading)}</h2>" + "\n".join([*map(html_table, tables), *plots])


def page(title: str, intro: str, sections: Sequence[str]) -> str:
    """A whole page; `intro` is HTML already escaped, sections too."""
    return (
        f"<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
        f"<style>{STYLE}</style></head><body>\n<h1>{html.escape(title)}</h1>"
        f"<p>{intro}</p>\n" + "\n".join(sections) + "\n</body></html>\n"
    )


def pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def png(figure: Any) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    pyplot().close(figure)
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f'<img alt="plot" src="data:image/png;base64,{data}">'


def rate_plot(title: str, rates: Mapping[str, Rate], fair: float) -> str:
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


def histogram(title: str, values: Sequence[float], xlabel: str) -> str:
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


def summary_plots(summary: Summary) -> list[str]:
    """Win rate by agent and by seat (when some game ended by the rulebook), length, lead changes;
    each titled with its variant and n (a plot copied alone still says what it shows), and a
    variant whose options change the board (a course) first shows its first position."""
    plots = []
    picture = first_position(summary.game, summary.options)
    if picture is not None:
        caption = f"<figcaption>{html.escape(summary.name)}: the first position</figcaption>"
        plots.append(f"<figure>{caption}{picture}</figure>")
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
