"""The level ladder (issue 14): `hard` against `medium`, `medium` against `easy`, per game.

Each pairing plays head to head at the game's default number of players: one seat the
stronger level, the others the weaker, seats rotated so the stronger level sits in every
seat equally often. Prints the stronger level's win rate (a shared win counts as a share;
games ended by a cap count apart and not in the rate) with its Wilson 95% interval and
the fair share. The levels are the game's (`agents.levels(game)`): iteration budgets and
seeded agents, so the games are the same on any machine.

    .venv/bin/python benchmarks/ladder.py --game chaos-checkers --games 10 --pair medium:easy
    .venv/bin/python benchmarks/ladder.py --game chaos-cruisers --games 12 --pair hard:medium --workers 2
"""

from __future__ import annotations

import argparse
import functools
import sys
from concurrent.futures import ProcessPoolExecutor

import chaosgames
from chaosgames import agents
from chaosgames.sim import play_match
from chaosgames.sim.stats import wilson

try:
    from benchmarks.caps import capped_options  # imported as a package (the tests)
except ImportError:  # run as a script: benchmarks/ is on the path
    from caps import capped_options  # type: ignore[no-redef]

PAIRS = ("hard:medium", "medium:easy")


Outcome = tuple[int, str | None, str, list[float] | None]
"""The stronger level's seat, how the game ended (rules or cap; None: not ended), its ending, its returns."""


def one_game(name: str, strong: str, weak: str, number: int, seed: int) -> Outcome:
    """Game `number` of a pairing (its seeds depend on the number alone)."""
    players = chaosgames.core.game_class(name).default_players
    game = chaosgames.load_game(name, **capped_options(name, players=players))
    seat = number % players
    levels = [strong if p == seat else weak for p in range(players)]
    seats = [
        agents.from_spec(level, seed=seed + 10 * number + p, game=name) for p, level in enumerate(levels)
    ]
    result = play_match(game, seats, seed + number).result
    return seat, result.ended_by, result.ending, result.returns


def duel(
    name: str, strong: str, weak: str, numbers: range, seed: int, workers: int
) -> tuple[float, int, int]:
    """(the stronger level's wins, games decided by the rules, games capped) over the games
    `numbers`; the same games with any number of workers, printed in order."""
    wins, decided, capped = 0.0, 0, 0
    play = functools.partial(one_game, name, strong, weak, seed=seed)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for number, (seat, ended_by, ending, returns) in zip(numbers, pool.map(play, numbers), strict=True):
            if ended_by != "rules" or returns is None:
                capped += 1
            else:
                decided += 1
                wins += returns[seat]
            print(f"{name} {strong} v {weak} game {number + 1}: {ending} {returns}", flush=True)
    return wins, decided, capped


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", action="append", help="only these games")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--pair", action="append", help="STRONG:WEAK levels (default both rungs)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--first",
        type=int,
        default=0,
        help="skip the first N games (split a long pairing over runs: --first 8 plays games 9 on)",
    )
    parser.add_argument("--workers", type=int, default=1, help="games played at once (results as with 1)")
    args = parser.parse_args()
    rows = []
    for name in args.game or chaosgames.list_games():
        players = chaosgames.core.game_class(name).default_players
        for pair in args.pair or PAIRS:
            strong, weak = pair.split(":")
            wins, decided, capped = duel(
                name, strong, weak, range(args.first, args.first + args.games), args.seed, args.workers
            )
            low, high = wilson(wins, decided)
            rate = wins / decided if decided else float("nan")
            rows.append(
                f"| {name} | {strong} v {weak} ({agents.resolve_level(strong, name)} v "
                f"{agents.resolve_level(weak, name)}) | {decided} | {capped} | {100 * rate:.1f}% "
                f"| {100 * low:.1f}-{100 * high:.1f}% | {100 / players:.1f}% "
                f"| {'yes' if low > 1 / players else 'no'} |"
            )
    print("\n| game | pairing | games | capped | stronger wins | Wilson 95% | fair share | clearly above |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
