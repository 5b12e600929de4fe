"""Cardboard Machines: how random games end, how long they last, how far the track scrolls."""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

import chaosgames
from chaosgames.core.chance import sample_outcome

try:
    from benchmarks.caps import capped_options  # imported as a package (the tests)
except ImportError:  # run as a script: benchmarks/ is on the path
    from caps import capped_options  # type: ignore[no-redef]


def _playout(game: chaosgames.Game[Any, Any], seed: int) -> tuple[Any, int]:
    rng = random.Random(seed)
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    return state, steps


def run(quick: bool) -> dict[str, Any]:
    games = 50 if quick else 500
    results: dict[str, Any] = {}
    for label, options in (
        ("rulebook rules", {}),
        ("revision", {"stress_overflow": "plus_one", "buy_off_swerve": True}),
    ):
        game = chaosgames.load_game("cardboard-machines", **capped_options("cardboard-machines", **options))
        endings: Counter[str] = Counter()
        turns, steps, scrolls = [], [], []
        start = time.perf_counter()
        for seed in range(games):
            state, n = _playout(game, seed)
            last = len(state.alive()) == 1
            endings["last car left" if last else ("turn cap" if state.tokens_left else "round tokens")] += 1
            turns.append(state.turn)
            steps.append(n)
            scrolls.append(state.back)
        seconds = time.perf_counter() - start
        results[label] = {
            "games": games,
            "endings": dict(endings),
            "mean_turns": sum(turns) / games,
            "mean_actions": sum(steps) / games,
            "mean_scrolls": sum(scrolls) / games,
            "games_per_second": games / seconds,
        }
        r = results[label]
        print(
            f"cardboard-machines ({label}): {games} random games, {r['mean_turns']:.1f} turns, "
            f"{r['mean_scrolls']:.1f} scrolls on average, endings {dict(endings)}, "
            f"{r['games_per_second']:.0f} games/s"
        )
    return results


if __name__ == "__main__":
    run(quick=True)
