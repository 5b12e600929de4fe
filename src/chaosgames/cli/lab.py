"""The lab's commands, `simulate`, `report`, `study` and `verify`; the main CLI mounts them with
`register(app)`.

Errors are left to the policy of cli/main.py (one line, exit 1; Ctrl-C, 130).
"""

from __future__ import annotations

import datetime
import shlex
from pathlib import Path
from typing import Annotated

import typer

from chaosgames.agents import available
from chaosgames.cli.common import DatabaseArg, UsageError, console, parse_options, saved_designs
from chaosgames.core.errors import quote
from chaosgames.sim import book
from chaosgames.sim.jobs import BACKENDS, LabSettings
from chaosgames.sim.lab import luck_and_skill, simulate
from chaosgames.sim.match import DEFAULT_MAX_ACTIONS
from chaosgames.sim.render_html import Section, render_page
from chaosgames.sim.render_text import rich_table
from chaosgames.sim.report import check_writable, report, write_page
from chaosgames.sim.study import StudySettings, analyse, own_plan, study
from chaosgames.sim.sweep import sweep, sweep_plots, sweep_table
from chaosgames.sim.verify import verify


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
    label: Annotated[
        str | None, typer.Option("--label", help="Name this variant (its game and options), e.g. long-oval.")
    ] = None,
    reroll_games: Annotated[
        int,
        typer.Option(
            "--reroll-games", min=0, help="Replay the first N games with other dice (the chance share)."
        ),
    ] = 0,
    skill_games: Annotated[
        int, typer.Option("--skill-games", min=0, help="Also play N games of hard in one seat against easy.")
    ] = 0,
    database: DatabaseArg = None,
) -> None:
    """Play many games between agents into a database (resumable: run again to finish)."""
    if backend not in BACKENDS:
        raise UsageError(f"There is no backend {quote(backend)}; choose {' or '.join(BACKENDS)}.")
    settings = LabSettings(
        db=db,
        seed=seed,
        options=saved_designs(parse_options(option), game, database),
        workers=workers,
        backend=backend,
        max_actions=max_actions,
        keep_records=records,
    )
    summary = simulate(game, seat, games, settings, show_progress=True, console=console, label=label)
    more = luck_and_skill(
        game,
        seat,
        settings,
        reroll_games=min(reroll_games, games),
        skill_games=skill_games,
        show_progress=True,
        console=console,
    )
    if more:
        console.print(
            f"Luck and skill: {sum(m.played for m in more)} more games played "
            f"({min(reroll_games, games)} rerolled, {skill_games} of hard against easy).",
            highlight=False,
        )
    rate = f" ({summary.games_per_second:.2f} games/s)" if summary.played else ""
    console.print(
        f"Played {summary.played} games{rate}; {summary.already_stored} were already stored. "
        f"{summary.requested} games of job {summary.job} are in {db}; see them with "
        f"'chaosgames report --db {db}'.",
        highlight=False,
    )


def report_command(
    db: Annotated[Path, typer.Option("--db", help="The lab database to report on.")],
    out: Annotated[
        Path | None, typer.Option("--out", help="Also write the report as an HTML page with plots here.")
    ] = None,
    compare: Annotated[
        list[str] | None,
        typer.Option(
            "--compare",
            help="A variant: its label, v-hash, @variant.json or options such as course=@long.json,laps=3 "
            "(give two to compare them).",
        ),
    ] = None,
    game: Annotated[str | None, typer.Option("--game", help="Only the games of this game.")] = None,
) -> None:
    """Summarise a lab database: win rates with Wilson intervals, lengths, lead changes; HTML plots."""
    report(db, out, compare_options=compare or [], game=game, console=console)


def study_command(
    games: Annotated[list[str], typer.Argument(help="The games to study (see 'chaosgames list').")],
    db: Annotated[Path, typer.Option("--db", help="The lab database the games go to (resumable).")] = Path(
        "balance.db"
    ),
    out: Annotated[Path, typer.Option("--out", help="The balance book (Markdown).")] = Path("balance.md"),
    html: Annotated[Path, typer.Option("--html", help="The HTML page with plots.")] = Path("balance.html"),
    level: Annotated[str, typer.Option("--level", help="The level in every seat.")] = "medium",
    games_per_variant: Annotated[
        int, typer.Option("--games", "-n", min=1, help="Games per variant with the level in every seat.")
    ] = 8,
    skill_games: Annotated[
        int, typer.Option("--skill-games", min=0, help="Games per variant of hard against easy.")
    ] = 4,
    reroll_games: Annotated[
        int, typer.Option("--reroll-games", min=0, help="Games per variant replayed with other dice.")
    ] = 4,
    batch: Annotated[int, typer.Option("--batch", min=1, help="Games added to every job per pass.")] = 2,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="Worker processes.")] = 1,
    minutes: Annotated[
        float | None, typer.Option("--minutes", min=0, help="Start no new pass after this many minutes.")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="The study's seed.")] = 2026,
    note: Annotated[str, typer.Option("--note", help="A sentence for the book's header.")] = "",
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            "-o",
            help="Study your own variant (one game) with this option; repeatable; @file.json.",
        ),
    ] = None,
    label: Annotated[str | None, typer.Option("--label", help="Your variant's name in the book.")] = None,
    backend: Annotated[str, typer.Option("--backend", help="local (worker processes) or ray.")] = "local",
    cross_games: Annotated[
        int,
        typer.Option(
            "--cross-games",
            min=0,
            help="Games per variant played by another kind of player (greedy or MCTS).",
        ),
    ] = 0,
    database: DatabaseArg = None,
) -> None:
    """Play every variant the rulebooks name (or your own, with --option) and write the balance book
    (resumable: run again to grow it)."""
    if backend not in BACKENDS:
        raise UsageError(f"There is no backend {quote(backend)}; choose {' or '.join(BACKENDS)}.")
    plans = None
    if option or label is not None:
        if len(games) != 1:
            raise UsageError("Study your own variant of one game at a time: give one game with --option.")
        options = saved_designs(parse_options(option), games[0], database)
        plans = {games[0]: own_plan(games[0], options, label)}
    settings = StudySettings(
        db=db,
        level=level,
        games=games_per_variant,
        skill_games=skill_games,
        reroll_games=reroll_games,
        batch=batch,
        workers=workers,
        seed=seed,
        minutes=minutes,
        cross_games=cross_games,
        backend=backend,
    )

    for written in (out, html):
        check_writable(written)  # before the hours of play, not after them

    def progress(stored: int, passes: int) -> None:
        console.print(f"Pass {passes} done: {stored} games played in this run.", highlight=False)

    complete = study(games, settings, on_pass=progress, plans=plans)
    figures = analyse(games, settings, plans=plans)
    command = study_line(games, settings, out, html, option or [], label)
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    status = (
        "Every job has its games." if complete else "Stopped by its time budget before every job was full."
    )
    text = f"{status} {note}".strip()
    write_page(out, book.markdown(figures, settings, command, when, text))
    write_page(html, book.html_page(figures, command, when, text))
    console.print(f"{status} The book is in {out} and {html}.", highlight=False)


def study_line(
    games: list[str],
    settings: StudySettings,
    out: Path,
    html: Path,
    options: list[str] | None = None,
    label: str | None = None,
) -> str:
    """The `chaosgames study` command that writes this book again, every setting spelt out
    (so the book says how it was made, whatever was left at its default). The note is
    left out: the book prints it after the command."""
    words = ["chaosgames", "study", *games, "--db", str(settings.db), "--out", str(out), "--html", str(html)]
    words += ["--level", settings.level, "--games", str(settings.games)]
    words += ["--skill-games", str(settings.skill_games), "--reroll-games", str(settings.reroll_games)]
    words += ["--batch", str(settings.batch), "--workers", str(settings.workers)]
    words += ["--seed", str(settings.seed)]
    if settings.cross_games:
        words += ["--cross-games", str(settings.cross_games)]
    if settings.backend != "local":
        words += ["--backend", settings.backend]
    for pair in options or []:
        words += ["--option", pair]
    if label is not None:
        words += ["--label", label]
    if settings.minutes is not None:
        words += ["--minutes", f"{settings.minutes:g}"]
    return shlex.join(words)


SHOWN_DIFFERENCES = 20
"""Games that differ listed one a line; the rest are counted."""


def verify_command(
    db: Annotated[Path, typer.Option("--db", help="The lab database whose games are replayed.")],
    game: Annotated[str | None, typer.Option("--game", help="Only the games of this game.")] = None,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="Worker processes.")] = 1,
    drop: Annotated[
        bool, typer.Option("--drop", help="Delete the games that differ (a resumed job plays them again).")
    ] = False,
) -> None:
    """Replay every stored game with the code as it is now; exit 1 if any is played otherwise
    (and kept) or cannot be replayed."""
    found = verify(db, game=game, workers=workers, drop=drop, show_progress=True, console=console)
    console.print(
        f"{found.checked} games replayed from {found.database}: {found.reproduced} as stored, "
        f"{len(found.differ)} otherwise"
        + (f" (deleted: {found.dropped})" if drop else "")
        + (f"; opening digests added to {found.openings_added}" if found.openings_added else "")
        + ".",
        highlight=False,
        soft_wrap=True,  # a path is not broken over lines
    )
    for job, idx, columns in found.differ[:SHOWN_DIFFERENCES]:
        console.print(f"  job {job} game {idx}: {', '.join(columns)} differ", highlight=False, soft_wrap=True)
    if len(found.differ) > SHOWN_DIFFERENCES:
        console.print(f"  and {len(found.differ) - SHOWN_DIFFERENCES} more", highlight=False)
    _show_jobless(found.jobless)
    if (found.differ and not drop) or found.jobless:
        raise typer.Exit(1)


def _show_jobless(games: list[tuple[str, int]]) -> None:
    """The games verify could not replay: their job's row (its seed and cap) is missing."""
    if not games:
        return
    console.print(
        f"{len(games)} games could not be replayed: their job is not in the database's jobs table.",
        highlight=False,
    )
    for job, idx in games[:SHOWN_DIFFERENCES]:
        console.print(f"  job {job} game {idx}: no job row", highlight=False, soft_wrap=True)
    if len(games) > SHOWN_DIFFERENCES:
        console.print(f"  and {len(games) - SHOWN_DIFFERENCES} more", highlight=False)


def sweep_command(
    game: Annotated[str, typer.Argument(help="The game to sweep (see 'chaosgames list').")],
    seat: Annotated[list[str], typer.Option("--seat", help="An agent for one seat; once per player.")],
    option: Annotated[
        list[str],
        typer.Option(
            "--option",
            "-o",
            help="An option and its values: key=a,b,c, key=1..5, key=10..40:10 (swept) or key=value.",
        ),
    ],
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Games at every grid point.")] = 20,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="Worker processes.")] = 1,
    seed: Annotated[int, typer.Option("--seed", help="The seed of every point (common random numbers).")] = 0,
    db: Annotated[Path, typer.Option("--db", help="The lab database (resumable).")] = Path("lab.db"),
    out: Annotated[Path | None, typer.Option("--out", help="An HTML page with a plot per figure.")] = None,
    target: Annotated[
        list[str] | None,
        typer.Option(
            "--target", help="A wanted range: balance>=0.9, minutes=20..40, drama<=0.1 (repeatable)."
        ),
    ] = None,
    max_actions: Annotated[
        int, typer.Option("--max-actions", min=1, help="Stop (cap) a game after this many actions.")
    ] = DEFAULT_MAX_ACTIONS,
) -> None:
    """Play a grid of option values (common random numbers) and show every figure against them."""
    if out is not None:
        check_writable(out)
    settings = LabSettings(db=db, seed=seed, workers=workers, max_actions=max_actions)

    def progress(done: int, total: int) -> None:
        console.print(f"Point {done} of {total} played.", highlight=False)

    result = sweep(game, seat, games, option, settings, targets=target or [], on_point=progress)
    table = sweep_table(result)
    console.print(rich_table(table))
    if result.targets:
        met = [p.name for p in result.points if p.meets]
        sure = [p.name for p in result.points if p.meets_surely]
        wanted = ", ".join(t.text for t in result.targets)
        console.print(
            f"Targets {wanted}: met by the estimates of {len(met)} points ({'; '.join(met) or 'none'}), "
            f"with the whole 95% interval by {len(sure)} ({'; '.join(sure) or 'none'}).",
            highlight=False,
        )
    if out is not None:
        body = Section("", [table, *sweep_plots(result)])
        page = render_page(
            "sweep.html",
            f"Sweep of {result.game}",
            [body],
            game=result.game,
            games=games,
            seats=seat,
            seed=seed,
        )
        write_page(out, page)
        console.print(f"Sweep written to {out}.", highlight=False)


def register(app: typer.Typer) -> None:
    """Add the `simulate`, `report`, `study`, `sweep` and `verify` commands to the main `chaosgames` app."""
    app.command("simulate")(simulate_command)
    app.command("sweep")(sweep_command)
    app.command("report")(report_command)
    app.command("study")(study_command)
    app.command("verify")(verify_command)
