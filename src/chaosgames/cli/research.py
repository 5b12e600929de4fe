"""Commands that carry games to and from other tools: `export` and `import` (PDN for checkers).

    chaosgames export records/chaos-checkers-7.json --pdn            # PDN on standard output
    chaosgames export a.json b.json --pdn --out games.pdn            # several games, one file
    chaosgames import games.pdn --out records                        # records/games-1.json, ...

The main CLI mounts them with `register(app)`. Bad input raises a ChaosGamesError or a
UsageError, which the main CLI shows as one sentence with a non-zero exit status.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from chaosgames.cli.common import UsageError
from chaosgames.core.errors import RecordError, quote
from chaosgames.core.records import GameRecord, record_format

_out = Console()


def export_command(
    records: Annotated[list[Path], typer.Argument(help="Game records (JSON) to export, in order.")],
    pdn: Annotated[bool, typer.Option("--pdn", help="Write PDN (plain checkers records).")] = False,
    out: Annotated[Path | None, typer.Option("--out", help="Write to this file (default: the screen).")] = (
        None
    ),
) -> None:
    """Export game records to another format: PDN 3.0 for plain checkers (chaos=false)."""
    if not pdn:
        raise UsageError("Say which format to export to: --pdn (the only one so far).")
    text = record_format("pdn").write([GameRecord.load(path) for path in records])
    if out is None:
        typer.echo(text, nl=False)
        return
    _write(out, text)
    _out.print(f"{len(records)} game(s) written to {out}.", highlight=False, soft_wrap=True)


def import_command(
    source: Annotated[Path, typer.Argument(help="A PDN file of American checkers games.")],
    out: Annotated[Path, typer.Option("--out", help="The folder for the records.")] = Path("records"),
) -> None:
    """Import the games of a PDN file as records: OUT/<file name>-<game number>.json."""
    records = record_format("pdn").read(_read(source))
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RecordError(f"Cannot create the folder {quote(str(out))}: {exc.strerror or exc}.") from None
    for number, record in enumerate(records, start=1):
        path = out / f"{source.stem}-{number}.json"
        try:
            record.save(path)
        except OSError as exc:
            raise RecordError(f"Cannot write {quote(str(path))}: {exc.strerror or exc}.") from None
        if record.result is None:
            result = "unfinished"
        else:
            black, white = record.result
            result = f"Black {black:g}, White {white:g}"
        _out.print(f"{path}: {len(record.actions)} moves, result: {result}", highlight=False, soft_wrap=True)


def _read(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise RecordError(f"Cannot read {quote(str(path))}: {exc.strerror or exc}.") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")  # older PDN files are ISO 8859-1


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"Cannot write {quote(str(path))}: {exc.strerror or exc}.") from None


def register(app: typer.Typer) -> None:
    """Add the `export` and `import` commands to the main `chaosgames` app."""
    app.command("export")(export_command)
    app.command("import")(import_command)
