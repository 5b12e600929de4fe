"""Computer players: one registry, `make("mcts", seed=1, iterations=500)`.

Agents are also named by spec strings, as seats on the command line take them:
`random`, `greedy`, `mcts:time=1.0`, `mcts:iterations=500,depth=10`. See docs/agents.md.
"""

from __future__ import annotations

from typing import Any

from chaosgames.agents.base import Agent, AgentError, Progress, param, parameters
from chaosgames.agents.ismcts import IsmctsAgent
from chaosgames.agents.mcts import MctsAgent
from chaosgames.agents.rollout import RolloutAgent
from chaosgames.agents.simple import GreedyAgent, RandomAgent
from chaosgames.core.errors import describe_choices, quote
from chaosgames.core.pairs import name_value_pairs
from chaosgames.core.registry import game_class

_AGENTS: dict[str, type[Agent]] = {}


def register_agent(cls: type[Agent]) -> type[Agent]:
    """Make an agent class available by its `name` (class decorator)."""
    _AGENTS[cls.name] = cls
    return cls


for _cls in (RandomAgent, GreedyAgent, MctsAgent, IsmctsAgent, RolloutAgent):
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
            f"There is no agent or level called {quote(name)}; choose a level "
            f"({describe_choices(list(LEVELS))}) or an agent ({describe_choices(available())}, "
            "with parameters, e.g. 'mcts:time=1.0')."
        ) from None


def make(name: str, /, seed: int | None = None, **params: Any) -> Agent:
    """A new agent, e.g. `make("mcts", seed=1, iterations=500)`; AgentError for bad input."""
    return agent_class(name)(seed=seed, **params)


def _with_seed(name: str, seed: int | None, params: dict[str, str]) -> Agent:
    """`make`, for a spec's parameters: a spec that names `seed` is refused, since the seed
    is given apart (`--seed`, the lab's, the server's), not in the spec."""
    if "seed" in params:
        raise AgentError(
            f"Agent '{name}' takes no parameter seed in its spec; the seed is given apart "
            "(e.g. --seed), so that the same spec plays alike under any seed."
        )
    return make(name, seed=seed, **params)


def parse_spec(text: str) -> tuple[str, dict[str, str]]:
    """'mcts:time=1.0,depth=10' -> ('mcts', {'time': '1.0', 'depth': '10'}), checked for form."""
    if not isinstance(text, str) or not text.strip():
        raise AgentError("An agent is named by a word such as 'greedy' or 'mcts:time=1.0'.")
    name, _, rest = text.strip().partition(":")
    name = name.strip()
    params = name_value_pairs(
        rest.split(",") if rest.strip() else [],
        lambda item: AgentError(
            f"Cannot read {quote(item)} in the agent spec {quote(text)}: parameters are "
            "written name=value, separated by commas (e.g. 'mcts:time=1.0,depth=10')."
        ),
        lambda key: AgentError(f"The agent spec {quote(text)} gives parameter {quote(key)} twice."),
    )
    agent_class(name)
    return name, params


LEVELS: dict[str, str] = {
    "easy": "greedy",
    "medium": "mcts:iterations=200",
    "hard": "mcts:iterations=2000",
}
"""Levels a player picks by name, each a documented agent spec (see docs/agents.md): these
in every game but those of `GAME_LEVELS`."""

_RACING_LEVELS = {
    "easy": "greedy:blunders=0.3",
    "medium": "greedy",
    "hard": "mcts:iterations=200",
}

_MEMORY_LEVELS = {
    # Royal Racers' levels decide from what their seat saw of the cards (the racing
    # levels above, made honest): easy forgets every card once it is face down, medium
    # remembers the last four it saw go down, hard every one, as a careful player does
    # (docs/agents.md, "Levels").
    "easy": "greedy:blunders=0.3,memory=0",
    "medium": "greedy:memory=4",
    "hard": "ismcts:iterations=200",
}

GAME_LEVELS: dict[str, dict[str, str]] = {
    # In the two racing games ten times the search is not a stronger player (hard won 9
    # of 28 against medium in Royal Racers, 1 of 13 in Chaos Cruisers): the search is
    # their hardest level and each level below is one measured step weaker
    # (docs/results/strength.md, "Level ladder").
    "chaos-cruisers": _RACING_LEVELS,
    "royal-racers": _MEMORY_LEVELS,
}
"""The games whose levels name other specs than `LEVELS`, by registry name."""


def levels(game: str | None = None) -> dict[str, str]:
    """The levels of `game` (its registry name) and their specs; without a game, `LEVELS`.

    A game name that is not in the registry raises UnknownGameError: a misspelt game must
    not quietly get the default levels."""
    if game is None:
        return dict(LEVELS)
    return dict(GAME_LEVELS.get(game_class(game).name, LEVELS))


def resolve_level(text: str, game: str | None = None) -> str:
    """The agent spec a level names in `game` (`medium` -> its spec); any other spec unchanged."""
    if isinstance(text, str) and text.strip() in LEVELS:
        return levels(game)[text.strip()]
    return text


def from_spec(text: str, seed: int | None = None, game: str | None = None) -> Agent:
    """The agent a spec string or level names, e.g. `from_spec("mcts:iterations=500", seed=3)`
    or `from_spec("medium", game="royal-racers")`. A level needs the game's registry name to
    mean its spec in that game (UnknownGameError if no game has that name); without one it
    means its spec of `LEVELS`. Any other spec means the same in every game, so `game` is
    not looked up for it: a game class only registered in another process plays it too."""
    name, params = parse_spec(resolve_level(text, game))
    return _with_seed(name, seed, params)


def describe() -> list[str]:
    """One paragraph per agent with its parameters, for help texts."""
    lines = []
    for name in available():
        cls = _AGENTS[name]
        params = "; ".join(p.describe() for p in cls.params.values()) or "no parameters"
        lines.append(f"{name}: {cls.summary} ({params})")
    return lines


__all__ = [
    "GAME_LEVELS",
    "LEVELS",
    "Agent",
    "AgentError",
    "GreedyAgent",
    "IsmctsAgent",
    "MctsAgent",
    "Progress",
    "RandomAgent",
    "RolloutAgent",
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
