"""The OpenSpiel registration: OpenSpiel's own random simulation test and MCTS bot on every game."""

from __future__ import annotations

import json
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import numpy as np  # noqa: E402
from open_spiel.python.algorithms import mcts  # noqa: E402

import chaosgames  # noqa: E402
from chaosgames.core.encoding import ActionIndexRangeError  # noqa: E402
from chaosgames.rl import openspiel  # noqa: E402
from chaosgames.rl.settings import SettingError  # noqa: E402
from tests.rl.cases import CASES, IDS  # noqa: E402

openspiel.register()

# The games' own caps keep OpenSpiel's random games short; without them the registration's
# max_game_length ends them.
CAPS = {"chaos-cruisers": {"max_rounds": 25}, "royal-racers": {"max_rounds": 40}}


def load(name: str, options: dict[str, Any]) -> Any:
    return pyspiel.load_game(openspiel.spiel_name(name), {**CAPS.get(name, {}), **options})


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_openspiel_random_sim_test_passes(name: str, options: dict[str, Any]) -> None:
    pyspiel.random_sim_test(load(name, options), num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", chaosgames.list_games())
def test_openspiel_mcts_bot_plays_a_whole_game(name: str) -> None:
    caps = {
        "chaos-checkers": {"max_moves": 40},
        "chaos-cruisers": {"players": 3, "max_rounds": 4},
        "royal-racers": {"players": 3, "max_rounds": 6, "flags": 2},
        "cardboard-machines": {"players": 3, "max_turns": 24},
    }[name]
    game = pyspiel.load_game(openspiel.spiel_name(name), caps)
    rng = np.random.RandomState(4)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng, max_length=20)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=6, evaluator=evaluator, random_state=rng)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
    assert decisions > 0
    assert state.chaos_state.is_terminal()  # ended by the game's rules and caps
    assert sum(state.returns()) == pytest.approx(1.0)


def test_game_types_follow_the_games() -> None:
    for name in chaosgames.list_games():
        game_type = pyspiel.load_game(openspiel.spiel_name(name)).get_type()
        cls = chaosgames.core.game_class(name)
        assert (game_type.min_num_players, game_type.max_num_players) == (cls.min_players, cls.max_players)
        assert game_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert game_type.reward_model == pyspiel.GameType.RewardModel.TERMINAL
        hidden = name == "royal-racers"
        expected = "IMPERFECT_INFORMATION" if hidden else "PERFECT_INFORMATION"
        assert game_type.information.name == expected
        assert game_type.provides_information_state_string is not hidden


def test_parameters_are_the_game_options() -> None:
    game = pyspiel.load_game("chaosgames_chaos_checkers(chaos=false,first_colours=green;white;red)")
    assert game.setup.game.options["chaos"] is False
    assert game.setup.game.options["first_colours"] == "green,white,red"
    assert str(game) == "chaosgames_chaos_checkers(chaos=False,first_colours=green;white;red)"
    assert game.num_distinct_actions() == 1426 and game.num_players() == 2
    boards = pyspiel.load_game("chaosgames_cardboard_machines(boards=[3;0;5;1;8;2],players=2)")
    assert boards.setup.game.options["boards"] == [3, 0, 5, 1, 8, 2]
    with pytest.raises(chaosgames.InvalidOptionError):
        pyspiel.load_game("chaosgames_royal_racers(players=7)")


def test_a_game_past_max_game_length_ends_as_a_draw() -> None:
    game = pyspiel.load_game("chaosgames_chaos_cruisers(players=2,max_game_length=12)")
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert not state.chaos_state.is_terminal()
    assert state.returns() == [0.5, 0.5]
    assert len([h for h in state.full_history() if h.player >= 0]) == 12


def test_observations_come_from_the_players_view() -> None:
    game = pyspiel.load_game("chaosgames_royal_racers(players=2)")
    state = game.new_initial_state()
    rng = np.random.RandomState(2)
    while len(state.chaos_state.observation(0)["face_down"]) < 3:
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    for player in range(2):
        view = state.chaos_state.observation(player)
        assert json.loads(state.observation_string(player)) == view
        encoding = game.setup.encoding
        assert state.observation_tensor(player) == pytest.approx(encoding.observation_vector(view, player))
        # Face-down cards are unknown, except one everybody just saw turned down.
        full = state.chaos_state.to_json()
        seen = full["last_flip"]["square"] if full["last_flip"] else None
        down = [sq for sq in view["face_down"] if sq != seen]
        hidden = [full["cards"]["abcdef".index(sq[0]) + 6 * (int(sq[1]) - 1)] for sq in down]
        assert hidden and all(f'"{card}"' not in state.observation_string(player) for card in hidden)


def dealing() -> Any:
    """A Royal Racers game at its first chance node: the deal, 36 cards to draw from."""
    state = pyspiel.load_game("chaosgames_royal_racers(players=2)").new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 36
    return state


@pytest.mark.parametrize("outcome", [-2, 36, 10**6])  # OpenSpiel itself refuses -1
def test_a_chance_outcome_the_node_does_not_have_is_refused(outcome: int) -> None:
    """apply_action(-2) used to deal outcome 34 of 36 and record -2 in the history."""
    state = dealing()
    before = state.chaos_state.to_json()
    with pytest.raises(ActionIndexRangeError, match="this chance node has outcomes 0 to 35"):
        state.apply_action(outcome)
    assert state.history() == [] and state.chaos_state.to_json() == before
    state.apply_action(35)  # the node still deals
    assert state.history() == [35]


def decision() -> Any:
    """Plain checkers' first move: Black to play, 1426 indices of which 7 are legal."""
    state = pyspiel.load_game("chaosgames_chaos_checkers(chaos=false)").new_initial_state()
    assert state.current_player() == 0 and len(state.legal_actions()) == 7
    return state


def test_an_index_the_player_may_not_take_is_refused_and_changes_nothing() -> None:
    """It used to fail with a bare KeyError."""
    state = decision()
    before = state.chaos_state.to_json()
    with pytest.raises(chaosgames.IllegalActionError, match=r"Action index 0 \(1-5\) is not legal here"):
        state.apply_action(0)
    for index in (-2, 1426, 10**6):  # OpenSpiel itself refuses -1
        with pytest.raises(ActionIndexRangeError, match="indices run from 0 to 1425"):
            state.apply_action(index)
    assert state.history() == [] and state.chaos_state.to_json() == before


@pytest.mark.parametrize("index", [-5, -1, 1426, 10**6])
def test_action_to_string_refuses_an_index_outside_the_action_space(index: int) -> None:
    """-5 used to name slot 1421's path, 10**6 'no action (1000000)' (IndexError in Royal Racers)."""
    state = decision()
    with pytest.raises(ActionIndexRangeError, match="indices run from 0 to 1425"):
        state.action_to_string(0, index)
    assert state.action_to_string(0, 0) == "1-5"  # in the space, if not legal now


def test_a_max_game_length_below_one_is_refused() -> None:
    """It raised a bare ValueError."""
    with pytest.raises(SettingError, match="max_game_length must be a positive number of decisions, not 0"):
        pyspiel.load_game("chaosgames_chaos_checkers(max_game_length=0)")


def test_observers_the_adapter_cannot_give_are_refused() -> None:
    game = pyspiel.load_game("chaosgames_royal_racers")
    with pytest.raises(SettingError, match="Royal Racers hides information"):
        game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    with pytest.raises(SettingError, match="Observation parameters are not supported"):
        game.make_py_observer(None, {"a": 1})
