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
from chaosgames.core.encoding import ActionIndexTypeError
from chaosgames.rl.gymnasium import ChaosGamesEnv
from chaosgames.rl.settings import SettingError, SettingTypeError
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
    with pytest.raises(chaosgames.ChaosGamesError, match="no agent or level called 'nobody'"):
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


def first_legal(observation: dict[str, Any]) -> int:
    return int(np.flatnonzero(observation["action_mask"])[0])


def test_a_float_next_to_a_legal_index_is_refused_and_the_episode_goes_on() -> None:
    """step(i + 0.9) used to play index i: int() cut the fraction off."""
    env = ChaosGamesEnv("chaos-checkers", chaos=False)
    observation, _ = env.reset(seed=0)
    index = first_legal(observation)
    before = env.table.state.to_json()
    with pytest.raises(ActionIndexTypeError, match=rf"not {index + 0.9} \(float\)"):
        env.step(index + 0.9)
    assert env.table.state.to_json() == before
    _, reward, terminated, truncated, info = env.step(index)  # the episode goes on
    assert (reward, terminated, truncated, info) == (0.0, False, False, {})


NOT_INTEGERS = [None, "9", float("nan"), float("inf"), [9], object(), True, np.float64(9.0)]


@pytest.mark.parametrize("value", NOT_INTEGERS)
def test_an_action_that_is_no_integer_is_refused_and_changes_nothing(value: Any) -> None:
    """ "9" used to play index 9; nan, inf, None and [9] raised bare ValueError, OverflowError, TypeError."""
    env = ChaosGamesEnv("chaos-checkers", chaos=False)
    env.reset(seed=0)
    before = env.table.state.to_json()
    with pytest.raises(ActionIndexTypeError, match="An action index is an integer"):
        env.step(value)
    with pytest.raises(TypeError):  # what Python code expects of a value of the wrong kind
        env.step(value)
    assert env.table.state.to_json() == before and not env._done


def test_numpy_integers_are_actions() -> None:
    env = ChaosGamesEnv("chaos-checkers", chaos=False)
    observation, _ = env.reset(seed=0)
    env.step(np.int64(first_legal(observation)))
    other = ChaosGamesEnv("chaos-checkers", chaos=False)
    other.reset(seed=0)
    other.step(np.array(first_legal(observation), dtype=np.int16))
    assert env.table.state.to_json() == other.table.state.to_json()


def test_a_numpy_integer_seed_is_the_same_seed() -> None:
    """Gymnasium's seeding refused np.int64(7) with an error of its own."""
    env = ChaosGamesEnv("chaos-checkers", seat=1, opponents="greedy", chaos=False)
    assert episode(env, seed=np.int64(7)) == episode(env, seed=7)  # type: ignore[arg-type]  # numpy's numbers, as learners pass them


@pytest.mark.parametrize(
    ("seed", "error"), [(1.5, SettingTypeError), ("7", SettingTypeError), (-1, SettingError)]
)
def test_a_seed_must_be_an_integer_of_at_least_0(seed: Any, error: type[Exception]) -> None:
    env = ChaosGamesEnv("chaos-checkers", chaos=False)
    with pytest.raises(error, match="seed must be an integer"):
        env.reset(seed=seed)


@pytest.mark.parametrize(
    ("settings", "error", "message"),
    [
        ({"seat": "0"}, SettingTypeError, "seat must be a seat from 0 to 1 for 2 players, not '0' \\(str\\)"),
        ({"seat": True}, SettingTypeError, "seat must be a seat from 0 to 1"),
        ({"seat": 2}, SettingError, "seat must be a seat from 0 to 1 for 2 players, not 2"),
        ({"opponents": 5}, SettingTypeError, "opponents must be an agent spec such as 'random'"),
        ({"opponents": [None]}, SettingTypeError, "or a list of them, one per other seat; not \\[None\\]"),
        ({"illegal_reward": "x"}, SettingTypeError, "illegal_reward must be a number, not 'x'"),
        ({"illegal_reward": float("nan")}, SettingError, "illegal_reward must be a finite number"),
        ({"max_steps": 0}, SettingError, "max_steps must be a positive number of decisions, or None"),
        ({"max_steps": "10"}, SettingTypeError, "max_steps must be a positive number of decisions"),
        (
            {"render_mode": "human"},
            SettingError,
            "render_mode must be None, 'ansi' or 'rgb_array', not 'human'",
        ),
    ],
)
def test_a_setting_the_environment_does_not_take_is_refused_with_its_reason(
    settings: dict[str, Any], error: type[Exception], message: str
) -> None:
    """seat="0" and opponents=5 raised bare TypeErrors, illegal_reward="x" a bare ValueError."""
    with pytest.raises(error, match=message) as raised:
        ChaosGamesEnv("chaos-checkers", chaos=False, **settings)
    assert isinstance(raised.value, chaosgames.InvalidOptionError)


def test_numpy_numbers_are_settings() -> None:
    env = ChaosGamesEnv(
        "royal-racers",
        players=3,
        seat=np.int64(2),  # type: ignore[arg-type]  # numpy's numbers, as learners pass them
        illegal_reward=np.float32(-0.5),  # type: ignore[arg-type]  # numpy's numbers, as learners pass them
    )
    assert (env.seat, env.illegal_reward) == (2, -0.5) and type(env.seat) is int
    assert env.opponent_specs == {0: "random", 1: "random"}
