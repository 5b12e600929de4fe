"""The generic contract checks every registered game must pass (see ARCHITECTURE.md).

`check_random_game` plays one seeded random game to the end (or a step cap) and checks,
at every step, everything the contract promises. Game test suites may call it with their
own options; tests/core/test_contract.py calls it for every game in the registry, the fuzz
suite (tests/fuzz) on accepted documents and benchmarks/soak.py on long random play.
A broken promise is an AssertionError (no pytest needed, so benchmarks can use it).
"""

from __future__ import annotations

import json
import random
from typing import Any

import chaosgames
from chaosgames import CHANCE, TERMINAL, GameRecord, IllegalActionError
from chaosgames.core.chance import exact_total
from chaosgames.core.notation import notation_problems


class _NotAnAction:
    def __str__(self) -> str:
        return "not-an-action"


def check_step(game: chaosgames.Game[Any, Any], state: chaosgames.State[Any], stale: list[Any]) -> None:
    """Everything the contract says of one state."""
    doc = state.to_json()
    text = json.dumps(doc, sort_keys=True)
    # Full state round-trip.
    again = game.state_from_json(json.loads(text))
    assert json.dumps(again.to_json(), sort_keys=True) == text
    assert again.current_player() == state.current_player()
    # Observations are JSON for every seat and for a spectator.
    for player in [*range(game.num_players), None]:
        json.dumps(state.observation(player))
    player = state.current_player()
    assert player >= 0 or player in (CHANCE, TERMINAL)
    legal = state.legal_actions()
    if player == TERMINAL:
        assert state.is_terminal() and legal == []
        returns = state.returns()
        assert len(returns) == game.num_players
        return
    assert legal, "a non-terminal state must offer at least one action"
    if player == CHANCE:
        outcomes = state.chance_outcomes()
        assert exact_total(outcomes) == 1
        assert all(p > 0 for _, p in outcomes)
        assert [a for a, _ in outcomes] == legal
    # Notation round-trips for every legal action and is unique.
    notations = [str(a) for a in legal]
    assert len(set(notations)) == len(notations), "two legal actions share a notation"
    for action in legal:
        assert game.parse_action(state, str(action)) == action
    # The game's notation grammar accepts every legal action's notation.
    if game.notation.forms:
        assert notation_problems(game.notation, state) == []
    # Illegal actions raise and change nothing.
    for bad in [_NotAnAction(), *[a for a in stale if a not in legal][:3]]:
        try:
            state.apply_action(bad)
        except IllegalActionError:
            pass
        else:
            raise AssertionError(f"the illegal action {bad!r} was accepted")
        assert json.dumps(state.to_json(), sort_keys=True) == text, f"refusing {bad!r} changed the state"


def random_action(state: chaosgames.State[Any], rng: random.Random) -> Any:
    """A chance outcome drawn with its probability, or a legal action chosen at random."""
    if state.current_player() == CHANCE:
        return chaosgames.sample_outcome(state.chance_outcomes(), rng)
    return rng.choice(state.legal_actions())


def apply_checking_clones(state: chaosgames.State[Any], action: Any) -> None:
    """Apply `action`, first to a clone: playing on the clone leaves the original as it
    was, and the clone ends where the original does."""
    before = json.dumps(state.to_json(), sort_keys=True)
    twin = state.clone()
    twin.apply_action(action)
    assert json.dumps(state.to_json(), sort_keys=True) == before, "playing on a clone changed the original"
    state.apply_action(action)
    after = json.dumps(state.to_json(), sort_keys=True)
    assert json.dumps(twin.to_json(), sort_keys=True) == after, "a clone played the same action differently"


def check_random_game(game: chaosgames.Game[Any, Any], seed: int, max_steps: int = 3000) -> GameRecord:
    """Play a random game with all checks; returns its record (already replay-checked)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    record = GameRecord.start(game, [f"random-{i}" for i in range(game.num_players)], seed=seed)
    stale: list[Any] = []
    for _ in range(max_steps):
        check_step(game, state, stale)
        if state.is_terminal():
            break
        action = random_action(state, rng)
        apply_checking_clones(state, action)
        record.append(action)
        stale = [action, *stale[:5]]
    record.finish(state)
    # The record saves, loads and replays to the same final state.
    loaded = GameRecord.from_json(json.dumps(record.to_json()))
    final = loaded.replay()
    assert json.dumps(final.to_json(), sort_keys=True) == json.dumps(state.to_json(), sort_keys=True), (
        "the record does not replay to the same state"
    )
    if state.is_terminal():
        returns = state.returns()
        assert all(0.0 <= r <= 1.0 for r in returns)
    return record
