"""The project's computer players as OpenSpiel bots and PettingZoo policies.

    bot = AgentBot(spiel_game, player_id=0, spec="ismcts:iterations=200", seed=1)
    pyspiel.evaluate_bots(state, [bot, other], seed)      # or bot.step(state)

    act = policy(env, "greedy", seed=1)                   # env: chaosgames.rl.pettingzoo.env(...)
    env.step(act(env.agent_selection))

Each seat's agent decides from what that seat may know: it is handed the seat's
recollection that the OpenSpiel state or the PettingZoo table keeps (Royal Racers: the
face-down cards it saw go down), as the web's computer seats are. `mcts` and `rollout`
still read the whole position; `greedy` and `ismcts` decide from the recollection, with
their `memory`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pyspiel

from chaosgames.agents import Agent, from_spec
from chaosgames.core import State
from chaosgames.core.information import Recollection
from chaosgames.rl.openspiel import ChaosGamesSpielGame, ChaosGamesSpielState
from chaosgames.rl.pettingzoo import ChaosGamesAECEnv


def _index(
    agent: Agent, state: State[Any], recollection: Recollection[Any, Any] | None, encoding: Any
) -> int:
    if recollection is not None:
        agent.tell(recollection, state)
    return int(encoding.action_index(state, agent.choose(state)))


class AgentBot(pyspiel.Bot):
    """A chaosgames agent (a spec or level, as `--seat` takes it) as an OpenSpiel bot."""

    def __init__(self, game: ChaosGamesSpielGame, player_id: int, spec: str, seed: int | None = None) -> None:
        pyspiel.Bot.__init__(self)
        self.player_id = player_id
        self.setup = game.setup
        self.agent = from_spec(spec, seed=seed, game=self.setup.game.name)

    def step(self, state: ChaosGamesSpielState) -> int:
        inner = state._inner
        recollection = inner.recollections[self.player_id] if inner.recollections else None
        return _index(self.agent, state.chaos_state, recollection, self.setup.encoding)

    def restart_at(self, state: ChaosGamesSpielState) -> None:
        self.agent.reset()

    def inform_action(self, state: ChaosGamesSpielState, player_id: int, action: int) -> None:
        """Nothing to do: the state's recollections already hold what the seat saw."""

    def provides_policy(self) -> bool:
        return False


def policy(env: ChaosGamesAECEnv, spec: str, seed: int | None = None) -> Callable[[str], int]:
    """`act(agent)`: the action index a chaosgames agent (one per seat, seeded `seed + seat`)
    plays for `agent`, the PettingZoo agent to act in `env`."""
    players: dict[int, Agent] = {}

    def act(agent: str) -> int:
        seat = env.possible_agents.index(agent)
        player = players.get(seat)
        if player is None:
            player = players[seat] = from_spec(
                spec, seed=None if seed is None else seed + seat, game=env.game.name
            )
        table = env.table
        recollection = table.seats[seat] if table.seats else None
        return _index(player, table.state, recollection, table.encoding)

    return act
