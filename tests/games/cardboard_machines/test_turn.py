"""A turn: changing gear, moving, the special spaces, scrolling, ghosts, crashing."""

from __future__ import annotations

import pytest

from chaosgames.games.cardboard_machines.movement import gear_change_stress
from chaosgames.games.cardboard_machines.phases import GEAR, MOVE, OFF, RETURN_STRESS, ROLL
from chaosgames.games.cardboard_machines.state import CardboardState
from tests.games.cardboard_machines.helpers import legal, play, put, space, table, turn_of, where

# Track used below (back to front): board 2, 0, 1, 3, 4, 5, all white.
# Table rows 5-6 are board 1: terrain on 5a, 5f, 6a, 6e, 6f. Rows 7-8 board 3 (offset +1):
# terrain on 7c, 7d, 7f, 8c. Rows 11-12 board 5: terrain on 11a, 11f, 12a, 12f.
TRACK = [2, 0, 1, 3, 4, 5]


def racer(at: str, gear: int = 1, stress: int = 0, other: str = "1c") -> CardboardState:
    st = table(TRACK)
    put(st, 0, at, gear=gear, stress=stress)
    put(st, 1, other)
    turn_of(st, 0)
    return st


@pytest.mark.parametrize(
    ("old", "new", "stress"),
    [(3, 3, 0), (3, 4, 0), (3, 2, 0), (1, 3, 1), (1, 4, 2), (1, 6, 4), (4, 2, 1), (6, 1, 1)],
)
def test_changing_gear_costs_stress_beyond_one_step(old: int, new: int, stress: int) -> None:
    assert gear_change_stress(old, new) == stress
    st = racer("4c", gear=old)
    play(st, f"gear:{new}")
    assert st.stress[0] == stress and st.gear[0] == new and st.moves_left == new


def test_moving_the_full_gear_costs_nothing() -> None:
    st = racer("3c", gear=2)
    play(st, "gear:2", "move:ahead", "move:ahead")
    assert where(st, 0) == "5c" and st.stress[0] == 0
    assert st.phase != MOVE


def test_stopping_early_costs_one_stress_per_space_not_moved() -> None:
    st = racer("3c", gear=3)
    play(st, "gear:3", "move:ahead", "stop")
    assert where(st, 0) == "4c" and st.stress[0] == 2


def test_moving_through_a_car_stresses_both_cars() -> None:
    st = racer("4c", gear=2, other="5c")
    play(st, "gear:2", "move:ahead")
    assert "stop" not in legal(st)  # cannot end on the other car
    play(st, "move:left")
    assert where(st, 0) == "6b" and st.stress == [1, 1]


def test_a_car_cannot_end_on_another_car() -> None:
    st = racer("4c", gear=1, other="5c")
    play(st, "gear:1")
    assert legal(st) == ["move:left", "move:right", "stop"]


def test_a_step_is_offered_only_if_the_move_can_still_end_on_a_free_space() -> None:
    # A car stands on 5c. With 2 points, stepping into 5c is offered (the second point can
    # end on 6b, 6c or 6d); with 1 point the move would end on the car, so it is not.
    st = table(TRACK, players=3)
    put(st, 0, "4c", gear=2)
    put(st, 1, "5c")
    put(st, 2, "1c")
    turn_of(st, 0)
    play(st, "gear:2")
    assert "move:ahead" in legal(st)
    st.moves_left = 1
    st._invalidate()
    assert "move:ahead" not in legal(st)


def test_moving_into_a_ghost_costs_one_stress() -> None:
    st = racer("4c")
    st.ghosts.add(space(st, "5c"))
    play(st, "gear:1", "move:ahead")
    assert st.stress[0] == 1


def test_barely_dodging_terrain_costs_one_stress() -> None:
    # From 5e three spaces are in front (6d, 6e, 6f) and 6e straight ahead is terrain.
    st = racer("5e")
    play(st, "gear:1", "move:left")
    assert where(st, 0) == "6d" and st.stress[0] == 1


def test_no_dodging_stress_going_straight_or_when_only_two_spaces_are_in_front() -> None:
    # From 5b three spaces are in front: 6a (terrain), 6b and 6c. Going straight is no dodge.
    st = racer("5b", gear=2)
    play(st, "gear:2", "move:ahead")
    assert st.stress[0] == 0
    # 6b to row 7 is staggered (7a, 7b): two spaces and none straight ahead, so no dodge
    play(st, "move:right")
    assert where(st, 0) == "7b" and st.stress[0] == 0


def test_dodging_needs_the_space_straight_ahead_to_be_terrain() -> None:
    st = racer("4c")
    play(st, "gear:1", "move:left")  # 5c is no terrain
    assert st.stress[0] == 0


def test_driving_through_terrain_is_allowed_but_ending_in_it_crashes() -> None:
    st = racer("5e", gear=2, other="3a")
    play(st, "gear:2", "move:ahead")  # into 6e (terrain), one point left
    assert st.lives[0] == 3
    play(st, "move:right")  # 6e (board 1, offset 0) -> row 7 (offset +1): 7d (terrain) or 7e
    assert where(st, 0) == "7e" and st.lives[0] == 3 and st.stress[0] == 0


def test_ending_the_last_step_in_terrain_crashes() -> None:
    st = racer("5e", gear=2, other="3a")
    play(st, "gear:2", "move:ahead", "move:left")  # 7d is terrain
    assert st.pos[0] == OFF and st.lives[0] == 2 and space(st, "7d") in st.ghosts


def test_ending_in_terrain_crashes_in_the_seeds_order() -> None:
    st = racer("5e", gear=5, stress=4)
    play(st, "gear:4", "move:ahead", "stop")  # stops on 6e, terrain
    assert st.pos[0] == OFF
    assert space(st, "6e") in st.ghosts  # the car is replaced by a ghost
    assert st.gear[0] == 1  # gear 4 - 3
    assert st.stress[0] == 1
    assert st.lives[0] == 2
    # edge spaces of the third board from the back (board 1: rows 5 and 6)
    assert legal(st) == ["place:5b", "place:5e", "place:6b", "place:6d"]
    play(st, "place:6b")
    assert where(st, 0) == "6b"
    assert st.mover == 1 and st.phase == GEAR  # the crash ended the turn


def test_gear_after_a_crash_is_at_least_one() -> None:
    st = racer("5e", gear=2)
    play(st, "gear:2", "move:ahead", "stop")
    assert st.gear[0] == 1


def test_losing_the_last_life_puts_the_player_out_and_the_last_player_wins() -> None:
    st = racer("5e")
    st.lives[0] = 1
    play(st, "gear:1", "move:ahead")
    assert st.is_terminal() and st.returns() == [0.0, 1.0]


def test_a_player_out_of_the_race_is_skipped() -> None:
    st = table(TRACK, players=3)
    put(st, 0, "5e")
    put(st, 1, "3a")
    put(st, 2, "3c")
    st.lives[0] = 1
    turn_of(st, 0)
    play(st, "gear:1", "move:ahead")
    assert not st.is_terminal() and st.lives[0] == 0 and st.mover == 1
    play(st, "gear:1", "move:ahead")
    assert st.mover == 2
    play(st, "gear:1", "move:ahead")
    assert st.mover == 1


def test_driving_off_the_front_edge_scrolls_the_track() -> None:
    st = racer("12c", gear=2, other="1c")
    st.ghosts.add(space(st, "2c"))
    play(st, "gear:2")
    assert legal(st) == ["scroll", "stop"]
    play(st, "scroll")
    # the back board (2) is flipped to its gray side and added in front
    assert st.board_ids == [0, 1, 3, 4, 5, 2] and st.sides == [0, 0, 0, 0, 0, 1]
    assert st.moves_left == 2  # scrolling costs no movement
    assert st.ghosts == set()  # the ghost left with its board
    # the car on the removed board crashed, without a ghost; its player places it first
    assert st.lives[1] == 2 and st.pos[1] == OFF and st.current_player() == 1
    # third board from the back is now board 3 (rows 5-6)
    assert legal(st) == ["place:5a", "place:5e", "place:6a", "place:6f"]
    play(st, "place:6f")
    # then the mover may place a ghost on an empty square of the dark-edged new board
    assert st.current_player() == 0
    assert legal(st) == [
        "ghost:11b",
        "ghost:11e",
        "ghost:12b",
        "ghost:12c",
        "ghost:12e",
        "ghost:12f",
        "ghost:none",
    ]
    play(st, "ghost:12c")
    assert st.ghosts == {space(st, "12c")}
    # and must continue moving: no stop
    assert where(st, 0) == "10c" and "stop" not in legal(st)
    play(st, "move:left")  # 11c: terrain, passed through
    play(st, "move:ahead")  # 12c: the ghost placed there costs 1 stress
    assert where(st, 0) == "12c" and st.stress[0] == 1 and st.lives[0] == 3


def test_a_white_side_coming_in_front_gives_no_ghost() -> None:
    st = racer("12c", gear=1, other="3a")
    st.sides[0] = 1  # board 2 lies gray side up at the back
    play(st, "gear:1", "scroll")
    assert st.sides[-1] == 0 and not st.ghost_pending
    assert st.phase == MOVE and legal(st) == ["move:left", "move:right"]


def test_no_ghost_can_be_placed_when_all_ten_are_on_the_track() -> None:
    st = racer("12c", gear=1, other="3a")
    st.ghosts.update(space(st, f"{r}b") for r in range(3, 13))
    play(st, "gear:1", "scroll")
    assert not st.ghost_pending


def test_declining_the_ghost() -> None:
    st = racer("12c", gear=1, other="3a")
    play(st, "gear:1", "scroll", "ghost:none")
    assert st.ghosts == set() and st.current_player() == 0


def test_return_one_stress_when_no_gear_change_and_no_stress_this_turn() -> None:
    st = racer("4c", gear=1, stress=2)
    play(st, "gear:1", "move:ahead")
    assert st.phase == RETURN_STRESS and legal(st) == ["return", "keep"]
    play(st, "return")
    assert st.stress[0] == 1 and st.phase == ROLL and st.to_roll == 1


def test_no_return_after_a_gear_change_or_stress_in_the_move() -> None:
    st = racer("4c", gear=1, stress=2)
    play(st, "gear:2", "move:ahead", "move:ahead")
    assert st.phase == ROLL and st.to_roll == 2
    st = racer("5e", gear=1, stress=2)
    play(st, "gear:1", "move:left")  # barely dodging: stress this move
    assert st.phase == ROLL and st.to_roll == 3


def test_illegal_actions_change_nothing() -> None:
    import json

    import chaosgames

    st = racer("4c", gear=1)
    before = json.dumps(st.to_json(), sort_keys=True)
    with pytest.raises(chaosgames.IllegalActionError):
        st.apply_action(st.game.parse_action(st, "gear:7"))
    with pytest.raises(chaosgames.IllegalActionError):
        st.game.parse_action(st, "move:left")
    with pytest.raises(chaosgames.NotationError):
        st.game.parse_action(st, "fly:away")
    assert json.dumps(st.to_json(), sort_keys=True) == before


def test_cars_on_the_removed_board_crash_and_are_placed_clockwise_from_the_mover() -> None:
    st = table(TRACK, players=3)
    put(st, 0, "12c", gear=1)
    put(st, 1, "2d")
    put(st, 2, "1b")
    turn_of(st, 0)
    play(st, "gear:1", "scroll")
    assert st.pending == [1, 2] and st.lives == [3, 2, 2]
    assert legal(st) == ["place:5a", "place:5e", "place:6a", "place:6f"]
    play(st, "place:5a")
    assert st.current_player() == 2
    assert legal(st) == ["place:5b", "place:5e", "place:6a", "place:6f"]  # 5a is taken now
    play(st, "place:6f")
    assert st.current_player() == 0 and st.ghost_pending


def test_a_scroll_that_takes_the_last_life_of_the_last_rival_ends_the_game() -> None:
    st = racer("12c", gear=1, other="1b")
    st.lives[1] = 1
    play(st, "gear:1", "scroll")
    assert st.is_terminal() and st.returns() == [1.0, 0.0]


def test_no_crash_ghost_when_all_ten_ghosts_are_on_the_track() -> None:
    st = racer("5e")
    st.ghosts.update(space(st, f"{r}b") for r in range(3, 13))
    play(st, "gear:1", "move:ahead")  # ends in terrain on 6e
    assert st.lives[0] == 2 and len(st.ghosts) == 10 and space(st, "6e") not in st.ghosts


def test_no_dodging_stress_beside_the_wall_where_only_two_spaces_are_in_front() -> None:
    # From 4a the wall leaves two spaces in front: 5a (terrain, straight ahead) and 5b.
    # Going right of the terrain is no barely dodging: the rulebook needs 3 spaces in front.
    st = racer("4a")
    play(st, "gear:1", "move:right")
    assert where(st, 0) == "5b" and st.stress[0] == 0


def test_a_car_forced_to_move_one_space_less_pays_the_normal_stress() -> None:
    # From 6b (board 1) the staggered row 7 (board 3) gives 7a and 7b, both taken: the car
    # "would have to move 1 space less ... as per the normal movement rules", which cost
    # 1 stress for every space not moved.
    st = table(TRACK, players=3)
    put(st, 0, "6b", gear=1)
    put(st, 1, "7a")
    put(st, 2, "7b")
    turn_of(st, 0)
    play(st, "gear:1")
    assert legal(st) == ["stop"]
    play(st, "stop")
    assert where(st, 0) == "6b" and st.stress == [1, 0, 0]


def test_a_crash_takes_three_gears_off() -> None:
    st = racer("5e", gear=6)
    play(st, "gear:6", "move:ahead", "stop")  # stops on 6e, terrain
    assert st.pos[0] == OFF and st.gear[0] == 3


def test_cars_on_the_removed_board_crash_clockwise_from_a_later_mover() -> None:
    # Player 2 scrolls: player 3, then player 1 (clockwise after the mover) place their cars.
    st = table(TRACK, players=3)
    put(st, 0, "2d")
    put(st, 1, "12c", gear=1)
    put(st, 2, "1b")
    turn_of(st, 1)
    play(st, "gear:1", "scroll")
    assert st.pending == [2, 0] and st.current_player() == 2
