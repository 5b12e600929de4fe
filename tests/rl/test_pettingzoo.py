"""The PettingZoo AEC environments pass PettingZoo's own checks, for every game and player count."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import api_test, seed_test

import chaosgames
from chaosgames.core.encoding import ActionIndexRangeError, ActionIndexTypeError
from chaosgames.rl import pettingzoo
from chaosgames.rl.settings import ResetNeededError, SettingError, SettingTypeError, UnknownAgentError
from tests.rl.cases import CASES, IDS


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_pettingzoo_api_and_seed_tests_pass(name: str, options: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        # Dict observations with an action mask draw PettingZoo's generic advice.
        warnings.simplefilter("ignore", UserWarning)
        api_test(pettingzoo.env(name, render_mode="ansi", **options), num_cycles=60)
        seed_test(lambda: pettingzoo.env(name, **options), num_cycles=60)


def play(env: pettingzoo.ChaosGamesAECEnv, seed: int) -> tuple[list[int], dict[str, float]]:
    """A whole episode with the first legal action of a seeded random choice; the actions and rewards."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions: list[int] = []
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        actions.append(action)
        env.step(action)
    return actions, totals


def test_the_same_seed_gives_the_same_episode() -> None:
    env = pettingzoo.env("cardboard-machines", players=3)
    first = play(env, seed=4)
    assert play(env, seed=4) == first
    assert play(env, seed=5) != first


def test_a_finished_game_pays_each_player_his_share() -> None:
    env = pettingzoo.env("chaos-checkers", chaos=False)
    _, totals = play(env, seed=2)
    state = env.table.state
    assert state.is_terminal() and not env.agents
    assert totals == {f"player_{i}": r for i, r in enumerate(state.returns())}
    assert sum(totals.values()) == 1.0


def test_a_game_still_running_after_max_steps_is_truncated_without_reward() -> None:
    env = pettingzoo.env("chaos-cruisers", players=4, max_steps=25)
    actions, totals = play(env, seed=1)
    assert len(actions) == 25
    assert not env.table.state.is_terminal()
    assert totals == dict.fromkeys(env.possible_agents, 0.0)


def test_only_the_agent_to_act_has_legal_actions() -> None:
    env = pettingzoo.env("royal-racers", players=3)
    env.reset(seed=0)
    acting = env.agent_selection
    for agent in env.agents:
        mask = env.observe(agent)["action_mask"]
        assert mask.any() == (agent == acting)
    legal = set(np.flatnonzero(env.observe(acting)["action_mask"]))
    assert legal == set(env.table.encoding.legal_indices(env.table.state))


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    env = pettingzoo.env("chaos-checkers", chaos=False)
    env.reset(seed=0)
    before = env.table.state.to_json()
    with pytest.raises(chaosgames.IllegalActionError, match="not legal here"):
        env.step(0)  # 1-5: the first player's men stand on 1-12 and cannot step backwards
    assert env.table.state.to_json() == before


def first_legal(env: pettingzoo.ChaosGamesAECEnv) -> int:
    return int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])


@pytest.mark.parametrize("offset", [0.9, 0.0])
def test_a_float_is_no_action_even_next_to_a_legal_index(offset: float) -> None:
    """step(14.9) used to play index 14: int() cut the fraction off."""
    env = pettingzoo.env("chaos-checkers", chaos=False)
    env.reset(seed=0)
    index = first_legal(env)
    before = env.table.state.to_json()
    with pytest.raises(ActionIndexTypeError, match=rf"not {index + offset} \(float\)"):
        env.step(index + offset)  # type: ignore[arg-type]  # a float, refused
    assert env.table.state.to_json() == before and env.table.steps == 0


@pytest.mark.parametrize("value", ["9", float("nan"), float("inf"), [9], object(), True, np.float64(9.0)])
def test_an_action_that_is_no_integer_is_refused_and_changes_nothing(value: Any) -> None:
    """ "9" used to play index 9; nan and inf raised ValueError and OverflowError, [9] a bare TypeError."""
    env = pettingzoo.env("chaos-checkers", chaos=False)
    env.reset(seed=0)
    before = env.table.state.to_json()
    with pytest.raises(ActionIndexTypeError, match="An action index is an integer"):
        env.step(value)
    with pytest.raises(TypeError):  # what Python code expects of a value of the wrong kind
        env.step(value)
    assert env.table.state.to_json() == before and env.agent_selection == "player_0"


def test_an_index_outside_the_action_space_is_refused() -> None:
    env = pettingzoo.env("chaos-checkers", chaos=False)
    env.reset(seed=0)
    before = env.table.state.to_json()
    for index in (-1, 1426, 10**30):
        with pytest.raises(ActionIndexRangeError, match="indices run from 0 to 1425"):
            env.step(index)
    assert env.table.state.to_json() == before


def test_numpy_integers_are_actions() -> None:
    env = pettingzoo.env("chaos-checkers", chaos=False)
    env.reset(seed=0)
    index = first_legal(env)
    env.step(np.int64(index))  # type: ignore[arg-type]  # numpy's numbers, as learners pass them
    other = pettingzoo.env("chaos-checkers", chaos=False)
    other.reset(seed=0)
    other.step(np.array(index, dtype=np.int16))  # type: ignore[arg-type]  # numpy's numbers, as learners pass them
    assert env.table.state.to_json() == other.table.state.to_json()
    assert env.table.steps == other.table.steps == 1


def test_a_numpy_integer_seed_is_the_same_seed() -> None:
    """reset(seed=np.int64(3)) used to fail in random.Random with a bare TypeError."""
    env = pettingzoo.env("cardboard-machines", players=3)
    assert play(env, seed=np.int64(3)) == play(env, seed=3)  # type: ignore[arg-type]  # numpy's numbers, as learners pass them


@pytest.mark.parametrize("seed", [1.5, "3", True, [3]])
def test_a_seed_that_is_no_integer_is_refused(seed: Any) -> None:
    """random.Random took 1.5 and "3" as seeds of their own, True as 1."""
    env = pettingzoo.env("royal-racers", players=2)
    with pytest.raises(SettingTypeError, match="seed must be an integer"):
        env.reset(seed=seed)
    with pytest.raises(TypeError):
        env.reset(seed=seed)


def test_ansi_render_shows_the_acting_seat_its_own_view() -> None:
    env = pettingzoo.env("royal-racers", players=2, render_mode="ansi")
    env.reset(seed=3)
    seat = env.possible_agents.index(env.agent_selection)
    assert env.render() == env.game.render_text(env.table.state, seat)
    assert pettingzoo.env("royal-racers", players=2).render() is None


def test_a_loaded_game_or_a_name_with_options() -> None:
    game = chaosgames.load_game("chaos-checkers", chaos=False)
    assert pettingzoo.env(game).game is game
    assert pettingzoo.env("chaos-checkers", chaos=False).metadata["name"] == "chaosgames_chaos_checkers_v0"
    with pytest.raises(TypeError):
        pettingzoo.env(game, chaos=True)


@pytest.mark.parametrize(
    ("settings", "error", "message"),
    [
        (
            {"render_mode": "human"},
            SettingError,
            "render_mode must be None, 'ansi' or 'rgb_array', not 'human'",
        ),
        ({"max_steps": 0}, SettingError, "max_steps must be a positive number of decisions, or None"),
        ({"max_steps": "10"}, SettingTypeError, "max_steps must be a positive number of decisions"),
    ],
)
def test_a_setting_the_environment_does_not_take_is_refused_with_its_reason(
    settings: dict[str, Any], error: type[Exception], message: str
) -> None:
    """They raised bare ValueErrors, max_steps="10" a TypeError from comparing text with 1."""
    with pytest.raises(error, match=message) as raised:
        pettingzoo.env("chaos-checkers", chaos=False, **settings)
    assert isinstance(raised.value, chaosgames.InvalidOptionError)


def test_options_for_a_game_already_loaded_are_refused() -> None:
    game = chaosgames.load_game("chaos-checkers", chaos=False)
    with pytest.raises(SettingTypeError, match="Give options to load_game, or a game name with options"):
        pettingzoo.env(game, chaos=True)


def test_an_environment_used_before_its_first_reset_says_to_reset() -> None:
    """step() before reset() raised AttributeError: no attribute 'agent_selection'."""
    env = pettingzoo.env("royal-racers", players=2, render_mode="ansi")
    before = env.table.state.to_json()
    for call in (lambda: env.step(0), lambda: env.observe("player_0"), env.render):
        with pytest.raises(ResetNeededError, match=r"Call reset\(\) before \w+\(\)"):
            call()
    assert env.table.state.to_json() == before and env.table.steps == 0  # nothing was played
    env.reset(seed=1)
    assert env.observe("player_0")["observation"].shape == env.table.encoding.observation_shape


@pytest.mark.parametrize("agent", ["player_2", "player0", 0, None])
def test_an_agent_that_is_none_of_the_possible_agents_is_named_as_such(agent: Any) -> None:
    """observe("player_2") in a two-player game raised a bare KeyError('player_2')."""
    env = pettingzoo.env("royal-racers", players=2)
    env.reset(seed=1)
    for call in (env.observe, env.observation_space, env.action_space):
        with pytest.raises(UnknownAgentError, match="choose player_0 or player_1") as raised:
            call(agent)
        assert isinstance(raised.value, KeyError)  # what a dict lookup would have raised
        assert isinstance(raised.value, chaosgames.ChaosGamesError)
