"""The lab's commands, `simulate` and `report`; the main CLI mounts them with `register(app)`.

Errors are left to the policy of cli/main.py (one line, exit 1; Ctrl-C, 130).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from chaosgames.agents import available
from chaosgames.cli.common import UsageError, console, parse_options
from chaosgames.sim.backends import BACKENDS
from chaosgames.sim.jobs import LabSettings
from chaosgames.sim.lab import simulate
from chaosgames.sim.match import DEFAULT_MAX_ACTIONS
from chaosgames.sim.report import report


def simulate_command(
    game: Annotated[str, typer.Argument(help="The game to simulate (see 'chaosgames list').")],
    seat: Annotated[
        list[str],
        typer.Option(
            "--seat",
            help=f"An agent for one seat ({', '.join(available())}), e.g. mcts:time=1.0; once per player.",
        ),
    ],
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many games the job has.")] = 100,
    workers: Annotated[
        int, typer.Option("--workers", "-w", min=1, help="Worker processes (or Ray tasks) at once.")
    ] = 1,
    seed: Annotated[int, typer.Option("--seed", help="The job's seed; game i's seed derives from it.")] = 0,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option", "-o", help="A game option as name=value (repeatable); @file.json reads a file."
        ),
    ] = None,
    db: Annotated[Path, typer.Option("--db", help="The SQLite database the games are stored in.")] = Path(
        "lab.db"
    ),
    backend: Annotated[str, typer.Option("--backend", help="local (worker processes) or ray.")] = "local",
    max_actions: Annotated[
        int, typer.Option("--max-actions", min=1, help="Stop (cap) a game after this many actions.")
    ] = DEFAULT_MAX_ACTIONS,
    records: Annotated[bool, typer.Option("--records", help="Also store every game's full record.")] = False,
) -> None:
    """Play many games between agents into a database (resumable: run again to finish)."""
    if backend not in BACKENDS:
        raise UsageError(f"There is no backend {backend!r}; choose {' or '.join(BACKENDS)}.")
    settings = LabSettings(
        db=db,
        seed=seed,
        options=parse_options(option),
        workers=workers,
        backend=backend,
        max_actions=max_actions,
        keep_records=records,
    )
    summary = simulate(game, seat, games, settings, show_progress=True, console=console)
    rate = f" ({summary.games_per_second:.2f} games/s)" if summary.played else ""
    console.print(
        f"Played {summary.played} games{rate}; {summary.already_stored} were already stored. "
        f"{summary.requested} games of job {summary.job} are in {db}; see them with "
        f"'chaosgames report --db {db}'.",
        highlight=False,
    )


def report_command(
    db: Annotated[Path, typer.Option("--db", help="The lab database to report on.")],
    out: Annotated[Path, typer.Option("--out", help="Where to write the HTML report.")] = Path("report.html"),
    compare: Annotated[
        list[str] | None,
        typer.Option("--compare", help="An option set such as players=3 (give two to compare them)."),
    ] = None,
    game: Annotated[str | None, typer.Option("--game", help="Only the games of this game.")] = None,
) -> None:
    """Summarise a lab database: win rates with Wilson intervals, lengths, lead changes; HTML plots."""
    report(db, out, compare_options=compare or [], game=game, console=console)


def register(app: typer.Typer) -> None:
    """Add the `simulate` and `report` commands to the main `chaosgames` app."""
    app.command("simulate")(simulate_command)
    app.command("report")(report_command)
