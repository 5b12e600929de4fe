"""Worked example: a small policy learns plain checkers with Stable-Baselines3 (CPU only).

MaskablePPO (sb3-contrib) trains one seat of the Gymnasium environment against `random`
opponents; every `--every` steps the policy (its most likely legal move) plays
`--games` games against `random` and as many against `greedy`, seats alternating, and
the score (a win 1, a draw 1/2) is printed: the learning curve. Needs the `learn` extra
(`pip install chaosgames[learn]`: torch, stable-baselines3, sb3-contrib).

    nice -n 10 python examples/learn_checkers.py --steps 40000 --every 8000 --games 20 \\
        --out docs/results/learning.md
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker

from chaosgames.rl.gymnasium import ChaosGamesEnv
from chaosgames.sim.stats import wilson

OPTIONS = {"chaos": False, "max_moves": 200}  # plain checkers; the rulebook's draw at 200 moves is a cap


def make_env(seat: int, opponent: str) -> ActionMasker:
    env = ChaosGamesEnv("chaos-checkers", seat=seat, opponents=opponent, **OPTIONS)
    return ActionMasker(env, lambda e: e.unwrapped.action_masks())


def score(model: MaskablePPO, opponent: str, games: int, seed: int) -> tuple[int, int, int]:
    """The policy's (wins, draws, losses) in `games` games against `opponent` (seats
    alternating; a draw is a game the rules or the 200-move cap left undecided)."""
    tally = [0, 0, 0]
    for number in range(games):
        env = make_env(number % 2, opponent)
        observation, _ = env.reset(seed=seed + number)
        done = False
        reward = 0.0
        while not done:
            action, _ = model.predict(observation, action_masks=env.action_masks(), deterministic=True)
            observation, reward, terminated, truncated, _ = env.step(int(action))
            done = terminated or truncated
        tally[0 if reward == 1.0 else 2 if reward == 0.0 else 1] += 1
    return tally[0], tally[1], tally[2]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--steps", type=int, default=40_000)
    parser.add_argument("--every", type=int, default=8_000)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=52)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    torch.set_num_threads(1)
    model = MaskablePPO(
        "MultiInputPolicy", make_env(0, "random"), n_steps=1024, batch_size=128, seed=args.seed, verbose=0
    )
    rows = [
        "| training steps | minutes | vs random: won-drawn-lost | score, Wilson 95% "
        "| vs greedy: won-drawn-lost | score, Wilson 95% |",
        "| ---: | ---: | ---: | --- | ---: | --- |",
    ]
    start = time.monotonic()
    done = 0
    while True:
        results = []
        for opponent in ("random", "greedy"):
            won, drawn, lost = score(model, opponent, args.games, 10_000)
            points = won + drawn / 2
            low, high = wilson(points, args.games)
            results.append(
                f"{won}-{drawn}-{lost} | {100 * points / args.games:.0f}%, {100 * low:.0f}-{100 * high:.0f}%"
            )
        row = f"| {done} | {(time.monotonic() - start) / 60:.1f} | {' | '.join(results)} |"
        rows.append(row)
        print(row, flush=True)
        if done >= args.steps:
            break
        model.learn(args.every, reset_num_timesteps=False)
        done += args.every
    table = "\n".join(rows)
    print(table)
    if args.out:
        command = "python examples/learn_checkers.py " + " ".join(sys.argv[1:])
        args.out.write_text(
            "# Learning plain checkers with MaskablePPO\n\n"
            f"Command: `{command}` (torch {torch.__version__}, CPU, one thread).\n\n"
            f"{table}\n",
            encoding="utf-8",
        )
    return 0


if __name__ == "__main__":
    np.set_printoptions(precision=3)
    sys.exit(main())
