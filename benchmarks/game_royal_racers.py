"""Royal Racers: how long races last and how often they reach the finish.

Random seats rarely finish a race (wrong guesses keep sending pawns home), so the figures
also use a simple seat with perfect memory: it steps towards its next flag, flips what
hinders the others most and guesses face-up flips right. Reported: mean rounds, share of
races finished before the `max_rounds` cap, and each seat's win share (first-player edge).
"""

from __future__ import annotations

import random
from typing import Any

import chaosgames
from chaosgames.core.chance import sample_outcome
from chaosgames.games.royal_racers.actions import Kind, RacerAction
from chaosgames.games.royal_racers.evaluation import distance_to_next_flag
from chaosgames.games.royal_racers.state import FLIP_PHASE, MOVE_PHASE, RoyalRacersState

try:
    from benchmarks.caps import capped_options  # imported as a package (the tests)
except ImportError:  # run as a script: benchmarks/ is on the path
    from caps import capped_options  # type: ignore[no-redef]


def _distance(state: RoyalRacersState, player: int) -> int:
    d = distance_to_next_flag(state, player)
    return 30 if d is None else d


def remembering_seat(state: RoyalRacersState, rng: random.Random) -> Any:
    legal = state.legal_actions()
    player = state.current_player()
    if state.phase == MOVE_PHASE:
        best: tuple[int, Any] | None = None
        for action in legal:
            assert isinstance(action, RacerAction)
            trial = state.clone()
            trial.apply_action(action)
            if trial.is_terminal() or trial.progress[player] > state.progress[player]:
                return action
            if action.kind is Kind.MOVE:
                trial.pawns[player] = action.arg
            d = _distance(trial, player) if trial.race == state.race else 0
            if best is None or d < best[0]:
                best = (d, action)
        return best[1] if best else rng.choice(legal)
    if state.phase == FLIP_PHASE:
        scored = []
        for action in legal:
            assert isinstance(action, RacerAction)
            if action.kind is Kind.UP and state.rank_at(action.arg) != state.roll:
                continue  # perfect memory: never guess wrong
            trial = state.clone()
            trial.apply_action(action)
            others = sum(_distance(trial, q) for q in range(state.n) if q != player)
            scored.append((others - 3 * _distance(trial, player), rng.random(), action))
        return max(scored)[2] if scored else rng.choice(legal)
    return rng.choice(legal)


def _races(players: int, games: int, smart: bool, seed: int) -> dict[str, Any]:
    game = chaosgames.load_game("royal-racers", **capped_options("royal-racers", players=players))
    rng = random.Random(seed)
    rounds = finished = 0
    shares = [0.0] * players
    for _ in range(games):
        state = game.new_initial_state()
        assert isinstance(state, RoyalRacersState)
        while not state.is_terminal():
            if state.current_player() == chaosgames.CHANCE:
                action = sample_outcome(state.chance_outcomes(), rng)
            elif smart:
                action = remembering_seat(state, rng)
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
        rounds += state.past_rounds
        finished += state.race_winners[0] >= 0
        shares = [s + r for s, r in zip(shares, state.returns(), strict=True)]
    return {
        "players": players,
        "seats": "remembering" if smart else "random",
        "races": games,
        "mean_rounds": round(rounds / games, 1),
        "finished_share": round(finished / games, 3),
        "win_share_by_seat": [round(s / games, 3) for s in shares],
    }


def run(quick: bool) -> dict[str, Any]:
    games = 10 if quick else 100
    rows = [_races(p, games, smart, seed=p) for p in (2, 4) for smart in (False, True)]
    for row in rows:
        print(
            f"royal-racers {row['players']}p {row['seats']:>11} seats: {row['mean_rounds']:6.1f} rounds, "
            f"{row['finished_share']:.0%} finished, win shares {row['win_share_by_seat']}"
        )
    return {"races": rows}


if __name__ == "__main__":
    run(quick=True)
