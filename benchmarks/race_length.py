"""Chaos Cruisers race length: do greedy and mcts races finish by the rules (issue 14)?

For each preset course and number of players, plays seeded races with every seat the
same agent, under the benchmarks' 200-round cap (`caps.py`: not a rule; a race that
reaches it is counted as capped, never as finished). Prints one line per race as it
ends and a table: races, finished by the rules, capped, median and 95th-percentile
rounds (capped races count 200, so a percentile at 200 means "not finished").
Target: 0 capped and p95 under 100 rounds in every row.

    .venv/bin/python benchmarks/race_length.py --games 4 --agent greedy --workers 2
    .venv/bin/python benchmarks/race_length.py --games 2 --agent mcts:iterations=200 --players 4
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from chaosgames import agents, load_game
from chaosgames.sim import play_match

COURSES = ("grand-loop", "figure-eight", "chicane")
CAP = 200


def race(course: str, players: int, agent: str, seed: int) -> dict[str, Any]:
    game = load_game("chaos-cruisers", players=players, course=course, max_rounds=CAP)
    seats = [agents.from_spec(agent, seed=seed * 10 + seat) for seat in range(players)]
    metrics = dataclasses.asdict(play_match(game, seats, seed).result)
    del metrics["leaders"]
    return {"course": course, "players": players, "seed": seed, **metrics}


def percentile(values: list[int], share: float) -> int:
    """The nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=4, help="races per course and number of players")
    parser.add_argument("--agent", default="greedy", help="the spec of every seat")
    parser.add_argument("--players", type=int, action="append", help="only these numbers of players")
    parser.add_argument("--course", action="append", help="only these courses")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    jobs = [
        (course, players, args.agent, args.seed + k)
        for players in args.players or (2, 3, 4)
        for course in args.course or COURSES
        for k in range(args.games)
    ]
    results: dict[tuple[str, int], list[dict[str, Any]]] = {}
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for done in pool.map(race, *zip(*jobs, strict=True)):
            results.setdefault((done["course"], done["players"]), []).append(done)
            print(
                f"{done['course']} {done['players']}p seed {done['seed']}: {done['rounds']} rounds, "
                f"ended by {done['ended_by']}",
                flush=True,
            )
    print(f"\n{args.agent}, {args.games} races each, cap {CAP} rounds (not a rule)")
    print("| course | players | races | by the rules | capped | p50 rounds | p95 rounds |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for (course, players), rows in results.items():
        rounds = [row["rounds"] for row in rows]
        capped = sum(1 for row in rows if row["ended_by"] != "rules")
        print(
            f"| {course} | {players} | {len(rows)} | {len(rows) - capped} | {capped} "
            f"| {percentile(rounds, 0.5)} | {percentile(rounds, 0.95)} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
