"""Chaos Cruisers figures the generic runner does not give: how long races last and how
often chaos rounds happen, for uniform random play and for a steering policy (avoid going
out of bounds, head for the next gate), and the cost of the heaviest legal-action lists."""

from __future__ import annotations

import random
import time
from typing import Any

import chaosgames
from chaosgames.core.chance import sample_outcome
from chaosgames.games.chaos_cruisers import ChaosCruisersState
from chaosgames.games.chaos_cruisers.actions import Move
from chaosgames.games.chaos_cruisers.movement import trace_move

try:
    from benchmarks.caps import capped_options  # imported as a package (the tests)
except ImportError:  # run as a script: benchmarks/ is on the path
    from caps import capped_options  # type: ignore[no-redef]


def _steer(state: ChaosCruisersState, rng: random.Random) -> Any:
    legal = state.legal_actions()
    if state.phase != "move" or rng.random() < 0.2:
        return rng.choice(legal)
    c = state.deciding_cruiser()
    start = state.pos[c]
    assert start is not None
    best, best_score = legal[0], None
    for move in legal:
        assert isinstance(move, Move)  # the move phase offers only moves
        trace = trace_move(start, move, state.course(), state.obstacles, state.occupied())
        if trace.outcome == "out":
            continue
        twin = state.clone()
        twin.apply_action(move)
        score = twin.progress[c] * 1000 - twin.distance_to_next_gate(c)
        if best_score is None or score > best_score:
            best, best_score = move, score
    return best


def _race(game: chaosgames.Game[Any, Any], seed: int, steer: bool) -> dict[str, Any]:
    rng = random.Random(seed)
    state = game.new_initial_state()
    assert isinstance(state, ChaosCruisersState)
    chaos = 0
    while not state.is_terminal():
        if state.is_chance_node():
            action = sample_outcome(state.chance_outcomes(), rng)
        else:
            action = _steer(state, rng) if steer else rng.choice(state.legal_actions())
        row = state.chaos_row
        state.apply_action(action)
        chaos += state.chaos_row != row
    return {"rounds": state.round, "finished": not state.capped, "chaos_rounds": chaos}


def run(quick: bool) -> dict[str, Any]:
    games = 6 if quick else 40
    game = chaosgames.load_game("chaos-cruisers", **capped_options("chaos-cruisers"))
    figures: dict[str, Any] = {}
    for label, steer in (("random", False), ("steering", True)):
        started = time.perf_counter()
        races = [_race(game, seed, steer) for seed in range(games)]
        elapsed = time.perf_counter() - started
        figures[label] = {
            "games": games,
            "finished_share": sum(r["finished"] for r in races) / games,
            "mean_rounds": sum(r["rounds"] for r in races) / games,
            "mean_chaos_rounds": sum(r["chaos_rounds"] for r in races) / games,
            "games_per_second": games / elapsed,
        }
        print(
            f"chaos-cruisers {label}: {figures[label]['finished_share']:.0%} of {games} races finish, "
            f"{figures[label]['mean_rounds']:.0f} rounds and {figures[label]['mean_chaos_rounds']:.1f} "
            f"chaos rounds on average, {figures[label]['games_per_second']:.1f} games/s"
        )
    return figures


if __name__ == "__main__":
    run(quick=True)
