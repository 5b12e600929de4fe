"""End of the game, the draw rule, documents, rendering and the contract in chaos mode."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chaosgames
from chaosgames import InvalidStateError, NotationError
from chaosgames.core.chance import sample_outcome
from chaosgames.games.chaos_checkers.actions import PotionUse
from tests.core.contract import check_random_game
from tests.games.chaos_checkers.helpers import chaos_position, names, piece, play

FAR = {32: piece("blue"), 28: piece("blue")}


def test_eliminating_all_opposing_pieces_wins() -> None:
    state = chaos_position({14: piece("red"), 9: piece("red"), 18: piece("blue")})
    play(state, "14x23")
    assert state.is_terminal() and state.returns() == [1.0, 0.0]


def test_a_winning_capture_on_the_far_row_still_crowns() -> None:
    state = chaos_position({22: piece("red"), 9: piece("red"), 26: piece("blue")})
    play(state, "22x31")
    assert state.is_terminal() and state.board[30].king  # type: ignore[union-attr]
    assert state.game.state_from_json(state.to_json()).returns() == [1.0, 0.0]


def test_a_player_with_no_legal_move_loses() -> None:
    # Red's only man on 4 is blocked by blue men on 8 and 11.
    state = chaos_position({4: piece("red"), 8: piece("blue"), 11: piece("blue")})
    assert state.is_terminal() and state.returns() == [0.0, 1.0]


BACK_AND_FORTH = ("1-5", "32-28", "5-1", "28-32")


def test_the_same_moves_three_rounds_running_are_a_draw() -> None:
    # Both kings go back and forth: the set of moves is played a third time, then drawn.
    state = chaos_position({1: piece("red", king=True), 32: piece("blue", king=True)})
    play(state, *BACK_AND_FORTH, *BACK_AND_FORTH, *BACK_AND_FORTH[:3])
    assert not state.is_terminal()  # the start position is back a third time: not yet
    play(state, "28-32")
    assert state.is_terminal() and state.returns() == [0.5, 0.5]


def test_the_same_position_by_other_moves_is_not_the_same_set_of_moves() -> None:
    # Red's king goes by 5, then by 6: the position repeats but the moves do not.
    by_six = ("1-6", "32-28", "6-1", "28-32")
    state = chaos_position({1: piece("red", king=True), 32: piece("blue", king=True)})
    play(state, *BACK_AND_FORTH, *by_six, *BACK_AND_FORTH, *by_six, *BACK_AND_FORTH)
    assert not state.is_terminal()
    play(state, *by_six[:3])
    assert not state.is_terminal()
    play(state, by_six[3])  # the eight-move cycle is complete a third time
    assert state.is_terminal() and state.returns() == [0.5, 0.5]


def test_the_position_repetition_option_draws_on_the_third_occurrence() -> None:
    by_six = ("1-6", "32-28", "6-1", "28-32")
    state = chaos_position({1: piece("red", king=True), 32: piece("blue", king=True)}, repetition="position")
    play(state, *BACK_AND_FORTH, *by_six[:3])
    assert not state.is_terminal()
    play(state, by_six[3])
    assert state.is_terminal() and state.returns() == [0.5, 0.5]


def test_a_potion_breaks_the_repetition() -> None:
    state = chaos_position({1: piece("red", king=True, potion="clear"), 32: piece("blue", king=True)})
    play(state, *BACK_AND_FORTH, "unghost@1", *BACK_AND_FORTH, *BACK_AND_FORTH)
    assert not state.is_terminal()


def test_max_moves_caps_a_game() -> None:
    state = chaos_position({1: piece("red", king=True), 32: piece("blue", king=True)}, max_moves=3)
    play(state, "1-5", "32-28", "5-9")
    assert state.is_terminal() and state.returns() == [0.5, 0.5]
    assert state.ended_by() == "cap" and state.observation(None)["ended_by"] == "cap"


def test_a_draw_by_repetition_is_ended_by_the_rules_even_with_a_cap() -> None:
    state = chaos_position({1: piece("red", king=True), 32: piece("blue", king=True)}, max_moves=500)
    play(state, *BACK_AND_FORTH, *BACK_AND_FORTH, *BACK_AND_FORTH)
    assert state.is_terminal() and state.returns() == [0.5, 0.5] and state.ended_by() == "rules"


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["pouch"].update(red=6),
        lambda d: d["shield_bags"][0].update(blue=0),
        lambda d: d["board"].__setitem__(
            0, {"owner": 0, "colour": "blue", "king": False, "shield": None, "potion": None}
        ),
        lambda d: d["board"].__setitem__(
            31, {"owner": 0, "colour": "red", "king": False, "shield": None, "potion": None}
        ),
        lambda d: d.update(phase="dancing"),
        lambda d: d.update(turn=3),
        lambda d: d["board"].pop(),
        lambda d: d.update(phase="defend"),
        lambda d: d.update(phase="keep-shield"),
        lambda d: d.update(hand=["red"]),
        lambda d: d.update(extra_turn=32),
        lambda d: d.update(potion_used=14),
        lambda d: d.update(speedy=True),
        lambda d: d.update(speedy="yes"),
    ],
)
def test_impossible_chaos_states_are_refused(change: object) -> None:
    state = chaos_position({14: piece("red", potion="green"), 9: piece("red", shield="blue"), **FAR})
    doc = json.loads(json.dumps(state.to_json()))
    change(doc)  # type: ignore[operator]
    with pytest.raises(InvalidStateError):
        state.game.state_from_json(doc)


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["board"].__setitem__(
            0, {"owner": 0, "colour": "red", "king": False, "shield": None, "potion": None}
        ),
        lambda d: d.update(phase="shield"),
        lambda d: d.update(setup_index=1),
    ],
)
def test_impossible_setup_states_are_refused(change: object) -> None:
    game = chaosgames.load_game("chaos-checkers")
    doc = json.loads(json.dumps(game.new_initial_state().to_json()))
    change(doc)  # type: ignore[operator]
    with pytest.raises(InvalidStateError):
        game.state_from_json(doc)


def test_unparsable_notation_is_told_apart_from_illegal_moves() -> None:
    state = chaos_position({14: piece("red"), 9: piece("red"), **FAR})
    with pytest.raises(NotationError):
        state.game.parse_action(state, "fly@14")
    with pytest.raises(chaosgames.IllegalActionError):
        state.game.parse_action(state, "speedy@14")


def test_text_svg_heuristic_and_descriptions() -> None:
    state = chaos_position(
        {14: piece("red", king=True, shield="blue", potion="black"), 9: piece("red"), **FAR}
    )
    text = str(state)
    assert "14: red king, shield blue, potion black (ambush)" in text and "Potion pouch" in text
    svg = state.game.render_svg(state)
    assert svg.startswith("<svg") and "#222222" in svg and "polygon" in svg and "potion pouch" in svg
    share = state.game.heuristic(state)
    assert share[0] > 0.5 and sum(share) == pytest.approx(1.0)
    for action in state.legal_actions():
        assert state.game.describe_action(state, action)


def test_observation_shows_everything_nothing_is_hidden() -> None:
    state = chaos_position({14: piece("red", potion="green"), 9: piece("red"), **FAR})
    seen = state.observation(1)
    assert seen["board"][13]["potion"] == "green" and seen["to_move"] == 0


@pytest.mark.parametrize(
    ("seed", "options"),
    [
        (1, {}),
        (2, {"pink": True}),
        (3, {"forced_capture": False, "max_moves": 200}),
        (4, {"pink": True, "first_colours": "black,clear,white", "second_colours": "green,blue,orange"}),
        (5, {"max_moves": 60, "repetition": "position"}),
    ],
)
def test_random_chaos_games_honour_the_contract(seed: int, options: dict[str, object]) -> None:
    check_random_game(chaosgames.load_game("chaos-checkers", **options), seed)


def test_no_potion_can_be_used_during_setup_but_from_the_first_turn_on() -> None:
    state = chaosgames.load_game("chaos-checkers").new_initial_state()
    rng = random.Random(5)
    while state.current_player() == chaosgames.CHANCE:
        assert all(str(a).split(":")[0] in ("place", "shield", "potion") for a in state.legal_actions())
        state.apply_action(sample_outcome(state.chance_outcomes(), rng))
    assert state.current_player() == 0 and state.round_number() == 1
    # "before the first players turn begins": once it has begun, the first player may use one.
    assert any(isinstance(a, PotionUse) for a in state.legal_actions())


def test_two_pieces_never_share_a_square() -> None:
    # The ghost on 14 may not jump the blue man on 18 when 23 is occupied.
    state = chaos_position(
        {14: piece("red", potion="clear"), 9: piece("red"), 18: piece("blue"), 23: piece("blue"), **FAR}
    )
    assert not any(n.startswith("14~") for n in names(state))


@settings(max_examples=6)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_chaos_play_keeps_every_pyramid_accounted_for(seed: int) -> None:
    rng = random.Random(seed)
    state = chaosgames.load_game("chaos-checkers", pink=True, max_moves=150).new_initial_state()
    steps = 0
    while not state.is_terminal():
        if state.current_player() == chaosgames.CHANCE:
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
        if steps % 7 == 0:
            # Loading checks that every piece, shield and potion is somewhere exactly once.
            again = state.game.state_from_json(json.loads(json.dumps(state.to_json())))
            assert again.legal_actions() == state.legal_actions()
    assert sum(state.returns()) == 1.0
