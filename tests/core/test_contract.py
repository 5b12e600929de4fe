"""Every registered game, under its default options, honours the contract."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import chaosgames
from tests.core.contract import check_random_game

GAMES = chaosgames.list_games()


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_random_game_honours_the_contract(name: str, seed: int) -> None:
    game = chaosgames.load_game(name)
    check_random_game(game, seed)


@pytest.mark.parametrize("name", GAMES)
def test_every_supported_player_count_plays(name: str) -> None:
    cls = chaosgames.core.game_class(name)
    for players in range(cls.min_players, cls.max_players + 1):
        check_random_game(chaosgames.load_game(name, players=players), seed=players, max_steps=300)


@pytest.mark.parametrize("name", GAMES)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_seeded_replays_reproduce(name: str, seed: int) -> None:
    """Same seed, same game: two random playouts agree action for action."""
    import random

    def playout() -> list[str]:
        rng = random.Random(seed)
        state = chaosgames.load_game(name).new_initial_state()
        actions: list[str] = []
        for _ in range(400):
            if state.is_terminal():
                break
            if state.current_player() == chaosgames.CHANCE:
                action = chaosgames.sample_outcome(state.chance_outcomes(), rng)
            else:
                action = rng.choice(state.legal_actions())
            actions.append(str(action))
            state.apply_action(action)
        return actions

    assert playout() == playout()


@pytest.mark.parametrize("name", GAMES)
def test_unknown_option_is_refused_with_the_accepted_ones(name: str) -> None:
    with pytest.raises(chaosgames.InvalidOptionError, match="options are"):
        chaosgames.load_game(name, no_such_option=1)


@pytest.mark.parametrize("name", GAMES)
def test_options_are_json_with_defaults_filled(name: str) -> None:
    import json

    game = chaosgames.load_game(name)
    assert json.loads(json.dumps(game.options)) == game.options
    assert game.options["players"] == game.num_players


@pytest.mark.parametrize("name", GAMES)
def test_malformed_state_documents_are_refused(name: str) -> None:
    game = chaosgames.load_game(name)
    header = {"game": name, "options": game.options}
    other = {**game.new_initial_state().to_json(), "game": "other"}
    for bad in ["{not json", "[]", {"game": name}, header, other]:
        with pytest.raises(chaosgames.InvalidStateError):
            game.state_from_json(bad)
