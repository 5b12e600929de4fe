"""The story of a race (issue 48): what each action says, the spaces it marks, the picture's
places, pieces and titles, the legend, and the phone's sizes."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import chaosgames
from chaosgames.core.chance import sample_outcome
from chaosgames.core.errors import NotationError
from chaosgames.core.story import Told, slug
from chaosgames.games.cardboard_machines import stress_test
from chaosgames.games.cardboard_machines.state import CardboardState
from tests.games.cardboard_machines.helpers import (
    cautious_action,
    new_state,
    play,
    put,
    space,
    table,
    turn_of,
)

# The track of test_turn.py (back to front): boards 2, 0, 1, 3, 4, 5, all white. Board 1
# (rows 5-6): terrain on 5a, 5f, 6a, 6e, 6f. Board 3 (rows 7-8, offset +1): 7c, 7d, 7f, 8c.
TRACK = [2, 0, 1, 3, 4, 5]
PLACE = re.compile(r'data-place="([^"]*)"')
PIECE = re.compile(r'data-piece="([^"]*)"')


def racer(at: str, gear: int = 1, stress: int = 0, other: str = "1c", players: int = 2) -> CardboardState:
    st = table(TRACK, players=players)
    put(st, 0, at, gear=gear, stress=stress)
    put(st, 1, other)
    turn_of(st, 0)
    return st


def rolling(at: str, stress: int, **options: Any) -> CardboardState:
    """Red on `at` with `stress`, about to roll the stress dice."""
    st = table(TRACK, **options)
    put(st, 0, at, stress=stress)
    put(st, 1, "1c")
    turn_of(st, 0)
    stress_test.start_roll(st)
    st._invalidate()
    return st


def told(st: CardboardState, text: str) -> Told:
    """Play `text` and tell it; every viewer is told the same (nothing is hidden)."""
    game = st.game
    action = game.parse_action(st, text)
    before = st.clone()
    st.apply_action(action)
    tales = [game.tell(before, action, st, viewer) for viewer in (None, *range(game.num_players))]
    assert all(tale == tales[0] for tale in tales)
    assert tales[0].now == tales[0].kept and tales[0].notation == text
    return tales[0]


# -- a turn, told ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "sentence"),
    [
        (3, 3, "red stays in gear 3 and will move 3 spaces."),
        (2, 3, "red shifts up from gear 2 to gear 3 and will move 3 spaces."),
        (
            1,
            4,
            "red shifts up from gear 1 to gear 4 (2 stress: 1 for every step above 1) and will move 4 "
            "spaces.",
        ),
        (
            5,
            2,
            "red shifts down from gear 5 to gear 2 (1 stress: a drop of more than 1) and will move 2 spaces.",
        ),
    ],
)
def test_a_gear_change_says_its_stress(old: int, new: int, sentence: str) -> None:
    st = racer("4c", gear=old)
    tale = told(st, f"gear:{new}")
    assert tale.now == sentence
    # the gear (and any stress) on the car changed: its space is marked
    assert tale.places == (("4c",) if new != old else ())


def test_a_step_says_where_from_and_to_and_what_it_cost() -> None:
    st = racer("5e", gear=2)
    st.ghosts.add(space(st, "6d"))
    tale = told(st, "gear:2")
    tale = told(st, "move:left")
    assert tale.now == (
        "red moves left from 5e to 6d, barely dodging the terrain on 6e (1 stress), into a ghost "
        "(1 stress). 1 space to go."
    )
    assert tale.places == ("5e", "6d")


def test_driving_through_a_car_stresses_both() -> None:
    st = racer("4c", gear=2, other="5c")
    told(st, "gear:2")
    tale = told(st, "move:ahead")
    assert tale.now == "red moves ahead from 4c to 5c, through blue's car (1 stress each). 1 space to go."
    assert tale.places == ("4c", "5c")


def test_the_end_of_a_move_starts_the_stress_test() -> None:
    st = racer("4c", gear=1, stress=2)
    told(st, "gear:1")
    tale = told(st, "move:ahead")
    assert tale.now == (
        "red moves ahead from 4c to 5c. red kept the gear and took no stress this turn, so red may "
        "return 1 stress first."
    )
    tale = told(st, "return")
    assert tale.now == (
        "red returns 1 stress to the supply (same gear and no stress this turn): stress 1. "
        "red rolls 1 stress die, one for each stress."
    )
    assert tale.places == ("5c",)  # the badge on the car changed


def test_no_stress_no_dice_and_the_turn_passes() -> None:
    st = racer("4c")
    told(st, "gear:1")
    assert told(st, "move:ahead").now == (
        "red moves ahead from 4c to 5c. red has no stress, so no stress dice. Next: blue's turn."
    )


def test_stopping_early_in_terrain_crashes_and_says_why() -> None:
    # Issue 48: the log went from "stop here" to "put the crashed car on 6e" with no crash.
    st = racer("5e", gear=5, stress=4)
    told(st, "gear:4")
    told(st, "move:ahead")  # into 6e: terrain
    tale = told(st, "stop")
    assert tale.now == (
        "red stops on 6e with 3 spaces not moved: 3 stress (1 for each). "
        "red crashes: the move ends in terrain on 6e. "
        "A ghost takes its place on 6e; red's gear drops from 4 to 1, stress goes to 1, and red "
        "loses a life (2 lives left). "
        "red puts the car back on an edge space of the third board from the back."
    )
    assert tale.places == ("6e",)
    tale = told(st, "place:6b")
    assert tale.now == (
        "red puts the crashed car back on 6b, an edge space of the third board from the back. "
        "Next: blue's turn."
    )
    assert tale.places == ("6b",)


def test_the_last_life_lost_puts_the_car_out_and_names_the_winner() -> None:
    st = racer("5e", gear=1)
    st.lives[0] = 1
    told(st, "gear:1")
    assert told(st, "move:ahead").now == (
        "red moves ahead from 5e to 6e. red crashes: the move ends in terrain on 6e. "
        "A ghost takes its place on 6e; red's gear stays at 1, stress goes to 1, and red loses the "
        "last life and is out of the race. "
        "blue is the last car in the race and wins."
    )


# -- the stress dice -------------------------------------------------------------------------


def test_each_stress_die_says_what_its_face_does() -> None:
    st = rolling("8b", stress=4)
    assert told(st, "roll:1").now == (
        "Stress die 1 of 4 shows 1 (blank): the driver is in control, and the die is removed."
    )
    assert told(st, "roll:2").now == (
        "Stress die 2 of 4 shows 2 (swerve left): after the roll, red's car swerves one space left, "
        "unless a swerve right cancels it."
    )
    assert told(st, "roll:6").now == (
        "Stress die 3 of 4 shows 6 (malfunction): after the roll, 1 stress and one space forward for "
        "red, unless a second malfunction crashes the car."
    )
    tale = told(st, "roll:4")
    assert tale.now == (
        "Stress die 4 of 4 shows 4 (swerve right): after the roll, red's car swerves one space right, "
        "unless a swerve left cancels it. All dice are in: a swerve left and a swerve right cancel; "
        "left to resolve, in the order red chooses: a malfunction."
    )
    assert tale.places == ()  # the dice are not on the board


def test_two_malfunctions_crash_the_car() -> None:
    st = rolling("8b", stress=2)
    told(st, "roll:6")
    tale = told(st, "roll:6")
    assert tale.now == (
        "Stress die 2 of 2 shows 6 (malfunction): the second malfunction: two malfunctions crash "
        "red's car once all dice are in. red crashes: two malfunctions. "
        "A ghost takes its place on 8b; red's gear stays at 1, stress goes to 1, and red loses a "
        "life (2 lives left). red puts the car back on an edge space of the third board from the back."
    )
    assert tale.places == ("8b",)


def test_blanks_rolled_again_with_more_than_six_stress() -> None:
    st = rolling("8b", stress=7)
    assert told(st, "roll:1").now == (
        "Stress die 1 of 6 shows 1 (blank): with more than 6 stress a blank is rolled again."
    )
    for _ in range(5):
        told(st, "roll:2")
    assert told(st, "roll:1").now == (
        "A blank rolled again shows 1 (blank): the driver is in control, and the die is removed. "
        "All dice are in; left to resolve, in the order red chooses: 5 swerve left dice."
    )


def test_the_revisions_plus_one_is_said() -> None:
    st = rolling("8b", stress=7, stress_overflow="plus_one")
    assert told(st, "roll:3").now == (
        "Stress die 1 of 6 shows 3, +1 for more than 6 stress: 4 (swerve right): after the roll, "
        "red's car swerves one space right, unless a swerve left cancels it."
    )


def test_a_swerve_into_the_wall_crashes_with_the_ghost_on_the_last_space() -> None:
    st = rolling("8a", stress=1)
    told(st, "roll:2")
    tale = told(st, "swerve:left")
    assert tale.now == (
        "red swerves left from 8a into the wall. red crashes: it hit the wall beside 8a, where its "
        "ghost appears. A ghost takes its place on 8a; red's gear stays at 1, stress goes to 1, and "
        "red loses a life (2 lives left). red puts the car back on an edge space of the third board "
        "from the back."
    )


def test_a_swerve_onto_a_car_does_not_happen() -> None:
    st = rolling("8b", stress=1)
    put(st, 1, "8a")
    told(st, "roll:3")
    tale = told(st, "swerve:left")
    assert tale.now == (
        "red cannot swerve left: blue's car is on 8a and a swerve cannot end on a car, so red stays "
        "on 8b. Next: blue's turn."
    )
    assert tale.places == ()


def test_a_malfunction_moves_forward_after_its_stress() -> None:
    st = rolling("8a", stress=1)
    told(st, "roll:6")
    assert told(st, "malfunction").now == (
        "red's malfunction: 1 stress (now 2) and one space forward. red picks the space in front."
    )
    tale = told(st, "move:ahead")
    assert tale.now == "The malfunction moves red's car ahead from 8a to 9a. Next: blue's turn."
    assert tale.places == ("8a", "9a")


def test_a_malfunction_into_terrain_crashes() -> None:
    st = rolling("8b", stress=1)
    play(st, "roll:6", "malfunction")
    assert told(st, "move:ahead").now == (
        "The malfunction moves red's car ahead from 8b to 9b. red crashes: the malfunction's move "
        "ends in terrain on 9b. A ghost takes its place on 9b; red's gear stays at 1, stress goes to "
        "1, and red loses a life (2 lives left). red puts the car back on an edge space of the third "
        "board from the back."
    )


# -- the track scrolls -----------------------------------------------------------------------


def test_a_scroll_says_which_board_leaves_and_comes_in_and_who_crashed_on_it() -> None:
    st = racer("12c", gear=2, other="1c")
    st.ghosts.add(space(st, "2c"))
    told(st, "gear:2")
    tale = told(st, "scroll")
    assert tale.now == (
        "red drives off the front edge. The track scrolls: board 2 leaves the back, is flipped and "
        "comes in at the front, gray side up (dark edges). 1 ghost on it goes back to the box. "
        "blue crashes: its board left the back of the track with the car on it. No ghost takes "
        "its place (its space left the table); blue's gear stays at 1, stress goes to 1, and blue "
        "loses a life (2 lives left). blue puts the car back on an edge space of the third board "
        "from the back. red may place a ghost on an empty space of the new board. The scroll costs "
        "no movement: 2 spaces to go."
    )
    # the new board's twelve spaces (rows 11 and 12 now) are marked
    assert tale.places == tuple(f"{row}{lane}" for row in (11, 12) for lane in "abcdef")
    assert told(st, "place:6f").places == ("6f",)
    tale = told(st, "ghost:12c")
    assert tale.now == "red places a ghost on 12c, on the new board."
    assert tale.places == ("12c",)


def test_board_zero_back_in_front_starts_a_lap_and_the_token_is_told() -> None:
    st = table(TRACK, players=3)
    st.board_ids = [0, 2, 1, 3, 4, 5]
    put(st, 0, "12c", gear=2)
    put(st, 1, "9a")
    put(st, 2, "9f")
    turn_of(st, 0)
    told(st, "gear:2")
    assert "Board 0 is back in front: lap 1 begins, and the first car into its own starting row " in (
        told(st, "scroll").now
    )
    told(st, "ghost:none")
    assert told(st, "move:left").now == (
        "red moves left from 10c to 11c. red takes a round token, the first car into its own starting "
        "row on board 0 in lap 1 (2 left). 1 space to go."
    )


def test_the_last_round_token_ends_the_race_and_says_why_the_winner_won() -> None:
    st = table(TRACK, players=2, round_tokens=1)
    st.board_ids = [0, 2, 1, 3, 4, 5]
    put(st, 0, "12c", gear=2)
    put(st, 1, "9a")
    st.lives[1] = 2
    turn_of(st, 0)
    play(st, "gear:2", "scroll", "ghost:none")
    assert told(st, "move:left").now == (
        "red moves left from 10c to 11c. red takes a round token, the first car into its own starting "
        "row on board 0 in lap 1 (0 left). That was the last round token: the race is over. red wins "
        "with 3 lives and 1 round token, the most lives and round tokens together (4 against 2)."
    )


# -- setup ------------------------------------------------------------------------------------


def test_setup_is_told_board_by_board() -> None:
    game = chaosgames.load_game("cardboard-machines", players=2)
    st = game.new_initial_state()
    assert isinstance(st, CardboardState)
    assert told(st, "first:2").now == "blue is chosen at random to start."
    assert told(st, "board:5").now == "Board 5 is drawn to lie behind the starting board."
    for board in (3, 6, 7):
        told(st, f"board:{board}")
    tale = told(st, "board:1")
    assert tale.now == (
        "Board 1 is drawn to lie fourth in front of the starting board. The track is laid, boards 5, "
        "0, 3, 6, 7, 1 from the back, white sides up, and the cars go on starting spaces 1 to 2 from "
        "blue clockwise, in gear 1 with 3 lives."
    )
    assert tale.places == ("3b", "3d")  # the starting spaces 1 and 2


# -- the picture --------------------------------------------------------------------------------


def test_the_picture_names_every_space_board_car_and_ghost() -> None:
    st = racer("8b", gear=3, stress=2)
    st.ghosts.add(space(st, "6c"))
    svg = st.game.render_svg(st, legend=False)
    places = PLACE.findall(svg)
    assert sorted(places) == sorted(f"{r}{lane}" for r in range(1, 13) for lane in "abcdef")
    pieces = PIECE.findall(svg)
    assert pieces == [f"board-{b}" for b in TRACK] + [f"ghost-{space(st, '6c')}", "car-red", "car-blue"]
    assert 'data-piece="board-1" data-face="white"' in svg
    assert (
        '<rect data-place="8b"' not in svg
        and "<title>space 8b on board 3 (white side): road; red's car (gear 3, stress 2).</title>" in svg
    )
    assert (
        "<title>space 5a on board 1 (white side): terrain (a car ending its move here crashes).</title>"
        in svg
    )
    assert "<title>space 3b on board 0 (white side): road; starting space 1.</title>" in svg
    assert (
        "<title>red's car on 8b: gear 3 (moves up to 3 spaces), stress 2 (2 stress dice after the "
        "move), ♥ 3 lives, 0 round tokens. It is red's turn.</title>" in svg
    )
    assert "<title>A ghost on 6c: a car driving into it takes 1 stress.</title>" in svg


def _view_width(svg: str) -> float:
    match = re.search(r'viewBox="0 0 ([0-9.]+) ([0-9.]+)"', svg)
    assert match
    return float(match.group(1))


@pytest.mark.parametrize("players", [2, 4])
def test_on_a_phone_every_space_is_at_least_24_css_pixels_and_every_text_11(players: int) -> None:
    # The page shows the board alone 360 CSS px wide on a 390 px phone.
    st = table(TRACK, players=players)
    svg = st.game.render_svg(st, legend=False)
    scale = 360 / _view_width(svg)
    sizes = re.findall(r'<rect[^>]*width="([0-9.]+)" height="([0-9.]+)"[^>]*data-place', svg)
    assert len(sizes) == 72 and min(float(n) for pair in sizes for n in pair) * scale >= 24
    fonts = [float(f) for f in re.findall(r'font-size="([0-9.]+)"', svg)]
    assert min(fonts) * scale >= 11
    assert "Cardboard Machines" not in svg  # no side panel
    assert _view_width(svg) < _view_width(st.game.render_svg(st))


def test_the_legend_holds_cars_race_and_stress_dice() -> None:
    st = racer("8b", gear=3, stress=2)
    st.lives[1], st.tokens[1], st.tokens_left = 2, 1, 2
    sections = {s.title: s for s in st.game.legend(st, None)}
    assert list(sections) == ["Cars", "Race", "Stress dice", "Track"]
    cars = [e.text for e in sections["Cars"].entries]
    assert cars == [
        "red: gear 3, stress 2, ♥ 3, 0 round tokens, on 8b (to act)",
        "blue: gear 1, stress 0, ♥ 2, 1 round token, on 1c",
    ]
    race = [e.text for e in sections["Race"].entries]
    assert race[:3] == [
        "Round tokens left: 2 of 3",
        "Lap 0 (a new lap each time board 0 comes back to the front)",
        "Turn 1",
    ]
    assert race[3] == "red changes gear"
    faces = " ".join(e.text for e in sections["Stress dice"].entries)
    assert "1 blank" in faces and "2-3 swerve left" in faces and "6 malfunction" in faces
    st.lives[1], st.pos[1] = 0, -1
    assert sections["Cars"].entries[0].colour == "#d62728"
    assert st.game.legend(st, None)[0].entries[1].text == "blue: out of the race"


def test_actions_link_to_the_headings_of_the_rules_summary() -> None:
    from importlib import resources

    text = resources.files("chaosgames.games.cardboard_machines").joinpath("rules.md").read_text("utf-8")
    anchors = {slug(line.lstrip("#").strip()) for line in text.splitlines() if line.startswith("#")}
    st = racer("4c", gear=2)
    game = st.game
    assert {game.rules_section(st, a) for a in st.legal_actions()} == {"change-gear"}
    assert {game.action_group(st, a) for a in st.legal_actions()} == {(0, "Gear")}
    play(st, "gear:2")
    assert [game.action_group(st, a) for a in st.legal_actions()] == [(0, "Move")] * 3 + [(1, "Stop early")]
    from chaosgames.games.cardboard_machines.story import SECTIONS

    assert {slug(heading) for heading in SECTIONS.values()} <= anchors


def test_chance_forms_are_not_offered_to_a_player() -> None:
    st = racer("4c")
    with pytest.raises(NotationError) as error:
        st.game.parse_action(st, "fly")
    assert "roll:3" not in str(error.value) and "first:1" not in str(error.value)
    assert "gear:3" in str(error.value)


# -- every action of whole games ------------------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_every_action_is_told_and_marks_only_spaces_of_the_picture(seed: int) -> None:
    players = 2 + seed % 3
    options = {"buy_off_swerve": True} if seed % 2 else {"stress_overflow": "plus_one"}
    st = new_state(players, **options)
    game = st.game
    rng = random.Random(seed)
    careful = seed % 4 != 0
    told_crash = 0
    for _ in range(3000):
        if st.is_terminal():
            break
        svg = game.render_svg(st, legend=False)
        ids = PIECE.findall(svg)
        assert len(ids) == len(set(ids))
        on_picture = set(PLACE.findall(svg))
        if st.is_chance_node():
            action = sample_outcome(st.chance_outcomes(), rng)
        else:
            for a in st.legal_actions():
                assert set(game.action_places(st, a)) <= on_picture
                assert game.rules_section(st, a)
            action = cautious_action(st, rng) if careful else rng.choice(st.legal_actions())
        before = st.clone()
        st.apply_action(action)
        after_places = set(PLACE.findall(game.render_svg(st, legend=False)))
        for viewer in (None, *range(players)):
            tale = game.tell(before, action, st, viewer)
            assert tale.now and tale.now.endswith(".") and "  " not in tale.now
            assert set(tale.places) <= on_picture | after_places
        told_crash += " crashes: " in tale.now
        assert game.legend(st, None)
    assert st.is_terminal() and told_crash
