"""Every potion power (seed, "Potion Abilities"), as table situations."""

from __future__ import annotations

import json

import pytest

from chaosgames import IllegalActionError
from chaosgames.games.chaos_checkers.colours import CODE
from tests.games.chaos_checkers.helpers import chaos_position, names, piece, play

FAR = {32: piece("blue"), 28: piece("blue")}


def test_ambush_captures_by_moving_onto_the_piece_and_keeps_the_potion() -> None:
    state = chaos_position({14: piece("red", potion="black"), 9: piece("red"), 18: piece("blue"), **FAR})
    assert {"14x23", "ambush:14x18"} <= set(names(state))
    play(state, "ambush:14x18", "draw-shield=blue")
    moved = state.board[17]
    assert moved is not None and moved.colour == CODE["red"] and moved.potion == CODE["black"]
    # The potion was used on the moving piece, so no new potion is drawn.
    assert state.current_player() == 1 and state.phase == "turn"


def test_ambush_captures_chain_like_a_multi_jump() -> None:
    state = chaos_position(
        {14: piece("red", potion="black"), 9: piece("red"), 18: piece("blue"), 22: piece("blue"), **FAR}
    )
    assert "ambush:14x18x22" in names(state)


def test_invulnerability_is_the_defenders_decision_and_spares_the_piece() -> None:
    state = chaos_position({14: piece("red"), 9: piece("red"), 18: piece("blue", potion="purple"), **FAR})
    play(state, "14x23")
    assert state.phase == "defend" and state.current_player() == 1
    assert names(state) == ["invulnerable:18", "yield:18"]
    play(state, "invulnerable:18")
    spared = state.board[17]
    assert spared is not None and spared.potion == -1 and state.pouch[CODE["purple"]] == 5
    # The jumping piece ends its move as normal; nothing was captured, so no rewards.
    assert state.board[22] is not None and state.board[13] is None
    assert state.current_player() == 1 and state.phase == "turn"


def test_yielding_lets_the_capture_happen() -> None:
    state = chaos_position({14: piece("red"), 9: piece("red"), 18: piece("blue", potion="purple"), **FAR})
    play(state, "14x23", "yield:18")
    assert state.board[17] is None and state.phase == "draw-shield"


def test_invulnerability_against_ambush_the_ambusher_does_not_move() -> None:
    state = chaos_position(
        {14: piece("red", potion="black"), 9: piece("red"), 18: piece("blue", potion="purple"), **FAR}
    )
    play(state, "ambush:14x18", "invulnerable:18")
    assert state.board[13] is not None and state.board[13].colour == CODE["red"]
    assert state.board[17] is not None and state.board[17].colour == CODE["blue"]
    assert state.current_player() == 1


def test_wild_swaps_the_potion_for_one_of_the_players_choice() -> None:
    state = chaos_position({14: piece("red", potion="yellow"), 9: piece("red"), **FAR})
    assert "wild@14=black" in names(state)
    play(state, "wild@14=black")
    assert state.board[13].potion == CODE["black"]  # type: ignore[union-attr]
    assert state.pouch[CODE["yellow"]] == 5 and state.pouch[CODE["black"]] == 4
    # One potion per turn: now only a move, and no Ambush with the new potion this turn.
    assert state.phase == "move" and all(n[0].isdigit() for n in names(state))


def test_leap_jumps_two_squares_to_capture() -> None:
    # 18 is empty, the blue man stands on 23: Leap from 14 over 18 and 23 lands on 27.
    state = chaos_position({14: piece("red", potion="orange"), 9: piece("red"), 23: piece("blue"), **FAR})
    assert "leap:14x27" in names(state)
    assert "14-18" in names(state)  # a potion capture never forces
    play(state, "leap:14x27", "draw-shield=blue")
    assert state.board[22] is None and state.board[26].potion == CODE["orange"]  # type: ignore[union-attr]


def test_leap_also_jumps_a_piece_with_an_empty_square_behind_it() -> None:
    state = chaos_position({14: piece("red", potion="orange"), 9: piece("red"), 18: piece("blue"), **FAR})
    assert {"14x23", "leap:14x27"} <= set(names(state))
    assert "leap:14x23" not in names(state)  # an ordinary jump is listed once, without the prefix


def test_speedy_gives_the_piece_a_second_turn() -> None:
    state = chaos_position({14: piece("red", potion="lightblue"), 9: piece("red"), **FAR})
    play(state, "speedy@14", "9-13")
    assert state.current_player() == 0 and state.extra == 13
    assert set(names(state)) >= {"14-17", "14-18", "pass"} and "13-17" not in names(state)
    play(state, "14-18")
    assert state.current_player() == 1 and state.pouch[CODE["lightblue"]] == 5


def test_speedy_piece_may_decline_its_second_turn() -> None:
    state = chaos_position({14: piece("red", potion="lightblue"), 9: piece("red"), **FAR})
    play(state, "speedy@14", "14-18", "pass")
    assert state.current_player() == 1


def test_a_ghost_neither_captures_nor_is_captured_but_jumps() -> None:
    state = chaos_position({14: piece("red", potion="clear"), 9: piece("red"), 18: piece("blue"), **FAR})
    assert "14x23" not in names(state)
    assert {"14~23", "14-17", "9-13"} <= set(names(state))  # a Ghost jump forces nothing
    play(state, "14~23")
    assert state.board[17] is not None and state.board[22] is not None  # nobody captured
    assert state.current_player() == 1 and state.phase == "turn"  # no rewards either


def test_opposing_pieces_jump_over_a_ghost_without_capturing_it() -> None:
    state = chaos_position(
        {14: piece("red", potion="clear"), 1: piece("red"), 18: piece("blue"), **FAR}, turn=1
    )
    assert "18~9" in names(state) and "18x9" not in names(state)
    assert "18-15" in names(state)  # jumping a ghost is never forced
    play(state, "18~9")
    assert state.board[13] is not None and state.board[8] is not None


def test_a_ghost_potion_may_be_discarded_at_the_start_of_a_turn() -> None:
    state = chaos_position({14: piece("red", potion="clear"), 9: piece("red"), 18: piece("blue"), **FAR})
    play(state, "unghost@14")
    assert state.board[13].potion == -1 and state.phase == "turn"  # type: ignore[union-attr]
    assert names(state) == ["14x23"]  # no longer a ghost: the capture is forced now


def test_rewind_discards_an_opposing_potion() -> None:
    state = chaos_position(
        {14: piece("red", potion="green"), 9: piece("red"), 22: piece("blue", potion="black"), **FAR}
    )
    play(state, "rewind@14:22")
    assert state.board[21].potion == -1 and state.board[13].potion == -1  # type: ignore[union-attr]
    assert state.pouch[CODE["black"]] == 5 and state.pouch[CODE["green"]] == 5


def test_telekinesis_moves_a_friendly_potion_discarding_the_old_one() -> None:
    state = chaos_position(
        {
            14: piece("red", potion="blue"),
            9: piece("red", potion="black"),
            10: piece("red", potion="red"),
            **FAR,
        }
    )
    play(state, "telekinesis@14:9>10")
    assert state.board[9].potion == CODE["black"] and state.board[8].potion == -1  # type: ignore[union-attr]
    assert state.pouch[CODE["red"]] == 5 and state.pouch[CODE["blue"]] == 5


def test_revive_brings_back_a_bare_man_and_leaves_the_game() -> None:
    state = chaos_position({14: piece("red", potion="white"), 9: piece("red"), **FAR})
    assert "revive@14:1=orange" in names(state)
    play(state, "revive@14:1=orange")
    revived = state.board[0]
    assert revived is not None and revived.colour == CODE["orange"] and not revived.king
    assert revived.shield == -1 and revived.potion == -1
    assert state.removed == 1 and state.pouch[CODE["white"]] == 4
    assert state.eliminated[0][CODE["orange"]] == 3


def test_revive_needs_an_empty_home_square() -> None:
    full = {1: piece("red"), 2: piece("red"), 3: piece("orange"), 4: piece("orange")}
    state = chaos_position({14: piece("red", potion="white"), **full, **FAR})
    assert not any(n.startswith("revive") for n in names(state))


def test_sacrifice_eliminates_both_pieces_and_draws_nothing() -> None:
    state = chaos_position(
        {14: piece("red", potion="red"), 9: piece("red"), 22: piece("blue", shield="red"), **FAR}
    )
    play(state, "sacrifice@14:22")
    assert state.board[13] is None and state.board[21] is None
    assert state.phase == "move" and state.pouch[CODE["red"]] == 5


def test_a_last_piece_cannot_be_eliminated_by_a_potion() -> None:
    lone_enemy = chaos_position({14: piece("red", potion="red"), 9: piece("red"), 32: piece("blue")})
    assert not any(n.startswith("sacrifice") for n in names(lone_enemy))
    lone_self = chaos_position({14: piece("red", potion="red"), **FAR})
    assert not any(n.startswith("sacrifice") for n in names(lone_self))


def test_reclaim_swaps_a_shield_for_one_of_the_players_choice() -> None:
    state = chaos_position(
        {14: piece("red", potion="pink", shield="blue"), 9: piece("red"), **FAR}, pink=True
    )
    play(state, "reclaim@14:14=purple")
    assert state.board[13].shield == CODE["purple"]  # type: ignore[union-attr]
    assert state.bags[0][CODE["blue"]] == 5 and state.bags[0][CODE["purple"]] == 4


def test_only_one_potion_per_turn() -> None:
    state = chaos_position(
        {
            14: piece("red", potion="green"),
            9: piece("red", potion="lightblue"),
            22: piece("blue", potion="black"),
            **FAR,
        }
    )
    play(state, "speedy@9")
    with pytest.raises(IllegalActionError):
        play(state, "rewind@14:22")


def test_an_illegal_potion_changes_nothing() -> None:
    state = chaos_position({14: piece("red", potion="green"), 9: piece("red"), **FAR})
    before = json.dumps(state.to_json())
    with pytest.raises(IllegalActionError):
        play(state, "rewind@14:32")  # the blue man on 32 has no potion
    assert json.dumps(state.to_json()) == before


def test_sacrifice_is_not_a_capture_so_shields_and_invulnerability_do_not_stop_it() -> None:
    state = chaos_position(
        {
            14: piece("red", potion="red"),
            9: piece("red"),
            22: piece("blue", shield="red", potion="purple"),
            **FAR,
        }
    )
    play(state, "sacrifice@14:22")
    assert state.board[21] is None and state.phase == "move" and state.pouch[CODE["purple"]] == 5


def test_a_capture_that_crowns_draws_one_fresh_potion() -> None:
    # 22x31 captures the man on 26 and crowns: the shield reward, then the crowning potion.
    state = chaos_position({22: piece("red", potion="green"), 9: piece("red"), 26: piece("blue"), **FAR})
    play(state, "22x31", "draw-shield=blue")
    assert state.phase == "draw-potion" and state.draws_left == 1
    play(state, "draw-potion=black")
    crowned = state.board[30]
    assert crowned is not None and crowned.king and crowned.potion == CODE["black"]
    assert state.current_player() == 1


def test_telekinesis_may_move_a_potion_onto_its_own_piece() -> None:
    state = chaos_position({14: piece("red", potion="blue"), 9: piece("red", potion="black"), **FAR})
    play(state, "telekinesis@14:9>14")
    assert state.board[13].potion == CODE["black"] and state.board[8].potion == -1  # type: ignore[union-attr]


def test_after_invulnerability_the_jumping_piece_finishes_its_multi_jump() -> None:
    state = chaos_position(
        {6: piece("red"), 1: piece("red"), 10: piece("blue", potion="purple"), 19: piece("blue"), **FAR}
    )
    play(state, "6x15x24", "invulnerable:10")
    assert state.board[9] is not None and state.board[18] is None and state.board[23] is not None
    assert state.phase == "draw-shield" and state.draws_left == 1  # one capture, one draw


def test_a_player_whose_potion_leaves_no_move_loses() -> None:
    # Red's man on 4 is blocked; Rewind is still allowed, after it red cannot move.
    state = chaos_position(
        {
            4: piece("red", potion="green"),
            8: piece("blue", potion="black"),
            11: piece("blue"),
            32: piece("blue"),
        }
    )
    assert names(state) == ["rewind@4:8"]
    play(state, "rewind@4:8")
    assert state.is_terminal() and state.returns() == [0.0, 1.0]


def test_choices_come_from_what_is_in_the_bags() -> None:
    # Wild: every colour but the used-up ones; Revive: only colours eliminated; Reclaim:
    # only shields in the player's bag (after the old one goes back).
    state = chaos_position(
        {
            14: piece("red", potion="yellow"),
            9: piece("red", potion="white", shield="blue"),
            10: piece("orange", potion="pink", shield="blue"),
            11: piece("orange", shield="blue"),
            12: piece("orange", shield="blue"),
            13: piece("orange", shield="blue"),
            **FAR,
        },
        pink=True,
    )
    wild = {n.split("=")[1] for n in names(state) if n.startswith("wild@")}
    assert "yellow" in wild and "pink" in wild and len(wild) == 11
    revive = {n.split("=")[1] for n in names(state) if n.startswith("revive@9:1=")}
    assert revive == {"red", "yellow"}  # all four orange pieces are on the board
    reclaim = {n.split("=")[1] for n in names(state) if n.startswith("reclaim@10:14=")}
    assert reclaim == {"lightblue", "purple"}  # all five blue shields are on pieces
    reclaim = {n.split("=")[1] for n in names(state) if n.startswith("reclaim@10:11=")}
    assert reclaim == {"blue", "lightblue", "purple"}  # 11's blue shield goes back first


def test_speedy_chains_when_the_extra_turn_uses_another_speedy() -> None:
    state = chaos_position({14: piece("red", potion="lightblue"), 9: piece("red", potion="lightblue"), **FAR})
    play(state, "speedy@14", "9-13", "speedy@13", "14-18")
    assert state.current_player() == 0 and state.extra == 12  # now the piece from 9 (on 13) moves again
    play(state, "13-17")
    assert state.current_player() == 1


def test_a_piece_that_used_wild_and_captures_keeps_its_pick() -> None:
    # "If you do not use a potion ability on the piece you are moving and capture ...,
    # discard this existing potion": the piece on 14 did use its own (Wild), so it keeps
    # the black potion it picked; only the shield is drawn.
    state = chaos_position({14: piece("red", potion="yellow"), 9: piece("red"), 18: piece("blue"), **FAR})
    play(state, "wild@14=black", "14x23", "draw-shield=blue")
    assert state.board[22].potion == CODE["black"]  # type: ignore[union-attr]
    assert state.current_player() == 1 and state.phase == "turn"


def test_a_piece_that_used_its_own_telekinesis_keeps_the_moved_potion() -> None:
    state = chaos_position(
        {14: piece("red", potion="blue"), 9: piece("red", potion="black"), 18: piece("blue"), **FAR}
    )
    play(state, "telekinesis@14:9>14", "14x23", "draw-shield=blue")
    assert state.board[22].potion == CODE["black"] and state.phase == "turn"  # type: ignore[union-attr]


def test_a_potion_moved_by_another_pieces_telekinesis_is_replaced_after_a_capture() -> None:
    # The blue potion sat on 9, not on the moving piece: the capture replaces 14's potion.
    state = chaos_position(
        {
            14: piece("red"),
            9: piece("red", potion="blue"),
            10: piece("red", potion="black"),
            18: piece("blue"),
            **FAR,
        }
    )
    play(state, "telekinesis@9:10>14", "14x23", "draw-shield=blue")
    assert state.phase == "draw-potion" and state.pouch[CODE["black"]] == 5


def test_a_piece_left_without_a_potion_by_its_own_use_still_receives_one() -> None:
    # Speedy on the moving piece: the potion is spent, the capture brings a new one.
    state = chaos_position({14: piece("red", potion="lightblue"), 9: piece("red"), 18: piece("blue"), **FAR})
    play(state, "speedy@14", "14x23", "draw-shield=blue")
    assert state.phase == "draw-potion"
    play(state, "draw-potion=green")
    assert state.board[22].potion == CODE["green"]  # type: ignore[union-attr]
    assert state.current_player() == 0 and state.extra == 22  # then its extra turn


def test_shields_stop_ghost_jumps_both_ways() -> None:
    # The blue man on 18 is shielded against red: the red Ghost on 14 may not jump it.
    state = chaos_position(
        {14: piece("red", potion="clear"), 9: piece("red"), 18: piece("blue", shield="red"), **FAR}
    )
    assert "14~23" not in names(state)
    # The red Ghost on 14 is shielded against blue: the blue man on 18 may not jump it.
    state = chaos_position(
        {14: piece("red", potion="clear", shield="blue"), 1: piece("red"), 18: piece("blue"), **FAR}, turn=1
    )
    assert "18~9" not in names(state)


def test_a_last_piece_holding_a_ghost_still_cannot_be_captured() -> None:
    state = chaos_position({14: piece("red"), 9: piece("red"), 18: piece("blue", potion="clear")})
    assert "14x23" not in names(state) and "14~23" in names(state)


def test_a_speedy_piece_with_no_move_can_only_pass() -> None:
    # The Speedy man on 5 is blocked by its own man on 9: its extra turn is a `pass`.
    state = chaos_position({5: piece("red", potion="lightblue"), 9: piece("red"), 10: piece("red"), **FAR})
    play(state, "speedy@5", "10-15")
    assert state.current_player() == 0 and names(state) == ["pass"]
    play(state, "pass")
    assert state.current_player() == 1


def test_a_potion_may_be_declared_before_a_forced_capture() -> None:
    state = chaos_position({14: piece("red", potion="yellow"), 9: piece("red"), 18: piece("blue"), **FAR})
    assert "wild@14=green" in names(state) and "9-13" not in names(state)
    play(state, "wild@14=green")
    assert names(state) == ["14x23"]


def test_two_invulnerable_pieces_in_one_multi_jump_may_both_be_spared() -> None:
    state = chaos_position(
        {
            6: piece("red"),
            1: piece("red"),
            10: piece("blue", potion="purple"),
            19: piece("blue", potion="purple"),
            **FAR,
        }
    )
    play(state, "6x15x24", "invulnerable:10", "invulnerable:19")
    assert state.board[9] is not None and state.board[18] is not None and state.board[23] is not None
    assert state.current_player() == 1 and state.phase == "turn"  # nothing captured: no rewards
