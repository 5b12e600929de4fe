"""The rollout player: greedy improved by one step, every move tried against the same dice.

The rollout algorithm (Tesauro and Galperin, "On-line policy improvement using Monte-Carlo
search", 1996; Bertsekas' "rollout"): for every legal move, play `futures` playouts from the
position it leads to, in which every player, the mover included, plays as the greedy agent
plays (one of its equal-best moves, drawn at random), for `depth` decisions; then score the
position with the game's heuristic (or the result, if the game ended). Play the move whose
playouts scored best for the mover on average.

Every move meets the same futures. A future is a seed: it fixes the stream of chance
outcomes (the dice) and the stream of the greedy players' draws, so the k-th playout of
every move sees the same rolls (common random numbers). Two moves are then compared on the
same luck, and what differs between their averages is mostly the moves' doing. Against
greedy seats the playouts model the other players exactly (greedy's loop guard aside).

There is no tree: a decision costs (legal moves) x `futures` playouts, and nothing is kept
between decisions. With a seed, decisions are reproducible on every machine.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from chaosgames.agents.base import (
    AgentError,
    LoopGuardedAgent,
    Progress,
    check_decision_node,
    param,
    parameters,
)
from chaosgames.agents.mcts import play_on  # the same playout, bounded the same
from chaosgames.agents.simple import best_rated, drawn, greedy_replies, unstick_param
from chaosgames.core import Action, State
from chaosgames.core.options import Option

_DRAWS = 0x5DEECE66D
"""Mixed into a future's seed for its stream of greedy draws, apart from its dice."""


class RolloutAgent(LoopGuardedAgent):
    """Every legal move played out `futures` times by the greedy model, on the same dice."""

    name = "rollout"
    summary = "greedy improved by one step: every move played out by greedy players against the same dice"
    params: ClassVar[Mapping[str, Option]] = parameters(
        param("futures", int, 32, "playouts per legal move; every move meets the same dice", minimum=1),
        param(
            "depth",
            int,
            12,
            "decisions a playout makes before the heuristic scores it (-1: to the end)",
            minimum=-1,
        ),
        param(
            "every",
            int,
            0,
            "score a playout by the heuristic every `every` decisions up to `depth`, averaged (0: once)",
            minimum=0,
        ),
        param(
            "finish",
            int,
            0,
            "steps left (the game's count) from which playouts run to the end of the game (0: never)",
            minimum=0,
        ),
        param(
            "finish_futures",
            int,
            64,
            "playouts per legal move from `finish` steps on",
            minimum=1,
        ),
        unstick_param(),
    )

    def __init__(self, /, seed: int | None = None, **params: Any) -> None:
        super().__init__(seed, **params)
        every, depth = self.settings["every"], self.settings["depth"]
        if every and (depth <= 0 or depth % every):
            raise AgentError(
                f"Agent '{self.name}': every={every} needs a depth that is a multiple of it "
                f"(depth={depth}); every=0 scores a playout once, at its depth."
            )

    def choose(self, state: State[Any], progress: Progress | None = None) -> Action:
        legal = check_decision_node(self.name, state)
        if len(legal) == 1:
            return legal[0]
        player = state.current_player()
        depth, count = self._playouts(state)
        every: int = self.settings["every"]
        futures = [self.rng.getrandbits(62) for _ in range(count)]
        alike = state.game.same_position(state, legal)
        values: list[float] = []
        for number, action in enumerate(legal):
            if alike[number] == number:
                values.append(_played_out(state, action, player, depth, futures, every))
            else:  # the same position as an earlier move: the same playouts
                values.append(values[alike[number]])
            if progress is not None:
                progress((number + 1) / len(legal))
        return best_rated(state, legal, values, self.rng, self._loops if self.settings["unstick"] else None)

    def _playouts(self, state: State[Any]) -> tuple[int, int]:
        """The playouts' depth and number of futures for this position. Near the end a
        playout to the end is short and scores the result itself, where the heuristic may
        miss what decides it (in Royal Racers the pawns crowding the centre the princes race
        back to); 0/1 results are noisier than the heuristic's shares, so more futures."""
        finish: int = self.settings["finish"]
        if finish:
            left = state.game.steps_left(state)
            if left is not None and left <= finish:
                return -1, self.settings["finish_futures"]
        return self.settings["depth"], self.settings["futures"]


def _played_out(
    state: State[Any], action: Action, player: int, depth: int, futures: list[int], every: int
) -> float:
    """`player`'s mean score over the playouts of `action` from `state`, one per future."""
    after = state.clone()
    after.apply_unchecked(action)  # one of the state's own legal actions
    total = 0.0
    for future in futures:
        total += playout(after.clone(), player, depth, future, every)
    return total / len(futures)


def playout(state: State[Any], player: int, depth: int, future: int, every: int = 0) -> float:
    """`player`'s score after every player has played `depth` decisions as greedy from
    `state` (which it plays on), chance drawn from the future's dice: the result if the
    game ends first, else the heuristic. With `every`, the mean of the heuristic's scores
    after every `every` decisions up to `depth`; a game that ends first scores its result
    for each score still to come."""
    dice = random.Random(future)
    draws = random.Random(future ^ _DRAWS)
    # `legs` scores, each after `leg` decisions; without `every` (or to the end), one.
    legs, leg = (depth // every, every) if every > 0 and depth > 0 else (1, depth)
    total = 0.0
    for done in range(legs):
        _play(state, leg, dice, draws)
        score = _score(state, player)
        if state.is_terminal():
            return (total + score * (legs - done)) / legs
        total += score
    return total / legs


def _play(state: State[Any], depth: int, dice: random.Random, draws: random.Random) -> None:
    """Every player plays `depth` decisions as greedy (-1: to the end), chance drawn from
    `dice`; stops at the next decision or at the end of the game."""

    def greedy(state: State[Any], legal: list[Action], mover: int) -> Action:
        return legal[0] if len(legal) == 1 else drawn(greedy_replies(state, legal, mover, draws), draws)

    play_on(state, depth, dice, greedy)


def _score(state: State[Any], player: int) -> float:
    """The result if the game is over, else the heuristic's share."""
    if state.is_terminal():
        return state.returns()[player]
    return state.game.heuristic(state)[player]
