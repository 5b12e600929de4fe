"""The heuristic's values: each player's own progress weighs in besides his share of the
win, so a ram pays only where it helps the rammer's own race too (issue 14: with win shares
alone, greedy and search cruisers rammed each other back and forth until the cap)."""

from __future__ import annotations

import pytest

from chaosgames.core import Action
from chaosgames.games.chaos_cruisers import ChaosCruisersGame, ChaosCruisersState
from chaosgames.games.chaos_cruisers.actions import Move
from chaosgames.games.chaos_cruisers.evaluation import cruiser_turns, turns_after_gates, win_shares

from .helpers import load, position

RED, BLACK, YELLOW, BLUE = range(4)
RED_AND_YELLOW, BLACK_AND_BLUE = range(2)
N, E, S, W = range(4)


def straight() -> dict[str, object]:
    """Six tiles in a row, 12 squares long and 2 wide; sun on the first tile, moon on the last."""
    return {"name": "straight", "tiles": [[x, 0] for x in range(6)], "gates": {"sun": [0, 0], "moon": [5, 0]}}


def test_the_whole_race_is_counted_from_the_sun_tile_at_null() -> None:
    """Sun tile to moon tile is 9 squares: speeds 1, 2, 3, 3, four turns; back the same."""
    game = load(course=straight(), gates=2, laps=1, players=3)
    state = position(game, {"red": ((1, 0), 0), "black": ((1, 1), 0), "yellow": ((0, 1), 0)})
    assert turns_after_gates(state) == (4, 0, 8)


def test_a_turn_of_ones_own_is_worth_more_than_a_turn_a_rival_loses() -> None:
    """With two players the win shares are zero-sum: red gaining a turn and black losing
    one are worth the same to red's player. His own progress makes his own turn worth more."""
    game = load(course=straight(), gates=2, laps=1, players=2)
    order = ["yellow", "blue", "red", "black"]
    partners = {"yellow": ((0, 0), 0), "blue": ((0, 1), 0)}
    now = position(game, {"red": ((4, 0), 2), "black": ((8, 1), 2), **partners}, order=order)
    red_on = position(game, {"red": ((7, 0), 2), "black": ((8, 1), 2), **partners}, order=order)
    black_back = position(game, {"red": ((4, 0), 2), "black": ((3, 1), 2), **partners}, order=order)
    # A turn either way (within the hundredths that count squares).
    assert cruiser_turns(now, RED) - cruiser_turns(red_on, RED) == pytest.approx(1.03)
    assert cruiser_turns(black_back, BLACK) - cruiser_turns(now, BLACK) == pytest.approx(1.05)

    share = win_shares(now)[RED_AND_YELLOW]
    gained = win_shares(red_on)[RED_AND_YELLOW] - share
    rival_lost = win_shares(black_back)[RED_AND_YELLOW] - share
    assert gained == pytest.approx(rival_lost, abs=0.001)

    value = game.heuristic(now)[RED_AND_YELLOW]
    own_turn = game.heuristic(red_on)[RED_AND_YELLOW] - value
    rivals_turn = game.heuristic(black_back)[RED_AND_YELLOW] - value
    assert own_turn > 5 * rivals_turn > 0


def _pinned_at_the_moon() -> tuple[ChaosCruisersGame, ChaosCruisersState]:
    """The grand loop, two players. Red (red and yellow), 4 gates in, has just rammed black
    on from 15,5 to 15,6: red stands one square before the moon tile, the obstacle on 14,4
    leaves it no other way. Black (black and blue), a gate in and bound north for the
    crown, moves next at speed 2."""
    game = load(course="grand-loop", players=2)
    cruisers = {
        "red": ((15, 5), 0, 4),
        "black": ((15, 6), 2, 1),
        "yellow": ((12, 0), 2, 4),
        "blue": ((4, 11), 0, 5),
    }
    state = position(
        game,
        cruisers,
        order=["blue", "red", "yellow", "black"],
        obstacles={(14, 4): "yellow", (15, 2): "red"},
        phase="move",
    )
    state.turn = 3
    state._invalidate()
    return game, state


def test_a_trailing_cruiser_drives_on_rather_than_ram_the_leader_back() -> None:
    """Ramming red back south (black stops on 15,5, red is pushed to 15,4) keeps red from
    its gate, and by win shares alone it was black's best move, every round: the two
    rammed each other back and forth. Driving north on its own way is better for black."""
    game, state = _pinned_at_the_moon()
    values: dict[Action, tuple[float, float]] = {}
    for move in state.legal_actions():
        after = state.clone()
        after.apply_action(move)
        values[move] = (game.heuristic(after)[BLACK_AND_BLUE], win_shares(after)[BLACK_AND_BLUE])
    ram_back, drive_on = Move(S, 2), Move(N, 2)
    assert max(values, key=lambda m: values[m][1]) in (ram_back, Move(S, 1, W, 1), Move(S, 1, E, 1))
    assert values[drive_on][0] > values[ram_back][0]
    assert max(values[m][0] for m in values) == values[drive_on][0]


def test_values_stay_within_0_and_1_and_favour_the_leader() -> None:
    game, state = _pinned_at_the_moon()
    values = game.heuristic(state)
    assert all(0 <= v <= 1 for v in values)
    assert values[RED_AND_YELLOW] > values[BLACK_AND_BLUE]
    assert sum(win_shares(state)) == pytest.approx(1)
