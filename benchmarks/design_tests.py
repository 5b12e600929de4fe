"""How long the web app's *Test it* takes: a design test's games played as the server's
worker plays them (`design_trials.play_games`, easy level, 4 players, the trial's caps).

    PYTHONPATH=src python benchmarks/design_tests.py

Results: docs/results/design-tests.md.
"""

from __future__ import annotations

import time

from chaosgames.web.design_trials import figures, play_games

GAMES = 10


def main() -> None:
    for course in ("grand-loop", "chicane"):
        started = time.perf_counter()
        games = play_games("chaos-cruisers", {"course": course}, list(range(1, GAMES + 1)))
        took = time.perf_counter() - started
        found = figures(games, 4)
        print(f"chaos-cruisers {course}: {took:.1f} s for {GAMES} games", found["rounds"], found["endings"])
    started = time.perf_counter()
    games = play_games("cardboard-machines", {"boards": [2, 0, 1, 3, 4, 5]}, list(range(1, 101)))
    took = time.perf_counter() - started
    print(f"cardboard-machines: {took:.1f} s for 100 games", figures(games, 4)["rounds"])


if __name__ == "__main__":
    main()
