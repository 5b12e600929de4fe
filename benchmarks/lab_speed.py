"""Speed of the search and of the lab: MCTS iterations per second in every registered
game, and the lab's games per second with 1 and 2 local workers (target: 2 workers at
least 1.8 times one worker).

Beside the lab's speed-up it measures the machine's own: two separate one-worker runs
at once, against one alone. Cores that share caches and memory slow each other, so
this is the most the lab could reach here; `lab_efficiency` is the lab's share of it.

    python benchmarks/lab_speed.py            # full budgets
    python benchmarks/lab_speed.py --quick    # what make bench runs
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import chaosgames
from chaosgames.agents import MctsAgent
from chaosgames.core.chance import sample_outcome
from chaosgames.sim import LabSettings, simulate

try:
    from benchmarks.caps import capped_options  # imported as a package (the tests)
except ImportError:  # run as a script: benchmarks/ is on the path
    from caps import capped_options  # type: ignore[no-redef]

LAB_SEATS = "greedy"


def midgame(name: str, decisions: int, seed: int) -> chaosgames.State[Any]:
    """A position a few random decisions into a game (chance sampled), where a player decides."""
    rng = random.Random(seed)
    state: chaosgames.State[Any] = chaosgames.load_game(name, **capped_options(name)).new_initial_state()
    made = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
            continue
        if made == decisions:
            break
        state.apply_action(rng.choice(state.legal_actions()))
        made += 1
    if state.is_terminal():  # a short game: search from the first decision instead
        return midgame(name, 0, seed) if decisions else state
    return state


def mcts_speed(name: str, iterations: int, positions: int = 3) -> float:
    """MCTS iterations per second (default parameters) over a few positions."""
    total_iterations, total_seconds = 0, 0.0
    for seed in range(positions):
        state = midgame(name, 4 * seed, seed)
        if state.is_terminal():
            continue
        agent = MctsAgent(seed=seed, iterations=iterations)
        start = time.perf_counter()
        agent.choose(state)
        total_seconds += time.perf_counter() - start
        total_iterations += agent.last_iterations
    return total_iterations / total_seconds if total_seconds else 0.0


def lab_speed(name: str, games: int, workers: int) -> float:
    """Games per second of `simulate` with greedy seats (pool start-up included)."""
    players = chaosgames.core.game_class(name).default_players
    with tempfile.TemporaryDirectory() as tmp:
        summary = simulate(
            name,
            [LAB_SEATS] * players,
            games,
            LabSettings(db=Path(tmp) / "speed.db", seed=1, workers=workers, options=capped_options(name)),
        )
    return summary.games_per_second


def machine_speed(name: str, games: int) -> float:
    """Games per second of two separate one-worker runs at once (no lab between them)."""
    context = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    with context.Pool(2) as pool:
        return sum(pool.starmap(lab_speed, [(name, games, 1), (name, games, 1)]))


def games_for(name: str, seconds: float, most: int) -> int:
    """An even number of games (4 to `most`) that one worker plays in about `seconds`:
    enough that starting the pool is a small part of the time, even where a game is long."""
    players = chaosgames.core.game_class(name).default_players
    with tempfile.TemporaryDirectory() as tmp:
        # The first game pays for imports and caches; the second is the one timed.
        for seed in (2, 3):
            probe = simulate(
                name,
                [LAB_SEATS] * players,
                1,
                LabSettings(db=Path(tmp) / f"probe{seed}.db", seed=seed, options=capped_options(name)),
            )
    return max(4, min(most, 2 * round(seconds / probe.seconds / 2)))


def run(quick: bool, games: list[str] | None = None) -> dict[str, Any]:
    """The entry point of benchmarks/run.py."""
    names = games if games is not None else chaosgames.list_games()
    iterations, seconds, most = (200, 8.0, 400) if quick else (2000, 40.0, 2000)
    results: dict[str, Any] = {}
    print(
        f"{'game':22s} {'mcts it/s':>10s} {'lab 1w g/s':>11s} {'lab 2w g/s':>11s} {'speed-up':>9s}"
        f" {'machine':>8s} {'lab share':>9s}"
    )
    for name in names:
        speed = mcts_speed(name, iterations)
        lab_games = games_for(name, seconds, most)
        one = lab_speed(name, lab_games, 1)
        two = lab_speed(name, lab_games, 2)
        machine = machine_speed(name, lab_games) / one if one else 0.0
        speedup = two / one if one else 0.0
        results[name] = {
            "mcts_iterations_per_second": speed,
            "lab_games_per_second_1_worker": one,
            "lab_games_per_second_2_workers": two,
            "lab_speedup_2_workers": speedup,
            "machine_speedup_2_processes": machine,
            "lab_efficiency": speedup / machine if machine else 0.0,
            "lab_games": lab_games,
            "lab_seats": LAB_SEATS,
        }
        print(
            f"{name:22s} {speed:10.0f} {one:11.2f} {two:11.2f} {speedup:9.2f}"
            f" {machine:8.2f} {speedup / machine if machine else 0:9.0%}"
        )
    return results


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    print(json.dumps(run(args.quick), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
