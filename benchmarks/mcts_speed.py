"""MCTS on our side: the search of an earlier commit against today's, in one process.

The agent module (`src/chaosgames/agents/mcts.py`) of `--old` (a commit) is loaded beside
today's; both search the same positions of every game with the same seed and iteration
budget, one after the other, three rounds. Prints, per game, whether every decision is the
same (it must be: speed work may not change the choices) and the ratio of iterations per
second (median of the rounds), today's over the old. Game engines are shared, so the
ratio is the agent's own share of the speed.

    .venv/bin/python benchmarks/mcts_speed.py --old 408ecaf --iterations 300
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import chaosgames
from chaosgames.agents.mcts import MctsAgent
from chaosgames.core import CHANCE, State
from chaosgames.core.chance import sample_outcome

ROOT = Path(__file__).resolve().parent.parent


def old_agent_class(commit: str) -> Any:
    source = subprocess.run(
        ["git", "show", f"{commit}:src/chaosgames/agents/mcts.py"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    path = Path(tempfile.mkdtemp()) / "old_mcts.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("old_mcts", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.MctsAgent


def positions(name: str, count: int, seed: int) -> list[State[Any]]:
    """`count` decision positions with a choice, a few random moves into seeded games."""
    game = chaosgames.load_game(name)
    rng = random.Random(seed)
    found: list[State[Any]] = []
    while len(found) < count:
        state = game.new_initial_state()
        for _ in range(rng.randrange(4, 30)):
            if state.is_terminal():
                break
            if state.current_player() == CHANCE:
                state.apply_action(sample_outcome(state.chance_outcomes(), rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        while not state.is_terminal() and state.current_player() == CHANCE:
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
        if not state.is_terminal() and len(state.legal_actions()) > 1:
            found.append(state)
    return found


def timed(cls: Any, states: list[State[Any]], iterations: int) -> tuple[list[str], float]:
    choices = []
    start = time.perf_counter()
    for state in states:
        agent = cls(seed=1, iterations=iterations)
        choices.append(str(agent.choose(state)))
    return choices, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--old", required=True, help="the commit to compare with")
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--positions", type=int, default=4)
    parser.add_argument("--game", action="append")
    args = parser.parse_args()
    old = old_agent_class(args.old)
    same_everywhere = True
    for name in args.game or chaosgames.list_games():
        states = positions(name, args.positions, seed=5)
        ratios = []
        same = True
        for _ in range(3):
            old_choices, old_time = timed(old, states, args.iterations)
            new_choices, new_time = timed(MctsAgent, states, args.iterations)
            same = same and old_choices == new_choices
            ratios.append(old_time / new_time)
        same_everywhere = same_everywhere and same
        print(
            f"{name:20s} same choices: {'yes' if same else 'NO'}; "
            f"iterations/s today / {args.old}: {statistics.median(ratios):.2f}x",
            flush=True,
        )
    return 0 if same_everywhere else 1


if __name__ == "__main__":
    sys.exit(main())
