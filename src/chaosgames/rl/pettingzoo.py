"""Our games as PettingZoo AEC environments: `env("chaos-cruisers", players=3)`.

- Agents are `player_0`, `player_1`, ... (seat order); the agent to act is the game's
  deciding player. Chance nodes (dice, shuffles, bag draws) are resolved inside the
  environment with its own random generator: `reset(seed=...)` fixes the whole episode
  for given actions.
- `observation_space(agent)` is a Dict: `observation`, a float32 vector in [0, 1] built
  only from `state.observation(seat)` (layouts in docs/research.md), and `action_mask`,
  int8 over the game's fixed action space (ones for the legal actions of the agent to
  act, zeros for the others). `action_space(agent)` is `Discrete(num_actions)`.
- Rewards come at the end of the game: each agent gets its `state.returns()` share (win
  1, loss 0, shared results split). After `max_steps` decisions of all agents together
  (default 2000) an unfinished game is truncated (`truncations` true, no reward): random
  play, for one, never finishes a Chaos Cruisers race.
- An illegal action raises `chaosgames.IllegalActionError` (sample with the mask) and
  changes nothing. An action is an integer: a Python or numpy int, not a bool or a float
  (so `14.9` never plays 14); anything else raises `ActionIndexTypeError`, which is also
  a TypeError, and an integer outside the action space `ActionIndexRangeError`, also a
  ValueError (both from `chaosgames.core.encoding`).
- `reset(seed=...)` takes an integer, numpy's too. `step`, `observe` and `render` before
  the first `reset` raise `ResetNeededError` (also a RuntimeError); an agent name that is
  not one of `possible_agents` raises `UnknownAgentError` (also a KeyError). Both are
  ChaosGamesErrors in `chaosgames.rl.settings`.
- A setting the environment does not take (`render_mode`, `max_steps`, a seed) raises
  `chaosgames.rl.settings.SettingError` (also a ValueError) or `SettingTypeError` (also
  a TypeError), both `InvalidOptionError`s.
- `render_mode="ansi"`: `render()` returns the acting agent's view as text (hidden
  information stays hidden); `"rgb_array"`: its picture (the game's SVG drawn by resvg)
  as a height x width x 3 uint8 array.
- `memory` (Royal Racers without the memory aid): what each agent's observation adds to
  the table: 0 (default) nothing, -1 every face-down card it saw go down, k the k it saw
  last (`chaosgames.core.information`). `planes=True` adds `board` to each observation,
  the board's planes as an image (planes x height x width), for the grid games.
- `state()` is the whole position as a vector (`state_space`), every face-down card in it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from chaosgames.core import Game
from chaosgames.core.encoding import ActionIndexTypeError
from chaosgames.core.errors import describe_choices, quote
from chaosgames.rl.settings import RENDER_MODES, ResetNeededError, UnknownAgentError, checked_render_mode
from chaosgames.rl.table import DEFAULT_MAX_STEPS, Table, resolve_game

Observation = dict[str, npt.NDArray[Any]]


def env(
    game: Game[Any, Any] | str,
    *,
    render_mode: str | None = None,
    max_steps: int | None = DEFAULT_MAX_STEPS,
    memory: int = 0,
    planes: bool = False,
    **options: Any,
) -> ChaosGamesAECEnv:
    """An AEC environment of `game` (a registry name with options, or a loaded Game)."""
    return ChaosGamesAECEnv(
        resolve_game(game, options),
        render_mode=render_mode,
        max_steps=max_steps,
        memory=memory,
        planes=planes,
    )


class ChaosGamesAECEnv(AECEnv[str, Observation, int]):
    """A chaosgames game as a PettingZoo AEC environment (see the module docstring)."""

    def __init__(
        self,
        game: Game[Any, Any],
        render_mode: str | None = None,
        max_steps: int | None = DEFAULT_MAX_STEPS,
        memory: int = 0,
        planes: bool = False,
    ) -> None:
        super().__init__()
        self.render_mode = checked_render_mode(render_mode)
        self.table = Table(game, max_steps, memory, planes)
        encoding = self.table.encoding
        self.metadata = {
            "render_modes": list(RENDER_MODES),
            "name": f"chaosgames_{game.name.replace('-', '_')}_v0",
            "is_parallelizable": False,
        }
        self.possible_agents = [f"player_{seat}" for seat in range(game.num_players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._observation_spaces = {agent: self.table.observation_space() for agent in self.possible_agents}
        self.state_space = spaces.Box(0.0, 1.0, encoding.observation_shape, np.float32)
        self._action_spaces = {agent: spaces.Discrete(encoding.num_actions) for agent in self.possible_agents}
        self.agents: list[str] = []
        self._has_reset = False

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_spaces[self._possible(agent)]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[self._possible(agent)]

    @property
    def game(self) -> Game[Any, Any]:
        return self.table.game

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.table.reset(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.table.player]
        self._has_reset = True

    def observe(self, agent: str) -> Observation:
        self._require_reset("observe")
        seat = self._seat[self._possible(agent)]
        acting = agent == self.agent_selection and not self.table.over
        mask = self.table.mask() if acting else np.zeros(self.table.encoding.num_actions, dtype=np.int8)
        vector = self.table.observe(seat)
        seen: Observation = {"observation": vector, "action_mask": mask}
        if self.table.board is not None:
            seen["board"] = self.table.planes(vector)
        return seen

    def state(self) -> npt.NDArray[np.float32]:
        """The whole position as a vector (`state_space`): what seat 0 would see if it
        remembered everything, which in every game is the whole position."""
        self._require_reset("state")
        return self.table.whole()

    def step(self, action: int | None) -> None:
        self._require_reset("step")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ActionIndexTypeError(f"{agent} is to act and must give an action index, not None.")
        chosen = self.table.action_at(action)  # a bad action is refused before anything changes
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.table.play(chosen)
        if self.table.over:
            for seat, share in enumerate(self.table.state.returns()):
                self.rewards[self.possible_agents[seat]] = float(share)
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[self.table.player]
            if self.table.truncated:
                self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        if self.render_mode is None:
            return None
        self._require_reset("render")
        seat = self._seat.get(self.agent_selection, 0)
        if self.render_mode == "rgb_array":
            return self.table.picture(seat)
        return self.table.render(seat)

    def close(self) -> None:
        """Nothing to release: the game lives in memory."""

    def _possible(self, agent: object) -> str:
        """`agent` if it is one of `possible_agents`; UnknownAgentError names them if not."""
        if not isinstance(agent, str) or agent not in self._seat:
            choices = describe_choices(self.possible_agents)
            raise UnknownAgentError(f"There is no agent {quote(agent)} here; choose {choices}.")
        return agent

    def _require_reset(self, call: str) -> None:
        if not self._has_reset:
            raise ResetNeededError(f"Call reset() before {call}(): there is no game yet.")
