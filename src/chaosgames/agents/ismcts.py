"""Information-set MCTS by determinisation: search only what the seat may know.

`mcts` searches the state it is handed, hidden cards and all. `ismcts` decides from its
seat's information (`chaosgames.core.information`): it draws `worlds` positions the seat
cannot tell from the real one (in Royal Racers, the face-down cards it never saw or has
forgotten, with `memory`, laid at random), runs the same search in each with its share of
the budget, adds up the visits of each move over the worlds and plays the most visited
(ensemble determinisation). Where the seat knows everything (every game but Royal Racers
without the memory aid; there, a seat that remembers every card it saw go down), there is
one world, the position itself, and `ismcts` is `mcts` exactly: the same search, the same
random stream, the same tree kept between moves.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, ClassVar

from chaosgames.agents.base import HonestAgent, Progress, check_decision_node, parameters
from chaosgames.agents.mcts import DEFAULT_ITERATIONS, MctsAgent, _Node
from chaosgames.agents.simple import memory_param, worlds_param
from chaosgames.core import Action, State
from chaosgames.core.information import Recollection
from chaosgames.core.options import Option


class IsmctsAgent(HonestAgent, MctsAgent):
    """MCTS over positions drawn from what the seat knows (see the module docstring)."""

    name = "ismcts"
    summary = (
        "MCTS that sees only what its seat may know: searches positions drawn from it and adds the visits up"
    )
    params: ClassVar[Mapping[str, Option]] = parameters(
        *MctsAgent.params.values(), memory_param(), worlds_param(4)
    )

    def __init__(self, /, seed: int | None = None, **params: Any) -> None:
        super().__init__(seed, **params)
        self.last_worlds = 0
        """Positions searched at the last decision (1: the seat knew everything)."""

    def choose(self, state: State[Any], progress: Progress | None = None) -> Action:
        legal = check_decision_node(self.name, state)
        seat = state.current_player()
        memory: int = self.settings["memory"]
        recollection = self.recollection(state, seat)
        if recollection.complete(state, memory):
            self.last_worlds = 1
            return super().choose(state, progress)
        self._active = self.settings_for(state.game)
        self._root = self._tracked = None  # a tree of one drawn world is no use in the next
        if len(legal) == 1:
            self.last_iterations = self.last_worlds = 0
            return legal[0]
        root = self._determinised(state, recollection, memory, progress)
        if self._active["unstick"]:
            return self._unstuck(root, state, legal)
        return self._best_action(root)

    def _determinised(
        self, state: State[Any], recollection: Recollection[Any, Any], memory: int, progress: Progress | None
    ) -> _Node:
        """Search `worlds` drawn positions, each with its share of the budget; a root whose
        children hold the visits (and values) of each move added over the worlds."""
        worlds: int = self.settings["worlds"]
        budget: int = self._active["iterations"]
        seconds: float = self._active["time"]
        if budget == 0 and seconds == 0.0:
            budget = DEFAULT_ITERATIONS
        share = dict(self._active)
        share["iterations"] = math.ceil(budget / worlds) if budget else 0
        share["time"] = seconds / worlds
        num_players = state.game.num_players
        seat = state.current_player()
        total = _Node(seat, num_players)
        done = 0
        for number in range(worlds):
            world = recollection.sample(state, self.rng, memory)
            root = _Node(seat, num_players)
            self._active = share
            part = None if progress is None else _part(progress, number, worlds)
            done += self._search(root, world, part)
            for action, child in root.children.items():
                kept = total.children.get(action)
                if kept is None:
                    kept = total.children[action] = _Node(child.player, num_players)
                kept.visits += child.visits
                kept.value = [a + b for a, b in zip(kept.value, child.value, strict=True)]
            total.visits += root.visits
        self.last_iterations = done
        self.last_worlds = worlds
        return total


def _part(progress: Progress, number: int, worlds: int) -> Progress:
    """Progress over one world's search as a share of the whole decision."""
    return lambda fraction: progress((number + fraction) / worlds)
