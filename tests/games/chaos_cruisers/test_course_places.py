"""A course the game refuses says where the problem is (the designer marks the place): the
same sentences as ever, with the tiles and gates they are about in the picture's names."""

from __future__ import annotations

from typing import Any

import pytest

import chaosgames
from chaosgames.core.errors import InvalidOptionError

OVAL_GATES = {"sun": [1, 0], "moon": [2, 1], "crown": [1, 1], "arms": [0, 1]}
SMALL_OVAL: list[list[int]] = [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1]]


def refusal(course: dict[str, Any]) -> InvalidOptionError:
    with pytest.raises(InvalidOptionError) as caught:
        chaosgames.load_game("chaos-cruisers", course=course)
    return caught.value


def test_a_tile_laid_apart_is_named_as_the_part_cut_off() -> None:
    refused = refusal({"tiles": [*SMALL_OVAL, [5, 3]], "gates": OVAL_GATES})
    assert "the course is disconnected" in str(refused)
    assert refused.places == ("tile:10,6",)


def test_a_gate_off_the_course_is_named() -> None:
    refused = refusal({"tiles": SMALL_OVAL, "gates": {**OVAL_GATES, "moon": [9, 9]}})
    assert str(refused) == "Option 'course': the moon gate at [9, 9] is not on a tile of the course."
    assert refused.places == ("gate:moon",)


def test_two_tiles_on_one_place_and_two_gates_on_one_tile_are_named() -> None:
    assert refusal({"tiles": [*SMALL_OVAL, [2, 1]], "gates": OVAL_GATES}).places == ("tile:4,2",)
    shared = refusal({"tiles": SMALL_OVAL, "gates": {**OVAL_GATES, "moon": [1, 1]}})
    assert shared.places == ("gate:crown", "gate:moon", "tile:2,2")


def test_the_tiles_beyond_the_piecepacks_24_are_named() -> None:
    tiles = [[x, 0] for x in range(26)]
    refused = refusal({"tiles": tiles, "gates": {"sun": [0, 0]}})
    assert "a piecepack has 24 tiles; this course uses 26" in str(refused)
    assert refused.places == ("tile:48,0", "tile:50,0")


def test_missing_gates_are_named() -> None:
    assert refusal({"tiles": SMALL_OVAL, "gates": {"moon": [2, 1]}}).places == ("gate:sun",)
    refused = refusal({"tiles": SMALL_OVAL, "gates": {"sun": [1, 0], "moon": [2, 1]}})
    assert str(refused).startswith("The course has no crown, arms gate; with gates=4")
    assert refused.places == ("gate:crown", "gate:arms")
