"""Terminal play: numbers and notation, undo, quit, and the computer seats' view of the game."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import chaosgames
from chaosgames.agents import Progress
from chaosgames.cli.play import Chooser, TerminalMatch
from chaosgames.core.records import GameRecord

GAMES = chaosgames.list_games()


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

    bots: dict[int, Chooser] = {i: agents.from_spec("random", seed=i) for i in range(1, game.num_players)}
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

        def choose(self, state: chaosgames.State[Any], progress: agents.Progress | None = None) -> object:
            assert progress is not None
            progress(0.5)
            self.progress_reports += 1
            return super().choose(state)

        def observe(self, state: chaosgames.State[Any], action: object) -> None:
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


def test_mcts_seat_reuses_its_tree_in_terminal_play(monkeypatch: pytest.MonkeyPatch) -> None:
    from chaosgames import agents

    game = chaosgames.load_game("chaos-checkers", chaos=False)
    bot = agents.make("mcts", seed=1, iterations=200)
    assert isinstance(bot, agents.MctsAgent)
    searched: list[int] = []
    original = bot._search

    def search(root: Any, state: chaosgames.State[Any], progress: Progress | None) -> int:
        searched.append(root.visits)
        return original(root, state, progress)

    monkeypatch.setattr(bot, "_search", search)
    read_line = typed(["1", "1", "1"])

    console = Console(file=open("/dev/null", "w"), width=120)  # noqa: SIM115
    match = TerminalMatch(game, ["human", "mcts:iterations=200"], {1: bot}, 4, console, read_line)
    match.run()
    assert len(searched) >= 2
    # The first search starts from nothing; later ones from the subtree kept after the
    # moves the terminal reported.
    assert searched[0] == 0 and max(searched[1:]) > 0
