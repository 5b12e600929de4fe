"""The heuristic evaluation: turns to a gate by the rules of How to Move, as each player's
progress and win share."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from chaosgames.core.grid import Square
from chaosgames.games.chaos_cruisers.course import course_squares, tile_squares
from chaosgames.games.chaos_cruisers.evaluation import win_shares
from chaosgames.games.chaos_cruisers.movement import MAX_SPEED, move_choices, trace_move
from chaosgames.games.chaos_cruisers.racing_line import NO_ROUTE, TableCache, turns_to_gate

from .helpers import load, open_field, position

RED, BLACK, YELLOW, BLUE = range(4)


def straight() -> dict[str, object]:
    """Six tiles in a row, 12 squares long and 2 wide; the moon gate on the last tile."""
    return {
        "name": "straight",
        "tiles": [[x, 0] for x in range(6)],
        "gates": {"sun": [0, 0], "moon": [5, 0]},
    }


MOON_SQUARES = tile_squares((5, 0))  # x 10-11
STRAIGHT = course_squares([(x, 0) for x in range(6)])


def brute_force_turns(free: frozenset[Square], goal: set[Square], start: Square, speed: int) -> int:
    """Turns to enter the goal found by trying every move of the game's own movement code."""
    frontier = {(start, speed)}
    seen = set(frontier)
    for turns in range(1, 12):
        reached: set[tuple[Square, int]] = set()
        for square, v in frontier:
            for new in {max(0, v - 1), v, min(MAX_SPEED, v + 1)}:
                if new == 0:
                    reached.add((square, 0))
                    continue
                for move in move_choices(new):
                    trace = trace_move(square, move, free, (), ())
                    if any(s in goal for s in trace.entered):
                        return turns
                    if trace.outcome == "stop":
                        reached.add((trace.entered[-1], new))
        frontier = reached - seen
        seen |= reached
    return NO_ROUTE


def test_one_square_from_the_gate_at_null_is_one_turn() -> None:
    table = turns_to_gate(MOON_SQUARES, STRAIGHT)
    assert table.turns((9, 0), 0, speed_set=False) == 1  # speed +1, move 1 onto the gate tile


def test_from_a_standing_start_the_cruiser_speeds_up_one_a_turn() -> None:
    table = turns_to_gate(MOON_SQUARES, STRAIGHT)
    # Ten squares to the gate: 1 + 2 + 3 + 4 squares in four turns.
    assert table.turns((0, 0), 0, speed_set=False) == 4
    # At top speed, 5 + 5: two turns.
    assert table.turns((0, 0), 5, speed_set=False) == 2


def test_entering_the_gate_tile_counts_even_if_the_move_goes_on() -> None:
    table = turns_to_gate(MOON_SQUARES, STRAIGHT)
    # Speed 5 from square 8 would run off the end of the course at x=12, but it enters
    # the moon tile on its second step, which checks the gate.
    assert table.turns((8, 0), 5, speed_set=True) == 1


def test_a_speed_already_set_cannot_be_changed_this_turn() -> None:
    table = turns_to_gate(MOON_SQUARES, STRAIGHT)
    # At (0,0) speed 1 already set: move 1 (x=1), then 2 (x=3), 3 (x=6), 4 (x=10).
    assert table.turns((0, 0), 1, speed_set=True) == 4
    # Free to adjust first, the same cruiser goes 2, 3, 4 (x=9), then 5: still four turns,
    # but from square 1 it is three: 2, 3, 4.
    assert table.turns((1, 0), 1, speed_set=False) == 3


def test_an_obstacle_wall_leaves_no_route() -> None:
    wall = STRAIGHT - {(6, 0), (6, 1)}
    table = turns_to_gate(MOON_SQUARES, wall)
    assert table.turns((0, 0), 0, speed_set=False) == NO_ROUTE


@settings(max_examples=40, deadline=None)
@given(
    obstacles=st.sets(st.sampled_from(sorted(course_squares([(1, 1), (1, 2), (2, 1), (0, 2)]))), max_size=4),
    start=st.sampled_from(sorted(course_squares([(0, 0), (1, 0), (0, 1), (1, 1), (2, 1)]))),
    speed=st.integers(min_value=0, max_value=MAX_SPEED),
)
def test_the_table_agrees_with_every_move_the_rules_allow(
    obstacles: set[Square], start: Square, speed: int
) -> None:
    field = course_squares([(x, y) for x in range(3) for y in range(3)])
    free = frozenset(field - obstacles)
    goal = set(tile_squares((2, 2)))
    if start in obstacles:
        return
    table = turns_to_gate(tile_squares((2, 2)), free)
    assert table.turns(start, speed, speed_set=False) == brute_force_turns(free, goal, start, speed)


LONG_FIELD = course_squares([(x, y) for x in range(6) for y in range(2)])
"""Twelve squares by four: most squares are more than top speed from the gate's tile."""


@settings(max_examples=40, deadline=None)
@given(
    obstacles=st.sets(st.sampled_from(sorted(LONG_FIELD - set(tile_squares((5, 1))))), max_size=8),
    start=st.sampled_from(sorted(course_squares([(0, 0), (0, 1), (1, 0), (1, 1)]))),
    speed=st.integers(min_value=0, max_value=MAX_SPEED),
)
def test_far_from_the_gate_the_table_agrees_with_every_move_the_rules_allow(
    obstacles: set[Square], start: Square, speed: int
) -> None:
    free = frozenset(LONG_FIELD - obstacles)
    if start in obstacles:
        return
    table = turns_to_gate(tile_squares((5, 1)), free)
    expected = brute_force_turns(free, set(tile_squares((5, 1))), start, speed)
    assert table.turns(start, speed, speed_set=False) == expected


@settings(max_examples=30, deadline=None)
@given(
    obstacles=st.sets(st.sampled_from(sorted(LONG_FIELD)), max_size=10),
    asked=st.lists(st.tuples(st.sampled_from(sorted(LONG_FIELD)), st.integers(0, MAX_SPEED), st.booleans())),
)
def test_a_table_worked_out_as_far_as_asked_gives_the_answers_of_a_whole_one(
    obstacles: set[Square], asked: list[tuple[Square, int, bool]]
) -> None:
    # The table is worked out turn by turn, only as far as each question needs: the
    # answers must not depend on which questions came first.
    free = frozenset(LONG_FIELD - obstacles)
    lazy = turns_to_gate(tile_squares((5, 1)), free)
    for square, speed, speed_set in asked:
        lazy.turns(square, speed, speed_set)
    whole = turns_to_gate(tile_squares((5, 1)), free)
    rows = {square: whole.rows(square) for square in sorted(LONG_FIELD)}  # asks every entry
    for square, (before, moving) in rows.items():
        for speed in range(MAX_SPEED + 1):
            assert lazy.turns(square, speed, speed_set=False) == before[speed]
            assert lazy.turns(square, speed, speed_set=True) == moving[speed]


def test_the_cache_gives_the_same_table_for_the_same_course() -> None:
    cache = TableCache(size=2)
    first = cache.table(MOON_SQUARES, STRAIGHT)
    assert cache.table(MOON_SQUARES, frozenset(STRAIGHT)) is first
    cache.table(MOON_SQUARES, STRAIGHT - {(3, 0)})
    cache.table(MOON_SQUARES, STRAIGHT - {(4, 0)})
    assert cache.table(MOON_SQUARES, STRAIGHT) is not first  # the oldest was dropped


def test_a_fast_cruiser_behind_is_ahead_of_a_standing_one_in_front() -> None:
    """Speed is position too: 5 and 5 beat 1, 2, 3, 4 from two squares further on."""
    game = load(course=straight(), gates=2, laps=1, players=3)
    state = position(game, {"red": ((0, 0), 5), "black": ((2, 0), 0), "yellow": ((0, 1), 0)}, round_number=3)
    values = game.heuristic(state)
    assert values[RED] > values[BLACK] > values[YELLOW]
    assert abs(sum(win_shares(state)) - 1) < 1e-9


def test_a_cruiser_yet_to_move_this_round_is_a_turn_further_on() -> None:
    """Side by side at the same speed: the one whose turn in this round is still to come
    is ahead of the one who has moved."""
    game = load(course=straight(), gates=2, laps=1, players=3)
    state = position(
        game,
        {"black": ((0, 1), 2), "red": ((0, 0), 2), "yellow": ((2, 1), 0)},
        order=["black", "red", "yellow"],
    )
    level = game.heuristic(state)
    assert abs(level[RED] - level[BLACK]) < 1e-9  # both still to move
    state.turn = 1  # black has moved (and stood still): red decides
    state._invalidate()
    shares = game.heuristic(state)
    assert shares[RED] > shares[BLACK]


def test_the_trailing_cruiser_counts_with_two_cruisers_each() -> None:
    game = load(course=open_field(), players=2)
    state = position(
        game,
        {"red": ((3, 3), 2, 2), "black": ((0, 7), 0, 1), "yellow": ((1, 7), 0, 0), "blue": ((2, 7), 0, 1)},
    )
    # Red/yellow's trailing cruiser (yellow, no gate) is behind black/blue's (one gate each).
    shares = game.heuristic(state)
    assert shares[1] > shares[0]
