"""Write the starting corpus of tests/fuzz/corpus/: state documents and records of every game.

    python -m tests.fuzz.make_corpus

For each game and a few option sets, seeded random games are played and the states met
are sampled so that every phase appears (one document a phase and player policy), plus
the final state; a short record of each game is kept too. The same command always writes
the same files; run it again after a game's documents change.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import chaosgames
from chaosgames import agents

CORPUS = Path(__file__).with_name("corpus")

OPTION_SETS: dict[str, list[dict[str, Any]]] = {
    "cardboard-machines": [
        {},
        {"players": 2, "buy_off_swerve": True},
        {"players": 3, "stress_overflow": "plus_one"},
    ],
    "chaos-checkers": [{}, {"chaos": False}, {"pink": True, "forced_capture": False}],
    "chaos-cruisers": [{}, {"players": 2}, {"players": 3, "tiles_moved": 1, "laps": 1}],
    "royal-racers": [
        {},
        {"players": 2, "flag_variant": True, "optional_move": True},
        {"players": 3, "races": 2},
    ],
}
PER_PHASE = 1
LARGEST = 8000
"""Characters of the largest document kept (long checkers games carry a long history)."""
STEPS = 3000


def _phase(doc: dict[str, Any]) -> str:
    return json.dumps(doc.get("phase", "-"))


def sample(
    game: chaosgames.Game[Any, Any], seed: int, greedy: bool
) -> tuple[list[dict[str, Any]], chaosgames.GameRecord]:
    """Documents of the phases met in one game (two of each at most), and its record.

    Random players rarely get far in a race; greedy ones reach the later phases (chaos
    rounds, bonus moves, the end)."""
    rng = random.Random(seed)
    player = agents.make("greedy" if greedy else "random", seed=seed)
    state = game.new_initial_state()
    record = chaosgames.GameRecord.start(game, ["random"] * game.num_players, seed=seed)
    seen: dict[str, int] = {}
    docs = []
    for step in range(STEPS):
        doc = state.to_json()
        phase = _phase(doc)
        # Skip a few states of a phase before taking one, so the two samples differ.
        small = len(json.dumps(doc)) <= LARGEST
        if small and seen.get(phase, 0) < PER_PHASE and rng.random() < 0.2:
            seen[phase] = seen.get(phase, 0) + 1
            docs.append(doc)
        if state.is_terminal():
            if small:
                docs.append(doc)
            break
        if state.is_chance_node():
            action = chaosgames.sample_outcome(state.chance_outcomes(), rng)
        else:
            action = player.choose(state)
        state.apply_action(action)
        if step < 80:
            record.append(action)
    return docs, record


def main() -> None:
    if CORPUS.exists():
        shutil.rmtree(CORPUS)
    for name, option_sets in OPTION_SETS.items():
        folder = CORPUS / name
        folder.mkdir(parents=True)
        for number, options in enumerate(option_sets):
            game = chaosgames.load_game(name, **options)
            for policy, greedy in (("random", False), ("greedy", True)):
                docs, record = sample(game, seed=number + 1, greedy=greedy)
                for index, doc in enumerate(docs):
                    text = json.dumps(doc, separators=(",", ":"), sort_keys=True)
                    (folder / f"state-{number}-{policy}-{index:02d}.json").write_text(text + "\n")
                record.save(folder / f"record-{number}-{policy}.json")
    total = sum(f.stat().st_size for f in CORPUS.rglob("*.json"))
    print(f"{len(list(CORPUS.rglob('*.json')))} files, {total // 1024} KiB in {CORPUS}")


if __name__ == "__main__":
    main()
