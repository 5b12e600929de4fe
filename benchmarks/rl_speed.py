"""Throughput of the PettingZoo environments beside the raw engine, in every game.

Both loops play uniformly random legal decisions with chance sampled by a seeded
generator, and both count decisions (a player's move), so the figures compare like with
like; chance outcomes cost the same in both. The environment's step also builds the acting
agent's observation vector and action mask (`env.last()`), which is its overhead.

    python benchmarks/rl_speed.py            # 10 s per figure
    python benchmarks/rl_speed.py --quick    # 2 s per figure (what make bench runs)
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

import chaosgames
from chaosgames.core.chance import sample_outcome


def engine_decisions_per_second(name: str, seconds: float) -> float:
    """Random decisions per second through the contract alone."""
    game = chaosgames.load_game(name)
    rng = random.Random(1)
    decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        made = 0
        while not state.is_terminal() and made < 2000:
            if state.is_chance_node():
                state.apply_action(sample_outcome(state.chance_outcomes(), rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                made += 1
        decisions += made
    return decisions / (time.perf_counter() - start)


def env_steps_per_second(name: str, seconds: float) -> float:
    """Random steps per second of the PettingZoo AEC environment (observation and mask each step)."""
    import numpy as np

    from chaosgames.rl.pettingzoo import env as make_env

    env = make_env(name, max_steps=2000)
    rng = np.random.default_rng(1)
    steps = 0
    episode = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=episode)
        episode += 1
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
    return steps / (time.perf_counter() - start)


def run(quick: bool = True) -> dict[str, Any]:
    seconds = 2.0 if quick else 10.0
    results: dict[str, Any] = {}
    print(f"{'game':22s} {'engine decisions/s':>19s} {'PettingZoo steps/s':>19s} {'ratio':>6s}")
    for name in chaosgames.list_games():
        engine = engine_decisions_per_second(name, seconds)
        env = env_steps_per_second(name, seconds)
        results[name] = {
            "engine_decisions_per_second": engine,
            "pettingzoo_steps_per_second": env,
            "ratio": env / engine,
            "seconds_per_figure": seconds,
        }
        print(f"{name:22s} {engine:19.0f} {env:19.0f} {env / engine:6.2f}", flush=True)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="2 s per figure instead of 10 s")
    args = parser.parse_args()
    print(json.dumps(run(args.quick), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
