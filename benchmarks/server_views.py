"""What a move costs the server in views, and what a seat is sent, without the network.

Seeded games of the four kinds (one seat against random players) are played move by move;
after each move the seat's view is built as the hub builds it (once per version and
viewer) and the patch from its view before. Reported per game: the CPU milliseconds
(`time.process_time`, so a busy machine disturbs it little) of a view and of a patch, the
bytes of a whole view (with its move log) and of a patch, and the patch's median share of
the whole view.

    python benchmarks/server_views.py            # 60 moves of each game, 3 seeds
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import statistics
import time
from typing import Any

from chaosgames.core.constants import CHANCE
from chaosgames.core.registry import load_game
from chaosgames.web import patches, views
from chaosgames.web.live import LiveGame

TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("chaos-checkers", 2, {}),
    ("chaos-cruisers", 3, {"laps": 1}),
    ("royal-racers", 2, {}),
    ("cardboard-machines", 2, {}),
]
COMPACT = (",", ":")


def started(name: str, players: int, options: dict[str, Any], seed: int) -> LiveGame:
    game = load_game(name, players=players, **options)
    live = LiveGame(
        id=f"{name}-{seed}",
        game=game,
        seats=["human"] + ["random"] * (players - 1),
        token_hashes=[None] * players,
        seed=seed,
        meta={},
        created=0.0,
        updated=0.0,
        state=game.new_initial_state(),
    )
    state, steps = live.advance(CHANCE, None)
    live.accept(state, steps, 0.0)
    return live


def positions(name: str, players: int, options: dict[str, Any], moves: int, seed: int) -> list[LiveGame]:
    """The game after each of its first `moves` random moves (chance settled after each)."""
    live = started(name, players, options, seed)
    rng = random.Random(seed)
    found = []
    for _move in range(moves):
        if live.state.is_terminal():
            break
        seat = live.to_act()
        state, steps = live.advance(-1 if seat is None else seat, rng.choice(live.state.legal_actions()))
        live.accept(state, steps, 0.0)
        found.append(dataclasses.replace(live, steps=list(live.steps), state=live.state.clone()))
    return found


def measure_game(name: str, players: int, options: dict[str, Any], moves: int, seeds: int) -> dict[str, Any]:
    """The views and patches of each game's positions, each kind timed as one batch (the
    process's CPU clock is read in a system call that costs as much as a patch)."""
    games = [positions(name, players, options, moves, seed) for seed in range(seeds)]
    count = sum(len(g) for g in games)
    start = time.process_time()
    built = [[views.view(live, 0, live.version) for live in game] for game in games]
    view_ms = 1000 * (time.process_time() - start) / count
    start = time.process_time()
    made = [
        [
            patches.patch((r, old), (r + 1, new), old["version"], views.log_entries(live, 0, old["version"]))
            for r, (old, new, live) in enumerate(zip(game_views, game_views[1:], game[1:], strict=False))
        ]
        for game_views, game in zip(built, games, strict=True)
    ]
    patch_ms = 1000 * (time.process_time() - start) / max(1, count - len(games))
    sent = [len(json.dumps(p, separators=COMPACT)) for game in made for p in game]
    whole = [len(json.dumps(views.view(live, 0), separators=COMPACT)) for game in games for live in game[1:]]
    shares = [s / w for s, w in zip(sent, whole, strict=True)]
    return {
        "moves": count,
        "view_cpu_ms": round(view_ms, 3),
        "patch_cpu_ms": round(patch_ms, 3),
        "whole_view_bytes_p50": round(statistics.median(whole)),
        "patch_bytes_p50": round(statistics.median(sent)),
        "patch_share_of_whole_p50": round(statistics.median(shares), 3),
    }


def measure(moves: int = 60, seeds: int = 3) -> dict[str, Any]:
    return {name: measure_game(name, n, options, moves, seeds) for name, n, options in TABLES}


def run(quick: bool = True) -> dict[str, Any]:
    """`make bench`: 30 moves of each game, 2 seeds; `--full`: 60 moves, 3 seeds."""
    figures = measure(30 if quick else 60, 2 if quick else 3)
    print(json.dumps(figures, indent=1), flush=True)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=60, help="moves of each game (default 60)")
    parser.add_argument("--seeds", type=int, default=3, help="games of each kind (default 3)")
    args = parser.parse_args()
    if not 1 <= args.moves <= 1000 or not 1 <= args.seeds <= 20:
        parser.error("keep it bounded: 1-1000 moves, 1-20 seeds")
    print(json.dumps(measure(args.moves, args.seeds), indent=1))


if __name__ == "__main__":
    main()
