"""The `chaosgames` commands: list, rules, agents, play, replay, show, serve (and the lab's
simulate and report, the research export and import), and `run`, which applies the
error policy of cli/main.py."""

from __future__ import annotations

import contextlib
import importlib.resources
import os
import random
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text

import chaosgames
import chaosgames.agents
from chaosgames.cli import lab, research
from chaosgames.cli.common import (
    CAP_NOTE,
    DatabaseArg,
    UsageError,
    console,
    errors,
    parse_options,
    saved_designs,
)
from chaosgames.cli.play import HUMAN, Chooser, TerminalMatch
from chaosgames.core.errors import ChaosGamesError, quote, shorten
from chaosgames.core.game import ENDED_BY_CAP, Action, State
from chaosgames.core.records import GameRecord
from chaosgames.core.registry import game_class
from chaosgames.sim.lab import LabInterrupted

app = typer.Typer(
    name="chaosgames",
    help="Play, watch and simulate Chaos Cruisers, Chaos Checkers, Royal Racers and Cardboard Machines.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

OptionsArg = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="A game option as key=value (repeatable); @file.json reads a file."),
]


@app.command("list")
def list_command() -> None:
    """List the games with their player counts and options."""
    table = Table(title="chaosgames")
    table.add_column("game", style="bold cyan")
    table.add_column("title")
    table.add_column("players", justify="center")
    table.add_column("options")
    for name in chaosgames.list_games():
        cls = game_class(name)
        table.add_row(
            name,
            cls.title,
            f"{cls.min_players}-{cls.max_players}",
            "\n".join(cls.options_help()),
        )
    console.print(table)


@app.command("agents")
def agents_command() -> None:
    """List the computer opponents with their parameters (give them as mcts:time=1.0,c=0.5)."""
    table = Table(title="agents for --seat")
    table.add_column("agent", style="bold cyan")
    table.add_column("what it does")
    table.add_column("parameters")
    for name in chaosgames.agents.available():
        cls = chaosgames.agents.agent_class(name)
        table.add_row(name, cls.summary, "\n".join(p.describe() for p in cls.params.values()) or "-")
    console.print(table)
    # The levels a player picks by name mean other agents in different games.
    levels = Table(title="levels for --seat (each game's own agents)")
    levels.add_column("game", style="bold cyan", overflow="fold")
    for level in chaosgames.agents.LEVELS:
        levels.add_column(level, overflow="fold")
    for game in chaosgames.list_games():
        levels.add_row(game, *chaosgames.agents.levels(game).values())
    console.print(levels)


@app.command()
def rules(game: Annotated[str, typer.Argument(help="The game, e.g. chaos-cruisers.")]) -> None:
    """Show the rules summary, the options and the action notation of a game."""
    cls = game_class(game)
    package = cls.__module__.rsplit(".", 1)[0]
    try:
        text = importlib.resources.files(package).joinpath("rules.md").read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError):
        text = f"# {cls.title}\n\nNo rules summary is shipped yet."
    console.print(Markdown(text))
    console.print("\n[bold]Options[/bold]")
    for line in cls.options_help():
        console.print(f"  {line}", highlight=False)


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="The game, e.g. chaos-cruisers.")],
    seat: Annotated[
        list[str] | None,
        typer.Option(
            "--seat",
            "-s",
            help="Who plays each seat, in order: human, random, greedy, mcts:time=1.0 ..."
            " (repeatable; chaosgames agents lists them).",
        ),
    ] = None,
    option: OptionsArg = None,
    seed: Annotated[int | None, typer.Option(help="Seed for dice, shuffles and computer players.")] = None,
    record: Annotated[
        Path | None, typer.Option(help="Where to save the game record (default records/GAME-SEED.json).")
    ] = None,
    database: DatabaseArg = None,
) -> None:
    """Play a game in the terminal against people and computer opponents."""
    options = saved_designs(parse_options(option), game, database)
    seats = list(seat or [])
    if seats:
        options.setdefault("players", str(len(seats)))
    loaded = chaosgames.load_game(game, **options)
    if seats and loaded.num_players != len(seats):
        raise UsageError(f"{len(seats)} seats were given but players={loaded.num_players}.")
    if not seats:
        seats = [HUMAN] + ["random"] * (loaded.num_players - 1)
    seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
    agents = _make_agents(seats, seed, loaded.name)
    path = record if record is not None else Path("records") / f"{loaded.name}-{seed}.json"
    _check_writable(path, "the game record")
    match = TerminalMatch(loaded, seats, agents, seed, console, console.input, path)
    raise typer.Exit(match.run())


def _make_agents(seats: list[str], seed: int, game: str) -> dict[int, Chooser]:
    made: dict[int, Chooser] = {}
    for i, spec in enumerate(seats):
        if spec != HUMAN:
            made[i] = chaosgames.agents.from_spec(spec, seed=seed + 1000 * (i + 1), game=game)
    return made


def _check_writable(path: Path, what: str) -> None:
    """Refuse, before the work starts, a file that could not be written at the end: its
    folders are made and the file is opened for appending, as the end will write it (a
    name too long, a folder without rights show now, not after a whole game). A file or
    folder this made is removed again when the file cannot be opened."""
    try:
        if path.is_dir():
            raise ChaosGamesError(f"Cannot write {what} to {quote(str(path))}: it is a directory.")
        made = _make_folders(path.parent)
    except (OSError, ValueError) as exc:
        raise _cannot_write(what, path, exc) from None
    try:
        _open_for_appending(path)
    except (OSError, ValueError) as exc:
        for folder in made:
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise _cannot_write(what, path, exc) from None


def _make_folders(folder: Path) -> list[Path]:
    """Make `folder` and its missing parents; the ones made, deepest first."""
    missing = [f for f in (folder, *folder.parents) if not f.exists()]
    folder.mkdir(parents=True, exist_ok=True)
    return missing


def _open_for_appending(path: Path) -> None:
    try:
        made = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL)
    except FileExistsError:
        os.close(os.open(path, os.O_WRONLY | os.O_APPEND))
        return
    os.close(made)
    path.unlink()


def _cannot_write(what: str, path: Path, exc: OSError | ValueError) -> ChaosGamesError:
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return ChaosGamesError(f"Cannot write {what} to {quote(str(path))}: {shorten(reason)}.")


@app.command()
def replay(
    record: Annotated[Path, typer.Argument(help="A game record saved by play or simulate.")],
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Show every action.")] = False,
) -> None:
    """Replay a record, checking every action, and show the final position."""
    loaded = GameRecord.load(record)
    game = loaded.load_game()
    names = game.player_names()

    def show_action(number: int, state: State[Any], action: Action) -> None:
        player = state.current_player()
        who = "chance" if player == chaosgames.CHANCE else names[player]
        line = Text(f"{number:4d}. {who}: {game.describe_action(state, action)} ")
        line.append(str(action), style="dim")
        console.print(line, highlight=False)

    state = loaded.replay(on_action=show_action if verbose else None)
    # A record holds every card and die: its replay shows everything.
    console.print(game.render_text(state, reveal=True), highlight=False, markup=False)
    console.print(f"{len(loaded.actions)} actions replayed; every one was legal.")
    if state.is_terminal():
        console.print("Result: " + ", ".join(f"{names[i]} {r:g}" for i, r in enumerate(state.returns())))
        if state.ended_by() == ENDED_BY_CAP:
            console.print(CAP_NOTE)


@app.command()
def show(
    record: Annotated[Path, typer.Argument(help="A game record.")],
    svg: Annotated[Path | None, typer.Option(help="Write the position as an SVG picture here.")] = None,
    upto: Annotated[int | None, typer.Option(help="Show the position after this many actions.")] = None,
) -> None:
    """Show the position of a record (the final one, or after --upto actions)."""
    loaded = GameRecord.load(record)
    if upto is not None and not 0 <= upto <= len(loaded.actions):
        raise UsageError(f"--upto must be between 0 and {len(loaded.actions)}, the record's length.")
    # Replayed first: a record that does not replay leaves no folder made for its picture.
    state = loaded.replay(upto)
    if svg is not None:
        _check_writable(svg, "the picture")
    game = state.game
    console.print(game.render_text(state, reveal=True), highlight=False, markup=False)
    if svg is not None:
        picture = game.render_svg(state, reveal=True)
        try:
            svg.write_text(picture, encoding="utf-8")
        except OSError as exc:
            raise ChaosGamesError(
                f"Cannot write the picture to {quote(str(svg))}: {exc.strerror or exc}."
            ) from None
        console.print(f"Picture written to {svg}.")


def _rate(what: str, may: str) -> Any:
    """The option of a limit on how often one client address may do something (web/limits.py)."""
    return typer.Option(help=f"{what} one client address may {may} (a rate).")


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0: every interface).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=0, max=65535)] = 8000,
    database: Annotated[
        str,
        typer.Option(help="A SQLite file, or a database URL such as postgresql://user@host/db."),
    ] = "chaosgames.sqlite",
    workers: Annotated[
        int,
        typer.Option(help="Server processes sharing the address and the database.", min=1, max=64),
    ] = 1,
    computers: Annotated[
        int, typer.Option(help="Processes in which computer seats think, per server process.", min=1)
    ] = 2,
    pace: Annotated[
        float,
        typer.Option(help="Seconds a computer seat waits before moving, so people can follow.", min=0),
    ] = 0.5,
    think_limit: Annotated[
        float,
        typer.Option(
            help="Seconds a computer seat may think per move; a move still unmade 2 s later is stopped "
            "and the seat plays the easy level's move.",
            min=0.1,
        ),
    ] = 10.0,
    games_rate: Annotated[str, _rate("Games", "create")] = "10/minute",
    actions_rate: Annotated[str, _rate("Actions", "play")] = "240/minute",
    replays_rate: Annotated[str, _rate("Uploaded records", "have replayed")] = "20/minute",
    chat_rate: Annotated[str, _rate("Chat messages", "post")] = "12/minute",
    sockets: Annotated[int, typer.Option(help="WebSockets one client address may have open.", min=1)] = 32,
    sockets_per_game: Annotated[
        int, typer.Option(help="WebSockets one client address may have open to one game.", min=1)
    ] = 8,
    computer_games: Annotated[
        int, typer.Option(help="Running games with computer seats one client address may have.", min=1)
    ] = 4,
    designs_rate: Annotated[str, _rate("Designs (courses, tracks)", "save")] = "30/hour",
    trials_rate: Annotated[str, _rate("Tests of a design (games by computer players)", "run")] = "6/hour",
    replay_limit: Annotated[
        float, typer.Option(help="Seconds the replay of a record may take before it is given up.", min=0.1)
    ] = 10.0,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(
            help="Another site whose pages may open the WebSocket (https://host[:port]); repeatable."
        ),
    ] = None,
) -> None:
    """Run the web app: play every game in the browser with friends and computer opponents."""
    from chaosgames.web.server import run as run_server

    run_server(
        host=host,
        port=port,
        database=database,
        workers=workers,
        computers=computers,
        pace=pace,
        think_limit=think_limit,
        replay_limit=replay_limit,
        allow_origins=list(allow_origin or []),
        limits={
            "games": games_rate,
            "actions": actions_rate,
            "replays": replays_rate,
            "chat": chat_rate,
            "sockets": sockets,
            "sockets_per_game": sockets_per_game,
            "computer_games": computer_games,
            "designs": designs_rate,
            "trials": trials_rate,
        },
    )


lab.register(app)
research.register(app)


def run(argv: list[str] | None = None) -> int:
    """Run one command; the exit status and the one-line messages of cli/main.py."""
    try:
        status = app(args=argv, standalone_mode=False)
    except typer.Abort:
        # Typer turns end of input at one of its prompts into Abort.
        return _fail("Stopped: no more input.", 1)
    except LabInterrupted as exc:
        return _fail(str(exc), 130, prefix="")
    except UsageError as exc:
        return _fail(str(exc), 2)
    except ChaosGamesError as exc:
        return _fail(str(exc), 1)
    except typer.TyperException as exc:
        # The parser's errors: an unknown command, a missing argument, a bad flag value.
        message = exc.format_message()
        code: int = getattr(exc, "exit_code", 2)
        if not message.strip():
            return code  # no arguments at all: the help has been shown
        context = getattr(exc, "ctx", None)
        hint = f"; see '{context.command_path} --help'." if context is not None else ""
        return _fail(message.rstrip(". ") + hint if hint else message, code)
    # Typer returns the status of a command that raised typer.Exit (130 for Ctrl-C), and
    # None for one that simply returned.
    if status == 130:
        return _fail("Interrupted.", 130, prefix="")
    return status if isinstance(status, int) else 0


def _fail(message: str, status: int, prefix: str = "Error: ") -> int:
    line = Text(prefix, style="bold red")
    line.append(" ".join(message.split()))
    errors.print(line, soft_wrap=True, highlight=False)
    return status
