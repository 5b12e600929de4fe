"""Paired screens: two versions of a player on the same games (issue 14).

A change to a computer player is screened by playing it (the candidate) and the player it
would replace (the baseline) on the same games: game k is game k of the lab's job with
the screened player in the first seat of the lineup and `--opponent` in the others
(`Job.build(...).task(k)`, played by `play_task`), so it has the same deal and stream of
dice draws, the same seat for the screened player (the lineup rotates with k) and the
same agent seeds, against the same opponents. It is also game k of a `strength.py` (or
`chaosgames simulate`) run with the same seed, the same players and the lab's caps, so a
screen can be checked against, or extended by, a stored run. Where the two
choose alike the games are the same game and cancel; what weighs is the discordant
games, won by one and not by the other, and an exact sign test says whether they lean
one way (McNemar's test: under "no difference" each discordant game is a fair coin).

Unpaired, two 40-game runs of the same player differ by ten points now and then; paired,
the games that a change leaves alone are not counted twice, and `--only` replays chosen
games (e.g. the ones where the baseline did something) under the candidate.

    .venv/bin/python benchmarks/paired.py --game royal-racers --players 2 --games 40 --seed 42 \\
        --baseline mcts:iterations=200 --candidate mcts:iterations=200,unstick=false --workers 2

A screen is a hint where to spend a full run (benchmarks/strength.py), not a result.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from scipy.stats import binomtest

import chaosgames
from chaosgames.sim import Job
from chaosgames.sim.jobs import play_task
from chaosgames.sim.stats import wilson

try:
    from benchmarks.caps import capped_options  # imported as a package (the tests)
except ImportError:  # run as a script: benchmarks/ is on the path
    from caps import capped_options  # type: ignore[no-redef]


@dataclass(frozen=True)
class Outcome:
    """Game `number` as one player played it: its seat, its share of the win, the rounds,
    and whether a cap ended it (the game's `max_rounds`, not a rule, or the lab's action
    cap): such a game is no rulebook result and is never counted as a win or a loss."""

    number: int
    seat: int
    score: float
    rounds: int
    capped: bool


def screen_job(name: str, players: int, spec: str, opponent: str, seed: int) -> Job:
    """The lab's job a screen plays: `spec` first in the lineup, `opponent` in the other
    seats, the benchmarks' caps (the same job as `strength.py --mcts spec --seed seed`)."""
    return Job.build(name, [spec] + [opponent] * (players - 1), seed, capped_options(name, players=players))


def play_one(name: str, players: int, spec: str, opponent: str, seed: int, number: int) -> Outcome:
    """Game `number` of the screen's job, `spec` in the seat the lineup rotates it to."""
    row, _ = play_task(screen_job(name, players, spec, opponent, seed).task(number))
    seat = -row.rotation % players  # seat p is played by lineup[(p + rotation) % players]
    score = row.returns[seat] if row.returns is not None else 0.0
    return Outcome(number, seat, score, row.rounds, not row.ended_by_rules)


@dataclass(frozen=True)
class Paired:
    """Two players' outcomes on the same games: who won which, and the sign test. Games
    that a cap ended for either player (no rulebook result) are left out."""

    games: int
    baseline: float
    candidate: float
    only_baseline: list[int]
    only_candidate: list[int]
    p_value: float
    capped: list[int]


def compare(baseline: list[Outcome], candidate: list[Outcome]) -> Paired:
    """The pairs by game number; a game is a player's when it won it outright (a shared
    win counts as its share in the totals, on neither side of the sign test)."""
    old = {o.number: o for o in baseline}
    new = {o.number: o for o in candidate}
    if old.keys() != new.keys() or any(old[n].seat != new[n].seat for n in old):
        raise ValueError("the two players did not play the same games in the same seats")
    capped = sorted(n for n in old if old[n].capped or new[n].capped)
    numbers = sorted(n for n in old if n not in capped)
    only_old = [n for n in numbers if old[n].score == 1.0 and new[n].score < 1.0]
    only_new = [n for n in numbers if new[n].score == 1.0 and old[n].score < 1.0]
    discordant = len(only_old) + len(only_new)
    p_value = binomtest(len(only_new), discordant, 0.5).pvalue if discordant else 1.0
    return Paired(
        games=len(numbers),
        baseline=sum(old[n].score for n in numbers),
        candidate=sum(new[n].score for n in numbers),
        only_baseline=only_old,
        only_candidate=only_new,
        p_value=float(p_value),
        capped=capped,
    )


def screen(
    name: str,
    players: int,
    specs: tuple[str, str],
    opponent: str,
    seed: int,
    numbers: list[int],
    workers: int,
) -> Iterator[tuple[Outcome, Outcome]]:
    """The two players (baseline, candidate) on each of games `numbers`, in one pool: the
    pairs in order, each as soon as both games are played (a screen runs for many minutes)."""
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [
            [pool.submit(play_one, name, players, spec, opponent, seed, n) for spec in specs] for n in numbers
        ]
        for old, new in futures:
            yield old.result(), new.result()


def _share(wins: float, games: int) -> str:
    if games == 0:
        return "no game with a result"
    low, high = wilson(wins, games)
    return f"{wins:g} of {games} ({100 * wins / games:.1f}%, Wilson 95% {100 * low:.1f}-{100 * high:.1f}%)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="royal-racers")
    parser.add_argument("--players", type=int, default=None, help="the game's default when left out")
    parser.add_argument("--games", type=int, default=40, help="games 0 .. games-1")
    parser.add_argument("--only", default="", help="these game numbers instead (comma-separated)")
    parser.add_argument("--baseline", required=True, help="agent spec or level")
    parser.add_argument("--candidate", required=True, help="agent spec or level")
    parser.add_argument("--opponent", default="greedy", help="agent spec or level in the other seats")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    players = args.players or chaosgames.core.game_class(args.game).default_players
    numbers = [int(n) for n in args.only.split(",")] if args.only else list(range(args.games))
    old: list[Outcome] = []
    new: list[Outcome] = []
    pairs = screen(
        args.game, players, (args.baseline, args.candidate), args.opponent, args.seed, numbers, args.workers
    )
    for before, after in pairs:
        print(
            f"game {before.number}: seat {before.seat + 1}, "
            f"baseline {before.score:g} in {before.rounds} rounds, "
            f"candidate {after.score:g} in {after.rounds} rounds",
            flush=True,
        )
        old.append(before)
        new.append(after)
    paired = compare(old, new)
    print(f"{args.game}, {players} players, against {args.opponent}, seed {args.seed}:")
    print(f"  baseline  {args.baseline}: {_share(paired.baseline, paired.games)}")
    print(f"  candidate {args.candidate}: {_share(paired.candidate, paired.games)}")
    print(
        f"  won by the baseline alone: {len(paired.only_baseline)} {paired.only_baseline}; "
        f"by the candidate alone: {len(paired.only_candidate)} {paired.only_candidate}; "
        f"exact sign test p = {paired.p_value:.3f}"
    )
    if paired.capped:
        print(f"  left out, ended by a cap, not by the rules: games {paired.capped}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
