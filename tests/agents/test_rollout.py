"""The rollout player: every move played out by greedy players, on the same dice."""

from __future__ import annotations

from typing import Any

import pytest

import chaosgames
from chaosgames import agents
from chaosgames.agents import AgentError, rollout
from chaosgames.agents.rollout import RolloutAgent, playout
from chaosgames.core import Action, State

pytestmark = pytest.mark.usefixtures("toy_games")


def race(positions: list[int], goal: int = 12) -> State[Any]:
    game = chaosgames.load_game("toy-dice-race", players=2, goal=goal)
    state: State[Any] = game.state_from_json(
        {**game.doc_header(), "positions": positions, "turn": 0, "die": None}
    )
    return state


def test_a_future_fixes_the_dice_so_its_playout_repeats() -> None:
    state = race([3, 3], goal=20)
    scores = [playout(state.clone(), 0, 6, future) for future in range(40)]
    assert scores == [playout(state.clone(), 0, 6, future) for future in range(40)]
    assert len(set(scores)) > 1  # other futures, other rolls


def test_every_move_meets_the_same_futures(monkeypatch: pytest.MonkeyPatch) -> None:
    met: dict[str, list[int]] = {}

    def recorded(state: State[Any], player: int, depth: int, future: int, every: int = 0) -> float:
        met.setdefault(state.to_json()["die"], []).append(future)  # the die just picked
        return 0.5

    monkeypatch.setattr(rollout, "playout", recorded)
    RolloutAgent(seed=3, futures=5).choose(race([3, 3]))
    assert sorted(met) == ["risky", "safe"]
    assert met["risky"] == met["safe"] and len(set(met["safe"])) == 5


def test_moves_the_game_calls_alike_are_played_out_once(monkeypatch: pytest.MonkeyPatch) -> None:
    met: dict[Action, list[int]] = {}  # the toy race's dice are its actions

    def recorded(state: State[Any], player: int, depth: int, future: int, every: int = 0) -> float:
        met.setdefault(state.to_json()["die"], []).append(future)
        return 0.5

    monkeypatch.setattr(rollout, "playout", recorded)
    state = race([3, 3])
    legal = state.legal_actions()
    monkeypatch.setattr(type(state.game), "same_position", lambda self, state, legal: [0] * len(legal))
    RolloutAgent(seed=3, futures=5).choose(state)
    assert list(met) == [legal[0]] and len(met[legal[0]]) == 5  # the second die: rated as the first


def depths_played(monkeypatch: pytest.MonkeyPatch, agent: RolloutAgent, state: State[Any]) -> list[int]:
    depths: list[int] = []

    def recorded(state: State[Any], player: int, depth: int, future: int, every: int = 0) -> float:
        depths.append(depth)
        return 0.5

    monkeypatch.setattr(rollout, "playout", recorded)
    agent.choose(state)
    return depths


def near_the_end() -> RolloutAgent:
    """Playouts to the end, on ten futures, from 3 squares left to the leader on."""
    return RolloutAgent(seed=1, futures=4, finish=3, finish_futures=10)


def test_from_finish_steps_left_the_playouts_run_to_the_end(monkeypatch: pytest.MonkeyPatch) -> None:
    # Goal 12: the leader on 9 has 3 squares to go.
    near = depths_played(monkeypatch, near_the_end(), race([9, 2]))
    assert near == [-1] * 20  # two moves, ten futures each, to the end


def test_before_finish_steps_left_the_playouts_keep_their_depth(monkeypatch: pytest.MonkeyPatch) -> None:
    far = depths_played(monkeypatch, near_the_end(), race([8, 2]))
    assert far == [12] * 8
    never = depths_played(monkeypatch, RolloutAgent(seed=1, futures=4), race([11, 2]))
    assert never == [12] * 8  # finish=0, the default: never to the end


def test_a_playout_to_the_end_scores_the_result() -> None:
    # One square from the goal with the safe die: the mover has won whatever follows.
    state = race([11, 0])
    state.apply_action("safe")
    assert playout(state, 0, -1, future=7) == 1.0


def test_a_playout_scored_every_few_decisions_is_the_mean_of_the_shorter_playouts() -> None:
    # One future is one stream of dice: the playouts of 4 and 8 decisions are the first parts
    # of the playout of 12, so scoring every 4 decisions up to 12 is the mean of the three.
    # Near the goal some futures end the race between scores; the result counts for the rest.
    for positions in ([3, 3], [14, 15]):
        state = race(positions, goal=20)
        for future in range(30):
            shorter = [playout(state.clone(), 0, depth, future) for depth in (4, 8, 12)]
            assert playout(state.clone(), 0, 12, future, every=4) == pytest.approx(sum(shorter) / 3)
    ended = 0
    for future in range(30):
        played = race([14, 15], goal=20)
        playout(played, 0, 12, future, every=4)  # a playout plays on the state it is given
        ended += played.is_terminal()
    assert ended  # some of those futures did end the race between scores


def test_the_player_scores_its_playouts_every_few_decisions(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[tuple[int, int]] = []

    def recorded(state: State[Any], player: int, depth: int, future: int, every: int = 0) -> float:
        asked.append((depth, every))
        return 0.5

    monkeypatch.setattr(rollout, "playout", recorded)
    agents.from_spec("rollout:futures=2,depth=24,every=6", seed=1).choose(race([3, 3]))
    assert asked == [(24, 6)] * 4


@pytest.mark.parametrize("spec", ["rollout:every=5", "rollout:depth=0,every=4", "rollout:depth=-1,every=6"])
def test_scores_every_few_decisions_need_a_depth_made_of_them(spec: str) -> None:
    with pytest.raises(AgentError, match=r"every=\d+ needs a depth that is a multiple of it"):
        agents.from_spec(spec)


def test_moves_rated_alike_are_drawn_among_with_the_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rollout, "playout", lambda *args: 0.5)
    chosen = {RolloutAgent(seed=seed, futures=1).choose(race([3, 3])) for seed in range(16)}
    assert chosen == {"risky", "safe"}


def test_the_rollout_player_takes_the_sure_win_over_greedy_odds() -> None:
    # The safe die wins from 11 for sure; the risky one two times in three.
    for seed in range(3):
        assert agents.make("rollout", seed=seed, futures=16).choose(race([11, 11])) == "safe"
