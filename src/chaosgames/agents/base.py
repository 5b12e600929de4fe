"""What every computer player shares: the `Agent` interface and its declared parameters.

An agent decides for whichever player is to move in the state it is given (never at a
chance node: whoever drives the game samples chance outcomes). Agents see games only
through the contract: `legal_actions`, `chance_outcomes`, `apply_action`, `clone`,
`returns` and `game.heuristic`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from chaosgames.core import CHANCE, TERMINAL, Action, ChaosGamesError, State
from chaosgames.core.errors import describe_choices

Progress = Callable[[float], None]
"""Called now and then during a long decision with the fraction of the budget spent (0-1)."""


class AgentError(ChaosGamesError):
    """An unknown agent, an unknown parameter or a value a parameter does not accept."""


_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


@dataclass(frozen=True, slots=True)
class Param:
    """One agent parameter: its kind, default, accepted values and what it means."""

    kind: type
    default: Any
    doc: str
    minimum: float | None = None
    choices: tuple[str, ...] | None = None

    def coerce(self, agent: str, name: str, value: Any) -> Any:
        """The value in this parameter's kind, or AgentError saying what is accepted."""
        converted = self._to_kind(value)
        if converted is None:
            raise AgentError(
                f"Agent '{agent}': parameter '{name}' takes {_KIND_NAMES[self.kind]}, not {value!r}."
            )
        if self.choices is not None and converted not in self.choices:
            raise AgentError(
                f"Agent '{agent}': parameter '{name}' cannot be {converted!r}; "
                f"choose {describe_choices(self.choices)}."
            )
        if self.minimum is not None and converted < self.minimum:
            raise AgentError(
                f"Agent '{agent}': parameter '{name}' must be at least {self.minimum}, not {converted}."
            )
        return converted

    def _to_kind(self, value: Any) -> Any:
        text = value.strip() if isinstance(value, str) else None
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            if text is not None and text.lower() in _TRUE | _FALSE:
                return text.lower() in _TRUE
        elif self.kind is int:
            if isinstance(value, int) and not isinstance(value, bool):
                return value
            if text is not None and text.lstrip("-").isdigit():
                return int(text)
        elif self.kind is float:
            if isinstance(value, int | float) and not isinstance(value, bool):
                return float(value)
            if text is not None:
                try:
                    return float(text)
                except ValueError:
                    return None
        elif self.kind is str and text is not None:
            return text
        return None

    def describe(self, name: str) -> str:
        accepted = f" ({describe_choices(self.choices)})" if self.choices else ""
        return f"{name}={self.default}{accepted}: {self.doc}"


_KIND_NAMES = {bool: "true or false", int: "a whole number", float: "a number", str: "a word"}


class Agent:
    """A computer player. Subclasses set `name`, `params` and implement `choose`.

    `seed` makes every decision reproducible (given the same states and, for search
    agents, an iteration budget rather than a time budget).
    """

    name: ClassVar[str]
    summary: ClassVar[str] = ""
    params: ClassVar[Mapping[str, Param]] = {}

    def __init__(self, seed: int | None = None, **params: Any) -> None:
        unknown = sorted(set(params) - set(self.params))
        if unknown:
            known = describe_choices(sorted(self.params)) if self.params else "none"
            raise AgentError(
                f"Agent '{self.name}' has no parameter {describe_choices(unknown)}; "
                f"its parameters are {known}."
            )
        self.seed = seed
        self.settings: dict[str, Any] = {
            key: (param.coerce(self.name, key, params[key]) if key in params else param.default)
            for key, param in self.params.items()
        }
        self.rng = random.Random(seed)

    def choose(self, state: State, progress: Progress | None = None) -> Action:
        """The action this agent plays for `state.current_player()`. Never mutates `state`."""
        raise NotImplementedError

    def observe(self, state: State, action: Action) -> None:
        """`action` is about to be applied to `state` (any player's move or a chance outcome).

        Drivers call it for every action so search agents can keep their tree; the
        default ignores it.
        """

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


def check_decision_node(agent: str, state: State) -> list[Action]:
    """The legal actions of a state where a player decides; AgentError elsewhere."""
    player = state.current_player()
    if player == CHANCE:
        raise AgentError(f"Agent '{agent}' was asked to move at a chance node; sample the outcome instead.")
    if player == TERMINAL:
        raise AgentError(f"Agent '{agent}' was asked to move but the game is over.")
    return state.legal_actions()
