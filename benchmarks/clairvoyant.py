"""How much the dice leave to decide: a player who knows every roll to come (issue 14).

One seat is clairvoyant, the others play the easy level (`greedy`). The clairvoyant
seat knows the match's chance draws in advance: `play_match` draws one `rng.random()`
per chance node from the match seed, so the k-th chance node of a game always takes the
k-th draw, whatever the players do. It also knows exactly how the greedy seats will
answer (it plays copies of them). Before each of its decisions it plays games out to the
end with those dice: for every legal action, one game in which it then plays greedy and
`--rollouts - 1` in which it plays greedy but for a random action now and then
(`--epsilon`); and the rest of the best game it found last time. It keeps the best game
found (won, and the sooner the better) and plays its first action. A game it found won
it can always still win: it keeps that plan until it finds a better one.

No player can know the dice, so this is not a level; it is a yardstick. Its win rate
against greedy shows how much a player's decisions can change the result against the
easy level at all, with the luck of the dice taken out of the player's way. It is not a
strict ceiling (a deeper search with the same knowledge could find plans this misses),
but no honest player knows more.

    .venv/bin/python benchmarks/clairvoyant.py --game royal-racers --players 2 --games 40
"""

from __future__ import annotations

import argparse
import copy
import random
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import chaosgames
from chaosgames import agents
from chaosgames.core import CHANCE, Game, State
from chaosgames.core.chance import outcome_at
from chaosgames.sim.stats import wilson

try:
    from benchmarks.caps import capped_options  # imported as a package (the tests)
except ImportError:  # run as a script: benchmarks/ is on the path
    from caps import capped_options  # type: ignore[no-redef]

DRAWS = 50_000
"""Chance draws made ahead for a game (far more than any game takes)."""


@dataclass
class Plan:
    """A game played out to the end: the clairvoyant seat's actions in it, and its score."""

    actions: list[Any] = field(default_factory=list)
    score: tuple[float, int] = (-1.0, 0)


class Clairvoyant:
    def __init__(self, seat: int, draws: list[float], rollouts: int, epsilon: float, seed: int) -> None:
        self.seat, self.draws, self.rollouts, self.epsilon = seat, draws, rollouts, epsilon
        self.rng = random.Random(seed)
        self.self_greedy = agents.from_spec("greedy", seed=seed)
        self.plan = Plan()

    def choose(self, state: State[Any], used: int, others: dict[int, agents.Agent]) -> Any:
        legal = state.legal_actions()
        if len(legal) == 1:
            self._advance(legal[0])
            return legal[0]
        best = self._follow(state, used, others) if self.plan.actions else Plan()
        for action in legal:
            for r in range(self.rollouts):
                found = self._play_out(state, used, others, [action], self.epsilon if r else 0.0)
                if found.score > best.score:
                    best = found
        self.plan = Plan(best.actions[1:], best.score)
        return best.actions[0]

    def _advance(self, action: Any) -> None:
        if self.plan.actions and self.plan.actions[0] == action:
            self.plan = Plan(self.plan.actions[1:], self.plan.score)
        else:
            self.plan = Plan()

    def _follow(self, state: State[Any], used: int, others: dict[int, agents.Agent]) -> Plan:
        found = self._play_out(state, used, others, list(self.plan.actions), 0.0)
        # The dice and the greedy seats are known exactly, so the kept plan replays as found.
        return found if found.actions[: len(self.plan.actions)] == self.plan.actions else Plan()

    def _play_out(
        self, state: State[Any], used: int, others: dict[int, agents.Agent], script: list[Any], epsilon: float
    ) -> Plan:
        """Play to the end: the seat takes `script`'s actions first, then greedy's (a random
        one with probability `epsilon`); the others are copies of the real greedy seats."""
        copies = {p: copy.deepcopy(agent) for p, agent in others.items()}
        greedy = copy.deepcopy(self.self_greedy)
        taken: list[Any] = []

        def own(game_state: State[Any], used: int) -> Any:
            if len(taken) < len(script):
                action = script[len(taken)]
            elif epsilon and self.rng.random() < epsilon:
                action = self.rng.choice(game_state.legal_actions())
            else:
                action = greedy.choose(game_state)
            taken.append(action)
            return action

        end, actions = play_on(state.clone(), used, self.draws, self.seat, own, copies)
        share = end.returns()[self.seat]
        return Plan(taken, (share, -actions if share > 0 else actions))


def one_game(
    name: str, players: int, rollouts: int, epsilon: float, seed: int, number: int
) -> tuple[int, list[float]]:
    """Game `number`: the clairvoyant seat (number % players) and the returns."""
    game = chaosgames.load_game(name, **capped_options(name, players=players))
    game_seed = seed + number
    rng = random.Random(game_seed)
    draws = [rng.random() for _ in range(DRAWS)]
    seat = number % players
    others = {p: agents.from_spec("greedy", seed=game_seed * 10 + p) for p in range(players) if p != seat}
    for agent in others.values():
        agent.reset()
    seer = Clairvoyant(seat, draws, rollouts, epsilon, seed=game_seed * 10 + seat)
    return seat, play(game, seer, others).returns()


def play(game: Game[Any, Any], seer: Clairvoyant, others: dict[int, agents.Agent]) -> State[Any]:
    """A whole game: chance from the seer's draws, the seer in its seat, `others` in theirs."""

    def own(state: State[Any], used: int) -> Any:
        return seer.choose(state, used, others)

    return play_on(game.new_initial_state(), 0, seer.draws, seer.seat, own, others)[0]


def play_on(
    state: State[Any],
    used: int,
    draws: list[float],
    seat: int,
    own: Callable[[State[Any], int], Any],
    others: dict[int, agents.Agent],
) -> tuple[State[Any], int]:
    """Play `state` to the end and count the actions: chance outcomes from `draws` (the next
    one is `draws[used]`), `own(state, used)` for `seat`, `others` (shown every action) for
    the rest."""
    actions = 0
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            action = outcome_at(state.chance_outcomes(), draws[used])
            used += 1
        elif player == seat:
            action = own(state, used)
        else:
            action = others[player].choose(state)
        for agent in others.values():
            agent.observe(state, action)
        state.apply_action(action)
        actions += 1
    return state, actions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="royal-racers")
    parser.add_argument("--players", type=int, default=None, help="the game's default when left out")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rollouts", type=int, default=8, help="games played out per legal action")
    parser.add_argument(
        "--epsilon", type=float, default=0.3, help="share of random actions in all but the first"
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    players = args.players or chaosgames.core.game_class(args.game).default_players
    wins = 0.0
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        numbers = range(args.games)
        play = [
            pool.submit(one_game, args.game, players, args.rollouts, args.epsilon, args.seed, n)
            for n in numbers
        ]
        for number, future in zip(numbers, play, strict=True):
            seat, returns = future.result()
            wins += returns[seat]
            print(f"game {number + 1}: clairvoyant seat {seat + 1}, returns {returns}", flush=True)
    low, high = wilson(wins, args.games)
    print(
        f"{args.game} {players} players: the clairvoyant seat won {wins:g} of {args.games} "
        f"({100 * wins / args.games:.1f}%, Wilson 95% {100 * low:.1f}-{100 * high:.1f}%; "
        f"fair share {100 / players:.1f}%)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
