"""What every computer player shares: the `Agent` interface and its declared parameters.

An agent decides for whichever player is to move in the state it is given (never at a
chance node: whoever drives the game samples chance outcomes). Agents see games only
through the contract: `legal_actions`, `chance_outcomes`, `apply_action` (or
`apply_unchecked` for actions taken from those lists), `clone`, `returns` and
`game.heuristic`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from chaosgames.core import CHANCE, TERMINAL, Action, ChaosGamesError, IllegalActionError, State
from chaosgames.core.errors import InvalidOptionError, describe_choices
from chaosgames.core.information import Recollection, follow
from chaosgames.core.options import Option

Progress = Callable[[float], None]
"""Called now and then during a long decision with the fraction of the budget spent (0-1)."""


class AgentError(ChaosGamesError):
    """An unknown agent, an unknown parameter or a value a parameter does not accept."""


def parameters(*declared: Option) -> Mapping[str, Option]:
    """An agent's parameters by name, declared as options: `param("depth", int, 20, "...")`."""
    return {option.name: option for option in declared}


def param(name: str, kind: type, default: Any, doc: str, **limits: Any) -> Option:
    """One agent parameter: a core `Option` whose messages say 'parameter'."""
    return Option(name, kind, default, doc, noun="parameter", **limits)


class Agent:
    """A computer player. Subclasses set `name`, `params` and implement `choose`.

    `seed` makes every decision reproducible (given the same states and, for search
    agents, an iteration budget rather than a time budget).
    """

    name: ClassVar[str]
    summary: ClassVar[str] = ""
    params: ClassVar[Mapping[str, Option]] = {}

    def __init__(self, /, seed: int | None = None, **params: Any) -> None:
        # `/`: a parameter called `self` is refused below as unknown, not a broken call.
        unknown = sorted(set(params) - set(self.params))
        if unknown:
            known = describe_choices(sorted(self.params)) if self.params else "none"
            raise AgentError(
                f"Agent '{self.name}' has no parameter {describe_choices(unknown)}; "
                f"its parameters are {known}."
            )
        self.seed = seed
        try:
            self.settings: dict[str, Any] = {
                key: (option.coerce(params[key]) if key in params else option.default)
                for key, option in self.params.items()
            }
        except InvalidOptionError as exc:
            raise AgentError(f"Agent '{self.name}': {exc}") from None
        self.rng = random.Random(seed)

    def choose(self, state: State[Any], progress: Progress | None = None) -> Action:
        """The action this agent plays for `state.current_player()`. Never mutates `state`."""
        raise NotImplementedError

    def observe(self, state: State[Any], action: Action) -> None:
        """`action` is about to be applied to `state` (any player's move or a chance outcome).

        Drivers call it for every action so search agents can keep their tree; the
        default ignores it.
        """

    def tell(self, recollection: Recollection[Any, Any], state: State[Any]) -> None:
        """What the seat to act in `state` has seen of the game so far, from a driver that
        rebuilt the position rather than telling each action (the web's computer seats).
        Agents that decide from their seat's information (`greedy`, `ismcts`) use it for
        that state; the default ignores it."""

    def reset(self) -> None:
        """Forget everything learnt about the current game (a new game starts)."""
        self.rng = random.Random(self.seed)

    @property
    def spec(self) -> str:
        """The agent as a spec string with its non-default parameters, e.g. 'mcts:iterations=200'."""
        changed = [f"{k}={v}" for k, v in self.settings.items() if v != self.params[k].default]
        return self.name + (":" + ",".join(changed) if changed else "")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec} seed={self.seed}>"


def check_decision_node(agent: str, state: State[Any]) -> list[Action]:
    """The legal actions of a state where a player decides; AgentError elsewhere."""
    player = state.current_player()
    if player == CHANCE:
        raise AgentError(f"Agent '{agent}' was asked to move at a chance node; sample the outcome instead.")
    if player == TERMINAL:
        raise AgentError(f"Agent '{agent}' was asked to move but the game is over.")
    return state.legal_actions()


STUCK_AFTER = 3
"""The visit to a situation (verdict and choices) at which an agent takes it for a loop."""


class LoopGuard:
    """The situations met at an agent's decisions in the current game, to break loops.

    Agents that see a position the same way answer it the same way, so a game can lock
    into a cycle: in Chaos Cruisers two cruisers rammed each other back and forth, and
    their partners drove to and fro beside them, round after round until the cap. A
    situation is the heuristic's verdict with the choices on offer; met a third time at
    this agent's decisions, it is a loop, and the agent plays, of the plausible moves it
    names (best first), the one it has played there least often, the best of those first.

    A loop can outlast every plausible move: in a 2-player race one cruiser stood still
    beside the only way to its last gate while a rival drove to and fro in that way, ready
    to ram it out, for 160 rounds; each had tried its plausible moves, and every one led
    back to the same situation. Once each plausible move has been played STUCK_AFTER times
    in a situation, the agent widens its choice there to all its moves (best first), and
    again plays the least played: a loop is then left by the least bad move that breaks it.
    """

    def __init__(self) -> None:
        self.played: dict[tuple[Any, ...], dict[Action, int]] = {}

    def reset(self) -> None:
        self.played = {}

    def choose(
        self,
        state: State[Any],
        legal: Sequence[Action],
        best: Action,
        plausible: Callable[[], Sequence[Action]],
        ranked: Callable[[], Sequence[Action]],
    ) -> Action:
        """`best`, unless this situation is a loop: then the least played of the moves
        `plausible()` names, or of all moves `ranked()` names (best first) once every
        plausible move has been played STUCK_AFTER times here (asked only then)."""
        verdict = tuple(round(v, 9) for v in state.game.heuristic(state))
        situation = (verdict, len(legal), str(legal[0]), str(legal[-1]))
        played = self.played.setdefault(situation, {})
        if sum(played.values()) >= STUCK_AFTER - 1:
            moves = plausible()
            if min(played.get(a, 0) for a in moves) >= STUCK_AFTER:
                moves = ranked()
            best = min(moves, key=lambda a: played.get(a, 0))
        played[best] = played.get(best, 0) + 1
        return best


class LoopGuardedAgent(Agent):
    """An agent that keeps a `LoopGuard` for the game it plays (greedy, rollout, mcts): met
    afresh with every game, as the agent's random stream is."""

    def __init__(self, /, seed: int | None = None, **params: Any) -> None:
        super().__init__(seed, **params)
        self._loops = LoopGuard()

    def reset(self) -> None:
        super().reset()
        self._loops.reset()


class HonestAgent(Agent):
    """An agent that decides from what its seat may know (greedy, ismcts): a `Witness` of
    the game it is told, met afresh with every game, gives the seat's recollection."""

    def __init__(self, /, seed: int | None = None, **params: Any) -> None:
        super().__init__(seed, **params)
        self._witness = Witness()

    def observe(self, state: State[Any], action: Action) -> None:
        self._witness.observe(state, action)
        super().observe(state, action)

    def tell(self, recollection: Recollection[Any, Any], state: State[Any]) -> None:
        self._witness.tell(recollection, state)

    def reset(self) -> None:
        super().reset()
        self._witness.reset()

    def recollection(self, state: State[Any], seat: int) -> Recollection[Any, Any]:
        """What `seat` knows of `state`, from the game this agent has been told."""
        return self._witness.recollection(state, seat)


class Witness:
    """The game an agent has been told, action by action, and what each seat saw of it.

    `observe` and `tell` feed it as the agent's own methods are fed; `recollection(state,
    seat)` is then the seat's recollection of `state` (`chaosgames.core.information`). A
    state it has not followed (the driver skipped `observe`, or another game) gets the
    recollection of a seat that has just sat down: only what the table shows now.
    """

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self._start: State[Any] | None = None
        self._tracked: State[Any] | None = None
        self._heard: list[Action] = []
        self._seats: dict[int, Recollection[Any, Any]] = {}
        self._told: tuple[Recollection[Any, Any], dict[str, Any]] | None = None

    def observe(self, state: State[Any], action: Action) -> None:
        if not state.game.hides_information():
            return  # the observation is everything: nothing to follow
        if self._tracked is None:
            self._start, self._tracked = state.clone(), state.clone()
        for recollection in self._seats.values():
            recollection.hear(self._tracked, action)
        try:
            self._tracked.apply_action(action)
        except IllegalActionError:  # told another game than the one followed: start again
            self.reset()
            return
        self._heard.append(action)

    def tell(self, recollection: Recollection[Any, Any], state: State[Any]) -> None:
        self._told = (recollection, state.to_json())

    def recollection(self, state: State[Any], seat: int) -> Recollection[Any, Any]:
        if not state.game.hides_information():
            return state.game.recollection(seat)
        doc = state.to_json()
        if self._told is not None and self._told[0].seat == seat and self._told[1] == doc:
            return self._told[0]
        if self._start is not None and self._tracked is not None and self._tracked.to_json() == doc:
            recollection = self._seats.get(seat)
            if recollection is None:
                _, recollection = follow(state.game, seat, self._heard, self._start.clone())
                self._seats[seat] = recollection
            return recollection
        return state.game.recollection(seat)
