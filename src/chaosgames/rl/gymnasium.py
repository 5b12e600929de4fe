"""One seat of a game as a single-agent Gymnasium environment.

    env = ChaosGamesEnv("royal-racers", seat=0, opponents="greedy", players=3)
    env = gymnasium.make("chaosgames/chaos-checkers-v0", opponents="mcts:iterations=50", chaos=False)

- The learner plays seat `seat`; every other seat is a computer player named by an agent
  spec (`random`, `greedy`, `mcts:iterations=50`, ...): one spec for all of them, or a
  list with one spec per other seat, in seat order. They move inside `step()`, and chance
  nodes are resolved there too, so `step()` returns at the learner's next decision.
- Observation: a Dict of `observation` (float32 in [0, 1], built only from
  `state.observation(seat)`; layouts in docs/research.md) and `action_mask` (int8 over the
  fixed `Discrete` action space). `action_masks()` gives the mask as booleans (the
  convention of maskable policy learners).
- Reward: the learner's `state.returns()` share when the game ends (win 1, loss 0,
  shared results split), else 0. An illegal action ends the episode with
  `illegal_reward` (default -1) and `info["illegal_action"] = True`; so does an integer
  outside the action space. An action that is not an integer at all (a float, even a
  whole one, text, None, a bool) raises `ActionIndexTypeError` (also a TypeError) and
  the episode goes on; Python and numpy integers are actions.
- Truncation: after `max_steps` learner decisions (default 2000; None: no limit) an
  unfinished game is truncated (`truncated` true, no reward; never scored as a draw).
- `memory`, `planes` and `render_mode="rgb_array"` as in the PettingZoo environment: what
  the learner's observation adds of what it saw and remembers (Royal Racers), the board's
  planes as an image (`board`), its picture as an RGB array. The opponents decide from
  their own seats' information (`greedy`, `ismcts`; `mcts` sees everything).
- A setting the environment does not take (a seat past the last, `opponents` that are no
  agent specs, a non-numeric `illegal_reward`, a seed) raises
  `chaosgames.rl.settings.SettingError` (also a ValueError) or `SettingTypeError` (also a
  TypeError), both `InvalidOptionError`s; an unknown agent raises `AgentError`.
- `reset(seed=...)` fixes chance and the opponents' seeds, so the same seed and the same
  learner actions give the same episode (with iteration-budget opponents). A seed is an
  integer of at least 0 (numpy's too: it is handed to Gymnasium as a Python int).

Importing this module registers `chaosgames/<game>-v0` for every game with Gymnasium.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any, cast

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from chaosgames.agents import Agent, from_spec
from chaosgames.core import ChaosGamesError, Game, list_games
from chaosgames.core.encoding import as_index
from chaosgames.core.errors import quote
from chaosgames.rl.settings import (
    SettingError,
    SettingTypeError,
    checked_render_mode,
    checked_seed,
    optional_whole_number,
    real_number,
    whole_number,
)
from chaosgames.rl.table import DEFAULT_MAX_STEPS, MAX_STEPS_ACCEPTED, Table, resolve_game

Observation = dict[str, npt.NDArray[Any]]


class ChaosGamesEnv(gymnasium.Env[Observation, np.int64]):
    """A chaosgames game seen from one seat (see the module docstring)."""

    # Read by gymnasium.make before an instance exists, so it is a class attribute.
    metadata: dict[str, Any] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        game: Game[Any, Any] | str = "chaos-checkers",
        *,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        render_mode: str | None = None,
        max_steps: int | None = DEFAULT_MAX_STEPS,
        illegal_reward: float = -1.0,
        memory: int = 0,
        planes: bool = False,
        **options: Any,
    ) -> None:
        self.render_mode = checked_render_mode(render_mode)
        loaded = resolve_game(game, options)
        n = loaded.num_players
        self.seat = whole_number("seat", seat, 0, n - 1, f"a seat from 0 to {n - 1} for {n} players")
        self.illegal_reward = real_number("illegal_reward", illegal_reward)
        # max_steps counts the learner's decisions; the table counts everyone's.
        self.max_steps = optional_whole_number("max_steps", max_steps, 1, MAX_STEPS_ACCEPTED)
        self.table = Table(loaded, None, memory, planes)
        others = [s for s in range(n) if s != self.seat]
        self.opponent_specs = dict(zip(others, _opponent_specs(opponents, len(others)), strict=True))
        for spec in self.opponent_specs.values():
            from_spec(spec, game=loaded.name)  # a bad spec fails here, not at the first reset
        self.observation_space = cast("spaces.Space[Observation]", self.table.observation_space())
        self.action_space = spaces.Discrete(self.table.encoding.num_actions)
        self._seeder: random.Random | None = None
        self._opponents: dict[int, Agent] = {}
        self._steps = 0
        self._done = True

    @property
    def game(self) -> Game[Any, Any]:
        return self.table.game

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        seed = checked_seed(seed, low=0)  # Gymnasium's seeding takes Python ints of at least 0 only
        super().reset(seed=seed)
        if seed is not None or self._seeder is None:
            self._seeder = random.Random(seed)
        episode = self._seeder.randrange(2**31)
        self.table.reset(episode)
        self._opponents = {
            s: from_spec(spec, seed=episode + 1 + s, game=self.game.name)
            for s, spec in self.opponent_specs.items()
        }
        self.table.watchers = [agent.observe for agent in self._opponents.values()]
        self._steps = 0
        self._done = False
        self._play_opponents()
        return self._observation(), {}

    def step(self, action: Any) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise ChaosGamesError("The episode is over; call reset() to start a new game.")
        index = as_index(action)  # not an integer at all: refused, and the episode goes on
        if not self.table.is_legal(index):
            self._done = True
            return self._observation(), self.illegal_reward, True, False, {"illegal_action": True}
        self.table.play_index(index)
        self._steps += 1
        self._play_opponents()
        terminated = self.table.over
        reward = float(self.table.state.returns()[self.seat]) if terminated else 0.0
        truncated = not terminated and self.max_steps is not None and self._steps >= self.max_steps
        self._done = terminated or truncated
        return self._observation(), reward, terminated, truncated, {}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the learner as booleans."""
        return self.table.mask().astype(bool)

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        if self.render_mode is None:
            return None
        if self.render_mode == "rgb_array":
            return self.table.picture(self.seat)
        return self.table.render(self.seat)

    def _play_opponents(self) -> None:
        while not self.table.over and self.table.player != self.seat:
            agent = self._opponents[self.table.player]
            self.table.play(agent.choose(self.table.state))

    def _observation(self) -> Observation:
        mask = (
            self.table.mask()
            if self.table.player == self.seat
            else np.zeros(self.table.encoding.num_actions, dtype=np.int8)
        )
        vector = self.table.observe(self.seat)
        seen: Observation = {"observation": vector, "action_mask": mask}
        if self.table.board is not None:
            seen["board"] = self.table.planes(vector)
        return seen


def _opponent_specs(opponents: object, count: int) -> list[str]:
    """One agent spec per other seat, from one spec for all or a list of `count`."""
    if isinstance(opponents, str):
        return [opponents] * count
    specs = list(opponents) if isinstance(opponents, Iterable) else None
    if specs is None or not all(isinstance(spec, str) for spec in specs):
        raise SettingTypeError(
            "opponents must be an agent spec such as 'random', 'greedy' or 'mcts:iterations=50', "
            f"or a list of them, one per other seat; not {quote(opponents)}."
        )
    if len(specs) != count:
        raise SettingError(f"Give one opponent spec, or {count} (one per other seat), not {len(specs)}.")
    return specs


def register() -> None:
    """Register `chaosgames/<game>-v0` for every game (again: nothing happens)."""
    for name in list_games():
        env_id = f"chaosgames/{name}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=ChaosGamesEnv, kwargs={"game": name})


register()
