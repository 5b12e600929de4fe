"""Seeded games give the same records as when these were written (behaviour does not change).

Refactoring and speed work must not change what a game does: the same seed picks the same
actions in the same legal order and the same chance outcomes. Each case plays seeded random
decisions and sampled chance outcomes for up to `STEPS` actions and compares the record's
actions (by digest) and the result with `golden_records.json`. Uniformly random cruisers drive
out of bounds long before a chaos round, so the Chaos Cruisers chaos-round cases start from
stored state documents of positions where a chaos round has just begun (reached once by
the steering policy of the cruisers tests when the file was written).

A deliberate rules change regenerates the file (and says why in its commit):

    python -m tests.games.test_golden_records
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

import chaosgames
from chaosgames.core.chance import sample_outcome

GOLDEN = Path(__file__).with_name("golden_records.json")
STEPS = 400
SEEDS = (1, 2, 3)
CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "cruisers-4": ("chaos-cruisers", {"players": 4}),
    "cruisers-2-two-cruisers": ("chaos-cruisers", {"players": 2}),
    "cruisers-3-figure-eight": ("chaos-cruisers", {"players": 3, "course": "figure-eight"}),
    "checkers-chaos": ("chaos-checkers", {}),
    "checkers-chaos-pink": ("chaos-checkers", {"pink": True}),
    "checkers-plain": ("chaos-checkers", {"chaos": False}),
    "royal-2": ("royal-racers", {"players": 2}),
    "royal-4-memory-aid": ("royal-racers", {"players": 4, "memory_aid": True}),
    "machines-4": ("cardboard-machines", {"players": 4}),
    "machines-2": ("cardboard-machines", {"players": 2}),
    "cruisers-4-chaos-round": ("chaos-cruisers", {"players": 4}),
    "cruisers-3-chaos-round-five-tiles": ("chaos-cruisers", {"players": 3, "tiles_moved": 5}),
}
FROM_CHAOS_ROUND = {"cruisers-4-chaos-round", "cruisers-3-chaos-round-five-tiles"}


def play(name: str, options: dict[str, Any], seed: int, start: Any = None) -> dict[str, Any]:
    game = chaosgames.load_game(name, **options)
    record = chaosgames.GameRecord.start(game, ["random"] * game.num_players)
    state = game.new_initial_state() if start is None else game.state_from_json(start)
    rng = random.Random(seed)
    while not state.is_terminal() and len(record.actions) < STEPS:
        if state.current_player() == chaosgames.CHANCE:
            action = sample_outcome(state.chance_outcomes(), rng)
        else:
            action = rng.choice(state.legal_actions())
        record.append(action)
        state.apply_action(action)
    digest = hashlib.sha256("\n".join(record.actions).encode()).hexdigest()
    return {
        "actions": len(record.actions),
        "digest": digest,
        "first": record.actions[:12],
        "returns": state.returns() if state.is_terminal() else None,
    }


def chaos_round_start(options: dict[str, Any], seed: int) -> Any:
    """A document of the first position where a chaos round has begun, by steering play."""
    from tests.games.chaos_cruisers.helpers import sensible_action

    game = chaosgames.load_game("chaos-cruisers", **options)
    rng = random.Random(seed)
    state: Any = game.new_initial_state()
    while state.phase != "obstacles":
        if state.is_chance_node():
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
        else:
            state.apply_action(sensible_action(state, rng))
    return state.to_json()


def regenerate() -> None:
    doc: dict[str, Any] = {}
    for case, (name, options) in CASES.items():
        for seed in SEEDS:
            start = chaos_round_start(options, seed) if case in FROM_CHAOS_ROUND else None
            doc[f"{case}/{seed}"] = {**play(name, options, seed, start), "start": start}
    GOLDEN.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")


@functools.cache
def expected() -> dict[str, Any]:
    return dict(json.loads(GOLDEN.read_text(encoding="utf-8")))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_seeded_game_gives_the_record_it_gave_before(case: str, seed: int) -> None:
    want = expected()[f"{case}/{seed}"]
    got = play(*CASES[case], seed, want["start"])
    assert got["first"] == want["first"]
    assert (got["actions"], got["digest"], got["returns"]) == (
        want["actions"],
        want["digest"],
        want["returns"],
    )


if __name__ == "__main__":
    regenerate()
