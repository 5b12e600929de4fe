"""Our MCTS against OpenSpiel's MCTSBot in plain checkers (issue 17, target 4).

OpenSpiel's side is its Python `MCTSBot` (UCT, c = 2, one random rollout to the end per
simulation, `RandomRolloutEvaluator`) over its C++ `checkers`; ours is `mcts` over plain
Chaos Checkers (`chaos=false`), the same American checkers. Both get the same time per
move (0.5 s by default). The machine is shared, so a clock budget would hand the moves to
whichever process the scheduler favours: instead each side's iterations per second are
measured once, alternately in this process, on the same positions (median of 3 rounds),
and each move then gets the iterations that side ran in the time per move. The games are
thus reproducible from the seed and fair under load; the budgets are printed.

Each game is refereed by our engine; the OpenSpiel state is kept in step. A move is
carried from one engine to the other by the position it leads to (our 32-square board
and OpenSpiel's 8x8 board, the one rotated half a turn onto the other): OpenSpiel plays
a multi-jump as several single jumps by the same player, ours as one action. Colours
alternate (our MCTS is Black, who moves first, in even games). A game that reaches
`--max-plies` plies is a draw (not a rule of checkers: a guard; counted apart). Draws
count half. The score's Wilson 95% interval is printed.

It also measures the peak memory (tracemalloc) of our MCTS searching the opening
position, scaled to 100k iterations.

    .venv/bin/python benchmarks/vs_openspiel.py                      # 40 games, 0.5 s a move
    .venv/bin/python benchmarks/vs_openspiel.py --games 4 --seconds 0.1 --memory-iterations 2000
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

from chaosgames import agents, load_game
from chaosgames.core import State
from chaosgames.sim.stats import wilson

ROOT = Path(__file__).resolve().parent.parent
OURS = "mcts"
UCT_C = 2.0
PIECES = {"o": "b", "8": "B", "+": "w", "*": "W", ".": "."}
"""OpenSpiel's checkers characters (its first player's men 'o' and kings '8', the second's
'+' and '*') as our board's (Black 'b'/'B' moves first, White 'w'/'W')."""


def spiel_board(spiel_state: Any) -> str:
    """OpenSpiel's position as our 32 characters, square 1 first.

    Our square n (i = n - 1) lies in row i // 4 of our diagram (Black's home at the top)
    and column 2 * (i % 4) + (1 on even rows); half a turn puts it on OpenSpiel's rank
    row + 1, file 7 - column, with OpenSpiel's first player at the bottom."""
    lines = str(spiel_state).splitlines()[:8]  # rank 8 first, each 'N' + 8 squares
    chars = []
    for i in range(32):
        row = i // 4
        column = 2 * (i % 4) + (1 if row % 2 == 0 else 0)
        rank, file = row + 1, 7 - column
        chars.append(PIECES[lines[8 - rank][1 + file]])
    return "".join(chars)


def our_board(state: State[Any]) -> str:
    board: str = state.observation(None)["board"]
    return board


def spiel_turn(spiel_state: Any, action_source: Any) -> list[int]:
    """The OpenSpiel actions of one whole turn that `action_source(state)` picks."""
    player = spiel_state.current_player()
    actions = []
    while not spiel_state.is_terminal() and spiel_state.current_player() == player:
        action = action_source(spiel_state)
        actions.append(action)
        spiel_state.apply_action(action)
    return actions


def carry_to_spiel(spiel_state: Any, target: str) -> None:
    """Play on `spiel_state` the turn (one or several jumps) that reaches board `target`."""
    player = spiel_state.current_player()

    def search(state: Any) -> Any:
        if state.is_terminal() or state.current_player() != player:
            return state if spiel_board(state) == target else None
        for action in state.legal_actions():
            child = state.child(action)
            found = search(child)
            if found is not None:
                return found
        return None

    found = search(spiel_state)
    if found is None:
        raise RuntimeError(f"OpenSpiel has no move to {target} from\n{spiel_state}")
    for action in found.history()[len(spiel_state.history()) :]:
        spiel_state.apply_action(action)


def carry_to_ours(state: State[Any], target: str) -> Any:
    """Our action that reaches board `target`."""
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        if our_board(child) == target:
            return action
    raise RuntimeError(f"no move of ours reaches {target} from {our_board(state)}")


def with_iterations(spec: str, iterations: int) -> str:
    return f"{spec}{',' if ':' in spec else ':'}iterations={iterations}"


def spiel_bot(game: Any, simulations: int, seed: int) -> Any:
    import numpy as np
    from open_spiel.python.algorithms import mcts

    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    return mcts.MCTSBot(
        game, UCT_C, simulations, evaluator, solve=True, random_state=np.random.RandomState(seed + 1)
    )


def calibration_positions(count: int = 3, seed: int = 7) -> list[list[str]]:
    """A few opening positions, as the move strings that reach them (random openings)."""
    rng = random.Random(seed)
    game = load_game("chaos-checkers", chaos=False)
    lines = []
    for _ in range(count):
        state = game.new_initial_state()
        moves: list[str] = []
        for _ in range(6):
            action = rng.choice(state.legal_actions())
            moves.append(str(action))
            state.apply_action(action)
        lines.append(moves)
    return lines


def calibrate(spec: str, seconds: float) -> tuple[int, int]:
    """(our iterations, OpenSpiel simulations) per `seconds`: the median rate of three
    rounds, each timing both sides on the same positions one after the other."""
    import pyspiel

    game = load_game("chaos-checkers", chaos=False)
    spiel_game = pyspiel.load_game("checkers")
    probe = 200
    ours_rates, theirs_rates = [], []
    for _ in range(3):
        ours_time = theirs_time = 0.0
        for moves in calibration_positions():
            state = game.new_initial_state()
            spiel_state = spiel_game.new_initial_state()
            for text in moves:
                action = next(a for a in state.legal_actions() if str(a) == text)
                state.apply_action(action)
                carry_to_spiel(spiel_state, our_board(state))
            bot = agents.from_spec(with_iterations(spec, probe), seed=1)
            start = time.perf_counter()
            bot.choose(state)
            ours_time += time.perf_counter() - start
            theirs = spiel_bot(spiel_game, probe // 10, seed=1)
            start = time.perf_counter()
            theirs.step(spiel_state)
            theirs_time += time.perf_counter() - start
        positions = len(calibration_positions())
        ours_rates.append(probe * positions / ours_time)
        theirs_rates.append(probe // 10 * positions / theirs_time)
    return (
        max(1, round(statistics.median(ours_rates) * seconds)),
        max(1, round(statistics.median(theirs_rates) * seconds)),
    )


def play(spec: str, simulations: int, ours_black: bool, seed: int, max_plies: int) -> tuple[float, str]:
    """One game; our score (1, 1/2, 0) and how it ended."""
    import pyspiel

    game = load_game("chaos-checkers", chaos=False)
    spiel_game = pyspiel.load_game("checkers")
    state = game.new_initial_state()
    spiel_state = spiel_game.new_initial_state()
    ours = agents.from_spec(spec, seed=seed)
    ours.reset()
    theirs = spiel_bot(spiel_game, simulations, seed)
    our_seat = 0 if ours_black else 1
    plies = 0
    while not state.is_terminal():
        if plies >= max_plies:
            return 0.5, "ply guard"
        if spiel_state.is_terminal():
            # OpenSpiel ended the game by a rule of its own (its move limit): a draw.
            return 0.5, "openspiel limit"
        if state.current_player() == our_seat:
            action = ours.choose(state)
            ours.observe(state, action)
            state.apply_action(action)
            carry_to_spiel(spiel_state, our_board(state))
        else:
            spiel_turn(spiel_state, theirs.step)
            action = carry_to_ours(state, spiel_board(spiel_state))
            ours.observe(state, action)
            state.apply_action(action)
        plies += 1
    return state.returns()[our_seat], "rules"


def peak_memory(spec: str, iterations: int) -> float:
    """Peak traced memory (MB) of one search of `iterations` from the opening, scaled to 100k."""
    game = load_game("chaos-checkers", chaos=False)
    state = game.new_initial_state()
    bot = agents.from_spec(with_iterations(spec, iterations), seed=1)
    tracemalloc.start()
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    bot.choose(state)
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    return peak / 1e6 * 100_000 / iterations


def measure(
    games: int,
    seconds: float,
    mcts: str = OURS,
    seed: int = 2026,
    max_plies: int = 300,
    memory_iterations: int = 100_000,
) -> dict[str, Any]:
    """Our MCTS against OpenSpiel's MCTSBot over `games` games (printed as they end)."""
    iterations, simulations = calibrate(mcts, seconds)
    spec = with_iterations(mcts, iterations)
    print(f"{seconds} s a move: ours {spec}, OpenSpiel MCTSBot {simulations} simulations", flush=True)
    score = 0.0
    endings: dict[str, int] = {}
    for number in range(games):
        ours_black = number % 2 == 0
        result, ended = play(spec, simulations, ours_black, seed + number, max_plies)
        score += result
        endings[ended] = endings.get(ended, 0) + 1
        print(f"game {number + 1}: ours {'Black' if ours_black else 'White'} {result}", flush=True)
    low, high = wilson(score, games)
    rate = score / games
    memory = peak_memory(mcts, memory_iterations)
    print(
        f"ours {score:g} of {games} = {100 * rate:.1f}% (Wilson 95% {100 * low:.1f}-{100 * high:.1f}%); "
        f"endings {endings}; target >= 75%: {'met' if rate >= 0.75 else 'NOT met'}"
    )
    print(f"peak memory of our MCTS: {memory:.1f} MB per 100k iterations (from {memory_iterations})")
    return {
        "games": games,
        "seconds_per_move": seconds,
        "ours": spec,
        "openspiel_simulations": simulations,
        "score": score,
        "rate": rate,
        "interval95": [low, high],
        "target_met": rate >= 0.75,
        "endings": endings,
        "peak_mb_per_100k": memory,
    }


def run(quick: bool) -> dict[str, Any]:
    """`make bench`: 4 games at 0.1 s a move (a smoke run: too few games to judge the
    target); `--full`: the 40 games at 0.5 s of docs/results/strength.md."""
    if quick:
        return measure(games=4, seconds=0.1, memory_iterations=2000)
    return measure(games=40, seconds=0.5, memory_iterations=20_000)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=0.5, help="time per move, turned into iterations")
    parser.add_argument("--mcts", default=OURS, help="our agent spec (default %(default)s)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--memory-iterations", type=int, default=100_000)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    figures = measure(args.games, args.seconds, args.mcts, args.seed, args.max_plies, args.memory_iterations)
    if args.json:
        figures["command"] = " ".join([".venv/bin/python", "benchmarks/vs_openspiel.py", *sys.argv[1:]])
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return 0 if not math.isnan(figures["rate"]) else 1


if __name__ == "__main__":
    sys.exit(main())
