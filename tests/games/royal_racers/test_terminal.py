"""A campaign in the terminal: two people at one table, playing every race by number.

The terminal shows each person his own view, in which face-down cards are `##` (the
players must remember them); only the final board, once the match is over, shows them.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

from rich.console import Console

from chaosgames.cli.common import parse_options
from chaosgames.cli.play import TerminalMatch
from chaosgames.games.royal_racers.state import RoyalRacersState
from tests.games.royal_racers.helpers import game

FACE_DOWN_RANK = re.compile(r"#[A2-9][shdc]")


def test_two_people_play_a_campaign_and_never_see_face_down_ranks() -> None:
    options = parse_options(["races=2", "max_rounds=6", "players=2"])  # as --option gives them
    g = game(**options)
    screen = io.StringIO()

    def read_line(prompt: str) -> str:
        screen.write(prompt + "1\n")
        return "1"  # always the first action listed

    match = TerminalMatch(g, ["human", "human"], {}, 3, Console(file=screen, width=140), read_line)
    assert match.run() == 0
    state = match.state
    assert isinstance(state, RoyalRacersState) and state.is_terminal()
    assert len(state.coins) == 2 and sum(state.returns()) == 1.0
    text = screen.getvalue()
    during, _, after = text.partition("race 2 of 2: the match is over")
    assert "Royal Racers, race 2 of 2" in during and "Result: suns" in after
    assert state.down and "##" in during  # cards went face down and were shown as backs
    assert not FACE_DOWN_RANK.search(during)
    assert match.record.replay().to_json() == state.to_json()


def _undo_after_first_decision(**options: object) -> str:
    """A person plays one decision against a random player, then types `undo`."""
    from chaosgames.agents import make

    g = game(players=2, **options)
    screen = io.StringIO()
    answers = iter(["1", "undo", "quit"])
    match = TerminalMatch(
        g,
        ["human", "random"],
        {1: make("random", seed=1)},
        3,
        Console(file=screen, width=140),
        lambda _: next(answers),
    )
    match.run()
    return screen.getvalue()


def test_the_terminal_refuses_undo_while_face_down_ranks_are_hidden() -> None:
    assert "Undo is off in this game" in _undo_after_first_decision()
    # With the memory aid every rank is in view, so nothing can be peeked: undo works.
    assert "Your last decision is taken back." in _undo_after_first_decision(memory_aid=True)


def test_the_game_guide_says_what_the_terminal_does_about_undo() -> None:
    guide = (Path(__file__).parents[3] / "docs" / "games" / "royal-racers.md").read_text(encoding="utf-8")
    assert "refuses `undo`" in guide and "unless `memory_aid=true`" in guide
    assert "take back a wrong guess" not in guide
