"""Soak test: long random play with every contract invariant checked at every step.

    python benchmarks/soak.py chaos-cruisers --actions 100000
    python benchmarks/soak.py all --actions 20000 --seed 7

Seeded random games are played back to back until N actions have been checked. At every
step (tests/core/contract.py): the JSON round trip, observations as JSON for every seat
and a spectator, chance outcomes summing to 1, the notation round trip of every legal
action, illegal actions refused with no change; then clone independence (playing the
action on a clone leaves the state as it was), and at the end of each game the replay
of its record. A failure is counted and play goes on with the next game. `make bench`
runs 100,000 actions per game (`run`); the exit status is 1 when anything failed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests' contract checks

from tests.core.contract import check_random_game

import chaosgames

GAME_CAP = 5000
"""Actions after which a game is abandoned (and its record still replayed)."""


def _failure(game: int, step: int, exc: BaseException) -> str:
    frame = traceback.extract_tb(exc.__traceback__)[-1]
    where = f"{Path(frame.filename).name}:{frame.lineno}"
    return f"game {game}, action {step}: {type(exc).__name__}: {str(exc)[:200]} ({where})"


def _play_one(game: chaosgames.Game[Any, Any], seed: int, budget: int) -> int:
    """One checked random game of at most `budget` actions; returns the actions checked."""
    record = check_random_game(game, seed, max_steps=min(budget, GAME_CAP))
    return max(len(record.actions), 1)


def soak(name: str, actions: int, seed: int = 0) -> dict[str, Any]:
    """Play and check `actions` actions of `name`; the figures and the first failures."""
    game = chaosgames.load_game(name)
    rng = random.Random(seed)
    checked = games = 0
    failures: list[str] = []
    count = 0
    start = time.perf_counter()
    while checked < actions:
        games += 1
        try:
            checked += _play_one(game, rng.randrange(2**63), actions - checked)
        except Exception as exc:  # a broken invariant: count it, note it, carry on
            count += 1
            checked += 1
            if len(failures) < 5:
                failures.append(_failure(games, checked, exc))
    seconds = time.perf_counter() - start
    return {
        "game": name,
        "actions_checked": checked,
        "games": games,
        "failures": count,
        "first_failures": failures,
        "seconds": seconds,
        "checked_per_second": checked / seconds if seconds else 0.0,
    }


def _line(figures: dict[str, Any]) -> str:
    return (
        f"{figures['game']}: {figures['actions_checked']} actions checked in {figures['games']} games, "
        f"{figures['failures']} failures ({figures['checked_per_second']:.0f} actions/s)"
    )


def run(quick: bool) -> dict[str, Any]:
    """For `make bench`: 100,000 checked actions per game (a million with --full)."""
    actions = 100_000 if quick else 1_000_000
    results = {}
    for name in chaosgames.list_games():
        figures = soak(name, actions)
        print(_line(figures), flush=True)
        for failure in figures["first_failures"]:
            print(f"  {failure}", flush=True)
        results[name] = figures
    return results


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("game", help="a game name, or 'all'")
    parser.add_argument("--actions", type=int, default=100_000, help="actions to check (per game)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random play")
    args = parser.parse_args()
    names = chaosgames.list_games() if args.game == "all" else [args.game]
    failed = 0
    for name in names:
        try:
            figures = soak(name, args.actions, args.seed)
        except chaosgames.ChaosGamesError as exc:
            print(f"Error: {exc}", file=sys.stderr)
            return 2
        print(_line(figures))
        for failure in figures["first_failures"]:
            print(f"  {failure}")
        failed += figures["failures"]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
