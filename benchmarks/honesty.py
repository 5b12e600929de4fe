"""What honesty costs in Royal Racers (issue 52): players that see only what their seat may know.

Each pairing plays head to head: one seat the first spec, the others the second, seats
rotated; games are interleaved over the pairings (game 1 of each, then game 2 ...) so that
a run stopped by its time bound leaves every pairing with about as many games. A game is
seeded by its number alone, so game k of a pairing is the same deal and dice stream in
every pairing. Prints each pairing's wins (a shared win counts as a share; games ended by
the round cap apart), with the Wilson 95% interval and the fair share.

    nice -n 10 .venv/bin/python benchmarks/honesty.py --players 2 --games 200 --minutes 40 \\
        --pair ismcts:iterations=200,memory=0/greedy:memory=0 \\
        --pair ismcts:iterations=200,memory=0/mcts:iterations=200
"""

from __future__ import annotations

import argparse
import sys
import time

import chaosgames
from chaosgames import agents
from chaosgames.sim import play_match
from chaosgames.sim.stats import wilson

try:
    from benchmarks.caps import capped_options  # imported as a package (the tests)
except ImportError:  # run as a script: benchmarks/ is on the path
    from caps import capped_options  # type: ignore[no-redef]

GAME = "royal-racers"


def one_game(first: str, second: str, number: int, players: int, seed: int) -> tuple[int, str, list[float]]:
    """(the first spec's seat, how the game ended, its returns) of game `number`."""
    game = chaosgames.load_game(GAME, **capped_options(GAME, players=players))
    seat = number % players
    specs = [first if p == seat else second for p in range(players)]
    seats = [agents.from_spec(spec, seed=seed + 10 * number + p, game=GAME) for p, spec in enumerate(specs)]
    result = play_match(game, seats, seed + number).result
    return seat, result.ended_by or "", list(result.returns or [])


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pair", action="append", required=True, help="FIRST/SECOND agent specs")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=200, help="games per pairing at most (from --first on)")
    parser.add_argument("--minutes", type=float, default=40.0, help="stop starting games after this")
    parser.add_argument("--seed", type=int, default=5200)
    parser.add_argument("--first", type=int, default=0, help="skip the first N games (a run continued)")
    args = parser.parse_args()
    pairs = [tuple(p.split("/")) for p in args.pair]
    tally = {pair: [0.0, 0, 0] for pair in pairs}  # wins, decided, capped
    deadline = time.monotonic() + 60 * args.minutes
    for number in range(args.first, args.first + args.games):
        if time.monotonic() > deadline:
            break
        for first, second in pairs:
            seat, ended_by, returns = one_game(first, second, number, args.players, args.seed)
            counts = tally[(first, second)]
            if ended_by == "rules" and returns:
                counts[0] += returns[seat]
                counts[1] += 1
            else:
                counts[2] += 1
            print(f"{first} v {second} game {number + 1}: seat {seat} {ended_by} {returns}", flush=True)
    print(f"\n{args.players} players, seed {args.seed}")
    print("| first | second | games | capped | first wins | Wilson 95% | fair share |")
    print("| --- | --- | ---: | ---: | ---: | --- | ---: |")
    for (first, second), (wins, decided, capped) in tally.items():
        low, high = wilson(wins, int(decided))  # a count, kept beside the wins in one list
        rate = 100 * wins / decided if decided else float("nan")
        print(
            f"| `{first}` | `{second}` | {decided} | {capped} | {wins:g} ({rate:.1f}%) "
            f"| {100 * low:.1f}-{100 * high:.1f}% | {100 / args.players:.0f}% |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
