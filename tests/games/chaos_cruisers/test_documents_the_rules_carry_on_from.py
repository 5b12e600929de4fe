"""State documents are read with every check the rules rely on (issue 12): a position the
rules could not carry on from is refused when it is read, not a few moves later; and bad
actions are refused without changing anything."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from chaosgames import IllegalActionError, InvalidStateError
from chaosgames.games.chaos_cruisers import ChaosCruisersState
from chaosgames.games.chaos_cruisers.actions import Move, Obstacle, Speed, Start

from .helpers import load, play


def _reach(test: Callable[[ChaosCruisersState], bool], **options: Any) -> ChaosCruisersState:
    """The first position of seeded sensible play that passes `test`."""
    game = load(players=3, **options)
    for seed in range(40):
        state = game.new_initial_state()
        rng = random.Random(seed)
        for _ in range(3000):
            if test(state):
                return state
            if state.is_terminal():
                break
            play(state, rng, 1)
    raise AssertionError("no seeded game reached the position")


def _document(state: ChaosCruisersState) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(json.dumps(state.to_json()))
    assert state.game.state_from_json(doc).to_json() == state.to_json()  # as played, it reads back
    return doc


def _refused(state: ChaosCruisersState, doc: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidStateError, match=message):
        state.game.state_from_json(doc)


def _second_placer_of_the_first_pass(state: ChaosCruisersState) -> bool:
    return state.phase == "obstacles" and state.obstacle_pass == 1 and state.turn == 1


def test_a_document_that_restarts_the_obstacle_passes_is_refused() -> None:
    # Step 4 counts two passes; a pass of 0 in the middle of step 4 would hand out a third coin.
    state = _reach(_second_placer_of_the_first_pass)
    doc = _document(state)
    doc["obstacle_pass"] = 0
    _refused(state, doc, "obstacle_pass")


def test_a_player_cannot_have_placed_more_obstacles_than_his_turns_in_step_four() -> None:
    state = _reach(_second_placer_of_the_first_pass)
    doc = _document(state)
    placer = doc["order"][state.turn]
    # Still to place his first coin, yet with one on the course already.
    free = next(a for a in state.legal_actions() if isinstance(a, Obstacle)).square
    doc["obstacles"] = sorted([*doc["obstacles"], [free[0], free[1], placer]])
    next(c for c in doc["cruisers"] if c["colour"] == placer)["obstacles_in_hand"] = 1
    _refused(state, doc, "placed 1 obstacles in 0 turns")


def test_no_obstacle_stands_while_the_last_cruiser_moves_tiles() -> None:
    # Chaos round step 2 returns every obstacle before step 3.
    lifting = _reach(lambda s: s.phase == "lift")
    doc = _document(lifting)
    x, y = lifting.obstacle_choices()[0]  # a square step 4 would allow
    doc["obstacles"] = [[x, y, "red"]]
    doc["cruisers"][0]["obstacles_in_hand"] = 1
    _refused(lifting, doc, "obstacles are off the course until step 4")


def test_a_tile_is_lifted_only_while_some_are_left_to_move() -> None:
    state = _reach(lambda s: s.phase == "lift" and not s.moved)
    doc = _document(state)
    doc["tiles_left"] = 0
    _refused(state, doc, "tiles_left|moved_tiles")


def test_while_one_cruiser_is_put_back_the_others_still_racing_stand_on_the_course() -> None:
    state = _reach(lambda s: s.phase == "reenter")
    doc = _document(state)
    other = next(c for c in doc["cruisers"] if c["square"] is not None)
    other["square"] = None
    _refused(state, doc, "racing but not on the course")


def test_while_the_playing_order_is_drawn_every_cruiser_still_racing_stands_on_the_course() -> None:
    state = _reach(lambda s: s.phase == "order" and s.order_for != "setup")
    doc = _document(state)
    next(c for c in doc["cruisers"] if c["square"] is not None)["square"] = None
    _refused(state, doc, "racing but not on the course")


def test_the_cruiser_out_of_bounds_is_named_only_while_it_is_put_back() -> None:
    state = _reach(lambda s: s.phase == "speed" and s.round > 1)
    doc = _document(state)
    doc["reentering"] = doc["order"][state.turn]
    _refused(state, doc, "reentering")


def test_setup_documents_hold_no_race_played_yet() -> None:
    state = load(players=3).new_initial_state()
    state.apply_action(Start((8, 0)))
    doc = _document(state)
    doc["round"] = 3
    _refused(state, doc, "during setup")


@pytest.mark.parametrize(
    "action",
    [
        Speed(1001),
        Speed(1, 9),
        Move(7, 99),
        Move(0, 1, 9, 1),
        Start((10**20, 0)),
        ("speed", 1),
        (1, 0),
        "speed:+1",
        None,
    ],
)
def test_out_of_range_and_wrong_type_actions_are_illegal_and_change_nothing(action: Any) -> None:
    state = _reach(lambda s: s.phase == "speed")
    before = json.dumps(state.to_json())
    with pytest.raises(IllegalActionError):
        state.apply_action(action)
    assert json.dumps(state.to_json()) == before
