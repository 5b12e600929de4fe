"""Search's new courses: an obstacle placed or a tile lifted makes a course that is its
parent less a few squares, and the heuristic reuses what the parent's tables worked out
(the lines of the course, the legs between gates whose best plan misses those squares).
The answers must be those of a course worked out from scratch."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from chaosgames.core.grid import Square
from chaosgames.games.chaos_cruisers.actions import Obstacle
from chaosgames.games.chaos_cruisers.course import course_squares, tile_squares
from chaosgames.games.chaos_cruisers.evaluation import all_cruiser_turns, chart_legs, turns_after_gates
from chaosgames.games.chaos_cruisers.racing_line import CourseLines, TurnsToGate, turns_to_gate
from chaosgames.games.chaos_cruisers.state import LAY, LIFT, OBSTACLES, ChaosCruisersState

from .helpers import load, play

LONG_FIELD = course_squares([(x, y) for x in range(6) for y in range(2)])
GATE = tile_squares((5, 1))


def whole_rows(table: TurnsToGate) -> dict[Square, tuple[bytes, bytes]]:
    return {square: table.rows(square) for square in sorted(LONG_FIELD)}


@settings(max_examples=60, deadline=None)
@given(
    first=st.sets(st.sampled_from(sorted(LONG_FIELD)), max_size=6),
    then=st.lists(st.sampled_from(sorted(LONG_FIELD)), min_size=1, max_size=5),
)
def test_a_course_changed_square_by_square_has_the_table_of_one_made_whole(
    first: set[Square], then: list[Square]
) -> None:
    free = frozenset(LONG_FIELD - first)
    lines = CourseLines(free)
    whole_rows(TurnsToGate(GATE, lines))  # the first course's moves are listed before it changes
    for square in then:  # each course made from the last: a square taken away or put back
        change = (frozenset({square}), frozenset()) if square in free else (frozenset(), frozenset({square}))
        lines = lines.changed(*change)
        free = (free - change[0]) | change[1]
        assert whole_rows(TurnsToGate(GATE, lines)) == whole_rows(turns_to_gate(GATE, free))
        assert (square in lines.number) == (square in free)


@settings(max_examples=40, deadline=None)
@given(
    obstacles=st.sets(st.sampled_from(sorted(LONG_FIELD - set(GATE))), max_size=8),
    start=st.sampled_from(sorted(course_squares([(0, 0), (0, 1)]))),
)
def test_a_square_off_the_best_plan_leaves_the_turns_as_they_were(
    obstacles: set[Square], start: Square
) -> None:
    free = frozenset(LONG_FIELD - obstacles)
    turns, swept = turns_to_gate(GATE, free).best_plan((start,))
    assert turns == turns_to_gate(GATE, free).turns(start, 0, speed_set=False)
    if not swept:  # no route
        return
    assert start in swept and swept & set(GATE)
    for square in sorted(free):
        fewer = turns_to_gate(GATE, free - {square}).turns(start, 0, speed_set=False)
        if square in swept:
            assert fewer >= turns
        else:
            assert fewer == turns  # the plan still drives


def fresh_after_gates(state: ChaosCruisersState) -> tuple[int, ...]:
    twin = state.clone()
    twin._course_changed()  # tables from scratch: no parent
    return turns_after_gates(twin)


def fresh_turns(state: ChaosCruisersState) -> list[float]:
    twin = state.clone()
    twin._course_changed()
    return all_cruiser_turns(twin)


def chaos_positions(phase: str, count: int) -> list[ChaosCruisersState]:
    """Positions of seeded playouts where a chaos round reaches `phase`."""
    found: list[ChaosCruisersState] = []
    for seed in range(40):
        rng = random.Random(seed)
        course = ("grand-loop", "figure-eight", "chicane")[seed % 3]
        state = load(players=2 + seed % 3, course=course).new_initial_state()
        for _ in range(3000):
            if state.is_terminal() or len(found) >= count:
                break
            if state.phase == phase:
                found.append(state.clone())
            play(state, rng, 1)
        if len(found) >= count:
            break
    return found


def test_after_an_obstacle_the_legs_are_those_of_the_course_worked_out_anew() -> None:
    positions = chaos_positions(OBSTACLES, 6)
    assert positions
    checked = 0
    for state in positions:
        turns_after_gates(state)
        all_cruiser_turns(state)
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            assert turns_after_gates(child) == fresh_after_gates(child)
            assert all_cruiser_turns(child) == fresh_turns(child)  # the cruisers' views too
            checked += 1
    assert checked > 100


def test_after_a_tile_lifted_or_laid_the_legs_are_those_of_the_course_worked_out_anew() -> None:
    positions = chaos_positions(LIFT, 4)
    assert positions
    for state in positions:
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)  # the parent's legs are worked out on the way
            assert turns_after_gates(child) == fresh_after_gates(child)
            assert all_cruiser_turns(child) == fresh_turns(child)
            if child.phase != LAY:
                continue
            for lay in child.legal_actions()[::5]:
                laid = child.clone()
                laid.apply_action(lay)  # lines derived, every leg worked out anew
                assert turns_after_gates(laid) == fresh_after_gates(laid)


def test_a_chain_of_obstacles_reuses_the_legs_their_plans_miss() -> None:
    state = chaos_positions(OBSTACLES, 1)[0]
    legs = chart_legs(state.game, state._tables, state.course() - state.obstacle_set())
    swept = frozenset().union(*(squares for _, squares in legs))
    missing = [a for a in state.legal_actions() if isinstance(a, Obstacle) and a.square not in swept]
    assert missing, "some obstacle square misses every plan"
    child = state.clone()
    child.apply_action(missing[0])
    again = chart_legs(child.game, child._tables, child.course() - child.obstacle_set())
    assert all(new is old for new, old in zip(again, legs, strict=True))  # reused, not worked out
