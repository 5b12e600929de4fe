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
    two = game.num_players() == 2
    assert sum(state.returns()) == pytest.approx(0.0 if two else 1.0)


def random_play(game: Any, seed: int, decisions: int = 400) -> tuple[Any, bool]:
    """A state after up to `decisions` random decisions, and whether a chance node was met."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    chance = False
    made = 0
    while not state.is_terminal() and made < decisions:
        if state.is_chance_node():
            chance = True
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
            made += 1
    return state, chance


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_each_game_type_is_what_the_game_does(name: str, options: dict[str, Any]) -> None:
    """Chance nodes met or not, information hidden or not, returns as the utility says."""
    game = load(name, options)
    game_type = game.get_type()
    cls = chaosgames.core.game_class(name)
    assert (game_type.min_num_players, game_type.max_num_players) == (cls.min_players, cls.max_players)
    assert game_type.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    seen_chance = any(random_play(game, seed, 120)[1] for seed in range(3))
    stochastic = game_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert stochastic is seen_chance
    assert (game.max_chance_outcomes() > 0) is seen_chance
    # Hidden information: somewhere a player's observation shows a field of the full state
    # document otherwise (Royal Racers: face-down cards without their rank).
    hidden = False
    for seed in range(2):
        state, _ = random_play(game, seed, 300)
        full = state.chaos_state.to_json()
        for player in range(game.num_players()):
            view = state.chaos_state.observation(player)
            hidden |= any(view[key] != full[key] for key in view if key in full)
    imperfect = game_type.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert imperfect is hidden
    assert game_type.provides_information_state_string and game_type.provides_information_state_tensor
    zero_sum = game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert zero_sum is (game.num_players() == 2)
    assert game.utility_sum() == (0.0 if zero_sum else 1.0)
    assert (game.min_utility(), game.max_utility()) == ((-1.0 if zero_sum else 0.0), 1.0)


def test_plain_checkers_is_deterministic_zero_sum_and_alpha_beta_searches_it() -> None:
    """alpha_beta_search used to refuse it (a chance game, constant-sum)."""
    from open_spiel.python.algorithms import minimax

    game = pyspiel.load_game("chaosgames_chaos_checkers(chaos=false,max_moves=200)")
    game_type = game.get_type()
    assert game_type.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
    state = game.new_initial_state()
    value, action = minimax.alpha_beta_search(
        game, state=state, maximum_depth=2, value_function=lambda s: 0.0
    )
    assert action in state.legal_actions() and value == 0.0  # nothing decided two plies in
    assert minimax.expectiminimax(state, 2, lambda s: 0.0, 0) == (0.0, action)
    # A random game to its end, its winning move taken back: the winner to move, alpha-beta
    # one ply deep finds a move worth a win (1; a loss is -1, a shared result 0).
    for seed in range(20):
        ended, _ = random_play(game, seed, 10_000)
        if ended.is_terminal() and max(ended.returns()) == 1.0:
            break
    assert sorted(ended.returns()) == [-1.0, 1.0]
    winner = ended.returns().index(1.0)
    ended.undo_action(winner, ended.history()[-1])
    assert not ended.is_terminal() and ended.current_player() == winner
    value, action = minimax.alpha_beta_search(
        game, state=ended, maximum_depth=1, value_function=lambda s: 0.0
    )
    assert value == 1.0
    ended.apply_action(action)
    assert ended.is_terminal() and ended.returns()[winner] == 1.0


def test_a_finished_two_player_game_scores_win_one_loss_minus_one() -> None:
    game = pyspiel.load_game("chaosgames_royal_racers(players=2,max_rounds=30)")
    state, _ = random_play(game, 5, 10_000)
    assert state.is_terminal() and not state.is_truncated()
    shares = state.chaos_state.returns()
    assert state.returns() == [2 * share - 1 for share in shares]


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


def test_a_game_past_max_game_length_is_truncated_not_played_out() -> None:
    game = pyspiel.load_game("chaosgames_chaos_cruisers(players=2,max_game_length=12)")
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert not state.chaos_state.is_terminal()
    assert state.is_truncated()
    assert state.returns() == [0.0, 0.0]  # two players: zero-sum, nobody's win
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
    with pytest.raises(SettingError, match="Observation parameters are not supported"):
        game.make_py_observer(None, {"a": 1})
    with pytest.raises(SettingError, match="Observation parameters are not supported"):
        game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True), {"a": 1})
    with pytest.raises(SettingError, match="memory must be -1"):
        pyspiel.load_game("chaosgames_royal_racers(memory=-2)")


def racing(memory: int, seed: int, decisions: int) -> Any:
    game = pyspiel.load_game(f"chaosgames_royal_racers(players=2,max_rounds=60,memory={memory})")
    state, _ = random_play(game, seed, decisions)
    return game, state


@pytest.mark.parametrize("memory", [0, 2, -1])
def test_royal_racers_information_states_are_what_the_player_saw_and_remembers(memory: int) -> None:
    """Two states a player cannot tell apart give the same information state; resampled
    states are such states; the observation stays what the table shows."""
    for seed in range(3):
        _, state = racing(memory, seed, 150)
        assert state.chaos_state.down, "cards lie face down"
        for player in range(2):
            info = state.information_state_string(player)
            tensor = state.information_state_tensor(player)
            doc = json.loads(info)
            remembered = state._inner.recollections[player].remembered(state.chaos_state, memory)
            assert len(doc["remembered"]) == len(remembered)
            if memory >= 0:
                assert len(remembered) <= memory
            else:  # a careful player: every face-down card, so the position itself
                assert state._inner.recollections[player].complete(state.chaos_state, memory)
            sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
            layouts = set()
            for _ in range(6):
                other = state.resample_from_infostate(player, sampler)
                assert other.information_state_string(player) == info
                assert other.information_state_tensor(player) == pytest.approx(tensor)
                assert other.observation_string(player) == state.observation_string(player)
                assert other.legal_actions() == state.legal_actions()
                layouts.add(tuple(other.chaos_state.cards))
            if memory == -1:
                assert layouts == {tuple(state.chaos_state.cards)}
            elif memory == 0:
                assert len(layouts) > 1  # the forgotten cards lie anywhere they could


def test_a_card_seen_going_down_is_remembered_and_changes_the_information_state() -> None:
    """Swap two face-down cards the player remembers: the information states differ; swap
    two it has forgotten: they are the same."""
    _, state = racing(1, 4, 150)
    chaos = state.chaos_state
    recollection = state._inner.recollections[0]
    down = [sq for sq in range(36) if chaos.down >> sq & 1 and sq not in recollection._known(chaos, 1)]
    kept = list(recollection.remembered(chaos, 1))
    assert len(down) >= 2 and len(kept) == 1
    forgotten = state.clone()
    cards = forgotten.chaos_state.cards
    a, b = down[:2]
    cards[a], cards[b] = cards[b], cards[a]
    assert forgotten.information_state_string(0) == state.information_state_string(0)
    swapped = state.clone()
    cards = swapped.chaos_state.cards
    cards[kept[0]], cards[a] = cards[a], cards[kept[0]]
    assert swapped.information_state_string(0) != state.information_state_string(0)


def test_ismcts_bot_plays_whole_royal_racers_games() -> None:
    from open_spiel.python.algorithms import ismcts

    for memory in (0, -1):
        game = pyspiel.load_game(f"chaosgames_royal_racers(players=2,max_rounds=12,memory={memory})")
        rng = np.random.RandomState(memory + 2)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=rng)
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
        assert decisions > 20 and state.chaos_state.is_terminal() and not state.is_truncated()


def test_undo_action_takes_the_last_action_back() -> None:
    game, state = racing(0, 6, 40)
    history = state.history()
    before = pyspiel.load_game(
        "chaosgames_royal_racers(players=2,max_rounds=60,memory=0)"
    ).new_initial_state()
    for action in history[:-1]:
        before.apply_action(action)
    last = state.full_history()[-1]
    with pytest.raises(chaosgames.IllegalActionError, match="Only the last action can be undone"):
        state.undo_action(last.player, last.action + 1)
    state.undo_action(last.player, last.action)
    assert state.history() == before.history() and state.move_number() == before.move_number()
    assert state.chaos_state.to_json() == before.chaos_state.to_json()
    assert state.information_state_string(0) == before.information_state_string(0)
    again = game.deserialize_state(state.serialize())
    assert again.history() == before.history() and str(again) == str(before)
