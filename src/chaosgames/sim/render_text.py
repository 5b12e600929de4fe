"""The report's tables on a terminal (Rich) and as Markdown (for committed result files)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Table as RichTable

from chaosgames.sim.tables import Table


def rich_table(table: Table) -> RichTable:
    shown = RichTable(title=table.title or None, show_header=bool(table.header))
    for column in table.header or ("", ""):
        shown.add_column(column)
    for row in table.rows:
        shown.add_row(*row)
    return shown


def print_section(console: Console, heading: str, tables: Sequence[Table]) -> None:
    console.rule(f"[bold]{heading}")
    for table in tables:
        console.print(rich_table(table))


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def markdown_table(table: Table) -> str:
    header = table.header or ("", "")
    lines = [
        "| " + " | ".join(_cell(h) for h in header) + " |",
        "| " + " | ".join("---" for _ in header) + " |",
        *("| " + " | ".join(_cell(c) for c in row) + " |" for row in table.rows),
    ]
    title = f"**{table.title}**\n\n" if table.title else ""
    return title + "\n".join(lines) + "\n"
