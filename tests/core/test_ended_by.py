"""Caps are options, not rules (issue 18): off by default, and a game they end says so.

`max_rounds` (Chaos Cruisers, Royal Racers), `max_moves` (Chaos Checkers) and `max_turns`
(Cardboard Machines) are not in the rulebooks. `State.ended_by()` is None while a game
goes on, then "rules" or "cap"; observations carry it once the game is over, and records
store it.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import chaosgames
from chaosgames import GameRecord, RecordError
from tests.games.chaos_checkers.helpers import plain_position, play
from tests.toy_games import registered_toy_games

CAPS = [
    ("chaos-cruisers", "max_rounds"),
    ("royal-racers", "max_rounds"),
    ("chaos-checkers", "max_moves"),
    ("cardboard-machines", "max_turns"),
]


@pytest.mark.parametrize(("name", "cap"), CAPS)
def test_every_cap_is_off_by_default_and_zero_means_none(name: str, cap: str) -> None:
    assert chaosgames.load_game(name).options[cap] == 0
    assert chaosgames.load_game(name, **{cap: 0}).options[cap] == 0
    with pytest.raises(chaosgames.InvalidOptionError):
        chaosgames.load_game(name, **{cap: -1})


def test_a_game_ended_by_the_rulebook_says_so() -> None:
    state = plain_position({14: 0, 18: 1})
    assert state.ended_by() is None and "ended_by" not in state.observation(None)
    play(state, "14x23")  # "The first player to eliminate all opposing pieces wins"
    assert state.ended_by() == "rules"
    assert state.observation(0)["ended_by"] == state.observation(None)["ended_by"] == "rules"


def test_a_game_ended_by_its_cap_says_so() -> None:
    game = chaosgames.load_game("chaos-checkers", chaos=False, max_moves=2)
    state = game.new_initial_state()
    play(state, "11-15", "22-18")
    assert state.is_terminal() and state.ended_by() == "cap"
    assert state.observation(1)["ended_by"] == "cap"
    assert game.state_from_json(state.to_json()).ended_by() == "cap"


def test_the_default_is_rules_for_a_game_without_a_cap() -> None:
    with registered_toy_games():
        state = chaosgames.load_game("toy-nim", pile=1).new_initial_state()
        assert state.ended_by() is None
        state.apply_action(state.legal_actions()[0])
        assert state.is_terminal() and state.ended_by() == "rules"


def _finished_record(max_moves: int) -> tuple[GameRecord, chaosgames.State[Any]]:
    game = chaosgames.load_game("chaos-checkers", chaos=False, max_moves=max_moves)
    record = GameRecord.start(game, ["a", "b"])
    state = game.new_initial_state()
    for text in ("11-15", "22-18"):
        action = game.parse_action(state, text)
        state.apply_action(action)
        record.append(action)
    record.finish(state)
    return record, state


def test_records_store_how_the_game_ended() -> None:
    record, _ = _finished_record(max_moves=2)
    assert record.ended_by == "cap" and record.result == [0.5, 0.5]
    again = GameRecord.from_json(json.dumps(record.to_json()))
    assert again.ended_by == "cap" and again.to_json() == record.to_json()
    unfinished, _ = _finished_record(max_moves=0)
    assert unfinished.ended_by is None and unfinished.result is None


def test_older_records_without_ended_by_still_load() -> None:
    record, _ = _finished_record(max_moves=2)
    doc = record.to_json()
    del doc["ended_by"]
    old = GameRecord.from_json(doc)
    assert old.ended_by is None and old.replay().ended_by() == "cap"


def test_a_record_with_a_strange_ending_is_refused() -> None:
    record, _ = _finished_record(max_moves=2)
    with pytest.raises(RecordError, match="ended_by"):
        GameRecord.from_json({**record.to_json(), "ended_by": "boredom"})
