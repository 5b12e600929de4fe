"""Where a `medium` Chaos Cruisers race's search time goes, by the phase decided.

    python benchmarks/cruisers_chaos_probe.py                 # 2 players, first 60 decisions
    python benchmarks/cruisers_chaos_probe.py --profile obstacles,lift

Plays a seeded 2-player grand-loop race of `mcts:iterations=200` seats (seat seeds 20260
and up, dice seed 2026) for its first decisions (60: to round 6, through one chaos round)
and prints the CPU time of each seat's `choose` (on a clone; nothing else is timed),
grouped by the phase decided, and a digest of every action: the same code gives the same
digest, so a speed change that keeps the choices shows it. With `--profile`, cProfile
(thread CPU time) runs over the decisions of the phases named and its top lines are
printed."""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import pstats
import random
import time

import chaosgames
from chaosgames import agents, load_game
from chaosgames.core.chance import sample_outcome


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--decisions", type=int, default=60)
    parser.add_argument("--agent", default="mcts:iterations=200")
    parser.add_argument("--profile", default="", help="phases to profile, comma-separated")
    args = parser.parse_args()
    profiled = set(filter(None, args.profile.split(",")))
    profile = cProfile.Profile(time.thread_time)
    game = load_game("chaos-cruisers", players=args.players, course="grand-loop", max_rounds=200)
    seats = [agents.from_spec(args.agent, seed=20260 + p) for p in range(args.players)]
    for seat in seats:
        seat.reset()
    rng = random.Random(2026)
    state = game.new_initial_state()
    digest = hashlib.sha256()
    spent: dict[str, tuple[int, float]] = {}
    decisions = 0
    while not state.is_terminal() and decisions < args.decisions:
        player = state.current_player()
        if player == chaosgames.CHANCE:
            action = sample_outcome(state.chance_outcomes(), rng)
        else:
            phase = str(state.phase)
            start = time.process_time()
            if phase in profiled:
                profile.enable()
            action = seats[player].choose(state.clone())
            if phase in profiled:
                profile.disable()
            count, total = spent.get(phase, (0, 0.0))
            spent[phase] = (count + 1, total + time.process_time() - start)
            decisions += 1
        digest.update(repr(action).encode())
        for seat in seats:
            seat.observe(state, action)
        state.apply_action(action)
    print("| phase decided | decisions | CPU time | per decision |")
    print("| --- | ---: | ---: | ---: |")
    for phase, (count, total) in sorted(spent.items(), key=lambda item: -item[1][1]):
        print(f"| {phase} | {count} | {total:.1f} s | {total / count:.2f} s |")
    total = sum(t for _, t in spent.values())
    print(f"total {total:.1f} s CPU, digest {digest.hexdigest()[:12]}, round {state.round_number()}")
    if profiled:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(30)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
