"""The picture reads every square's look in one pass (`square_looks`): the same looks as
`square_look` square by square, in seeded random races with and without the memory aid,
and in the replay's picture (`reveal`)."""

from __future__ import annotations

import random

import pytest

from chaosgames.games.royal_racers.table import square_look, square_looks
from tests.games.royal_racers.helpers import game


@pytest.mark.parametrize("memory_aid", [False, True])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_squares_look_read_at_once_is_its_look(memory_aid: bool, seed: int) -> None:
    state = game(players=3, memory_aid=memory_aid).new_initial_state()
    rng = random.Random(seed)
    for _move in range(300):
        for reveal in (False, True):
            assert square_looks(state, reveal) == [
                square_look(state, sq, reveal) for sq in range(len(state.cards))
            ]
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
