"""Computer players: one registry, `make("mcts", seed=1, iterations=500)`.

Agents are also named by spec strings, as seats on the command line take them:
`random`, `greedy`, `mcts:time=1.0`, `mcts:iterations=500,depth=10`. See docs/agents.md.
"""

from __future__ import annotations

from typing import Any

from chaosgames.agents.base import Agent, AgentError, Progress, param, parameters
from chaosgames.agents.mcts import MctsAgent
from chaosgames.agents.simple import GreedyAgent, RandomAgent
from chaosgames.core.errors import describe_choices

_AGENTS: dict[str, type[Agent]] = {}


def register_agent(cls: type[Agent]) -> type[Agent]:
    """Make an agent class available by its `name` (class decorator)."""
    _AGENTS[cls.name] = cls
    return cls


for _cls in (RandomAgent, GreedyAgent, MctsAgent):
    register_agent(_cls)


def available() -> list[str]:
    """The names of every agent, sorted."""
    return sorted(_AGENTS)


def agent_class(name: str) -> type[Agent]:
    """The agent class registered as `name`; AgentError names the known ones."""
    try:
        return _AGENTS[name]
    except KeyError:
        raise AgentError(
            f"There is no agent called {name!r}; choose {describe_choices(available())} "
            "(with parameters, e.g. 'mcts:time=1.0')."
        ) from None


def make(name: str, seed: int | None = None, **params: Any) -> Agent:
    """A new agent, e.g. `make("mcts", seed=1, iterations=500)`; AgentError for bad input."""
    return agent_class(name)(seed=seed, **params)


def parse_spec(text: str) -> tuple[str, dict[str, str]]:
    """'mcts:time=1.0,depth=10' -> ('mcts', {'time': '1.0', 'depth': '10'}), checked for form."""
    if not isinstance(text, str) or not text.strip():
        raise AgentError("An agent is named by a word such as 'greedy' or 'mcts:time=1.0'.")
    name, _, rest = text.strip().partition(":")
    name = name.strip()
    params: dict[str, str] = {}
    if rest.strip():
        for item in rest.split(","):
            key, sep, value = item.partition("=")
            key, value = key.strip(), value.strip()
            if not sep or not key or not value:
                raise AgentError(
                    f"Cannot read {item.strip()!r} in the agent spec {text!r}: parameters are written "
                    "name=value, separated by commas (e.g. 'mcts:time=1.0,depth=10')."
                )
            if key in params:
                raise AgentError(f"The agent spec {text!r} gives parameter '{key}' twice.")
            params[key] = value
    agent_class(name)
    return name, params


LEVELS: dict[str, str] = {
    "easy": "greedy",
    "medium": "mcts:iterations=200",
    "hard": "mcts:iterations=2000",
}
"""Levels a player picks by name, each a documented agent spec (see docs/agents.md)."""


def resolve_level(text: str) -> str:
    """The agent spec a level names (`medium` -> its spec); any other spec unchanged."""
    if isinstance(text, str) and text.strip() in LEVELS:
        return LEVELS[text.strip()]
    return text


def from_spec(text: str, seed: int | None = None) -> Agent:
    """The agent a spec string or level names, e.g. `from_spec("mcts:iterations=500", seed=3)`
    or `from_spec("medium")`."""
    name, params = parse_spec(resolve_level(text))
    return make(name, seed=seed, **params)


def describe() -> list[str]:
    """One paragraph per agent with its parameters, for help texts."""
    lines = []
    for name in available():
        cls = _AGENTS[name]
        params = "; ".join(p.describe() for p in cls.params.values()) or "no parameters"
        lines.append(f"{name}: {cls.summary} ({params})")
    return lines


__all__ = [
    "LEVELS",
    "Agent",
    "AgentError",
    "GreedyAgent",
    "MctsAgent",
    "Progress",
    "RandomAgent",
    "agent_class",
    "available",
    "describe",
    "from_spec",
    "make",
    "param",
    "parameters",
    "parse_spec",
    "register_agent",
    "resolve_level",
]
