"""The two simple computer players: `random` and `greedy` (one move ahead)."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any, ClassVar

from chaosgames.agents.base import (
    Agent,
    HonestAgent,
    LoopGuard,
    LoopGuardedAgent,
    Progress,
    check_decision_node,
    param,
    parameters,
)
from chaosgames.core import CHANCE, Action, State
from chaosgames.core.chance import sample_outcome
from chaosgames.core.information import ALL
from chaosgames.core.options import Option

MEMORY_DOC = (
    "what the seat remembers of what it saw and the table no longer shows (Royal Racers: the face-down"
    " cards it saw go down, the latest first): -1 everything, 0 nothing, k the k latest"
)


def memory_param() -> Option:
    """The `memory` parameter of the agents that decide from their seat's information."""
    return param("memory", int, ALL, MEMORY_DOC, minimum=ALL)


def worlds_param(default: int) -> Option:
    return param(
        "worlds",
        int,
        default,
        "positions drawn from what the seat knows, where it does not know all (a search splits among them)",
        minimum=1,
    )


def unstick_param(instead: str = "another of the best three") -> Option:
    """The `unstick` parameter of the agents that keep a `LoopGuard` (greedy, rollout, mcts);
    `instead` names what they try in a loop before any move."""
    return param(
        "unstick",
        bool,
        True,
        f"where the game has stood still over several decisions, try {instead} (then any)",
    )


class RandomAgent(Agent):
    """Plays a legal action drawn uniformly: the baseline every other agent must beat."""

    name = "random"
    summary = "a uniformly random legal action"
    params: ClassVar[Mapping[str, Option]] = parameters()

    def choose(self, state: State[Any], progress: Progress | None = None) -> Action:
        return self.rng.choice(check_decision_node(self.name, state))


class GreedyAgent(HonestAgent, LoopGuardedAgent):
    """One move ahead: the action whose result the game's heuristic likes best for the mover.

    When the action leads to chance nodes (a die roll, a draw), the value is the expected
    heuristic over their outcomes, looking through up to `chance_depth` consecutive chance
    nodes; a node with more than `samples` outcomes is estimated from `samples` draws.
    Ties are broken at random (with the agent's seed). With `unstick` (the default), a
    situation met a third time in a game is taken for a loop (see `LoopGuard`), and the
    agent plays the one of its three best actions it has played there least often. With
    `blunders` p > 0, each decision is, with chance p, a uniformly random legal action
    instead: a weaker player (a level, `easy`, in the racing games).

    Greedy decides from its seat's information (`chaosgames.core.information`): where the
    seat does not know everything (Royal Racers: a face-down card it never saw or has
    forgotten, with `memory`), each action is rated in `worlds` positions drawn from what
    the seat knows, the same positions for every action, and its value is the mean.
    Where it knows everything, that is the position itself, and greedy plays as it did.
    """

    name = "greedy"
    summary = "one move ahead with the game's heuristic, expected over the chance that follows"
    params: ClassVar[Mapping[str, Option]] = parameters(
        param("chance_depth", int, 2, "consecutive chance nodes averaged over after a move", minimum=0),
        param("samples", int, 8, "outcomes drawn at a chance node with more outcomes than this", minimum=1),
        unstick_param(),
        param(
            "blunders",
            float,
            0.0,
            "chance of a random legal action instead of the best",
            minimum=0.0,
            maximum=1.0,
        ),
        memory_param(),
        worlds_param(8),
    )

    def choose(self, state: State[Any], progress: Progress | None = None) -> Action:
        legal = check_decision_node(self.name, state)
        if len(legal) == 1:
            return legal[0]
        blunders: float = self.settings["blunders"]
        if blunders and self.rng.random() < blunders:  # no draw at 0: the default plays as before
            return self.rng.choice(legal)
        player = state.current_player()
        worlds = self._worlds(state, player)
        values: list[float] = []
        for number, action in enumerate(legal):
            total = 0.0
            for world in worlds:
                child = world.clone()
                child.apply_unchecked(action)  # the seat's legal actions are the same in every world
                total += self._value(child, player, self.settings["chance_depth"])
            values.append(total / len(worlds))
            if progress is not None:
                progress((number + 1) / len(legal))
        return best_rated(state, legal, values, self.rng, self._loops if self.settings["unstick"] else None)

    def _worlds(self, state: State[Any], player: int) -> list[State[Any]]:
        """The position itself where the seat knows it all, else `worlds` drawn from what it knows."""
        memory: int = self.settings["memory"]
        recollection = self.recollection(state, player)
        if recollection.complete(state, memory):
            return [state]
        return [recollection.sample(state, self.rng, memory) for _ in range(self.settings["worlds"])]

    def _value(self, state: State[Any], player: int, chance_depth: int) -> float:
        return greedy_value(state, player, chance_depth, self.settings["samples"], self.rng)


def equal_best(actions: list[Action], values: list[float]) -> list[Action]:
    """The actions rated best, in order: each rated more than 1e-12 above the best so far
    starts the list again, each within 1e-12 of it joins (greedy draws among them)."""
    best: list[Action] = []
    best_value = -math.inf
    for action, value in zip(actions, values, strict=True):
        if value > best_value + 1e-12:
            best, best_value = [action], value
        elif value > best_value - 1e-12:
            best.append(action)
    return best


PLAUSIBLE = 3
"""The best actions tried in turn where the game goes round in circles (greedy, rollout)."""


def best_rated(
    state: State[Any], legal: list[Action], values: list[float], rng: random.Random, loops: LoopGuard | None
) -> Action:
    """The action rated best (`values[i]` rates `legal[i]`), drawn among equals with `rng`.
    With a loop guard, where the game goes round in circles (see `LoopGuard`): of the
    PLAUSIBLE best, the one played least often in this situation (then of all)."""
    choice = drawn(equal_best(legal, values), rng)
    if loops is None:
        return choice

    def ranked() -> list[Action]:
        order = sorted(range(len(legal)), key=lambda i: -values[i])  # stable: ties in legal order
        return [legal[i] for i in order]

    return loops.choose(state, legal, choice, lambda: ranked()[:PLAUSIBLE], ranked)


def drawn(best: list[Action], rng: random.Random) -> Action:
    """The greedy agent's move among its equal-best: the one, or one drawn with `rng` (no
    draw when there is one, so a lone best move leaves the agent's random stream alone)."""
    return best[0] if len(best) == 1 else rng.choice(best)


def greedy_value(
    state: State[Any], player: int, chance_depth: int, samples: int, rng: random.Random
) -> float:
    """How `greedy` rates a position for `player`: the result if the game is over, else the
    heuristic, expected over up to `chance_depth` consecutive chance nodes (estimated from
    `samples` draws at a node with more outcomes)."""
    if state.is_terminal():
        return state.returns()[player]
    if chance_depth > 0 and state.current_player() == CHANCE:
        outcomes = state.chance_outcomes()
        if len(outcomes) > samples:
            sampled = [(sample_outcome(outcomes, rng), 1.0 / samples) for _ in range(samples)]
            outcomes = sampled
        total = 0.0
        for outcome, probability in outcomes:
            child = state.clone()
            child.apply_unchecked(outcome)  # one of the state's own chance outcomes
            total += probability * greedy_value(child, player, chance_depth - 1, samples, rng)
        return total
    return state.game.heuristic(state)[player]


GREEDY_CHANCE_DEPTH: int = GreedyAgent.params["chance_depth"].default
GREEDY_SAMPLES: int = GreedyAgent.params["samples"].default
"""The greedy agent's defaults: the model of greedy that other agents play."""


def greedy_replies(state: State[Any], legal: list[Action], player: int, rng: random.Random) -> list[Action]:
    """The moves the greedy agent (default settings, no loop guard) draws its move from:
    the best rated by `greedy_value`, with the agent's tolerance for equals. The model of
    greedy that `mcts:opponents=greedy` and `rollout` play."""
    values = []
    for action in legal:
        child = state.clone()
        child.apply_unchecked(action)  # one of the state's own legal actions
        values.append(greedy_value(child, player, GREEDY_CHANCE_DEPTH, GREEDY_SAMPLES, rng))
    return equal_best(legal, values)
