"""Whole games: the contract checks under every option value, and invariants over playouts
that reach gates, chaos rounds and the finish."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chaosgames
from chaosgames import GameRecord
from chaosgames.core.grid import connected
from chaosgames.games.chaos_cruisers import ChaosCruisersState
from chaosgames.games.chaos_cruisers.course import tile_of
from chaosgames.games.chaos_cruisers.race import lead_groups
from tests.core.contract import check_random_game, check_step

from .helpers import load, open_field, sensible_action

OPTION_SETS: list[dict[str, Any]] = [
    {"course": "figure-eight", "players": 3},
    {"course": "chicane", "tiles_moved": 0, "coin_retrieval": "never"},
    {"course": open_field(5, 4), "gates": 2, "laps": 1, "coin_retrieval": "every_chaos_round"},
    {"players": 2, "two_cruisers": True, "setup_order": "roll", "tiles_moved": 5},
    {"players": 2, "two_cruisers": False, "gates": 3, "max_rounds": 20},
]


@pytest.mark.parametrize("options", OPTION_SETS)
def test_random_games_honour_the_contract_under_every_option(options: dict[str, Any]) -> None:
    check_random_game(load(**options), seed=7, max_steps=1500)


@pytest.mark.parametrize(
    "options",
    [
        {"course": "chicane", "gates": 3, "laps": 1, "coin_retrieval": "every_chaos_round"},
        {"players": 2, "tiles_moved": 5, "laps": 1, "setup_order": "roll"},
        {"course": "figure-eight", "players": 3, "laps": 1},
    ],
)
def test_sensible_games_through_chaos_rounds_honour_the_contract(options: dict[str, Any]) -> None:
    game = load(**options)
    rng = random.Random(3)
    state = game.new_initial_state()
    record = GameRecord.start(game, ["a"] * game.num_players)
    stale: list[Any] = []
    phases: set[str] = set()
    for _ in range(1500):
        check_step(game, state, stale)
        if state.is_terminal():
            break
        if state.is_chance_node():
            action = chaosgames.core.chance.sample_outcome(state.chance_outcomes(), rng)
        else:
            action = sensible_action(state, rng)
        phases.add(state.phase)
        # Clones are independent, through the chaos round's phases too.
        before = json.dumps(state.to_json(), sort_keys=True)
        twin = state.clone()
        twin.apply_action(action)
        assert json.dumps(state.to_json(), sort_keys=True) == before
        state.apply_action(action)
        assert twin.to_json() == state.to_json()
        record.append(action)
        stale = [action, *stale[:5]]
    assert {"lift", "lay", "obstacles", "reenter"} <= phases
    replayed = GameRecord.from_json(json.dumps(record.to_json())).replay()
    assert replayed.to_json() == state.to_json()


def _check_invariants(state: ChaosCruisersState, before: list[int]) -> None:
    game = state.game
    course = state.course()
    squares = [p for p in state.pos if p is not None]
    assert len(set(squares)) == len(squares), "two cruisers share a square"
    assert all(p in course and p not in state.obstacles for p in squares)
    assert all(p in course and tile_of(p) not in game.gate_tiles for p in state.obstacles)
    assert game.gate_tiles <= state.tiles
    if state.phase != "lay":
        assert len(state.tiles) == len(game.start_tiles) and connected(set(state.tiles))
        assert connected(set(course - state.obstacle_set()))
    for c in range(game.num_cruisers):
        assert state.progress[c] >= before[c]
        placed = sum(1 for owner in state.obstacles.values() if owner == c)
        assert placed + state.in_hand[c] == 2
        assert 0 <= state.speed[c] <= 5
    # The playing order is computed by a written-out copy of the lead rules every round.
    assert state._lead_groups() == lead_groups(state.lead_order_keys())


@settings(max_examples=8)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), players=st.integers(min_value=2, max_value=4))
def test_invariants_hold_over_sensible_playouts(seed: int, players: int) -> None:
    game = load(players=players, laps=1, tiles_moved=4)
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(1200):
        if state.is_terminal():
            break
        before = list(state.progress)
        if state.is_chance_node():
            state.apply_action(chaosgames.core.chance.sample_outcome(state.chance_outcomes(), rng))
        else:
            legal = state.legal_actions()
            assert legal
            state.apply_action(sensible_action(state, rng))
        _check_invariants(state, before)
    if state.is_terminal():
        assert sorted(state.returns()) in ([0.0] * (players - 1) + [1.0],) or state.capped
