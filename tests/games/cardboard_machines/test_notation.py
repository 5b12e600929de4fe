"""The notation of every action: what a player writes parses back to the very action the
rules offered, and an action written out by hand is the same action."""

from __future__ import annotations

import dataclasses
import pickle
import random

import pytest

from chaosgames.core.chance import sample_outcome
from chaosgames.games.cardboard_machines.actions import GEARS, PLACES, STEPS, Kind, MachineAction
from chaosgames.games.cardboard_machines.state import CardboardState
from tests.games.cardboard_machines.helpers import cautious_action, new_state, table


def _notation_round_trips(st: CardboardState, kinds: set[Kind]) -> None:
    """parse(str(a)) is a, for every action offered here (chance outcomes too)."""
    for action in st.legal_actions():
        assert st.game.parse_action(st, str(action)) is action
        kinds.add(action.kind)


def test_every_action_of_whole_games_parses_back_to_itself() -> None:
    """Careful and careless drivers, with the rulebook's rules and the revision's: every
    kind of action turns up (ghosts, crashed cars put back, buy-offs)."""
    kinds: set[Kind] = set()
    for seed in range(8):
        rng = random.Random(seed)
        revision = {"stress_overflow": "plus_one", "buy_off_swerve": True} if seed % 2 else {}
        st = new_state(players=2 + seed % 3, max_turns=60, **revision)
        while not st.is_terminal():
            _notation_round_trips(st, kinds)
            if st.is_chance_node():
                st.apply_action(sample_outcome(st.chance_outcomes(), rng))
            elif seed < 4:
                st.apply_action(cautious_action(st, rng))
            else:
                st.apply_action(rng.choice(st.legal_actions()))
    assert kinds == set(Kind)


def test_an_action_written_by_hand_is_the_action_the_rules_offer() -> None:
    """`MachineAction(Kind.GEAR, 3)` is gear:3: equal, with the same hash (a search's tree finds it),
    and played as the rules' own object."""
    st = table([3, 0, 5, 1, 8, 2])
    by_hand = MachineAction(Kind.GEAR, 3)
    assert by_hand == GEARS[2] and hash(by_hand) == hash(GEARS[2]) and str(by_hand) == "gear:3"
    assert {GEARS[2]: "third gear"}[by_hand] == "third gear"
    st.apply_action(by_hand)
    assert st.gear[0] == 3


def test_actions_are_values_that_travel() -> None:
    """Frozen; a copy sent to another process is the same action; a kind is no text."""
    step = STEPS[-1]
    with pytest.raises(dataclasses.FrozenInstanceError):
        step.arg = 1  # type: ignore[misc]
    for action in (step, PLACES[38], MachineAction(Kind.STOP)):
        copy = pickle.loads(pickle.dumps(action))
        assert copy == action and hash(copy) == hash(action) and str(copy) == str(action)
    assert not isinstance(Kind.MOVE, str) and str(PLACES[38]) == "place:7c"
