"""The heuristic evaluation around other cruisers and the edge of the course: a cruiser out
of bounds is counted from its return tile, and one whose way on is taken by another cruiser
is counted a turn further from its gate."""

from __future__ import annotations

from chaosgames.games.chaos_cruisers.evaluation import BLOCKED_WORTH, chart_legs, cruiser_turns

from .helpers import load, position

RED, BLACK, YELLOW = range(3)


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
    legs = chart_legs(game.start_tiles, tuple(game.gate_tile[g] for g in game.chart))
    assert cruiser_turns(out, RED, legs) == cruiser_turns(standing, RED, legs)


def test_a_cruiser_met_head_on_in_a_narrow_stretch_is_a_turn_further_on() -> None:
    """Red races east to the moon, black (moon passed) west to the sun: nose to nose in the
    same lane each must ram the other or go round; side by side, both drive on."""
    game = load(course=straight(), gates=2, laps=1, players=3)
    legs = chart_legs(game.start_tiles, tuple(game.gate_tile[g] for g in game.chart))
    cruisers = {"red": ((4, 0), 1), "black": ((5, 0), 1, 1), "yellow": ((0, 1), 0)}
    nose_to_nose = position(game, cruisers, order=["yellow", "red", "black"])
    side_by_side = position(game, {**cruisers, "black": ((5, 1), 1, 1)}, order=["yellow", "red", "black"])
    for cruiser in (RED, BLACK):
        blocked = cruiser_turns(nose_to_nose, cruiser, legs)
        assert blocked == cruiser_turns(side_by_side, cruiser, legs) + BLOCKED_WORTH
    assert game.heuristic(nose_to_nose)[YELLOW] > game.heuristic(side_by_side)[YELLOW]
