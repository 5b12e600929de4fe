"""`report`: what a lab database says, as a Rich summary and, when asked, an HTML page with plots.

Games are grouped by variant (game and options, named by label or hash: `sim.variants`).
For each: how games ended, how it plays (`sim.feel`), luck and skill where the database
holds rerolled replays and hard-against-easy games, win rate by agent and by seat with
Wilson 95% intervals. The claims (seat balance, skill, chance, the player) are tested and
corrected together (`sim.claims`). `--compare` sets two variants side by side, paired
where they share their dice (`sim.compare`). The tables are in `tables`, the layouts in
`render_text` and `render_html`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console

from chaosgames.core.errors import quote, shorten
from chaosgames.sim.claims import Claim, correct, summary_claims
from chaosgames.sim.compare import CompareResult, compare_variants
from chaosgames.sim.render_html import Section, render_page, summary_plots
from chaosgames.sim.render_text import print_section, rich_table
from chaosgames.sim.storage import LabError, LabStore
from chaosgames.sim.summary import Summary, summarise
from chaosgames.sim.tables import claims_table, compare_table, summary_tables
from chaosgames.sim.variants import parse_selection, resolve


@dataclass
class Report:
    summaries: list[Summary]
    comparison: CompareResult | None
    html_path: Path | None
    claims: list[Claim]


def report(
    db: str | Path,
    out: str | Path | None = None,
    *,
    compare_options: Sequence[str | Mapping[str, Any]] = (),
    game: str | None = None,
    console: Console | None = None,
) -> Report:
    """Summarise `db` on the console and, if `out` is given, in an HTML page with plots.

    `compare_options` names two variants, each by label or hash, '@variant.json', option
    text ('course=@long.json,laps=3') or a mapping of options."""
    if compare_options and len(compare_options) != 2:
        raise LabError(
            "--compare takes exactly two option sets or variant names, e.g. --compare players=3 "
            "--compare players=4, or --compare grand-loop --compare long-oval."
        )
    selections = [parse_selection(t) for t in compare_options]
    with LabStore(db, create=False) as store:
        rows = store.rows("WHERE game = ?", (game,)) if game else store.rows()
        labels = store.labels()
        jobs = store.jobs()
    if not rows:
        where = f" for {shorten(game)}" if game else ""
        raise LabError(f"The lab database {quote(str(db))} holds no games{where} yet.")
    summaries = summarise(rows, labels, jobs)
    comparison = None
    if selections:
        variants = [s.variant for s in summaries]
        chosen = [resolve(s, variants) for s in selections]
        sides = [next(s for s in summaries if s.variant.key == v.key) for v in chosen]
        comparison = compare_variants(sides[0].rows, sides[1].rows, (chosen[0], chosen[1]), jobs)
    claims = correct([c for s in summaries for c in summary_claims(s)])
    console = console or Console()
    for summary in summaries:
        print_section(console, summary.title, summary_tables(summary, claims))
    if claims:
        console.print(rich_table(claims_table(claims)))
    if comparison is not None:
        console.print(rich_table(compare_table(comparison)))
        for line in comparison.disagreements:
            console.print(line, highlight=False)
    path = None
    if out is not None:
        path = Path(out)
        write_page(path, _html(summaries, comparison, claims, str(db)))
        console.print(f"Report written to [bold]{path}[/bold].")
    return Report(summaries, comparison, path, claims)


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


def _html(
    summaries: Sequence[Summary], comparison: CompareResult | None, claims: Sequence[Claim], db: str
) -> str:
    sections = [Section(s.title, [*summary_tables(s, claims), *summary_plots(s)]) for s in summaries]
    if claims:
        sections.append(Section("", [claims_table(claims)]))
    return render_page(
        "report.html",
        "chaosgames lab report",
        sections,
        db=db,
        comparison=compare_table(comparison) if comparison is not None else None,
        disagreements=comparison.disagreements if comparison is not None else (),
    )
