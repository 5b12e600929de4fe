"""Plain American checkers (`chaos=False`): exact move generation, notation, end of game."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import chaosgames
from chaosgames import IllegalActionError, InvalidStateError, NotationError
from chaosgames.core.perft import perft
from tests.core.contract import check_random_game
from tests.games.chaos_checkers.helpers import names, plain_position, play

PERFT = [7, 49, 302, 1469, 7361, 36768]


@pytest.mark.parametrize("depth", range(1, 7))
def test_perft_matches_the_published_counts(depth: int) -> None:
    state = chaosgames.load_game("chaos-checkers", chaos=False).new_initial_state()
    assert perft(state, depth) == PERFT[depth - 1]


def test_first_moves_in_standard_notation() -> None:
    state = chaosgames.load_game("chaos-checkers", chaos=False).new_initial_state()
    assert sorted(names(state)) == ["10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"]


def test_capture_is_mandatory_and_a_multi_jump_is_one_move() -> None:
    # Black man on 15, white men on 18 and 25: the only move is 15x22x29 (crowned on 29).
    state = plain_position({15: 0, 18: 1, 25: 1, 32: 1, 1: 0})
    assert names(state) == ["15x22x29"]
    play(state, "15x22x29")
    assert state.board()[28] == "B"  # crowned on the far row
    assert state.board()[17] == "." and state.board()[24] == "."


def test_a_man_crowned_during_a_capture_stops_there() -> None:
    # From 22 over 26 to 31 crowns; the new king may not go on over 27 that move.
    state = plain_position({22: 0, 26: 1, 27: 1, 1: 0})
    assert "22x31" in names(state)
    assert not any(n.startswith("22x31x") for n in names(state))


def test_men_move_forward_only_and_kings_both_ways() -> None:
    state = plain_position({14: 0}, {23: 0}, turn=0)
    state_names = names(state)
    assert "14-17" in state_names and "14-18" in state_names and "14-9" not in state_names
    assert {"23-18", "23-19", "23-26", "23-27"} <= set(state_names)


def test_without_forced_capture_steps_stay_legal() -> None:
    state = plain_position({14: 0, 18: 1, 32: 1}, forced_capture=False)
    assert "14x23" in names(state) and "14-17" in names(state)
    forced = plain_position({14: 0, 18: 1, 32: 1})
    assert names(forced) == ["14x23"]


def test_a_player_with_no_legal_move_loses() -> None:
    # Black's only man on 4 is blocked by white men on 8 and 11.
    state = plain_position({4: 0, 8: 1, 11: 1}, turn=0)
    assert state.is_terminal() and state.returns() == [0.0, 1.0]


def test_capturing_the_last_piece_wins() -> None:
    state = plain_position({14: 0, 18: 1})
    play(state, "14x23")
    assert state.is_terminal() and state.returns() == [1.0, 0.0]


BACK_AND_FORTH = ("1-5", "32-28", "5-1", "28-32")


def test_the_same_king_moves_three_times_running_are_a_draw() -> None:
    state = plain_position({}, {1: 0, 32: 1})
    play(state, *BACK_AND_FORTH, *BACK_AND_FORTH, *BACK_AND_FORTH[:3])
    assert not state.is_terminal()
    play(state, "28-32")
    assert state.is_terminal() and state.returns() == [0.5, 0.5]


def test_threefold_repetition_of_the_position_is_a_draw_with_that_option() -> None:
    state = plain_position({}, {1: 0, 32: 1}, repetition="position")
    play(state, *BACK_AND_FORTH, *BACK_AND_FORTH[:3])
    assert not state.is_terminal()
    play(state, "28-32")
    assert state.is_terminal() and state.returns() == [0.5, 0.5]
    doc = state.to_json()
    assert state.game.state_from_json(doc).is_terminal()  # the document remembers the positions


def test_max_moves_ends_the_game_drawn() -> None:
    game = chaosgames.load_game("chaos-checkers", chaos=False, max_moves=2)
    state = game.new_initial_state()
    play(state, "11-15", "22-18")
    assert state.is_terminal() and state.returns() == [0.5, 0.5]


def test_illegal_and_unparsable_moves_are_refused_and_change_nothing() -> None:
    state = chaosgames.load_game("chaos-checkers", chaos=False).new_initial_state()
    before = json.dumps(state.to_json())
    with pytest.raises(IllegalActionError, match="legal actions are"):
        state.game.parse_action(state, "9-18")
    with pytest.raises(NotationError, match="1-32"):
        state.game.parse_action(state, "e3-d4")
    with pytest.raises(IllegalActionError):
        state.apply_action("11-15")  # text is not an action object
    assert json.dumps(state.to_json()) == before


@pytest.mark.parametrize(
    "change",
    [
        {"board": "x" * 32},
        {"board": "b" * 13 + "." * 19},
        {"board": "." * 28 + "b..."},
        {"turn": 2},
        {"ply": -1},
        {"repetition": [{"board": "b" + "." * 30 + "w", "turn": 1}]},
    ],
)
def test_impossible_plain_states_are_refused(change: dict[str, object]) -> None:
    game = chaosgames.load_game("chaos-checkers", chaos=False)
    doc = {**game.new_initial_state().to_json(), **change}
    with pytest.raises(InvalidStateError):
        game.state_from_json(doc)


def test_text_and_svg_show_the_numbered_board() -> None:
    game = chaosgames.load_game("chaos-checkers", chaos=False)
    state = game.new_initial_state()
    assert " 13 " in str(state) and "Black" in str(state)
    svg = game.render_svg(state)
    assert svg.startswith("<svg") and ">32<" in svg


@pytest.mark.parametrize("forced", [True, False])
def test_random_plain_games_honour_the_contract(forced: bool) -> None:
    rule = "moves" if forced else "position"
    game = chaosgames.load_game("chaos-checkers", chaos=False, forced_capture=forced, repetition=rule)
    check_random_game(game, seed=7)


@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_plain_games_keep_the_pieces_apart(seed: int) -> None:
    import random

    rng = random.Random(seed)
    state = chaosgames.load_game("chaos-checkers", chaos=False).new_initial_state()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        p0, p1 = state.pieces()
        assert p0 & p1 == 0 and state.kings & ~(p0 | p1) == 0
        assert p0.bit_count() <= 12 and p1.bit_count() <= 12
    heuristic = state.game.heuristic(state)
    assert heuristic == state.returns()
