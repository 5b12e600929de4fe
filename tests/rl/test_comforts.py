"""Researcher comforts (issue 52): memory in the observations, planes, pictures, the whole
state, compact keys, truncation, and the project's agents as OpenSpiel bots and
PettingZoo policies."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

import chaosgames  # noqa: E402
from chaosgames.games.royal_racers import RoyalRacersState  # noqa: E402
from chaosgames.rl import gymnasium as gym_adapter  # noqa: E402
from chaosgames.rl import openspiel, pettingzoo  # noqa: E402
from chaosgames.rl.bots import AgentBot, policy  # noqa: E402
from chaosgames.rl.settings import SettingTypeError  # noqa: E402

openspiel.register()


def play_random(env: pettingzoo.ChaosGamesAECEnv, decisions: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(decisions):
        observation = env.observe(env.agent_selection)
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


def test_memory_adds_the_face_down_cards_a_seat_saw_to_its_observation() -> None:
    forgetful = pettingzoo.env("royal-racers", players=2)
    careful = pettingzoo.env("royal-racers", players=2, memory=-1)
    for env in (forgetful, careful):
        env.reset(seed=3)
        play_random(env, 120, 3)
    state = careful.table.state
    assert isinstance(state, RoyalRacersState)
    assert state.down and forgetful.table.state.to_json() == state.to_json()
    encoding = careful.table.encoding
    table_only = encoding.observation_vector(state.observation(0), 0)
    assert forgetful.observe("player_0")["observation"] == pytest.approx(table_only)
    # Remembering every card seen: the rank planes hold every card, face down or not.
    seen = careful.observe("player_0")["observation"]
    ranks = seen[2 * 36 : 11 * 36].reshape(9, 36).sum(axis=0)
    assert ranks.tolist() == [1.0] * 36
    assert np.array_equal(careful.state(), seen)  # the whole position: seat 0 remembering all


def test_board_planes_lie_on_the_grid() -> None:
    env = pettingzoo.env("chaos-checkers", chaos=False, planes=True)
    env.reset(seed=1)
    board = env.observe("player_0")["board"]
    assert board.shape == (4, 8, 8) and env.observation_space("player_0")["board"].shape == (4, 8, 8)
    # Black's twelve men on squares 1-12: the top three rows' dark squares as drawn.
    men = board[0]
    assert men.sum() == 12 and men[:3].sum() == 12 and men[0, 1] == 1.0 and men[0, 0] == 0.0
    racers = pettingzoo.env("royal-racers", players=2, planes=True)
    racers.reset(seed=2)
    play_random(racers, 10, 2)
    assert racers.observe("player_0")["board"].shape == (28, 6, 6)
    with pytest.raises(SettingTypeError, match="planes must be True or False"):
        pettingzoo.env("royal-racers", planes="yes")  # type: ignore[arg-type]  # the wrong type on purpose


def test_rgb_array_renders_the_seats_picture() -> None:
    pytest.importorskip("resvg_py")
    env = pettingzoo.env("royal-racers", players=2, render_mode="rgb_array")
    env.reset(seed=4)
    picture = env.render()
    assert isinstance(picture, np.ndarray)
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
    assert (
        picture.shape[0] > 100
        and picture.shape[1] > 100
        and len(np.unique(picture.reshape(-1, 3), axis=0)) > 3
    )
    single = gym_adapter.ChaosGamesEnv("chaos-checkers", chaos=False, render_mode="rgb_array")
    single.reset(seed=1)
    drawn = single.render()
    assert isinstance(drawn, np.ndarray) and drawn.shape[2] == 3


def test_pettingzoo_state_is_the_whole_position() -> None:
    env = pettingzoo.env("royal-racers", players=2)
    with pytest.raises(chaosgames.ChaosGamesError, match="Call reset"):
        env.state()
    env.reset(seed=5)
    play_random(env, 100, 5)
    whole = env.state()
    assert whole.shape == env.state_space.shape
    ranks = whole[2 * 36 : 11 * 36].reshape(9, 36).sum(axis=0)
    assert ranks.tolist() == [1.0] * 36  # every card's rank, face down or not


def test_a_truncated_game_is_reported_as_truncation_never_as_a_draw() -> None:
    env = pettingzoo.env("royal-racers", players=2, max_steps=30)
    env.reset(seed=6)
    for _agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0.0
            env.step(None)
            continue
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    single = gym_adapter.ChaosGamesEnv("royal-racers", players=2, max_steps=5)
    single.reset(seed=1)
    for _ in range(5):
        mask = single.action_masks()
        _, reward, terminated, truncated, _ = single.step(int(np.flatnonzero(mask)[0]))
    assert truncated and not terminated and reward == 0.0


def test_state_key_is_compact_and_names_the_position() -> None:
    game = chaosgames.load_game("chaos-checkers", chaos=False)
    one, other = game.new_initial_state(), game.new_initial_state()
    for text in ("9-13", "22-18", "10-14"):
        one.apply_action(game.parse_action(one, text))
    for text in ("10-14", "22-18", "9-13"):  # the same position by another order
        other.apply_action(game.parse_action(other, text))
    assert isinstance(one.key(), bytes) and len(one.key()) == 16
    assert one.key() == other.key() and {one.key(): 1}[other.key()] == 1
    assert one.key() != game.new_initial_state().key()


def test_agents_play_as_openspiel_bots_from_their_seats_information() -> None:
    game = pyspiel.load_game("chaosgames_royal_racers(players=2,max_rounds=15,memory=0)")
    bots = [AgentBot(game, 0, "greedy:memory=0", seed=1), AgentBot(game, 1, "hard", seed=2)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 3)
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])
    checkers = pyspiel.load_game("chaosgames_chaos_checkers(chaos=false,max_moves=30)")
    both = [AgentBot(checkers, p, "greedy", seed=p) for p in range(2)]
    assert len(pyspiel.evaluate_bots(checkers.new_initial_state(), both, 1)) == 2


def test_agents_play_as_pettingzoo_policies() -> None:
    env = pettingzoo.env("royal-racers", players=2, max_rounds=15)
    env.reset(seed=7)
    act = policy(env, "greedy:memory=0", seed=1)
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = act(agent)
        assert observation["action_mask"][action] == 1
        env.step(action)
    assert env.table.over
