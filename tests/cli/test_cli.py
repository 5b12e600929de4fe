"""The chaosgames command, as a user types it."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console

import chaosgames
from chaosgames.cli.main import main
from chaosgames.cli.play import TerminalMatch
from chaosgames.core.records import GameRecord

GAMES = chaosgames.list_games()


def run_cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chaosgames.cli.main", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_list_names_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for name in GAMES:
        assert name in out


def test_agents_lists_every_agent_with_its_parameters(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["agents"]) == 0
    out = capsys.readouterr().out
    for name in ("random", "greedy", "mcts"):
        assert name in out
    for parameter in ("iterations", "time", "rollout", "unstick"):
        assert parameter in out


@pytest.mark.parametrize("name", GAMES)
def test_rules_shows_the_summary_and_options(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", name]) == 0
    out = capsys.readouterr().out
    assert "Options" in out and "players=" in out


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (["play", "no-such-game"], 1, "There is no game called 'no-such-game'"),
        (["rules", "no-such-game"], 1, "There is no game called"),
        (["replay", "/no/such/record.json"], 1, "Cannot read the record"),
        (["show", "/no/such/record.json"], 1, "Cannot read the record"),
        (["frobnicate"], 2, "No such command"),
        (["play"], 2, "Missing argument"),
    ],
)
def test_bad_arguments_get_a_sentence_and_non_zero_exit(args: list[str], status: int, message: str) -> None:
    result = run_cli(*args)
    assert result.returncode == status
    assert message in result.stdout + result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("name", GAMES)
def test_unknown_option_is_refused(name: str) -> None:
    result = run_cli("play", name, "--option", "no_such=1", "--seed", "1")
    assert result.returncode == 1
    assert "has no option no_such" in result.stderr
    assert "Traceback" not in result.stderr


def test_option_without_equals_is_refused() -> None:
    result = run_cli("play", GAMES[0], "--option", "players")
    assert result.returncode == 1
    assert "key=value" in result.stderr


@pytest.mark.parametrize("name", GAMES)
def test_computer_game_plays_to_the_end_and_replays(name: str, tmp_path: Path) -> None:
    game = chaosgames.load_game(name)
    record = tmp_path / "game.json"
    seats = [arg for _ in range(game.num_players) for arg in ("--seat", "random")]
    # Random cruisers rarely finish a race: this test needs an end, so it sets the cap.
    cap = ["--option", "max_rounds=20"] if name == "chaos-cruisers" else []
    result = run_cli("play", name, *seats, *cap, "--seed", "3", "--record", str(record))
    assert result.returncode == 0, result.stderr
    saved = GameRecord.load(record)
    assert saved.game == name and saved.actions and saved.ended_by in ("rules", "cap")
    replayed = run_cli("replay", str(record))
    assert replayed.returncode == 0, replayed.stderr
    assert "every one was legal" in replayed.stdout
    svg = tmp_path / "final.svg"
    shown = run_cli("show", str(record), "--svg", str(svg), "--upto", "1")
    assert shown.returncode == 0, shown.stderr
    assert svg.read_text().lstrip().startswith(("<svg", "<?xml"))


@pytest.mark.parametrize("name", GAMES)
def test_no_terminal_input_ends_cleanly_and_saves(name: str, tmp_path: Path) -> None:
    record = tmp_path / "r.json"
    result = run_cli("play", name, "--seed", "5", "--record", str(record), stdin="")
    assert result.returncode == 0, result.stderr
    assert "Game stopped" in result.stdout
    assert GameRecord.load(record).game == name


def typed(lines: list[str]) -> Callable[[str], str]:
    """A terminal's input: the given lines, then end of input (as Ctrl-D)."""
    feed = iter(lines)

    def read_line(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return read_line


def scripted(lines: list[str]) -> TerminalMatch:
    """A match of the first game with one human seat reading `lines`, random elsewhere."""
    from chaosgames import agents

    game = chaosgames.load_game(GAMES[0])
    seats = ["human"] + ["random"] * (game.num_players - 1)
    read_line = typed(lines)

    bots = {i: agents.from_spec("random", seed=i) for i in range(1, game.num_players)}
    console = Console(file=open("/dev/null", "w"), width=120)  # noqa: SIM115
    return TerminalMatch(game, seats, bots, 11, console, read_line)


def test_a_number_or_a_notation_plays_and_undo_takes_it_back() -> None:
    match = scripted(["1"])
    match.run()
    first_decision = next(i for i, step in enumerate(match.steps) if step.actor == 0)
    assert len(match.record.actions) > first_decision
    undo = scripted(["1", "undo"])
    undo.run()
    assert not any(step.actor == 0 for step in undo.steps)


def test_bad_input_changes_nothing() -> None:
    match = scripted(["999", "no such move", "help", "board", "list"])
    match.run()
    assert not any(step.actor == 0 for step in match.steps)


def test_undo_with_nothing_to_undo_is_refused() -> None:
    match = scripted(["undo"])
    match.run()
    assert not any(step.actor == 0 for step in match.steps)


def test_quit_saves_a_record_that_replays(tmp_path: Path) -> None:
    match = scripted(["1", "quit"])
    match.record_path = tmp_path / "q.json"
    assert match.run() == 0
    doc = json.loads((tmp_path / "q.json").read_text())
    assert GameRecord.from_json(doc).replay().to_json() == match.state.to_json()


def test_undo_is_off_where_information_is_hidden() -> None:
    """Royal Racers hides face-down ranks: taking back a wrong guess would be a peek."""
    from chaosgames import agents

    game = chaosgames.load_game("royal-racers", players=2)
    assert game.hides_information()
    assert not chaosgames.load_game("royal-racers", players=2, memory_aid=True).hides_information()
    read_line = typed(["1", "undo"])

    console = Console(file=open("/dev/null", "w"), width=120)  # noqa: SIM115
    match = TerminalMatch(
        game, ["human", "random"], {1: agents.from_spec("random", seed=1)}, 3, console, read_line
    )
    match.run()
    assert any(step.actor == 0 for step in match.steps)


def test_computer_seats_hear_every_action_and_report_progress() -> None:
    """A search seat keeps its tree between moves only if it is told every action."""
    from chaosgames import agents

    class Listening(agents.RandomAgent):
        def __init__(self) -> None:
            super().__init__(seed=2)
            self.heard: list[str] = []
            self.progress_reports = 0

        def choose(self, state: chaosgames.State, progress: agents.Progress | None = None) -> object:
            assert progress is not None
            progress(0.5)
            self.progress_reports += 1
            return super().choose(state)

        def observe(self, state: chaosgames.State, action: object) -> None:
            self.heard.append(str(action))

    game = chaosgames.load_game("chaos-checkers")
    seats = {0: Listening(), 1: Listening()}
    console = Console(file=open("/dev/null", "w"), width=120)  # noqa: SIM115
    match = TerminalMatch(game, ["random", "random"], dict(seats), 4, console, input)
    match.run()
    assert match.state.is_terminal()
    for player, listener in seats.items():
        assert listener.heard == [str(a) for a in match.record.actions]
        assert listener.progress_reports == sum(1 for step in match.steps if step.actor == player)


def test_mcts_seat_reuses_its_tree_in_terminal_play() -> None:
    from chaosgames import agents

    game = chaosgames.load_game("chaos-checkers", chaos=False)
    bot = agents.make("mcts", seed=1, iterations=200)
    searched: list[int] = []
    original = bot._search

    def search(root: object, state: chaosgames.State, progress: object) -> int:
        searched.append(root.visits)  # type: ignore[attr-defined]
        return original(root, state, progress)  # type: ignore[arg-type]

    bot._search = search  # type: ignore[method-assign]
    read_line = typed(["1", "1", "1"])

    console = Console(file=open("/dev/null", "w"), width=120)  # noqa: SIM115
    match = TerminalMatch(game, ["human", "mcts:iterations=200"], {1: bot}, 4, console, read_line)
    match.run()
    assert len(searched) >= 2
    # The first search starts from nothing; later ones from the subtree kept after the
    # moves the terminal reported.
    assert searched[0] == 0 and max(searched[1:]) > 0


def test_a_game_ended_by_its_length_cap_says_so(tmp_path: Path) -> None:
    record = tmp_path / "capped.json"
    seats = ["--seat", "random", "--seat", "random"]
    options = ["--option", "chaos=false", "--option", "max_moves=4"]
    result = run_cli("play", "chaos-checkers", *seats, *options, "--seed", "1", "--record", str(record))
    assert result.returncode == 0, result.stderr
    assert "ended by its length cap" in result.stdout
    assert GameRecord.load(record).ended_by == "cap"
    replayed = run_cli("replay", str(record))
    assert "ended by its length cap" in replayed.stdout
