"""benchmarks/clairvoyant.py: the seat that knows the dice knows them right, and its kept plan replays."""

from __future__ import annotations

import random
from typing import Any

import pytest
from benchmarks import clairvoyant

import chaosgames
from chaosgames import agents
from chaosgames.agents import Agent
from chaosgames.core import Action, State
from chaosgames.sim import play_match

pytestmark = pytest.mark.usefixtures("toy_games")


def test_playing_on_with_the_draws_ahead_is_the_game_play_match_plays() -> None:
    # The seat's knowledge rests on this: the same seed, drawn ahead, gives the same game.
    game = chaosgames.load_game("toy-dice-race", players=3)
    for seed in range(5):
        played = play_match(game, [agents.from_spec("greedy", seed=p) for p in range(3)], seed).state
        rng = random.Random(seed)
        draws = [rng.random() for _ in range(2000)]
        mine, others = (
            agents.from_spec("greedy", seed=0),
            {p: agents.from_spec("greedy", seed=p) for p in (1, 2)},
        )

        def own(state: State[Any], used: int, mine: Agent = mine) -> Action:
            return mine.choose(state)

        state, _ = clairvoyant.play_on(game.new_initial_state(), 0, draws, 0, own, others)
        assert state.to_json() == played.to_json()


class CheckingSeer(clairvoyant.Clairvoyant):
    """Before each decision, replays the rest of the plan it kept from the last one."""

    checked = 0

    def choose(self, state: State[Any], used: int, others: dict[int, agents.Agent]) -> Any:
        if self.plan.actions:
            kept = self.plan
            replayed = self._follow(state, used, others)
            assert (replayed.actions, replayed.score[0]) == (kept.actions, kept.score[0])
            self.checked += 1
        return super().choose(state, used, others)


def test_the_plan_kept_from_the_last_decision_replays_exactly() -> None:
    # The dice race with its dice drawn ahead: the seat decides, the game goes on to its
    # next decision, and the rest of the plan it kept plays out to the very same game.
    rng = random.Random(11)
    seer = CheckingSeer(0, [rng.random() for _ in range(2000)], rollouts=3, epsilon=0.5, seed=5)
    others = {1: agents.from_spec("greedy", seed=3)}
    clairvoyant.play(chaosgames.load_game("toy-dice-race", players=2), seer, others)
    assert seer.checked >= 3


def test_the_clairvoyant_seat_wins_nim_from_a_winning_start() -> None:
    # Plain Nim has no chance: from the toy's starting pile (13) the first player can force a
    # win, so some first move wins against greedy, and playing every move out finds one.
    seat, returns = clairvoyant.one_game("toy-nim", 2, 1, 0.0, 1, 0)
    assert seat == 0 and returns == [1.0, 0.0]
