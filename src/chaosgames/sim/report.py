"""`report`: what a lab database says, as a Rich summary and an HTML page with plots.

Games are grouped by configuration (game and options). For each: win rate by agent and
by seat with Wilson 95% intervals against the fair share, game length, lead changes and
the comeback rate (the half-time leader by the heuristic did not win), draws, and the
games a cap decided, counted apart from the win rates. `compare` sets two option
selections side by side and tests each difference. The figures are in `summary`, the
tables in `tables`, the layouts in `render_text` and `render_html`.
"""

from __future__ import annotations

import html
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from chaosgames.core.errors import quote, shorten
from chaosgames.sim.render_html import html_table, page, summary_plots
from chaosgames.sim.render_text import print_section, rich_table
from chaosgames.sim.storage import LabError, Store
from chaosgames.sim.summary import CompareResult, Summary, compare, parse_selection, summarise
from chaosgames.sim.tables import compare_table, summary_tables


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
        where = f" for {shorten(game)}" if game else ""
        raise LabError(f"The lab database {quote(str(db))} holds no games{where} yet.")
    summaries = summarise(rows)
    comparison = compare(rows, [parse_selection(t) for t in compare_options]) if compare_options else None
    console = console or Console()
    for summary in summaries:
        print_section(console, summary.title, summary_tables(summary))
    if comparison is not None:
        console.print(rich_table(compare_table(comparison)))
    path = None
    if out is not None:
        path = Path(out)
        write_page(path, _html(summaries, comparison, str(db)))
        console.print(f"Report written to [bold]{path}[/bold].")
    return Report(summaries, comparison, path)


def check_writable(path: Path) -> None:
    """LabError now if `path` could not be written later: a folder that does not exist or
    cannot be written to, or a path that is a folder. Nothing is created or changed, so a
    long study finds out before its first game, not after its last."""
    folder, cannot = path.parent, f"Cannot write the report to {quote(str(path))}"
    if path.is_dir():
        raise LabError(f"{cannot}: it is a folder.")
    if not folder.is_dir():
        raise LabError(f"{cannot}: there is no folder {quote(str(folder))}.")
    if not os.access(path if path.exists() else folder, os.W_OK):
        raise LabError(f"{cannot}: permission denied.")


def write_page(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise LabError(f"Cannot write the report to {quote(str(path))}: {exc.strerror or exc}.") from None


def _html(summaries: Sequence[Summary], comparison: CompareResult | None, db: str) -> str:
    sections = [
        f"<h2>{html.escape(s.title)}</h2>"
        + "\n".join([*map(html_table, summary_tables(s)), *summary_plots(s)])
        for s in summaries
    ]
    if comparison is not None:
        sections.insert(
            0,
            "<p>Rates by the two-proportion z-test, means by Welch's test; significant at p &lt; 0.05.</p>"
            + html_table(compare_table(comparison)),
        )
    intro = (
        f"Database: {html.escape(db)}. Win rates count a shared win as a share and are taken over "
        "the games the rulebook ended (a game a length cap decided is counted apart); "
        "intervals are Wilson 95%. The leader is the player the game's heuristic rates highest; "
        "a comeback is a game won by someone other than the half-time leader."
    )
    return page("chaosgames lab report", intro, sections)
