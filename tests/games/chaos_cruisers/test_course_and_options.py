"""The course model, the JSON course format and its validator, presets and options."""

from __future__ import annotations

from typing import Any

import pytest

import chaosgames
from chaosgames import InvalidOptionError
from chaosgames.games.chaos_cruisers.actions import Lift, Obstacle
from chaosgames.games.chaos_cruisers.course import articulation_squares, course_squares, validate_course
from chaosgames.games.chaos_cruisers.presets import PRESETS
from chaosgames.games.chaos_cruisers.race import progress_chart

from .helpers import load, open_field, position

BLUE = 3


def test_grand_loop_is_all_24_tiles_in_a_ring_8_wide_and_6_tall() -> None:
    course = PRESETS["grand-loop"]
    tiles = {tuple(t) for t in course["tiles"]}
    assert len(tiles) == 24
    assert tiles == {(x, y) for x in range(8) for y in range(6) if x in (0, 7) or y in (0, 5)}
    gates = course["gates"]
    assert gates["sun"][1] == 0 and gates["sun"][0] in (3, 4)  # middle of the bottom
    assert gates["moon"][0] == 7 and gates["moon"][1] in (2, 3)  # middle of the right
    assert gates["crown"][1] == 5 and gates["crown"][0] in (3, 4)  # middle of the top
    assert gates["arms"][0] == 0 and gates["arms"][1] in (2, 3)  # middle of the left


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_is_a_valid_course_within_one_piecepack(name: str) -> None:
    course = PRESETS[name]
    assert validate_course(course) == course
    assert len(course["tiles"]) <= 24 and set(course["gates"]) == {"sun", "moon", "crown", "arms"}


def test_the_figure_eight_crosses_itself() -> None:
    tiles = {tuple(t) for t in PRESETS["figure-eight"]["tiles"]}
    # The crossing tile touches four others; cutting it splits the course in two loops.
    crossing = (3, 3)
    assert (
        sum((crossing[0] + dx, crossing[1] + dy) in tiles for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)))
        == 4
    )
    assert crossing in articulation_squares(tiles)


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({"tiles": [[0, 0], [0, 0]], "gates": {"sun": [0, 0]}}, "overlap"),
        ({"tiles": [[0, 0], [2, 0]], "gates": {"sun": [0, 0]}}, "disconnected"),
        ({"tiles": [[0, 0], [1, 0]], "gates": {"moon": [1, 0]}}, "missing the sun gate"),
        ({"tiles": [[0, 0], [1, 0]], "gates": {"sun": [0, 0], "moon": [5, 5]}}, "not on a tile"),
        ({"tiles": [[0, 0], [1, 0]], "gates": {"sun": [0, 0], "moon": [0, 0]}}, "share the tile"),
        ({"tiles": [[0, 0]], "gates": {"sun": [0, 0], "star": [0, 0]}}, "unknown gate star"),
        ({"tiles": [[x, 0] for x in range(25)], "gates": {"sun": [0, 0]}}, "24 tiles"),
        ({"tiles": [], "gates": {"sun": [0, 0]}}, "non-empty"),
        ({"tiles": [[0, "a"]], "gates": {"sun": [0, 0]}}, "pair of whole numbers"),
        # Beyond this the state document (squares within 10**6) could not hold the course.
        ({"tiles": [[600_000, 0]], "gates": {"sun": [600_000, 0]}}, "within 100,000 tiles of"),
        ({"tiles": [[0, -(10**40)]], "gates": {"sun": [0, 0]}}, "within 100,000 tiles of"),
        ({"tiles": [[0, 0]], "gates": {"sun": [0, 0]}, "laps": 3}, "not laps"),
        ([1, 2], "JSON object"),
    ],
)
def test_the_course_validator_says_what_is_wrong(doc: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        validate_course(doc)
    with pytest.raises(InvalidOptionError, match=message):
        load(course=doc)


def test_a_course_may_be_given_as_json_text() -> None:
    game = chaosgames.load_game(
        "chaos-cruisers",
        course='{"tiles": [[0,0],[1,0],[2,0],[3,0]], "gates": {"sun":[0,0],"moon":[1,0],'
        '"crown":[2,0],"arms":[3,0]}}',
    )
    assert game.options["course"]["tiles"] == [[0, 0], [1, 0], [2, 0], [3, 0]]


def test_an_unknown_preset_is_refused_with_the_presets() -> None:
    with pytest.raises(InvalidOptionError, match="chicane, figure-eight, grand-loop"):
        load(course="monaco")


def test_the_gates_used_must_be_on_the_course() -> None:
    course = {"tiles": [[0, 0], [1, 0]], "gates": {"sun": [0, 0], "moon": [1, 0]}}
    assert load(course=course, gates=2).chart == ("moon", "sun", "moon", "sun")
    with pytest.raises(InvalidOptionError, match="no crown gate"):
        load(course=course, gates=3)


@pytest.mark.parametrize(
    "options",
    [
        {"tiles_moved": -1},
        {"tiles_moved": 11},
        {"coin_retrieval": "always"},
        {"laps": 0},
        {"gates": 1},
        {"gates": 9},
        {"max_rounds": -1},
        {"players": 5},
        {"players": 1},
        {"setup_order": "age"},
        {"two_cruisers": "maybe"},
    ],
)
def test_bad_options_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptionError):
        load(**options)


def test_the_race_progress_chart_follows_the_seed() -> None:
    assert progress_chart(4, 2) == ("moon", "crown", "arms", "sun", "moon", "crown", "arms", "sun")
    assert progress_chart(3, 1) == ("moon", "crown", "sun")
    assert load(laps=3).chart == progress_chart(4, 3)


def test_unused_gate_tiles_are_ordinary_tiles() -> None:
    game = load(gates=2)
    assert set(game.gate_tile) == {"sun", "moon"}
    assert len(game.gate_tiles) == 2
    # The crown tile (3, 5) has no pawn in this race: it takes obstacles and may be moved.
    cruisers = {
        "red": ((8, 0), 0, 1),
        "black": ((9, 0), 0, 1),
        "yellow": ((8, 1), 0, 1),
        "blue": ((9, 1), 0, 1),
    }
    state = position(game, cruisers, phase="obstacles")
    assert Obstacle((6, 10)) in state.legal_actions()
    state = position(game, cruisers, phase="lift")
    state.relocator, state.tiles_left = BLUE, 3
    assert Lift((6, 10)) in state.legal_actions()
    assert Lift((8, 0)) not in state.legal_actions()  # the sun tile, a gate in this race


def test_course_squares_are_the_2x2_grids_of_the_tiles() -> None:
    assert course_squares([(0, 0), (-1, 0)]) == {
        (0, 0),
        (1, 0),
        (0, 1),
        (1, 1),
        (-2, 0),
        (-1, 0),
        (-2, 1),
        (-1, 1),
    }
    assert len(course_squares({tuple(t) for t in open_field()["tiles"]})) == 64


def _second_set_course() -> dict[str, Any]:
    """An open field 4 tiles wide and 3 tall with both sets of gates: the first set's
    pawns along the bottom and the left, the second set's along the top and the right."""
    course = open_field(4, 3)
    course["gates"] = {
        "sun": [0, 0],
        "moon": [1, 0],
        "crown": [2, 0],
        "arms": [3, 0],
        "moon2": [3, 1],
        "crown2": [3, 2],
        "arms2": [2, 2],
        "sun2": [1, 2],
    }
    return course


def test_more_gates_than_four_come_from_a_second_set_of_pawns() -> None:
    """Variant 4, "play with more gates and laps": a course may name a second set of
    gates (a second piecepack's pawns), visited after the first set's arms gate, in the
    same suit order, before the lap ends at the sun."""
    game = load(course=_second_set_course(), gates=8, laps=1)
    assert game.chart == ("moon", "crown", "arms", "moon2", "crown2", "arms2", "sun2", "sun")
    assert len(game.gate_tiles) == 8
    assert load(course=_second_set_course(), gates=5, laps=2).chart == (
        ("moon", "crown", "arms", "moon2", "sun") * 2
    )
    # Unused gates of the second set are ordinary tiles, as for the first set.
    assert set(load(course=_second_set_course(), gates=6).gate_tile) == {
        "sun",
        "moon",
        "crown",
        "arms",
        "moon2",
        "crown2",
    }


def test_a_cruiser_checks_a_second_set_gate_only_in_its_turn_on_the_chart() -> None:
    game = load(course=_second_set_course(), gates=8, laps=1)
    # Red has reached moon, crown and arms; the moon2 tile (3,1) is one square north.
    state = position(game, {"red": ((7, 1), 1, 3), "black": ((0, 0), 0), "yellow": ((1, 0), 0)})
    state.apply_action(game.parse_action(state, "speed:="))
    state.apply_action(game.parse_action(state, "move:N1"))
    assert state.progress[0] == 4
    # Black, before any gate, passes the crown2 tile without checking it.
    state = position(game, {"black": ((6, 3), 1), "red": ((0, 0), 0), "yellow": ((1, 0), 0)})
    state.apply_action(game.parse_action(state, "speed:="))
    state.apply_action(game.parse_action(state, "move:N1"))
    assert state.pos[1] == (6, 4) and state.progress[1] == 0


def test_the_course_validator_checks_the_second_set_of_gates() -> None:
    course = _second_set_course()
    assert validate_course(course)["gates"]["sun2"] == [1, 2]
    with pytest.raises(ValueError, match="unknown gate moon3"):
        validate_course({**course, "gates": {**course["gates"], "moon3": [0, 1]}})
    with pytest.raises(ValueError, match="sun2 and crown2 gates share the tile"):
        validate_course({**course, "gates": {**course["gates"], "crown2": [1, 2]}})
    with pytest.raises(ValueError, match="the arms2 gate at"):
        validate_course({**course, "gates": {**course["gates"], "arms2": [9, 9]}})
    with pytest.raises(InvalidOptionError, match="no moon2 gate; with gates=5 it needs"):
        load(gates=5)
