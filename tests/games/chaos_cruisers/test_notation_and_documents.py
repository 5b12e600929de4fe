"""Action notation, state documents, observations and bad input."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from chaosgames import CHANCE, IllegalActionError, InvalidStateError, NotationError
from chaosgames.games.chaos_cruisers.actions import COLOURS, Move, Speed, Start
from chaosgames.games.chaos_cruisers.evaluation import win_shares

from .helpers import load, open_field, play, position

RED, BLACK, YELLOW, BLUE = range(4)


def _midrace() -> Any:
    game = load(course=open_field())
    state = position(
        game,
        {"red": ((3, 3), 2, 1), "black": ((0, 7), 0), "yellow": ((1, 7), 4), "blue": ((2, 7), 0)},
        obstacles={(4, 4): "blue"},
    )
    return game, state


def test_move_notation_names_the_legs() -> None:
    assert str(Move(0, 3)) == "move:N3"
    assert str(Move(0, 2, 1, 1)) == "move:N2E1"
    assert str(Move(3, 1, 2, 4)) == "move:W1S4"
    assert str(Speed(1, 3)) == "nitro:3" and str(Speed(-1, 5)) == "brake:5" and str(Speed(0)) == "speed:="


@pytest.mark.parametrize(
    ("seed", "options"),
    [
        (1, {"players": 4, "max_rounds": 20}),
        (2, {"players": 2, "course": "chicane"}),
        (3, {"players": 3, "course": "figure-eight", "setup_order": "roll", "tiles_moved": 5}),
    ],
)
def test_every_legal_action_is_read_back_from_its_notation(seed: int, options: dict[str, Any]) -> None:
    # Random races (heading for the gates, so chaos rounds come) through setup, cruising
    # and chaos rounds: every choice offered, and every tie's chance outcome, is the very
    # action its notation names, as a player may type it too (upper case, spaces).
    game = load(**{"max_rounds": 40, **options})
    state, rng = game.new_initial_state(), random.Random(seed)
    while not state.is_terminal():
        for action in state.legal_actions():
            text = str(action)
            assert game.parse_action(state, text) is action
            assert game.parse_action(state, f" {text.upper()} ") is action
        play(state, rng, 1)


def test_notation_is_read_forgivingly() -> None:
    game, state = _midrace()
    assert game.parse_action(state, " NITRO:3 ") == Speed(1, 3)
    state.apply_action(Speed(0))
    assert game.parse_action(state, "move: n1e1") == Move(0, 1, 1, 1)


def test_unreadable_text_is_a_notation_error_listing_the_forms() -> None:
    game, state = _midrace()
    with pytest.raises(NotationError, match="move:N2E1"):
        game.parse_action(state, "go fast")


def test_well_formed_but_illegal_actions_are_refused_and_change_nothing() -> None:
    game, state = _midrace()
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalActionError, match="legal actions are"):
        game.parse_action(state, "move:N2")  # red must adjust its speed first
    with pytest.raises(IllegalActionError):
        state.apply_action(Move(0, 2))
    assert json.dumps(state.to_json(), sort_keys=True) == before


def test_state_documents_round_trip() -> None:
    game, state = _midrace()
    doc = json.loads(json.dumps(state.to_json()))
    again = game.state_from_json(doc)
    assert again.to_json() == state.to_json()
    assert doc["cruisers"][RED]["square"] == [3, 3] and doc["obstacles"] == [[4, 4, "blue"]]


def _broken(mutate: Any) -> dict[str, Any]:
    _, state = _midrace()
    doc: dict[str, Any] = json.loads(json.dumps(state.to_json()))
    mutate(doc)
    return doc


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["cruisers"][0].update(speed=6), "speed"),
        (lambda d: d["cruisers"][0].update(square=[4, 4]), "cannot stand"),
        (lambda d: d["cruisers"][0].update(square=[0, 7]), "cannot stand"),
        (lambda d: d["cruisers"][0].update(square=[40, 7]), "cannot stand"),
        (lambda d: d["cruisers"][0].update(speed_coins=[1]), "speed coins"),
        (lambda d: d.update(obstacles=[[0, 0, "red"]]), "obstacle cannot"),
        (lambda d: d.update(phase="dancing"), "phase"),
        (lambda d: d.update(tiles=[t for t in d["tiles"] if t != [1, 1]]), "connected tiles"),
        (lambda d: d.update(tiles=d["tiles"][:-1]), "gate tile is missing"),
        (lambda d: d.update(order=["red", "red"]), "twice"),
        (lambda d: d["cruisers"][0].update(square=None), "not on the course"),
        (lambda d: d.update(cruisers=d["cruisers"][:3]), "4 cruisers"),
        (lambda d: d["cruisers"][0].update(reached_at=[0] * 8), "reached_at"),
        (lambda d: d["cruisers"][3].update(obstacles_in_hand=2), "two obstacle coins"),
        (lambda d: d.update(obstacles=[[x, y, "red"] for x in (2, 3) for y in (2, 3)]), "cover a whole tile"),
        (lambda d: d.update(obstacles=[[4, y, "red"] for y in range(8)]), "cut the course"),
        (lambda d: d["cruisers"][0].update(reached_at=[5, 0, 0, 0, 0, 0, 0, 0]), "rise row by row"),
        (
            lambda d: (
                d.update(clock=9),
                d["cruisers"][0].update(gates_reached=8, reached_at=[*range(1, 9)]),
            ),
            "finished and left the course",
        ),
        (lambda d: d.update(winner=0), "winner"),
        (lambda d: d.update(lifted=[9, 9]), "held up"),
        (lambda d: d.update(moved_tiles=[[0, 0]]), "moved_tiles"),
        (lambda d: d.update(phase="start", order_for="setup", turn=1), "during setup"),
    ],
)
def test_impossible_positions_are_refused(mutate: Any, message: str) -> None:
    game, _ = _midrace()
    with pytest.raises(InvalidStateError, match=message):
        game.state_from_json(_broken(mutate))


def test_observations_hide_nothing_and_are_json() -> None:
    _, state = _midrace()
    for player in [0, 1, 2, 3, None]:
        obs = state.observation(player)
        json.dumps(obs)
        assert obs["cruisers"] == state.to_json()["cruisers"]


def test_text_rendering_shows_the_course_cruisers_and_turn() -> None:
    _, state = _midrace()
    text = str(state)
    assert "R" in text and "#" in text
    assert "red R  speed 2  gates 1/8 next crown  at 3,3  coins 2345  obstacles 2" in text
    assert max(len(line) for line in text.splitlines()) <= 80
    assert text.rstrip().endswith("red (red) adjusts speed.")


def test_svg_is_well_formed_with_tiles_cruisers_obstacles_and_the_chart() -> None:
    game, state = _midrace()
    root = ET.fromstring(game.render_svg(state))
    ns = "{http://www.w3.org/2000/svg}"
    texts = [t.text for t in root.iter(f"{ns}text")]
    assert "Moon Gate 1" in texts and "Sun Gate 2" in texts
    titles = [t.text for t in root.iter(f"{ns}title")]
    assert (
        "Red cruiser on 3,3: speed 2, next gate the crown gate (gate 2 of 8), heading north, 6 squares "
        "away; 1 of 8 gates passed, lap 1 of 2; speed coins 2, 3, 4, 5; 2 obstacle coins in hand."
    ) in titles
    assert len([r for r in root.iter(f"{ns}rect") if r.get("stroke-width") == "2"]) == 16  # tiles
    assert len(list(root.iter(f"{ns}circle"))) == 4 + 1  # gate pawns + one obstacle


def test_descriptions_say_what_a_move_does() -> None:
    game, state = _midrace()
    assert (
        game.describe_action(state, Speed(1, 3))
        == "Nitro-boost with the 3 coin: speed 5 (the coin is used up)"
    )
    assert game.describe_action(state, Speed(-1)) == "Slow down to 1"
    state.apply_action(Speed(0))
    assert game.describe_action(state, Move(0, 1, 1, 1)) == "Move 1 north, then 1 east: out of bounds"
    assert game.describe_action(state, Move(0, 2)) == "Move 2 north: ends on 3,5"


def test_a_player_with_two_cruisers_is_told_which_one_a_choice_moves() -> None:
    game = load(players=2, two_cruisers=True)
    state = game.new_initial_state()
    while state.current_player() == CHANCE:
        state.apply_action(state.chance_outcomes()[0][0])
    cruiser = state.deciding_cruiser()
    start = state.legal_actions()[0]
    assert isinstance(start, Start)
    assert (
        game.describe_action(state, start)
        == f"{COLOURS[cruiser]}: start on {start.square[0]},{start.square[1]}"
    )


def test_heuristic_values_and_win_shares_favour_the_leader() -> None:
    game, state = _midrace()
    values = game.heuristic(state)
    assert all(0 <= v <= 1 for v in values) and values[RED] == max(values)
    shares = win_shares(state)
    assert abs(sum(shares) - 1) < 1e-9 and all(0 <= s <= 1 for s in shares)
    assert shares[RED] == max(shares)


def test_text_and_svg_tell_the_second_set_of_gates_apart() -> None:
    from .test_course_and_options import _second_set_course

    game = load(course=_second_set_course(), gates=8, players=3)
    state = position(game, {"red": ((0, 0), 0), "black": ((1, 0), 0), "yellow": ((0, 1), 0)})
    text = str(state)
    # Row y=5 holds the top edge: the second set's sun2 (tile 1,2) and arms2 (2,2), then
    # crown2 (3,2); lower case is the first set, capitals the second.
    assert "  5 ..SSAACC" in text and "  2 ......MM" in text
    assert "  1 Ysmmccaa" in text and "  0 RKmmccaa" in text
    svg = game.render_svg(state)
    ET.fromstring(svg)
    assert "Moon II Gate 1" in svg and "Sun II Gate 1" in svg and "Moon Gate 1" in svg
    assert svg.count('class="gate second-set"') == 4 and svg.count('class="gate"') == 4
