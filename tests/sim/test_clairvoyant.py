"""benchmarks/clairvoyant.py: the seat that knows the dice knows them right, and keeps a won game won."""

from __future__ import annotations

import random
from typing import Any

import pytest
from benchmarks import clairvoyant

import chaosgames
from chaosgames import agents
from chaosgames.core import CHANCE
from chaosgames.core.chance import sample_outcome

pytestmark = pytest.mark.usefixtures("toy_games")


@pytest.mark.parametrize(
    "outcomes",
    [
        [(face, 1 / 6) for face in range(6)],
        [("safe", 0.5), ("risky", 0.25), ("bust", 0.25)],
        [("only", 1.0)],
    ],
)
def test_the_draw_picks_what_play_match_would_roll(outcomes: list[tuple[Any, float]]) -> None:
    for seed in range(200):
        assert clairvoyant.pick(outcomes, random.Random(seed).random()) == sample_outcome(
            outcomes, random.Random(seed)
        )


def test_the_plan_kept_from_the_last_decision_replays_exactly() -> None:
    # The dice race with its dice drawn ahead: the seat decides, the game goes on to its
    # next decision, and the rest of the plan it kept plays out to the very same game.
    game = chaosgames.load_game("toy-dice-race", players=2)
    rng = random.Random(11)
    draws = [rng.random() for _ in range(2000)]
    others = {1: agents.from_spec("greedy", seed=3)}
    seer = clairvoyant.Clairvoyant(0, draws, rollouts=3, epsilon=0.5, seed=5)
    state, used, checked = game.new_initial_state(), 0, 0
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            action = clairvoyant.pick(state.chance_outcomes(), draws[used])
            used += 1
        elif player == 0:
            if seer.plan.actions:
                kept = seer.plan
                replayed = seer._follow(state, used, others)
                assert (replayed.actions, replayed.score[0]) == (kept.actions, kept.score[0])
                checked += 1
            action = seer.choose(state, used, others)
        else:
            action = others[player].choose(state)
        for agent in others.values():
            agent.observe(state, action)
        state.apply_action(action)
    assert checked >= 3


def test_the_clairvoyant_seat_wins_nim_from_a_winning_start() -> None:
    # Plain Nim has no chance: from the toy's starting pile the first player can force a win,
    # and playing every move out against greedy finds it.
    seat, returns = clairvoyant.one_game("toy-nim", 2, 1, 0.0, 1, 0)
    assert seat == 0 and returns == [1.0, 0.0]
