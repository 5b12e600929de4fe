"""Shields, capture rewards, crowning, forced capture (seed: "Shields", "Potions", kinging)."""

from __future__ import annotations

import pytest

from chaosgames import CHANCE
from chaosgames.games.chaos_checkers.colours import CODE
from tests.games.chaos_checkers.helpers import chaos_position, names, piece, play

FAR = {32: piece("blue"), 28: piece("blue")}  # two blue men far away: nobody is a last piece


def test_a_shield_stops_pieces_of_its_colour_only() -> None:
    # Blue man on 18 shielded against red: the red man on 14 may not jump it,
    # the orange man on 15 may (and must).
    state = chaos_position({14: piece("red"), 15: piece("orange"), 18: piece("blue", shield="red"), **FAR})
    assert names(state) == ["15x22"]
    alone = chaos_position({14: piece("red"), 9: piece("red"), 18: piece("blue", shield="red"), **FAR})
    assert "14x23" not in names(alone) and "14-17" in names(alone)


def test_a_last_piece_is_not_protected_by_its_shield() -> None:
    state = chaos_position({14: piece("red"), 9: piece("red"), 18: piece("blue", shield="red")})
    assert names(state) == ["14x23"]


def test_a_last_piece_is_not_stopped_by_opposing_shields() -> None:
    state = chaos_position({14: piece("red"), 18: piece("blue", shield="red"), **FAR})
    assert names(state) == ["14x23"]


def test_a_capture_discards_the_shield_and_draws_a_new_one_then_a_new_potion() -> None:
    state = chaos_position(
        {
            14: piece("red", shield="blue", potion="green"),
            9: piece("red"),
            18: piece("blue", shield="orange", potion="black"),
            **FAR,
        }
    )
    play(state, "14x23")
    # The blue man is off the board: its shield back in its owner's bag, its potion in the pouch.
    assert state.board[17] is None and state.eliminated[1][CODE["blue"]] == 2
    assert state.bags[1][CODE["orange"]] == 5
    assert state.current_player() == CHANCE and state.phase == "draw-shield"
    # The red man's blue shield went back first, so the bag is full again: 5 of each.
    assert sorted(p for _, p in state.chance_outcomes()) == [pytest.approx(1 / 3)] * 3
    play(state, "draw-shield=purple")
    assert state.board[22].shield == CODE["purple"]  # type: ignore[union-attr]
    assert state.phase == "draw-potion" and state.pouch[CODE["green"]] == 5
    play(state, "draw-potion=white")
    assert state.board[22].potion == CODE["white"]  # type: ignore[union-attr]
    assert state.current_player() == 1


def test_several_captures_draw_that_many_and_keep_one() -> None:
    # 6x15x24 captures the men on 10 and 19.
    state = chaos_position(
        {
            6: piece("red", shield="blue", potion="green"),
            1: piece("red"),
            10: piece("blue"),
            19: piece("blue"),
            **FAR,
        }
    )
    play(state, "6x15x24", "draw-shield=purple", "draw-shield=lightblue")
    assert state.current_player() == 0 and names(state) == ["keep-shield=purple", "keep-shield=lightblue"]
    play(state, "keep-shield=purple")
    assert state.bags[0][CODE["lightblue"]] == 5 and state.board[23].shield == CODE["purple"]  # type: ignore[union-attr]
    play(state, "draw-potion=red", "draw-potion=red")
    # Both draws alike: nothing to choose, one is kept and one goes back.
    assert state.board[23].potion == CODE["red"] and state.current_player() == 1  # type: ignore[union-attr]
    assert state.pouch[CODE["red"]] == 4


def test_crowning_gives_a_crown_and_a_fresh_potion() -> None:
    state = chaos_position({27: piece("red", potion="clear"), 9: piece("red"), **FAR})
    play(state, "27-31")
    assert state.board[30].king  # type: ignore[union-attr]
    assert state.phase == "draw-potion" and state.pouch[CODE["clear"]] == 5
    play(state, "draw-potion=orange")
    assert state.board[30].potion == CODE["orange"] and state.current_player() == 1  # type: ignore[union-attr]


def test_kings_move_backwards() -> None:
    state = chaos_position({18: piece("red", king=True), 1: piece("red"), **FAR})
    assert {"18-14", "18-15", "18-22", "18-23"} <= set(names(state))


def test_potion_captures_do_not_force_a_capture_but_ordinary_ones_do() -> None:
    # An Ambush piece next to an enemy: the capture is optional (the potion is optional).
    state = chaos_position(
        {14: piece("red", potion="black"), 9: piece("red"), 18: piece("blue", shield="red"), **FAR}
    )
    assert "ambush:14x18" not in names(state)  # the red shield stops the red piece, Ambush or not
    state = chaos_position(
        {
            14: piece("red", potion="black"),
            9: piece("red"),
            19: piece("blue", shield="red"),
            15: piece("orange"),
        }
    )
    assert "9-13" not in names(state)  # orange 15 must capture 19 (15x24)


def test_without_forced_capture_any_move_is_allowed() -> None:
    state = chaos_position(
        {14: piece("red"), 9: piece("red"), 18: piece("blue"), **FAR}, forced_capture=False
    )
    assert {"14x23", "14-17", "9-13"} <= set(names(state))


def test_a_man_crowned_without_a_potion_draws_one() -> None:
    # "If the piece does not have a potion then you may draw a potion": always drawn here.
    state = chaos_position({27: piece("red"), 9: piece("red"), **FAR})
    play(state, "27-31")
    assert state.board[30].king and state.phase == "draw-potion"  # type: ignore[union-attr]
    play(state, "draw-potion=green")
    assert state.board[30].potion == CODE["green"] and state.current_player() == 1  # type: ignore[union-attr]
