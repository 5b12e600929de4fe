"""One seat as a Gymnasium environment: Gymnasium's checker, opponents, illegal actions, seeds."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

pytest.importorskip("gymnasium")

import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env

import chaosgames
from chaosgames.rl.gymnasium import ChaosGamesEnv
from tests.rl.cases import CASES, IDS


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_gymnasium_check_env_passes(name: str, options: dict[str, Any]) -> None:
    env = gymnasium.make(f"chaosgames/{name}-v0", render_mode="ansi", opponents="random", **options)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker's warnings are failures too
        check_env(env.unwrapped)


def episode(env: ChaosGamesEnv, seed: int) -> tuple[list[int], float, bool, bool]:
    observation, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions = []
    while True:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        actions.append(action)
        observation, reward, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            return actions, reward, terminated, truncated


def test_the_learner_plays_its_seat_against_greedy_opponents_to_the_end() -> None:
    env = ChaosGamesEnv("chaos-checkers", seat=1, opponents="greedy", chaos=False)
    actions, reward, terminated, truncated = episode(env, seed=7)
    state = env.table.state
    assert terminated and not truncated and state.is_terminal()
    assert reward == state.returns()[1]
    assert episode(env, seed=7) == (actions, reward, terminated, truncated)


def test_one_opponent_spec_per_other_seat() -> None:
    env = ChaosGamesEnv("royal-racers", seat=2, opponents=["random", "greedy"], players=3)
    env.reset(seed=1)
    assert {s: a.name for s, a in env._opponents.items()} == {0: "random", 1: "greedy"}
    assert env.table.player == 2
    with pytest.raises(ValueError, match="one per other seat"):
        ChaosGamesEnv("royal-racers", opponents=["random"], players=3)
    with pytest.raises(chaosgames.ChaosGamesError, match="no agent called 'nobody'"):
        ChaosGamesEnv("royal-racers", opponents="nobody")


def test_an_illegal_action_ends_the_episode_with_the_illegal_reward() -> None:
    env = ChaosGamesEnv("chaos-checkers", chaos=False, illegal_reward=-2.0)
    observation, _ = env.reset(seed=0)
    assert observation["action_mask"][0] == 0
    _, reward, terminated, truncated, info = env.step(0)
    assert (reward, terminated, truncated, info) == (-2.0, True, False, {"illegal_action": True})
    with pytest.raises(chaosgames.ChaosGamesError, match="call reset"):
        env.step(0)


def test_max_steps_counts_the_learners_decisions() -> None:
    env = ChaosGamesEnv("chaos-cruisers", players=2, max_steps=10)
    actions, reward, terminated, truncated = episode(env, seed=3)
    assert len(actions) == 10 and truncated and not terminated and reward == 0.0


def test_action_masks_match_the_observation() -> None:
    env = ChaosGamesEnv("cardboard-machines", players=2)
    observation, _ = env.reset(seed=2)
    assert (env.action_masks() == observation["action_mask"].astype(bool)).all()
