"""The chaos round, steps 1-5, and the end of the game."""

from __future__ import annotations

import random
from typing import Any

import pytest

from chaosgames import InvalidStateError
from chaosgames.core.grid import connected
from chaosgames.games.chaos_cruisers.actions import (
    KeepObstacle,
    Lay,
    Lift,
    Move,
    Obstacle,
    Speed,
    StopRelocating,
)
from chaosgames.games.chaos_cruisers.course import tile_of, tile_squares
from chaosgames.games.chaos_cruisers.state import ChaosCruisersState, Phase

from .helpers import load, open_field, position, squares

RED, BLACK, YELLOW, BLUE = range(4)
N, E, S, W = range(4)


def _blue_about_to_complete_moon(**options: Any) -> ChaosCruisersState:
    """Grand loop, last turn of a cruising round: red, black and yellow have reached the
    moon gate; blue, last in the order, is one square below the moon tile."""
    game = load(**options)
    state = position(
        game,
        {
            "red": ((12, 11), 2, 1),
            "black": ((10, 11), 2, 1),
            "yellow": ((15, 9), 1, 1),
            "blue": ((14, 5), 1, 0),
        },
        obstacles={(0, 8): "red", (1, 7): "black"},
    )
    state.turn = 3
    state.order = (RED, BLACK, YELLOW, BLUE)
    state.in_hand = [1, 1, 2, 2]
    state.coins = [0, 0, 0, 0]
    state._invalidate()
    return state


def _complete_round(state: ChaosCruisersState) -> None:
    state.apply_action(Speed(0))
    state.apply_action(Move(N, 1))  # blue enters the moon tile: everyone has reached it


def test_chaos_round_begins_when_every_cruiser_has_reached_the_gate() -> None:
    state = _blue_about_to_complete_moon()
    _complete_round(state)
    assert state.progress == [1, 1, 1, 1]
    # Step 2: obstacles come off the course and back to their owners.
    assert state.obstacles == {} and state.in_hand == [2, 2, 2, 2]
    # Step 1: the moon is not the sun, so used speed coins stay used.
    assert state.coins == [0, 0, 0, 0]
    # Step 3: blue reached the moon last and rearranges the course.
    assert state.phase == "lift" and state.current_player() == BLUE
    assert state.chaos_row == 0


def test_a_gate_reached_again_does_not_start_a_second_chaos_round() -> None:
    state = _blue_about_to_complete_moon()
    _complete_round(state)
    state.apply_action(StopRelocating())
    while state.phase == "obstacles":
        state.apply_action(state.legal_actions()[0])
    assert state.round == 2 and len(state.obstacles) == 8
    # A whole cruising round with everyone standing still: the moon row is still the
    # lowest row everyone reached, so no second chaos round (the obstacles stay).
    state.speed = [0, 0, 0, 0]
    state._invalidate()
    for _ in range(4):
        state.apply_action(Speed(0))
    assert state.round == 3 and state.phase == "speed"
    assert state.chaos_row == 0 and len(state.obstacles) == 8


@pytest.mark.parametrize(
    ("retrieval", "row_gate", "restored"),
    [
        ("sun", "moon", False),
        ("sun", "sun", True),
        ("every_chaos_round", "moon", True),
        ("never", "sun", False),
    ],
)
def test_speed_coins_come_back_as_the_coin_retrieval_option_says(
    retrieval: str, row_gate: str, restored: bool
) -> None:
    state = _blue_about_to_complete_moon(coin_retrieval=retrieval)
    if row_gate == "sun":
        # Everyone but blue is past the first sun gate; blue is one square short of it.
        for c in (RED, BLACK, YELLOW):
            state.progress[c] = 4
            state.reached[c] = (1, 2, 3, 4 + c, 0, 0, 0, 0)
        state.progress[BLUE] = 3
        state.reached[BLUE] = (1, 2, 3, 0, 0, 0, 0, 0)
        state.pos[BLUE] = (10, 1)
        state.chaos_row = 2
        state.speed[BLUE] = 1
        state._invalidate()
        state.apply_action(Speed(0))
        state.apply_action(Move(W, 1))
        assert state.chaos_row == 3
    else:
        _complete_round(state)
    assert state.phase == "lift"
    assert state.coins == ([0b111100] * 4 if restored else [0, 0, 0, 0])


def test_tiles_that_may_be_moved() -> None:
    """Rules A and B: no tile with a cruiser, no gate tile; rule C: none whose removal
    would cut the course unless laying it elsewhere joins the course again."""
    course = {
        "tiles": [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1], [3, 0], [4, 0]],
        "gates": {"sun": [0, 0], "moon": [4, 0], "crown": [2, 1], "arms": [0, 1]},
    }
    game = load(course=course)
    state = position(
        game,
        {"red": ((0, 0), 0, 1), "black": ((2, 2), 0, 1), "yellow": ((8, 0), 0, 1), "blue": ((9, 1), 0, 1)},
    )
    state.phase, state.relocator, state.tiles_left = Phase.LIFT, BLUE, 3
    state._invalidate()
    # Gate tiles (0,0), (4,0), (2,1), (0,1) stay; black holds (1,1). Lifting (2,0) cuts
    # the moon gate off, but laid at (3,1) it joins the course again; lifting (3,0) cuts
    # it off for good (only its own place would join the two parts). So (1,0) and (2,0).
    assert [str(a) for a in state.legal_actions()] == ["lift:2,0", "lift:4,0", "stop"]
    state.apply_action(Lift((4, 0)))
    assert [str(a) for a in state.legal_actions()] == ["lay:6,2"]
    state = position(
        game,
        {"red": ((0, 0), 0, 1), "black": ((2, 2), 0, 1), "yellow": ((8, 0), 0, 1), "blue": ((9, 1), 0, 1)},
    )
    state.phase, state.relocator, state.tiles_left = Phase.LIFT, BLUE, 3
    state.pos[BLACK] = (1, 1)
    state._invalidate()
    assert [str(a) for a in state.legal_actions()] == ["lift:2,0", "lift:2,2", "lift:4,0", "stop"]


def _corner_course_in_step_three() -> ChaosCruisersState:
    """Issue 18's course: a straight of three tiles turning a corner up to the moon gate;
    three cruisers on the sun gate tile, yellow rearranging the course."""
    course = {"tiles": [[0, 0], [1, 0], [2, 0], [2, 1], [2, 2]], "gates": {"sun": [0, 0], "moon": [2, 2]}}
    game = load(course=course, gates=2, players=3)
    state = position(game, {"red": ((0, 0), 0, 1), "black": ((1, 0), 0, 1), "yellow": ((0, 1), 0, 1)})
    state.phase, state.relocator, state.tiles_left = Phase.LIFT, YELLOW, 3
    state._invalidate()
    return state


def test_a_corner_tile_may_be_lifted_to_cut_the_corner() -> None:
    """Rule C, "No tile may be moved or placed, so as to isolate a tile on the board":
    the course must be whole once the tile is laid, not while it is in the hand."""
    state = _corner_course_in_step_three()
    # (1,0) and (2,1) would also split the course, and only their own places join it.
    assert [str(a) for a in state.legal_actions()] == ["lift:4,0", "stop"]
    state.apply_action(Lift((4, 0)))
    # Only tile (1,1) touches both halves: the one lay that leaves a whole course.
    assert [str(a) for a in state.legal_actions()] == ["lay:2,2"]
    state.apply_action(Lay((2, 2)))
    assert state.tiles == {(0, 0), (1, 0), (1, 1), (2, 1), (2, 2)} and state.phase == "lift"
    assert state.game.state_from_json(state.to_json()).to_json() == state.to_json()


def test_a_document_with_a_lifted_tile_that_cannot_rejoin_the_course_is_refused() -> None:
    state = _corner_course_in_step_three()
    state.apply_action(Lift((4, 0)))
    doc = state.to_json()
    assert state.game.state_from_json(doc).legal_actions() == state.legal_actions()
    # The same halves with the tile lifted from (1,0) instead: no lay could join them.
    bad = {**doc, "tiles": [[0, 0], [2, 0], [2, 1], [2, 2]], "lifted": [1, 0]}
    with pytest.raises(InvalidStateError, match="connected"):
        state.game.state_from_json(bad)


def _rejoins(tiles: frozenset[tuple[int, int]], spot: tuple[int, int]) -> bool:
    touching = any((spot[0] + dx, spot[1] + dy) in tiles for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)))
    return spot not in tiles and touching and connected(set(tiles | {spot}))


@pytest.mark.parametrize("course", ["grand-loop", "figure-eight", "chicane"])
def test_every_lift_offered_has_a_lay_and_every_lay_leaves_the_course_whole(course: str) -> None:
    """A brute-force check of rule C over random rearrangements: a tile is offered when
    rules A and B allow it and some place other than its own joins the course again."""
    game = load(course=course, tiles_moved=10)
    sun = game.gate_tile["sun"]
    state = position(game, {"red": ((2 * sun[0], 2 * sun[1]), 0, 1), "black": (None, 0, 8)})
    rng = random.Random(course)
    for _ in range(60):
        state.phase, state.relocator, state.tiles_left, state.moved = Phase.LIFT, RED, 10, frozenset()
        state._invalidate()
        for _ in range(10):
            lifts = {tile_of(a.square) for a in state.legal_actions() if isinstance(a, Lift)}
            expected = set()
            for tile in state.tiles - game.gate_tiles - state.cruiser_tiles() - state.moved:
                rest = state.tiles - {tile}
                places = {
                    (t[0] + dx, t[1] + dy) for t in rest for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0))
                }
                if any(_rejoins(rest, p) for p in places - {tile}):
                    expected.add(tile)
            assert lifts == expected
            if not lifts:
                break
            state.apply_action(Lift(tile_squares(rng.choice(sorted(lifts)))[0]))
            lays = [tile_of(square) for square in squares(state)]
            assert lays and all(_rejoins(state.tiles, t) for t in lays)
            state.apply_action(Lay(tile_squares(rng.choice(lays))[0]))
            assert connected(set(state.tiles))


def test_a_lifted_tile_is_laid_aligned_next_to_the_course_somewhere_new() -> None:
    state = _blue_about_to_complete_moon()
    _complete_round(state)
    lifts = [a for a in state.legal_actions() if isinstance(a, Lift)]
    gate_tiles = state.game.gate_tiles
    assert all(tile_of(a.square) not in gate_tiles for a in lifts)
    assert Lift((0, 0)) in lifts
    state.apply_action(Lift((0, 0)))
    assert (0, 0) not in state.tiles and state.phase == "lay"
    lays = [a.square for a in state.legal_actions() if isinstance(a, Lay)]
    assert (0, 0) not in lays
    assert all(x % 2 == 0 and y % 2 == 0 for x, y in lays)
    assert all(
        any(
            (tile_of((x, y))[0] + dx, tile_of((x, y))[1] + dy) in state.tiles
            for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0))
        )
        for x, y in lays
    )
    assert (2, 2) in lays and (-2, 2) in lays
    assert (-2, 0) not in lays  # it touched only the lifted tile
    state.apply_action(Lay((2, 2)))
    assert (1, 1) in state.tiles and len(state.tiles) == 24
    assert state.phase == "lift" and state.tiles_left == 2


def test_each_tile_is_moved_at_most_once_in_a_chaos_round() -> None:
    """ "He may pick up and place 3 tiles": three different tiles, so a tile laid in this
    chaos round may not be picked up again in it."""
    state = _blue_about_to_complete_moon()
    _complete_round(state)
    state.apply_action(Lift((0, 0)))
    state.apply_action(Lay((2, 2)))
    lifts = [a for a in state.legal_actions() if isinstance(a, Lift)]
    assert Lift((2, 2)) not in lifts and Lift((2, 0)) in lifts
    assert state.to_json()["moved_tiles"] == [[1, 1]]
    state.apply_action(StopRelocating())
    # The next chaos round starts afresh.
    assert state.moved == frozenset() and state.to_json()["moved_tiles"] == []


def test_the_last_player_may_stop_moving_tiles_early() -> None:
    state = _blue_about_to_complete_moon()
    _complete_round(state)
    state.apply_action(StopRelocating())
    assert state.phase == "obstacles"


def test_without_tile_moves_the_chaos_round_goes_straight_to_obstacles() -> None:
    state = _blue_about_to_complete_moon(tiles_moved=0)
    _complete_round(state)
    assert state.phase == "obstacles" and state.obstacle_pass == 1


def test_obstacles_are_placed_in_two_passes_in_playing_order_then_racing_resumes() -> None:
    state = _blue_about_to_complete_moon(tiles_moved=0)
    _complete_round(state)
    # Step 4: the playing order of the next cruising round, by lead rules 1-3: all have
    # the moon; black is 3 squares from the crown, red 5, yellow 9, blue 11.
    order = (BLACK, RED, YELLOW, BLUE)
    assert state.order == order
    # Black and red close the right-hand straight above yellow and blue (still allowed:
    # the ring stays connected the other way round), so that blue is now nearer the crown
    # than yellow.
    chosen = {BLACK: Obstacle((14, 10)), RED: Obstacle((15, 10))}
    for expected in [*order, *order]:
        assert state.current_player() == expected
        action = chosen.pop(expected, None) or state.legal_actions()[0]
        state.apply_action(action)
    assert state.in_hand == [0, 0, 0, 0] and len(state.obstacles) == 8
    assert state.distance_to_next_gate(BLUE) < state.distance_to_next_gate(YELLOW)
    # Step 5: the next cruising round keeps the order fixed in step 4 (decision 6).
    assert state.phase == "speed" and state.round == 2 and state.order == order
    assert state.current_player() == BLACK


def test_obstacle_placement_rules() -> None:
    game = load()
    state = position(
        game,
        {
            "red": ((12, 11), 2, 1),
            "black": ((10, 11), 2, 1),
            "yellow": ((15, 9), 1, 1),
            "blue": ((14, 6), 1, 1),
        },
        obstacles={(0, 8): "red", (1, 8): "red", (0, 2): "black"},
        phase="obstacles",
    )
    allowed = {a.square for a in state.legal_actions() if isinstance(a, Obstacle)}
    # Rule A: on course squares only; rule B: not on a tile with a cruiser.
    assert allowed <= state.course()
    assert not any(tile_of(s) in state.cruiser_tiles() for s in allowed)
    # Rule C: never on a gate tile.
    assert not any(tile_of(s) in game.gate_tiles for s in allowed)
    # Rule D: (1,2) or (1,3) would cut the course in two (it is already blocked at y=8).
    assert (1, 2) not in allowed and (1, 3) not in allowed
    assert (15, 0) in allowed and (0, 0) in allowed


def test_an_obstacle_may_not_cover_the_last_free_square_of_a_tile() -> None:
    game = load(course=open_field())
    state = position(
        game,
        {"red": ((0, 7), 0), "black": ((1, 7), 0), "yellow": ((7, 7), 0), "blue": ((7, 6), 0)},
        obstacles={(2, 2): "red", (3, 2): "red", (2, 3): "black"},
        phase="obstacles",
    )
    allowed = set(squares(state))
    assert (3, 3) not in allowed and (4, 4) in allowed


def test_with_no_square_allowed_the_player_keeps_the_obstacle() -> None:
    course = {
        "tiles": [[0, 0], [1, 0], [2, 0], [3, 0]],
        "gates": {"sun": [0, 0], "moon": [1, 0], "crown": [2, 0], "arms": [3, 0]},
    }
    game = load(course=course)
    state = position(
        game,
        {"red": ((0, 0), 0), "black": ((1, 0), 0), "yellow": ((2, 0), 0), "blue": ((3, 0), 0)},
        phase="obstacles",
    )
    assert state.legal_actions() == [KeepObstacle()]
    state.apply_action(KeepObstacle())
    assert state.in_hand[RED] == 2 and state.current_player() == BLACK


# -- Game end --------------------------------------------------------------------------------


def test_reaching_the_sun_gate_a_second_time_wins() -> None:
    game = load()
    state = position(
        game,
        {
            "red": ((10, 0), 1, 7),
            "black": ((10, 11), 2, 3),
            "yellow": ((15, 9), 1, 1),
            "blue": ((14, 6), 1, 1),
        },
    )
    state.apply_action(Speed(0))
    state.apply_action(Move(W, 1))
    assert state.is_terminal()
    assert state.returns() == [1.0, 0.0, 0.0, 0.0]
    assert state.ended_by() == "rules" and state.observation(2)["ended_by"] == "rules"


def test_reaching_the_sun_gate_the_first_time_does_not_end_the_race() -> None:
    game = load()
    state = position(
        game,
        {
            "red": ((10, 0), 1, 3),
            "black": ((10, 11), 2, 3),
            "yellow": ((15, 9), 1, 1),
            "blue": ((14, 6), 1, 1),
        },
    )
    state.apply_action(Speed(0))
    state.apply_action(Move(W, 1))
    assert state.progress[RED] == 4 and not state.is_terminal()


def test_with_two_cruisers_each_a_player_wins_with_both_home() -> None:
    game = load(players=2)
    assert game.num_cruisers == 4 and game.player_names() == ["red+yellow", "black+blue"]
    state = position(
        game,
        {
            "red": ((10, 0), 1, 7),
            "black": ((10, 11), 2, 3),
            "yellow": ((10, 1), 1, 7),
            "blue": ((14, 6), 1, 1),
        },
        order=["red", "yellow", "black", "blue"],
    )
    state.apply_action(Speed(0))
    state.apply_action(Move(W, 1))
    assert not state.is_terminal() and state.pos[RED] is None  # red is home and off the course
    assert state.current_player() == 0  # yellow, also player 1's
    state.apply_action(Speed(0))
    state.apply_action(Move(W, 1))
    assert state.is_terminal() and state.returns() == [1.0, 0.0]


def test_a_cruiser_finishing_onto_another_leaves_the_course_without_ramming() -> None:
    """Decision 17: with two cruisers each, red finishes by entering the sun tile square
    where blue stands; red leaves the course at once, so blue is not pushed and red's
    player races on with yellow."""
    game = load(players=2)
    state = position(
        game,
        {
            "red": ((10, 0), 2, 7),
            "blue": ((9, 0), 1, 4),
            "black": ((10, 11), 2, 3),
            "yellow": ((14, 6), 1, 1),
        },
    )
    state.apply_action(Speed(-1))
    state.apply_action(Move(W, 1))
    assert state.pos[RED] is None and state.finished(RED)
    assert state.pos[BLUE] == (9, 0) and state.speed[BLUE] == 1
    assert not state.is_terminal() and state.deciding_cruiser() == BLUE


def test_two_players_may_race_one_cruiser_each() -> None:
    game = load(players=2, two_cruisers=False)
    assert game.num_cruisers == 2 and game.player_names() == ["red", "black"]


def test_max_rounds_ends_the_game_and_the_lead_order_decides() -> None:
    game = load(max_rounds=1)
    state = position(
        game,
        {
            "red": ((11, 0), 0, 3),
            "black": ((11, 1), 0, 3),
            "yellow": ((15, 9), 0, 1),
            "blue": ((14, 6), 0, 1),
        },
    )
    state.chaos_row = 0  # the moon's chaos round is over
    for _ in range(4):
        state.apply_action(Speed(0))
    assert state.is_terminal() and state.capped
    assert state.ended_by() == "cap" and state.observation(None)["ended_by"] == "cap"
    # Red and black: same gates, same distance, same speed: they share the win.
    assert state.returns() == [0.5, 0.5, 0.0, 0.0]


def test_two_gates_completed_in_one_round_make_one_chaos_round_for_the_later() -> None:
    game = load(coin_retrieval="sun")
    state = position(
        game,
        {
            "red": ((12, 11), 2, 2),
            "black": ((10, 11), 2, 3),
            "yellow": ((0, 11), 1, 2),
            "blue": ((1, 11), 1, 2),
        },
    )
    state.coins = [0, 0, 0, 0]
    state._end_cruising_round()
    # Rows 0 (moon) and 1 (crown) are complete for all: a single chaos round, for the crown.
    assert state.chaos_row == 1 and state.phase == "lift"
    assert state.relocator == max(range(4), key=lambda c: state.reached[c][1])
    assert state.coins == [0, 0, 0, 0]  # no sun gate among them


def test_a_finished_cruiser_places_no_obstacles() -> None:
    game = load(players=2, tiles_moved=0)
    state = position(
        game,
        {"red": (None, 0, 8), "black": ((10, 11), 2, 1), "yellow": ((14, 5), 1, 0), "blue": ((15, 9), 1, 1)},
        order=["black", "blue", "yellow"],
    )
    state.turn = 2
    state._invalidate()
    state.apply_action(Speed(0))
    state.apply_action(Move(N, 1))  # yellow reaches the moon: all have, red long since
    assert state.phase == "obstacles"
    placers = []
    while state.phase == "obstacles":
        placers.append(state.deciding_cruiser())
        state.apply_action(state.legal_actions()[0])
    assert RED not in placers and len(placers) == 6
    assert RED not in state.order
