"""Chaos Checkers benchmark: perft, plain random playouts against OpenSpiel, chaos throughput.

- perft from the start position with `chaos=False` (whole moves, multi-jumps as one,
  captures mandatory): depths 1-7 (1-8 unless quick), checked against the published
  American checkers counts (7, 49, ... 179740, 845931);
- plain random playouts per second: from the initial state, `legal_actions()`, a random
  choice, `apply_action()` (validated: the public API) until the game ends;
- the same loop on OpenSpiel's `checkers` (C++, via pyspiel) in the same process when
  the optional `bench` extra (open_spiel) is installed: three pairs of runs, ours then
  OpenSpiel's, alternating, and the median of the three ratios ours / OpenSpiel (target
  >= 1.0, issue 17);
- chaos-mode random playouts per second (chance outcomes sampled, setup included; target
  >= 328, twice the 164 of 2026-11-22).

Time is the CPU time of this process (`time.process_time`), not the wall clock: on a
shared machine the wall clock also counts the time other jobs hold the cores, which
varies from one run to the next and would colour one side of a ratio and not the other.
Each measurement is the best of three windows of the same seeded games (see ROUNDS).

What each counts: one of our actions is a whole move (a multi-jump is one action);
one OpenSpiel action is a single step or a single jump (a multi-jump is several actions
by the same player). OpenSpiel draws a game after 40 moves without a capture (and at
1000 actions); ours draws when the same moves are played three times in a row (option
`repetition`) or at `max_moves` (1000 here, see `caps.py`; off by default). Random games
are short either way (about 70 actions each), so games per second compare like with like;
the mean actions per game of both are reported too.

    python benchmarks/game_chaos_checkers.py [--quick]
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import chaosgames
from chaosgames.core.chance import sample_outcome
from chaosgames.core.perft import perft

try:
    from benchmarks.caps import capped_options  # imported as a package (the tests)
except ImportError:  # run as a script: benchmarks/ is on the path
    from caps import capped_options  # type: ignore[no-redef]

PERFT = {1: 7, 2: 49, 3: 302, 4: 1469, 5: 7361, 6: 36768, 7: 179740, 8: 845931}
PAIRS = 3
CHAOS_BEFORE = 164.0
"""Chaos random games per second on 2026-11-22 (benchmarks/results/2026-11-22.json)."""
clock = time.process_time


ROUNDS = 3
"""Each measurement plays the same seeded games in ROUNDS windows and keeps the fastest (as
`timeit` does): on this 2-core VM one window of the same code moved by up to 30% even on a
quiet machine, and interference only ever slows a window."""


def random_games_per_second(new_state: Callable[[], Any], seconds: float, seed: int = 1) -> dict[str, float]:
    """Random playouts from `new_state()` for `seconds` in all: the best of ROUNDS windows."""
    rounds = [_playouts(new_state, seconds / ROUNDS, seed) for _ in range(ROUNDS)]
    return max(rounds, key=lambda r: r["games_per_second"])


def _playouts(new_state: Callable[[], Any], seconds: float, seed: int) -> dict[str, float]:
    """Random playouts from `new_state()` for `seconds`; chance drawn with its odds."""
    rng = random.Random(seed)
    games = actions = 0
    start = clock()
    while clock() - start < seconds:
        state = new_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_outcome(state.chance_outcomes(), rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
        games += 1
    elapsed = clock() - start
    return {"games_per_second": games / elapsed, "actions_per_game": actions / games, "games": games}


def ours_plain(seconds: float) -> dict[str, float]:
    return random_games_per_second(
        chaosgames.load_game(
            "chaos-checkers", **capped_options("chaos-checkers", chaos=False)
        ).new_initial_state,
        seconds,
    )


def openspiel_plain(seconds: float) -> dict[str, float] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    # OpenSpiel's checkers has no chance nodes, so the loop's chance branch never runs.
    return random_games_per_second(pyspiel.load_game("checkers").new_initial_state, seconds)


def ours_chaos(seconds: float) -> dict[str, float]:
    game = chaosgames.load_game("chaos-checkers", **capped_options("chaos-checkers"))
    return random_games_per_second(game.new_initial_state, seconds)


def run(quick: bool) -> dict[str, Any]:
    result: dict[str, Any] = {}
    start_state = chaosgames.load_game("chaos-checkers", chaos=False).new_initial_state()
    for depth in range(1, 8 if quick else 9):
        t0 = clock()
        nodes = perft(start_state, depth)
        elapsed = clock() - t0
        result[f"perft_{depth}"] = nodes
        result[f"perft_{depth}_ok"] = nodes == PERFT[depth]
        result[f"perft_{depth}_seconds"] = elapsed
        print(f"perft {depth}: {nodes} ({'ok' if nodes == PERFT[depth] else 'WRONG'}) in {elapsed:.2f} s")
    seconds = 2.0 if quick else 10.0
    result.update(plain_against_openspiel(seconds / PAIRS if quick else seconds / 2))
    chaos = ours_chaos(seconds)
    result["chaos_games_per_second"] = chaos["games_per_second"]
    result["chaos_actions_per_game"] = chaos["actions_per_game"]
    result["chaos_ratio_vs_2026_11_22"] = chaos["games_per_second"] / CHAOS_BEFORE
    print(
        f"chaos checkers: {chaos['games_per_second']:.0f} random games/s, "
        f"{chaos['actions_per_game']:.0f} actions/game (setup draws included); "
        f"{chaos['games_per_second'] / CHAOS_BEFORE:.2f}x the {CHAOS_BEFORE:.0f} of 2026-11-22 (target >= 2)"
    )
    return result


def plain_against_openspiel(seconds: float) -> dict[str, Any]:
    """Plain random playouts, ours and OpenSpiel's in turn, PAIRS times; the median ratio."""
    result: dict[str, Any] = {}
    ours_runs, spiel_runs, ratios = [], [], []
    for pair in range(PAIRS):
        ours = ours_plain(seconds)
        ours_runs.append(ours)
        print(
            f"plain checkers, ours: {ours['games_per_second']:.0f} random games/s, "
            f"{ours['actions_per_game']:.1f} moves/game"
        )
        spiel = openspiel_plain(seconds)
        if spiel is None:
            result["openspiel"] = "skipped: pyspiel is not installed (pip install -e '.[bench]')"
            print("OpenSpiel checkers: skipped (pyspiel not installed)")
            break
        spiel_runs.append(spiel)
        ratios.append(ours["games_per_second"] / spiel["games_per_second"])
        print(
            f"OpenSpiel checkers: {spiel['games_per_second']:.0f} random games/s, "
            f"{spiel['actions_per_game']:.1f} actions/game; pair {pair + 1} ratio {ratios[-1]:.2f}"
        )
    result["plain_games_per_second"] = statistics.median(r["games_per_second"] for r in ours_runs)
    result["plain_actions_per_game"] = statistics.fmean(r["actions_per_game"] for r in ours_runs)
    if ratios:
        result["openspiel_games_per_second"] = statistics.median(r["games_per_second"] for r in spiel_runs)
        result["openspiel_actions_per_game"] = statistics.fmean(r["actions_per_game"] for r in spiel_runs)
        result["ratio_vs_openspiel"] = statistics.median(ratios)
        result["ratios_vs_openspiel"] = ratios
        print(
            f"ratio ours/OpenSpiel, median of {len(ratios)} alternating pairs: "
            f"{result['ratio_vs_openspiel']:.2f} (target >= 1.0)"
        )
    return result


if __name__ == "__main__":
    run("--quick" in sys.argv)
