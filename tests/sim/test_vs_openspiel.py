"""The bridge of benchmarks/vs_openspiel.py: a checkers game carried move by move between
our plain checkers and OpenSpiel's `checkers` stays the same game on both boards."""

from __future__ import annotations

import random

import pytest

from chaosgames import load_game

pyspiel = pytest.importorskip("pyspiel")

from benchmarks import vs_openspiel  # noqa: E402


def test_the_opening_position_is_the_same_on_both_boards() -> None:
    ours = load_game("chaos-checkers", chaos=False).new_initial_state()
    theirs = pyspiel.load_game("checkers").new_initial_state()
    assert vs_openspiel.spiel_board(theirs) == vs_openspiel.our_board(ours) == "b" * 12 + "." * 8 + "w" * 12


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_stay_in_step_both_ways_multi_jumps_included(seed: int) -> None:
    rng = random.Random(seed)
    ours = load_game("chaos-checkers", chaos=False).new_initial_state()
    theirs = pyspiel.load_game("checkers").new_initial_state()
    for ply in range(120):
        if ours.is_terminal() or theirs.is_terminal():
            break
        if ply % 2 == 0:  # our move, found again on OpenSpiel's board
            action = rng.choice(ours.legal_actions())
            ours.apply_action(action)
            vs_openspiel.carry_to_spiel(theirs, vs_openspiel.our_board(ours))
        else:  # OpenSpiel's turn (one or several jumps), found among our moves
            vs_openspiel.spiel_turn(theirs, lambda state: rng.choice(state.legal_actions()))
            ours.apply_action(vs_openspiel.carry_to_ours(ours, vs_openspiel.spiel_board(theirs)))
        assert vs_openspiel.spiel_board(theirs) == vs_openspiel.our_board(ours)
        assert theirs.is_terminal() or theirs.current_player() == ours.current_player()
