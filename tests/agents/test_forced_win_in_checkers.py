"""MCTS finds a forced win in a constructed position of a real game (plain checkers)."""

from __future__ import annotations

from typing import Any

import pytest

import chaosgames
from chaosgames import agents

# Player 0 (men move towards 32) to move, with kings on 8 and 27 and a man on 9, against
# a king on 5 and men on 15 and 16. Of ten moves only 8-12 forces the win within five plies.
BOARD = "....W..Bb.....ww..........B....."


def position() -> chaosgames.State[Any]:
    game = chaosgames.load_game("chaos-checkers", chaos=False)
    state: chaosgames.State[Any] = game.state_from_json(
        {**game.new_initial_state().to_json(), "board": BOARD}
    )
    return state


def forces_win(state: chaosgames.State[Any], plies: int) -> bool:
    """Whether player 0 wins by force within `plies` (plain minimax)."""
    if state.is_terminal():
        return state.returns()[0] == 1.0
    if plies == 0:
        return False
    results = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        results.append(forces_win(child, plies - 1))
    return any(results) if state.current_player() == 0 else all(results)


def winning_moves(state: chaosgames.State[Any]) -> list[str]:
    winners = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        if forces_win(child, 4):
            winners.append(str(action))
    return winners


def test_the_position_has_exactly_one_winning_move_among_many() -> None:
    state = position()
    assert len(state.legal_actions()) == 10
    assert winning_moves(state) == ["8-12"]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_mcts_plays_the_only_winning_move(seed: int) -> None:
    state = position()
    choice = agents.make("mcts", seed=seed, iterations=500).choose(state)
    assert str(choice) == "8-12"
