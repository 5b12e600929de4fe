"""The base class's fast path, as a cruiser's turn meets it: the legal speed choices are a
shared list (`shared_actions`) found by identity, an equal copy of a choice takes the full
check and is accepted, anything else is refused with nothing changed, and the choice's
next legal actions (the paths of the new speed) come from `_apply_action`'s hint."""

from __future__ import annotations

import random

import pytest

import chaosgames
from chaosgames.core.game import SharedActions, shared_actions
from chaosgames.games.chaos_cruisers.actions import Move, Speed
from chaosgames.games.chaos_cruisers.movement import MOVE_TABLE
from chaosgames.games.chaos_cruisers.state import SPEED, ChaosCruisersState


def cruiser_choosing_speed() -> ChaosCruisersState:
    """A race after its setup, at the first cruiser's speed choice (seeded play)."""
    game = chaosgames.load_game("chaos-cruisers", players=3)
    state = game.new_initial_state()
    assert isinstance(state, ChaosCruisersState)
    rng = random.Random(55)
    while state.phase is not SPEED:
        if state.is_chance_node():
            chaosgames.resolve_chance(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_a_shared_list_knows_its_members_by_identity() -> None:
    faces = shared_actions(Speed(c) for c in (-1, 0, 1))
    assert type(faces) is SharedActions and faces == [Speed(-1), Speed(0), Speed(1)]
    assert faces.members == {id(face) for face in faces}


def test_an_equal_copy_of_a_speed_choice_is_played_as_the_listed_one() -> None:
    by_copy, by_listed = cruiser_choosing_speed(), cruiser_choosing_speed()
    listed = next(a for a in by_listed.legal_actions() if a == Speed(1))
    by_listed.apply_action(listed)
    by_copy.apply_action(Speed(1))  # a new object, equal to the listed choice
    assert by_copy.to_json() == by_listed.to_json()
    cruiser = by_copy.order[by_copy.turn]
    # The hint: the legal actions are the paths of the new speed, in the table's order.
    assert by_copy.legal_actions() == list(MOVE_TABLE[by_copy.speed[cruiser]])


def test_a_choice_that_is_not_legal_changes_nothing() -> None:
    state = cruiser_choosing_speed()
    before = state.to_json()
    with pytest.raises(chaosgames.IllegalActionError):
        state.apply_action(Move(0, 1))  # a path (north 1) while the cruiser chooses its speed
    with pytest.raises(chaosgames.IllegalActionError):
        state.apply_action(Speed(True))  # equal to Speed(1), but not a legal action's text
    assert state.to_json() == before
