"""The story of a race: what each action says, which places of the picture it marks, the
key to the picture and the picture itself (issue 48). Situations from the rulebook."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from importlib import resources
from typing import Any

import pytest

import chaosgames
from chaosgames.core.chance import sample_outcome
from chaosgames.core.errors import NotationError
from chaosgames.core.story import Told, slug
from chaosgames.games.chaos_cruisers import ChaosCruisersGame, ChaosCruisersState
from chaosgames.games.chaos_cruisers.actions import (
    KeepObstacle,
    Lay,
    Lead,
    Lift,
    Move,
    Obstacle,
    Reenter,
    Speed,
    Start,
    StopRelocating,
)
from chaosgames.games.chaos_cruisers.rules_in_force import CruisersRules
from chaosgames.games.chaos_cruisers.state import OrderFor, Phase
from chaosgames.games.chaos_cruisers.story import RULES_HEADINGS
from chaosgames.games.chaos_cruisers.svg import CELL, PHONE

from .helpers import CruiserAt, load, open_field, position, sensible_action
from .test_chaos_round import _blue_about_to_complete_moon

RED, BLACK, YELLOW, BLUE = range(4)
N, E, S, W = range(4)
NS = "{http://www.w3.org/2000/svg}"


def told(game: CruisersRules[Any, Any], state: ChaosCruisersState, action: Any) -> Told:
    """Apply `action` to `state` and tell it (the same for every viewer: nothing is hidden)."""
    before = state.clone()
    state.apply_action(action)
    story = game.tell(before, action, state)
    assert all(game.tell(before, action, state, viewer) == story for viewer in range(game.num_players))
    return story


def _moving(game: ChaosCruisersGame, cruisers: Mapping[str, CruiserAt], **kw: Any) -> ChaosCruisersState:
    return position(game, cruisers, phase="move", **kw)


# -- cruising rounds --------------------------------------------------------------------------


def test_speed_changes_say_the_new_speed_and_the_coin() -> None:
    game = load(course=open_field())
    state = position(
        game, {"red": ((3, 0), 2), "black": ((7, 7), 5), "yellow": ((1, 5), 0), "blue": ((2, 5), 4)}
    )
    story = told(game, state, Speed(1, 3))
    assert story.now == "Red plays the 3 coin as a nitro-boost (it is used up): speed 2 to 5."
    assert story.places == ("3,0",)
    state.apply_action(Move(N, 5))
    assert told(game, state, Speed(1)).now == "Black is at top speed and stays at 5."
    state.apply_action(Move(W, 5))
    story = told(game, state, Speed(-1))
    assert story.now == "Yellow cannot slow below 0, so it stands still this round."
    assert story.places == ("1,5",)
    # The last cruiser's turn ends the round: the next round's order (rules 1-3) is said.
    assert told(game, state, Speed(-1, 5)).now == (
        "Blue plays the 5 coin as a shock-brake (it is used up): speed 4 to 0, so it stands still this "
        "round. Round 2 begins, in the order red, blue, yellow and black."
    )


def test_a_move_says_where_to_and_marks_the_squares_it_crossed() -> None:
    game = load(course=open_field())
    state = _moving(game, {"red": ((3, 3), 3), "black": ((0, 7), 0)})
    story = told(game, state, Move(N, 2, E, 1))
    assert story.now == "Red moves 2 north then 1 east from 3,3 to 4,5."
    assert story.places == ("3,3", "3,4", "3,5", "4,5")
    assert story.notation == "move:N2E1" and story.kept == story.now


def test_passing_a_gate_names_it_and_the_next_one() -> None:
    # Open field: the moon gate's tile is (3, 0), squares 6-7 x 0-1.
    game = load(course=open_field())
    state = _moving(game, {"red": ((4, 0), 3), "black": ((0, 7), 0)})
    story = told(game, state, Move(E, 3))
    assert story.now == (
        "Red moves 3 east from 4,0 to 7,0 through the moon gate (gate 1 of 8; next: the crown gate)."
    )
    assert story.places == ("gate:moon", "gate:crown", "4,0", "5,0", "6,0", "7,0")


def test_the_rulebooks_ram_black_stops_and_slows_yellow_is_pushed_on() -> None:
    """ "The black cruiser stops at the point of collision and reduces his speed from 3 to 2.
    The yellow cruiser is moved one space in the direction of travel." """
    game = load(course=open_field())
    state = _moving(game, {"black": ((2, 2), 3), "yellow": ((2, 4), 3)})
    story = told(game, state, Move(N, 3))
    assert story.now == (
        "Black sets off 3 north from 2,2 and rams yellow on 2,4: black stops there and slows to 2; "
        "yellow is pushed north to 2,5."
    )
    assert story.places == ("2,2", "2,3", "2,4", "2,5")


def test_a_ram_that_pushes_a_cruiser_onto_an_obstacle_sends_it_back_to_its_last_gate() -> None:
    game = load(course=open_field(), players=2, two_cruisers=False)
    state = _moving(game, {"black": ((2, 2), 3), "red": ((2, 4), 3, 1)}, obstacles={(2, 5): "black"})
    story = told(game, state, Move(N, 3))
    assert story.now == (
        "Black sets off 3 north from 2,2 and rams red on 2,4: black stops there and slows to 2; "
        "red is pushed north onto black's obstacle on 2,5: out of bounds, red goes back to the tile "
        "of the moon gate at speed 0."
    )
    assert story.places == ("2,2", "2,3", "2,4", "2,5")
    assert state.phase == "reenter"
    story = told(game, state, Reenter((6, 1)))
    assert story.now == (
        "Red goes back on the course on 6,1, on the tile of the moon gate, at speed 0; it races on next "
        "round. Round 2 begins, in the order red and black."
    )
    assert story.places == ("6,1",)


def test_leaving_the_course_is_out_of_bounds() -> None:
    game = load(course=open_field())
    state = _moving(game, {"red": ((1, 6), 3), "black": ((5, 5), 0)})
    story = told(game, state, Move(N, 3))
    assert story.now == (
        "Red sets off 3 north from 1,6 and leaves the course at 1,8: out of bounds, red goes back to the "
        "tile of the sun gate at speed 0."
    )
    assert story.places == ("1,6", "1,7")
    assert game.rules_section(state, Reenter((0, 0))) == "out-of-bounds"


def test_running_into_an_obstacle_marks_it() -> None:
    game = load(course=open_field())
    state = _moving(game, {"red": ((3, 3), 2), "black": ((5, 5), 0)}, obstacles={(4, 4): "blue"})
    before = state.clone()
    assert game.rules_section(before, Move(E, 1, N, 1)) == "out-of-bounds"
    assert game.action_group(before, Move(E, 1, N, 1)) == (2, "Out of bounds")
    story = told(game, state, Move(E, 1, N, 1))
    assert story.now == (
        "Red sets off 1 east then 1 north from 3,3 and runs into blue's obstacle on 4,4: out of bounds, "
        "red goes back to the tile of the sun gate at speed 0."
    )
    assert story.places == ("3,3", "4,3", "4,4")


def test_the_finish_wins_the_chaos_cup() -> None:
    game = load(course=open_field(), laps=1)
    state = _moving(game, {"red": ((2, 0), 3, 3), "black": ((5, 5), 0)})
    story = told(game, state, Move(W, 3))
    assert story.now == (
        "Red moves 3 west from 2,0 through the sun gate (gate 4 of 4), finishing the race on 1,0, and leaves "
        "the course. Red wins the Chaos Cup."
    )
    assert story.places == ("gate:sun", "2,0", "1,0")


def test_with_two_cruisers_each_the_player_wins_when_both_finish() -> None:
    game = load(course=open_field(), laps=1, players=2)
    finished = (None, 0, 4)
    state = _moving(
        game, {"black": ((2, 0), 3, 3), "yellow": ((2, 1), 3, 3), "blue": finished, "red": ((5, 5), 0)}
    )
    story = told(game, state, Move(W, 3))
    assert story.now == (
        "Black moves 3 west from 2,0 through the sun gate (gate 4 of 4), finishing the race on 1,0, and "
        "leaves the course. The player of black and blue wins the Chaos Cup."
    )


# -- the lead order ---------------------------------------------------------------------------


def test_a_tie_on_rules_1_to_3_is_rolled_for_and_the_order_announced() -> None:
    game = load(course=open_field(), players=2, two_cruisers=False)
    state = position(game, {"red": ((2, 0), 0), "black": ((2, 1), 0)})
    state.turn = 1
    story = told(game, state, Speed(0))
    # Both are 4 squares from the moon gate's tile, at speed 0: rule 4 decides.
    assert story.now == (
        "Black keeps speed 0, so it stands still this round. Round 2 begins: red and black are tied for "
        "first place (same gates, distance to the next gate and speed): a roll decides."
    )
    assert state.is_chance_node()
    story = told(game, state, Lead(BLACK))
    assert story.now == (
        "A roll breaks the tie for first place between red and black: black goes first. "
        "Round 2 goes in the order black and red."
    )
    assert story.places == ()
    assert [form.example for form in game.notation.forms if form.chance] == ["lead:colour"]


def test_a_rolled_setup_order_and_the_starts() -> None:
    game = load(players=3, setup_order="roll")
    state = game.new_initial_state()
    assert told(game, state, Lead(YELLOW)).now == "A roll decides who places a cruiser first: yellow."
    assert told(game, state, Lead(RED)).now == (
        "A roll decides who places a cruiser second: red. The cruisers are placed in the order yellow, red "
        "and black."
    )
    story = told(game, state, Start((8, 1)))
    assert story.now == "Yellow starts on 8,1, on the sun gate's tile, at speed 0."
    assert story.places == ("8,1",)


def test_a_player_typing_nonsense_is_not_offered_the_lead_roll() -> None:
    game = load()
    state = position(game, {"red": ((8, 1), 0), "black": ((9, 1), 0)})
    with pytest.raises(NotationError) as error:
        game.parse_action(state, "go fast")
    assert "lead:" not in str(error.value) and "speed:+1" in str(error.value)


# -- the chaos round --------------------------------------------------------------------------


def test_the_chaos_round_is_announced_with_who_reshapes_the_course_and_how() -> None:
    state = _blue_about_to_complete_moon()
    game = state.game
    state.apply_action(Speed(0))
    story = told(game, state, Move(N, 1))
    assert story.now == (
        "Blue moves 1 north from 14,5 to 14,6 through the moon gate (gate 1 of 8; next: the crown gate). "
        "Chaos round (every cruiser has reached the moon gate): blue, the last to reach it, reshapes the "
        "course: lift a tile and lay it elsewhere, up to 3 tiles; then everyone places two obstacles. "
        "All obstacles come off the course."
    )
    # The blue ring moves from the moon to the crown; the obstacles come off their squares.
    assert story.places == ("gate:moon", "gate:crown", "14,5", "14,6", "0,8", "1,7")


def test_lifting_and_laying_a_tile_slides_it_by_its_places() -> None:
    state = _blue_about_to_complete_moon()
    game = state.game
    state.apply_action(Speed(0))
    state.apply_action(Move(N, 1))
    assert game.action_group(state, Lift((0, 0))) == (0, "Lift a tile")
    assert game.action_group(state, StopRelocating()) == (1, "Move no more tiles")
    story = told(game, state, Lift((2, 10)))
    assert story.now == (
        "Blue lifts the tile at 2,10 (squares 2,10 to 3,11), tile 1 of up to 3, to lay it elsewhere."
    )
    assert story.places == ("tile:2,10",)
    assert game.rules_section(state, Lay((0, 12))) == "reshaping-the-course"
    story = told(game, state, Lay((0, 12)))
    assert story.now == "Blue lays the tile from 2,10 at 0,12; 2 more may move."
    assert story.places == ("tile:2,10", "tile:0,12")
    assert story.moves == (("tile:2,10", "tile:0,12"),)
    story = told(game, state, StopRelocating())
    # Chaos round step 4: the order of the next round (black is nearest the crown gate).
    assert story.now == (
        "Blue moves no more tiles. Obstacles are placed in the order black, red, yellow and blue, one each, "
        "then a second each; round 2 follows in that order."
    )


def test_obstacles_are_told_one_by_one_and_the_next_round_begins() -> None:
    state = _blue_about_to_complete_moon()
    game = state.game
    state.apply_action(Speed(0))
    state.apply_action(Move(N, 1))
    state.apply_action(StopRelocating())
    story = told(game, state, Obstacle((4, 0)))
    assert story.now == "Black puts its first obstacle on 4,0 (entering it is out of bounds)."
    assert story.places == ("4,0",)
    assert game.rules_section(state, state.legal_actions()[0]) == "obstacles"
    for _ in range(6):
        state.apply_action(state.legal_actions()[0])
    last = state.legal_actions()[0]
    assert isinstance(last, Obstacle)
    story = told(game, state, last)
    assert story.now == (
        f"Blue puts its second obstacle on {last.square[0]},{last.square[1]} (entering it is out of bounds). "
        "Round 2 begins, in the order black, red, yellow and blue."
    )


def test_a_chaos_round_without_tiles_and_the_coins_after_the_sun() -> None:
    state = _blue_about_to_complete_moon(tiles_moved=0, coin_retrieval="every_chaos_round")
    game = state.game
    state.apply_action(Speed(0))
    story = told(game, state, Move(N, 1))
    assert story.now.endswith(
        "Chaos round (every cruiser has reached the moon gate): no tiles move; everyone places two "
        "obstacles. All obstacles come off the course and everyone gets their used speed coins back. "
        "Obstacles are placed in the order black, red, yellow and blue, one each, then a second each; "
        "round 2 follows in that order."
    )


def test_keeping_an_obstacle_is_said() -> None:
    game = load(course=open_field())
    state = position(game, {"red": ((0, 0), 0)}, phase="obstacles")
    state.order_for = OrderFor.CHAOS
    state.obstacle_pass = 2
    state.phase = Phase.OBSTACLES
    before = state.clone()
    story = game.tell(before, KeepObstacle(), before)
    assert story.now == "Red keeps its second obstacle: no square may take it." and story.places == ()


# -- the key, the groups and the rules --------------------------------------------------------


def test_the_legend_has_the_race_progress_and_each_cruisers_speed_heading_and_next_gate() -> None:
    game = load(course=open_field(), players=2, two_cruisers=False)
    state = position(game, {"red": ((3, 3), 2, 1), "black": ((0, 7), 0)}, obstacles={(4, 4): "black"})
    sections = {s.title: s for s in game.legend(state)}
    assert list(sections) == ["Now", "Cruisers", "Race progress", "Symbols"]
    assert sections["Now"].entries[0].text == "Round 1, in the order red and black: red adjusts speed."
    red = sections["Cruisers"].entries[RED]
    assert red.colour == "#d62728"
    assert red.text == (
        "Red cruiser on 3,3: speed 2, next gate the crown gate (gate 2 of 8), heading north, 6 squares away; "
        "1 of 8 gates passed, lap 1 of 2; speed coins 2, 3, 4, 5; 2 obstacle coins in hand."
    )
    progress = [e.text for e in sections["Race progress"].entries]
    assert progress[:2] == ["The moon gate, lap 1: red", "The crown gate, lap 1: nobody yet"]
    assert sections["Race progress"].entries[0].symbol == "\u263e"
    symbols = " ".join(e.text for e in sections["Symbols"].entries)
    assert "obstacle" in symbols and "next gate" in symbols and "The sun gate" in symbols


def test_moves_are_grouped_plain_then_rams_then_out_of_bounds() -> None:
    game = load(course=open_field())
    state = _moving(game, {"red": ((3, 3), 2), "black": ((3, 5), 0)}, obstacles={(4, 4): "blue"})
    groups = [game.action_group(state, a) for a in state.legal_actions()]
    assert set(groups) == {(0, "Moves"), (1, "Rams"), (2, "Out of bounds")}
    assert game.action_group(state, Move(N, 2)) == (1, "Rams")
    assert game.rules_section(state, Move(N, 2)) == "ramming"
    assert game.rules_section(state, Move(S, 2)) == "moving"
    speed = position(game, {"red": ((3, 3), 2)})
    assert [game.action_group(speed, a)[1] for a in speed.legal_actions()] == ["Speed"] * 3 + [
        "Speed coins (each once)"
    ] * 8
    assert game.rules_section(speed, Speed(1, 2)) == "speed"
    assert game.rules_section(game.new_initial_state(), Start((8, 0))) == "setup"
    assert game.rules_section(speed, Lead(RED)) == "the-lead-order"


def test_every_rules_section_is_a_heading_of_the_rules_summary() -> None:
    text = resources.files("chaosgames.games.chaos_cruisers").joinpath("rules.md").read_text()
    headings = {slug(line.lstrip("#")) for line in text.splitlines() if line.startswith("#")}
    assert {slug(h) for h in RULES_HEADINGS} <= headings
    assert {"cruising-round", "chaos-round", "setup", "ramming", "out-of-bounds"} <= headings


# -- the picture ------------------------------------------------------------------------------


def _svg(game: ChaosCruisersGame, state: ChaosCruisersState, legend: bool = False) -> ET.Element:
    return ET.fromstring(game.render_svg(state, legend=legend))


def test_each_cruiser_shows_its_speed_heading_and_next_gate() -> None:
    game = load(course=open_field(), players=2, two_cruisers=False)
    state = position(game, {"red": ((3, 3), 2, 1), "black": ((0, 7), 0)})
    root = _svg(game, state)
    red = next(g for g in root.iter(f"{NS}g") if g.get("data-piece") == "cruiser-red")
    assert red[0].tag == f"{NS}title" and "heading north" in (red[0].text or "")
    assert red.find(f"{NS}polygon") is not None  # the nose
    assert [t.text for t in red.iter(f"{NS}text")] == ["2"]
    crown = next(g for g in root.iter(f"{NS}g") if g.get("data-place") == "gate:crown")
    assert crown[0].text == "The crown gate's pawn on tile 6,6: the next gate of red."
    assert [p.get("class") for p in crown.iter(f"{NS}path")] == ["next-gate next-gate-red"]
    moon = next(g for g in root.iter(f"{NS}g") if g.get("data-place") == "gate:moon")
    assert [p.get("class") for p in moon.iter(f"{NS}path")] == ["next-gate next-gate-black"]


def test_tiles_obstacles_and_cruisers_are_pieces_with_titles() -> None:
    game = load(course=open_field())
    state = position(game, {"red": ((3, 3), 2), "black": ((0, 7), 0)}, obstacles={(4, 4): "blue"})
    root = _svg(game, state)
    pieces = {g.get("data-piece"): g for g in root.iter() if g.get("data-piece")}
    assert len(pieces) == 16 + 1 + 2
    tile = pieces["tile-2,2"]
    assert tile.get("data-at") == tile.get("data-place") == "tile:2,2"
    assert (
        tile[0].text
        == "Tile 2,2 (squares 2,2 to 3,3): a cruiser is on it, so it cannot be lifted or take an obstacle."
    )
    obstacle = pieces["obstacle-blue-4,4"]
    assert obstacle.get("data-at") == "4,4"
    assert obstacle[0].text == "Blue's obstacle on 4,4: entering it is out of bounds."
    square = next(e for e in root.iter() if e.get("data-place") == "4,4")
    assert square[0].text == "Square 4,4: blue's obstacle (entering it is out of bounds)."


@pytest.mark.parametrize("course", ["grand-loop", "figure-eight", "chicane"])
def test_without_the_legend_the_picture_is_the_course_large_on_a_phone(course: str) -> None:
    game = load(course=course)
    state = game.new_initial_state()
    for square in ((8, 0), (8, 1), (9, 0), (9, 1)) if course == "grand-loop" else ():
        state.apply_action(Start(square))
    svg = game.render_svg(state, legend=False)
    root = ET.fromstring(svg)
    width = float(root.get("viewBox", "").split()[2])
    squares = 2 * (max(t[0] for t in state.tiles) - min(t[0] for t in state.tiles) + 1)
    assert width <= squares * CELL * PHONE / 384  # a few units of margin at most
    assert CELL * PHONE / width >= 24  # a square is at least 24 CSS px
    assert "Race progress" not in svg and "Race progress" in game.render_svg(state)
    for text in root.iter(f"{NS}text"):
        if text.text is not None and (
            text.text in {"0", "1", "2", "3", "4", "5"} or text.text in "\u2600\u263e\u265b\u2694"
        ):
            assert float(text.get("font-size", "0")) * PHONE / width >= 11


def test_a_course_grown_wide_in_chaos_rounds_gets_larger_figures() -> None:
    game = load(
        course={"tiles": [[x, 0] for x in range(12)], "gates": {"sun": [0, 0], "moon": [11, 0]}}, gates=2
    )
    state = position(game, {"red": ((1, 1), 3), "black": ((0, 0), 0)})
    root = _svg(game, state)
    width = float(root.get("viewBox", "").split()[2])
    speeds = [float(t.get("font-size", "0")) for t in root.iter(f"{NS}text") if t.text == "3"]
    assert speeds and speeds[0] * PHONE / width >= 11


# -- every action of random races ---------------------------------------------------------------

PLACE = re.compile(r'data-place="([^"]*)"')
PIECE = re.compile(r'data-piece="([^"]*)"')


def _places(game: ChaosCruisersGame, state: ChaosCruisersState) -> set[str]:
    """The places of the picture without the legend, checking its pieces and titles."""
    svg = game.render_svg(state, legend=False)
    pieces = PIECE.findall(svg)
    assert len(pieces) == len(set(pieces)), "data-piece ids are unique"
    for node in ET.fromstring(svg).iter():
        if node.get("data-place") or node.get("data-piece"):
            assert node[0].tag == f"{NS}title" and node[0].text, "a title comes first"
    assert game.legend(state)[0].entries[0].text
    return set(PLACE.findall(svg))


@pytest.mark.parametrize(
    "options",
    [
        {"players": 4},
        {"players": 3, "course": "figure-eight", "setup_order": "roll", "tiles_moved": 5},
        {"players": 2, "course": "chicane", "laps": 1},
    ],
)
def test_every_action_of_random_races_is_told_on_places_of_the_picture(options: dict[str, Any]) -> None:
    game = chaosgames.load_game("chaos-cruisers", **options)
    assert isinstance(game, ChaosCruisersGame)
    rng = random.Random(48)
    headings = {slug(h) for h in RULES_HEADINGS}
    kinds: set[str] = set()
    for _ in range(2):
        state = game.new_initial_state()
        places = _places(game, state)
        steps = 0
        while not state.is_terminal() and steps < 700:
            if state.is_chance_node():
                action = sample_outcome(state.chance_outcomes(), rng)
            else:
                for legal in state.legal_actions():
                    assert set(game.action_places(state, legal)) <= places
                    assert game.rules_section(state, legal) in headings
                action = sensible_action(state, rng)
            before = state.clone()
            state.apply_action(action)
            after_places = _places(game, state)
            for viewer in (None, *range(game.num_players)):
                story = game.tell(before, action, state, viewer)
                assert story.now and story.now[0].isupper() and story.now.endswith(".")
                assert story.notation == str(action)
                assert set(story.places) <= places | after_places, (str(action), story.places)
                for origin, target in story.moves:
                    assert origin in places and target in after_places
            kinds.add(type(action).__name__)
            places = after_places
            steps += 1
    assert {"Speed", "Move", "Lift", "Lay", "Obstacle"} <= kinds
