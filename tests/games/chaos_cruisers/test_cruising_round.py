"""Setup, the cruising round, speed, movement, out-of-bounds, ramming and gates."""

from __future__ import annotations

import pytest

from chaosgames import CHANCE, IllegalActionError
from chaosgames.games.chaos_cruisers.actions import Move, Reenter, Speed, Start
from chaosgames.games.chaos_cruisers.state import Phase

from .helpers import load, moves, open_field, position, squares

RED, BLACK, YELLOW, BLUE = range(4)
E, N = 1, 0


# -- Setup --------------------------------------------------------------------------------


def test_setup_places_cruisers_on_the_sun_tile_in_seat_order_at_null_speed() -> None:
    game = load()
    state = game.new_initial_state()
    sun = [(8, 0), (9, 0), (8, 1), (9, 1)]  # grand-loop: sun gate on tile (4, 0)
    assert state.phase == "start" and state.current_player() == RED
    assert squares(state) == sun
    state.apply_action(Start((9, 1)))
    assert state.current_player() == BLACK
    assert (9, 1) not in squares(state)
    for square in [(8, 0), (9, 0), (8, 1)]:
        state.apply_action(Start(square))
    assert state.pos == [(9, 1), (8, 0), (9, 0), (8, 1)]
    assert state.speed == [0, 0, 0, 0]
    assert state.round == 1


def test_setup_order_can_be_rolled() -> None:
    state = load(setup_order="roll").new_initial_state()
    assert state.current_player() == CHANCE
    assert [(str(a), p) for a, p in state.chance_outcomes()] == [
        ("lead:red", 0.25),
        ("lead:black", 0.25),
        ("lead:yellow", 0.25),
        ("lead:blue", 0.25),
    ]
    for name in ["lead:blue", "lead:red", "lead:yellow"]:
        state.apply_action(state.game.parse_action(state, name))
    assert state.order == (BLUE, RED, YELLOW, BLACK)
    assert state.current_player() == BLUE and state.phase == "start"


def test_three_players_race_three_cruisers() -> None:
    game = load(players=3)
    assert game.num_cruisers == 3 and game.player_names() == ["red", "black", "yellow"]
    state = game.new_initial_state()
    for square in [(8, 0), (9, 0), (8, 1)]:
        state.apply_action(Start(square))
    # Blue's pieces are out of the game: three cruisers race, one sun square stays empty.
    assert state.round == 1 and state.pos == [(8, 0), (9, 0), (8, 1)]
    assert {*state.order, *(c for tie in state.ties for c in tie)} == {RED, BLACK, YELLOW}


# -- Speed --------------------------------------------------------------------------------


def test_speed_choices_are_up_down_same_or_a_speed_coin() -> None:
    game = load(course=open_field())
    state = position(
        game, {"red": ((3, 3), 2), "black": ((0, 7), 0), "yellow": ((1, 7), 0), "blue": ((2, 7), 0)}
    )
    assert [str(a) for a in state.legal_actions()] == [
        "speed:+1",
        "speed:-1",
        "speed:=",
        "nitro:2",
        "nitro:3",
        "nitro:4",
        "nitro:5",
        "brake:2",
        "brake:3",
        "brake:4",
        "brake:5",
    ]


@pytest.mark.parametrize(
    ("speed", "action", "expected"),
    [
        (2, "speed:+1", 3),
        (5, "speed:+1", 5),
        (2, "speed:-1", 1),
        (2, "speed:=", 2),
        (3, "nitro:4", 5),
        (1, "nitro:2", 3),
        (4, "brake:2", 2),
        (2, "brake:5", 0),
    ],
)
def test_speed_adjustment_is_held_between_null_and_five(speed: int, action: str, expected: int) -> None:
    game = load(course=open_field())
    state = position(
        game, {"red": ((3, 3), speed), "black": ((0, 7), 0), "yellow": ((1, 7), 0), "blue": ((2, 7), 0)}
    )
    state.apply_action(game.parse_action(state, action))
    assert state.speed[RED] == expected


def test_a_speed_coin_is_discarded_after_use() -> None:
    game = load(course=open_field())
    state = position(
        game, {"red": ((3, 3), 1), "black": ((0, 7), 0), "yellow": ((1, 7), 0), "blue": ((2, 7), 0)}
    )
    state.apply_action(game.parse_action(state, "nitro:3"))
    assert state.speed[RED] == 4
    state.apply_action(Move(N, 4))
    # Red's next turn: coin 3 is gone, 2, 4, 5 remain; null and ace never adjust speed.
    state.order, state.turn, state.phase = (RED,), 0, Phase.SPEED
    state._invalidate()
    coins = [str(a) for a in state.legal_actions() if isinstance(a, Speed) and a.coin]
    assert coins == ["nitro:2", "nitro:4", "nitro:5", "brake:2", "brake:4", "brake:5"]
    with pytest.raises(IllegalActionError):
        state.apply_action(game.parse_action(state, "nitro:3"))


def test_at_null_speed_the_cruiser_stands_still_and_the_turn_passes() -> None:
    game = load(course=open_field())
    state = position(
        game,
        {"red": ((3, 3), 1), "black": ((0, 7), 0), "yellow": ((1, 7), 0), "blue": ((2, 7), 0)},
        order=["red", "black", "yellow", "blue"],
    )
    state.apply_action(Speed(-1))
    assert state.pos[RED] == (3, 3)
    assert state.phase == "speed" and state.current_player() == BLACK


# -- Movement -----------------------------------------------------------------------------


def test_the_cruiser_moves_exactly_its_speed() -> None:
    game = load(course=open_field())
    state = position(
        game, {"red": ((3, 3), 1), "black": ((0, 7), 0), "yellow": ((1, 7), 0), "blue": ((2, 7), 0)}
    )
    state.apply_action(Speed(1))
    assert state.phase == "move"
    assert moves(state) == state.legal_actions() and all(m.first + m.second == 2 for m in moves(state))
    state.apply_action(game.parse_action(state, "move:N1E1"))
    assert state.pos[RED] == (4, 4)
    assert state.current_player() == BLACK


def test_leaving_the_course_is_out_of_bounds_back_to_the_sun_before_any_gate() -> None:
    game = load(course=open_field())
    state = position(
        game, {"red": ((1, 3), 3), "black": ((0, 7), 0), "yellow": ((1, 7), 0), "blue": ((2, 7), 0)}
    )
    state.phase = Phase.MOVE
    state._invalidate()
    state.apply_action(game.parse_action(state, "move:W3"))
    assert state.pos[RED] is None and state.speed[RED] == 0
    assert state.current_player() == RED and state.phase == "reenter"
    assert [str(a) for a in state.legal_actions()] == [
        "reenter:0,0",
        "reenter:1,0",
        "reenter:0,1",
        "reenter:1,1",
    ]
    state.apply_action(Reenter((1, 1)))
    assert state.pos[RED] == (1, 1) and state.current_player() == BLACK


def test_moving_through_an_obstacle_is_out_of_bounds_back_to_the_last_gate_passed() -> None:
    game = load(course=open_field())
    # Red has passed the moon gate (tile (3, 0)); an obstacle lies on its path.
    state = position(
        game,
        {"red": ((3, 3), 3, 1), "black": ((0, 7), 0), "yellow": ((1, 7), 0), "blue": ((2, 7), 0)},
        obstacles={(3, 5): "blue"},
    )
    state.phase = Phase.MOVE
    state._invalidate()
    state.apply_action(game.parse_action(state, "move:N3"))
    assert state.pos[RED] is None and state.speed[RED] == 0
    assert set(squares(state)) == {(6, 0), (7, 0), (6, 1), (7, 1)}


def test_a_cruiser_sent_out_before_its_turn_sits_out_the_rest_of_the_round() -> None:
    game = load(course=open_field())
    state = position(
        game,
        {"black": ((6, 5), 1), "yellow": ((7, 5), 4), "red": ((0, 7), 0), "blue": ((1, 7), 0)},
        order=["black", "yellow", "red", "blue"],
    )
    state.apply_action(Speed(0))
    state.apply_action(Move(E, 1))  # rams yellow off the east edge
    assert state.phase == "reenter"
    state.apply_action(Reenter((0, 0)))
    # Yellow's turn is skipped this round: red moves next.
    assert state.current_player() == RED


def test_ramming_pushes_a_line_of_cruisers_one_square_each() -> None:
    game = load(course=open_field())
    state = position(
        game,
        {"black": ((1, 3), 3), "yellow": ((3, 3), 2), "red": ((4, 3), 0), "blue": ((7, 7), 0)},
    )
    state.phase = Phase.MOVE
    state._invalidate()
    state.apply_action(Move(E, 3))
    assert state.pos[BLACK] == (3, 3)
    assert state.pos[YELLOW] == (4, 3) and state.pos[RED] == (5, 3)
    assert state.speed[BLACK] == 2


def test_a_ram_after_the_turn_pushes_in_the_new_direction() -> None:
    game = load(course=open_field())
    state = position(
        game,
        {"black": ((1, 1), 3), "yellow": ((3, 2), 2), "red": ((0, 7), 0), "blue": ((7, 7), 0)},
    )
    state.phase = Phase.MOVE
    state._invalidate()
    state.apply_action(game.parse_action(state, "move:N1E2"))  # rams yellow on (3, 2)
    assert state.pos[BLACK] == (3, 2) and state.speed[BLACK] == 2
    assert state.pos[YELLOW] == (4, 2)  # pushed east, the direction of travel at the ram


# -- Gates --------------------------------------------------------------------------------


def test_gates_are_checked_only_in_order() -> None:
    game = load(course=open_field())  # moon (3,0), crown (3,3), arms (0,3)
    state = position(
        game, {"red": ((7, 3), 3), "black": ((0, 7), 0), "yellow": ((1, 7), 0), "blue": ((2, 7), 0)}
    )
    state.phase = Phase.MOVE
    state._invalidate()
    # Through the crown tile (squares 6-7, 6-7) while the moon is next: no check.
    state.apply_action(Move(N, 3))
    assert state.pos[RED] == (7, 6) and state.progress[RED] == 0


def test_passing_through_a_gate_tile_reaches_the_gate() -> None:
    game = load(course=open_field())
    state = position(
        game, {"red": ((7, 3), 4), "black": ((0, 7), 0), "yellow": ((1, 7), 0), "blue": ((2, 7), 0)}
    )
    state.phase = Phase.MOVE
    state._invalidate()
    state.apply_action(Move(2, 2, 3, 2))  # S2 W2: through (7, 1) on the moon tile, ends on (5, 1)
    assert state.pos[RED] == (5, 1)
    assert state.progress[RED] == 1 and state.reached[RED][0] > 0


def test_a_gate_passed_before_going_out_counts_and_is_the_return_gate() -> None:
    game = load(course=open_field())
    state = position(
        game, {"red": ((7, 3), 5), "black": ((0, 7), 0), "yellow": ((1, 7), 0), "blue": ((2, 7), 0)}
    )
    state.phase = Phase.MOVE
    state._invalidate()
    state.apply_action(Move(2, 5))  # S5: through the moon tile and off the south edge
    assert state.progress[RED] == 1 and state.pos[RED] is None
    assert set(squares(state)) == {(6, 0), (7, 0), (6, 1), (7, 1)}


def test_a_cruiser_pushed_onto_its_next_gate_reaches_it() -> None:
    game = load(course=open_field())
    state = position(
        game, {"black": ((7, 4), 2), "yellow": ((7, 2), 3), "red": ((0, 7), 0), "blue": ((1, 7), 0)}
    )
    state.phase = Phase.MOVE
    state._invalidate()
    state.apply_action(Move(2, 2))  # S2 rams yellow onto (7, 1), the moon tile
    assert state.pos[YELLOW] == (7, 1) and state.progress[YELLOW] == 1


def test_distance_to_the_next_gate_goes_around_obstacles_but_not_around_cruisers() -> None:
    game = load(course=open_field())  # moon tile (3, 0): squares x 6-7, y 0-1
    state = position(
        game, {"red": ((3, 1), 0), "black": ((4, 1), 0), "yellow": ((0, 7), 0), "blue": ((1, 7), 0)}
    )
    assert state.distance_to_next_gate(RED) == 3  # black in the way does not count
    walled = position(
        game,
        {"red": ((3, 1), 0), "black": ((0, 6), 0), "yellow": ((0, 7), 0), "blue": ((1, 7), 0)},
        obstacles={(4, 0): "blue", (4, 1): "blue", (4, 2): "black"},
    )
    # Around the wall: up to (3, 3), across to (5, 3), down to (5, 1), then (6, 1).
    assert walled.distance_to_next_gate(RED) == 7


def test_a_push_down_a_line_sends_only_the_last_cruiser_out() -> None:
    game = load(course=open_field())
    state = position(
        game, {"black": ((4, 3), 2), "yellow": ((6, 3), 2), "red": ((7, 3), 1), "blue": ((0, 7), 0)}
    )
    state.phase = Phase.MOVE
    state._invalidate()
    state.apply_action(Move(E, 2))
    assert state.pos[BLACK] == (6, 3) and state.pos[YELLOW] == (7, 3)
    assert state.pos[RED] is None and state.current_player() == RED and state.speed[RED] == 0
