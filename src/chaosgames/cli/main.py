"""The `chaosgames` command: list, rules, play, replay, show (and the lab's and research commands).

Every failure a user can cause (bad arguments, unknown games or options, illegal moves,
unreadable records) ends with a one-sentence message and a non-zero exit status, never
a traceback.
"""

from __future__ import annotations

import importlib
import importlib.resources
import random
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table
from typer.exceptions import TyperException

import chaosgames
from chaosgames.cli.common import CAP_NOTE, UsageError, parse_options
from chaosgames.cli.play import HUMAN, Chooser, TerminalMatch
from chaosgames.core.errors import ChaosGamesError
from chaosgames.core.game import ENDED_BY_CAP
from chaosgames.core.records import GameRecord
from chaosgames.core.registry import game_class

app = typer.Typer(
    name="chaosgames",
    help="Play, watch and simulate Chaos Cruisers, Chaos Checkers, Royal Racers and Cardboard Machines.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()
errors = Console(stderr=True)

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
) -> None:
    """Play a game in the terminal against people and computer opponents."""
    options = parse_options(option)
    seats = list(seat or [])
    if seats:
        if "players" in options and options["players"] != len(seats):
            raise UsageError(f"{len(seats)} seats were given but players={options['players']}.")
        options["players"] = len(seats)
    loaded = chaosgames.load_game(game, **options)
    if not seats:
        seats = [HUMAN] + ["random"] * (loaded.num_players - 1)
    seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
    agents = _make_agents(seats, seed)
    path = record if record is not None else Path("records") / f"{game}-{seed}.json"
    match = TerminalMatch(loaded, seats, agents, seed, console, console.input, path)
    raise typer.Exit(match.run())


def _make_agents(seats: list[str], seed: int) -> dict[int, Chooser]:
    from chaosgames import agents

    made: dict[int, Chooser] = {}
    for i, spec in enumerate(seats):
        if spec != HUMAN:
            made[i] = agents.from_spec(spec, seed=seed + 1000 * (i + 1))
    return made


@app.command()
def replay(
    record: Annotated[Path, typer.Argument(help="A game record saved by play or simulate.")],
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Show every action.")] = False,
) -> None:
    """Replay a record, checking every action, and show the final position."""
    loaded = GameRecord.load(record)
    game = loaded.load_game()
    state = game.new_initial_state()
    names = game.player_names()
    for number, text in enumerate(loaded.actions, start=1):
        player = state.current_player()
        action = game.parse_action(state, text)
        if verbose:
            who = "chance" if player == chaosgames.CHANCE else names[player]
            console.print(f"{number:4d}. {who}: {game.describe_action(state, action)} [dim]{text}[/dim]")
        state.apply_action(action)
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
    state = loaded.replay(upto)
    game = state.game
    console.print(game.render_text(state, reveal=True), highlight=False, markup=False)
    if svg is not None:
        svg.write_text(game.render_svg(state, reveal=True), encoding="utf-8")
        console.print(f"Picture written to {svg}.")


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0: every interface).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=0, max=65535)] = 8000,
    database: Annotated[
        str,
        typer.Option(help="A SQLite file, or a database URL such as postgresql://user@host/db."),
    ] = "chaosgames.sqlite",
    workers: Annotated[int, typer.Option(help="Processes in which computer seats think.", min=1)] = 2,
    pace: Annotated[
        float,
        typer.Option(help="Seconds a computer seat waits before moving, so people can follow.", min=0),
    ] = 0.5,
) -> None:
    """Run the web app: play every game in the browser with friends and computer opponents."""
    from chaosgames.web.server import run

    run(host=host, port=port, database=database, workers=workers, pace=pace)


def _mount_lab() -> None:
    try:
        lab = importlib.import_module("chaosgames.cli.lab")
    except ImportError:  # the simulation lab is optional while it is being built
        return
    lab.register(app)


_mount_lab()


def _mount_research() -> None:
    from chaosgames.cli import research

    research.register(app)


_mount_research()


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `chaosgames` console script."""
    try:
        app(args=argv, standalone_mode=False)
    except ChaosGamesError as exc:
        errors.print(f"[red]{exc}[/red]", highlight=False)
        return 1
    except UsageError as exc:
        errors.print(f"[red]{exc}[/red]", highlight=False)
        return 2
    except typer.Exit as exc:
        return int(exc.exit_code or 0)
    except typer.Abort:
        errors.print("Stopped.")
        return 1
    except KeyboardInterrupt:
        errors.print("Stopped.")
        return 130
    except TyperException as exc:
        # The parser's usage errors (unknown command, missing argument ...) show
        # themselves with the usage line and a hint.
        show = getattr(exc, "show", None)
        if callable(show):
            show()
        else:
            errors.print(f"[red]{exc.format_message()}[/red]", highlight=False)
        return exc.exit_code
    return 0


if __name__ == "__main__":
    sys.exit(main())
