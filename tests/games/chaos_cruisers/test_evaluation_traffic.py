"""The heuristic evaluation around other cruisers and the edge of the course: a cruiser out
of bounds is counted from its return tile, one whose way on is taken by another cruiser is
counted further from its gate, a cruiser next to another may be rammed, reaching a gate is
never a setback on a changed course, and every cruiser of a player counts (issue 14)."""

from __future__ import annotations

import pytest

from chaosgames.games.chaos_cruisers.evaluation import (
    BLOCKED_WORTH,
    CONTACT_WORTH,
    HEAD_ON_WORTH,
    cruiser_turns,
)

from .helpers import CruiserAt, load, position

RED, BLACK, YELLOW, BLUE = range(4)


def straight() -> dict[str, object]:
    """Six tiles in a row, 12 squares long and 2 wide; sun on the first tile, moon on the last."""
    return {"name": "straight", "tiles": [[x, 0] for x in range(6)], "gates": {"sun": [0, 0], "moon": [5, 0]}}


def test_a_cruiser_out_of_bounds_is_as_far_as_on_its_return_tile_at_null() -> None:
    """Leaving the course puts a cruiser back on the sun tile at null: the evaluation must
    count its squares from there too, so going out never looks shorter than standing there."""
    game = load(course=straight(), gates=2, laps=1, players=3)
    black_to_move = ["black", "yellow", "red"]
    out = position(game, {"red": (None, 0), "black": ((6, 0), 2), "yellow": ((6, 1), 2)}, order=black_to_move)
    out.out_this_round[RED] = True
    standing = position(
        game, {"red": ((1, 0), 0), "black": ((6, 0), 2), "yellow": ((6, 1), 2)}, order=black_to_move
    )
    standing.out_this_round[RED] = True
    assert cruiser_turns(out, RED) == cruiser_turns(standing, RED)


def test_a_cruiser_met_head_on_in_a_narrow_stretch_is_further_on() -> None:
    """Red races east to the moon, black (moon passed) west to the sun: nose to nose in the
    same lane each must ram the other or go round, and rammed back if it does; side by
    side, both drive on."""
    game = load(course=straight(), gates=2, laps=1, players=3)
    cruisers: dict[str, CruiserAt] = {"red": ((4, 0), 1), "black": ((5, 0), 1, 1), "yellow": ((0, 1), 0)}
    nose_to_nose = position(game, cruisers, order=["yellow", "red", "black"])
    side_by_side = position(game, {**cruisers, "black": ((5, 1), 1, 1)}, order=["yellow", "red", "black"])
    for cruiser in (RED, BLACK):
        blocked = cruiser_turns(nose_to_nose, cruiser)
        free = cruiser_turns(side_by_side, cruiser)
        assert blocked == pytest.approx(free + CONTACT_WORTH + BLOCKED_WORTH + HEAD_ON_WORTH)
    assert game.heuristic(nose_to_nose)[YELLOW] > game.heuristic(side_by_side)[YELLOW]


def test_next_to_its_gate_a_cruiser_met_head_on_is_not_blocked() -> None:
    """Red is one square from the moon tile, black on it heading back west: a ram onto the
    tile still reaches the gate, so red only counts the contact (counted blocked, it backed
    away from black and came back to ram it, round after round)."""
    game = load(course=straight(), gates=2, laps=1, players=3)
    cruisers: dict[str, CruiserAt] = {"red": ((9, 0), 1), "black": ((10, 0), 1, 1), "yellow": ((0, 1), 0)}
    nose_to_nose = position(game, cruisers, order=["yellow", "red", "black"])
    aside = position(game, {**cruisers, "black": ((10, 1), 1, 1)}, order=["yellow", "red", "black"])
    assert cruiser_turns(nose_to_nose, RED) == pytest.approx(cruiser_turns(aside, RED) + CONTACT_WORTH)


def test_a_cruiser_next_to_another_may_be_rammed() -> None:
    """Two cruisers racing the same way on neighbouring squares each count the ram that may
    come: a ram always stops next to its victim, so it costs the rammer too."""
    game = load(course=straight(), gates=2, laps=1, players=3)
    together = position(game, {"red": ((3, 0), 2), "black": ((3, 1), 2), "yellow": ((0, 1), 0)})
    apart = position(game, {"red": ((3, 0), 2), "black": ((4, 1), 2), "yellow": ((0, 1), 0)})
    assert cruiser_turns(together, RED) == pytest.approx(cruiser_turns(apart, RED) + CONTACT_WORTH)


def test_reaching_a_gate_is_never_a_setback_on_a_changed_course() -> None:
    """Obstacles slow the way back from the moon to the sun. The legs after the next gate
    are counted on the course as it stands, so a cruiser that has just entered the moon tile
    is nearer the finish than the same cruiser a square before it."""
    game = load(course=straight(), gates=2, laps=2, players=3)
    obstacles = {(6, 0): "yellow", (4, 1): "yellow"}
    others = {"black": ((0, 1), 0), "yellow": ((1, 1), 0)}
    before = position(
        game, {"red": ((9, 0), 2), **others}, obstacles=obstacles, order=["black", "yellow", "red"]
    )
    reached = position(
        game, {"red": ((10, 0), 2, 1), **others}, obstacles=obstacles, order=["black", "yellow", "red"]
    )
    assert cruiser_turns(reached, RED) < cruiser_turns(before, RED)


def test_with_two_cruisers_each_the_leading_cruiser_still_counts() -> None:
    """Both cruisers must finish, and the one in front must race too: moving it on is worth
    something to its player."""
    game = load(course=straight(), gates=2, laps=1, players=2)
    trailing = {"black": ((0, 1), 0), "blue": ((1, 1), 0), "yellow": ((0, 0), 0)}
    near = position(game, {"red": ((4, 0), 2), **trailing}, order=["black", "blue", "yellow", "red"])
    far = position(game, {"red": ((7, 0), 2), **trailing}, order=["black", "blue", "yellow", "red"])
    assert game.heuristic(far)[0] > game.heuristic(near)[0]
