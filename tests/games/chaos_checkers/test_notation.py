"""Every action's notation reads back as the action itself, over whole random games.

The rulebook's moves (`11-15`, `22x15x29`), the Ghost's jumps (`14~23`), the potions
declared before moving (`telekinesis@14:9>10` ...), the defender's answers and the draws
of the setup and the rewards: what a game prints is what a player types back.
"""

from __future__ import annotations

import dataclasses
import pickle
import random
from typing import Any

import pytest

import chaosgames
from chaosgames.core.chance import sample_outcome
from chaosgames.games.chaos_checkers.actions import NOTATION, ChaosMove, PotionUse
from chaosgames.games.chaos_checkers.moves import PlainMove, jump_move
from chaosgames.games.chaos_checkers.powers import Power


def _round_trips(state: chaosgames.State[Any], seen: set[object]) -> None:
    """parse(str(a)) is a for every legal action of `state`; notes what kinds were met."""
    game = state.game
    for action in state.legal_actions():
        text = str(action)
        assert NOTATION.well_formed(text), text
        assert game.parse_action(state, text) is action, text
        seen.add(type(action))
        if isinstance(action, ChaosMove | PotionUse):
            seen.add(action.power)


def _random_games(seen: set[object], games: int, **options: Any) -> None:
    game = chaosgames.load_game("chaos-checkers", max_moves=150, **options)
    rng = random.Random(55)
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            _round_trips(state, seen)
            if state.is_chance_node():
                state.apply_action(sample_outcome(state.chance_outcomes(), rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))


def test_every_action_of_random_chaos_games_reads_back_as_itself() -> None:
    seen: set[object] = set()
    _random_games(seen, games=4, pink=True)
    kinds = {kind.__name__ for kind in seen if isinstance(kind, type)}
    # Setup and reward draws, moves, potions, answers to a capture and the Speedy pass all met.
    assert kinds == {"SetupDraw", "Draw", "ChaosMove", "PotionUse", "Defence", "Pass"}
    assert set(Power) - {Power.INVULNERABILITY} <= seen  # Invulnerability is the defender's answer


@pytest.mark.parametrize("forced_capture", [True, False])
def test_every_move_of_random_plain_games_reads_back_as_itself(forced_capture: bool) -> None:
    seen: set[object] = set()
    _random_games(seen, games=3, chaos=False, forced_capture=forced_capture)
    assert {kind.__name__ for kind in seen if isinstance(kind, type)} == {"PlainMove"}


def test_a_plain_move_is_a_value_that_travels() -> None:
    """Frozen; a copy sent to another process is the same move (equal, the same hash and
    notation) and is played as the move itself; a tuple of its fields is no move."""
    state = chaosgames.load_game("chaos-checkers", chaos=False).new_initial_state()
    opening = state.game.parse_action(state, "11-15")
    assert isinstance(opening, PlainMove)
    with pytest.raises(dataclasses.FrozenInstanceError):
        opening.path = (10, 15)  # type: ignore[misc]
    for move in (opening, jump_move((21, 14, 5))):
        copy = pickle.loads(pickle.dumps(move))
        assert copy is not move and copy == move and hash(copy) == hash(move) and str(copy) == str(move)
        assert copy != (move.path, move.captured, move.src, move.dst)
    assert str(jump_move((21, 14, 5))) == "22x15x6"
    state.apply_action(pickle.loads(pickle.dumps(opening)))
    assert state.board()[14] == "b" and state.board()[10] == "."
