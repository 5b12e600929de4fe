"""How research tools see a game: a fixed action space and fixed-size observation vectors.

Reinforcement-learning libraries (PettingZoo, Gymnasium, OpenSpiel) want every action
as a number below a fixed bound and every observation as an array of a fixed shape.
Which number an action gets and which entry says what are game knowledge, so each game
describes them in an `Encoding` (its package's `encoding.py`, returned by
`Game.encoding()`), and `chaosgames.rl` stays generic.

Rules every encoding keeps (checked for every game in tests/rl):

- `action_index(state, action)` gives the deciding player's legal actions distinct
  indices in `range(num_actions)`; the index scheme is a fixed enumeration of the
  actions the game's options allow (documented in docs/research.md). Chance outcomes
  have no index: research tools resolve chance themselves or number the outcomes by
  their order in `chance_outcomes()` (fewer than `max_chance_outcomes`).
- `observation_features(observation, player)` reads only what `state.observation(player)`
  returned (plus the game's options, which every player knows), so hidden information
  never reaches a learner. Every value lies in [0, 1].
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from math import prod
from typing import TYPE_CHECKING, Any

from chaosgames.core.errors import ChaosGamesError, IllegalActionError

if TYPE_CHECKING:
    from chaosgames.core.game import Action, State

NO_INDEX = -1
"""What `action_index` returns for a legal action the scheme cannot express (see the game's
documentation; research tools then never offer that action)."""


class Encoding(ABC):
    """Action indices and observation vectors of one game with its options."""

    num_actions: int
    """Size of the action space: every index lies in `range(num_actions)`."""
    observation_shape: tuple[int, ...]
    """Shape of an observation vector (a flat list of `prod(observation_shape)` numbers)."""
    max_chance_outcomes: int
    """The most outcomes a chance node of this game offers."""

    @abstractmethod
    def action_index(self, state: State, action: Action) -> int:
        """Index of `action`, a legal action of the deciding player in `state` (or NO_INDEX)."""

    @abstractmethod
    def observation_features(self, observation: Mapping[str, Any], player: int) -> dict[int, float]:
        """The non-zero entries of the observation vector: position -> value in (0, 1].

        `observation` is what `state.observation(player)` returned.
        """

    @abstractmethod
    def slot_name(self, index: int) -> str:
        """What an index stands for, in words or notation (for documentation and debugging)."""

    # -- what every encoding shares ------------------------------------------------------

    @property
    def observation_size(self) -> int:
        return prod(self.observation_shape)

    def observation_vector(self, observation: Mapping[str, Any], player: int) -> list[float]:
        """The whole observation vector as a flat list."""
        vector = [0.0] * self.observation_size
        for position, value in self.observation_features(observation, player).items():
            vector[position] = value
        return vector

    def legal_indices(self, state: State) -> dict[int, Action]:
        """Index -> action for every legal action of the deciding player, in index order."""
        found: dict[int, Action] = {}
        for action in state.legal_actions():
            index = self.action_index(state, action)
            if index == NO_INDEX:
                continue
            if index in found:
                raise ChaosGamesError(
                    f"Two legal actions, {found[index]} and {action}, share action index {index}."
                )
            found[index] = action
        return dict(sorted(found.items()))

    def action_at(self, state: State, index: int) -> Action:
        """The legal action whose index is `index`; IllegalActionError if there is none."""
        legal = self.legal_indices(state)
        action = legal.get(index)
        if action is None:
            meaning = self.slot_name(index) if 0 <= index < self.num_actions else "out of range"
            shown = ", ".join(str(i) for i in list(legal)[:12]) + (" ..." if len(legal) > 12 else "")
            raise IllegalActionError(
                f"Action index {index} ({meaning}) is not legal here; legal indices are {shown or 'none'}."
            )
        return action


def one_hot(features: dict[int, float], offset: int, position: int, size: int) -> None:
    """Set entry `offset + position` when `position` lies in `range(size)` (else nothing)."""
    if 0 <= position < size:
        features[offset + position] = 1.0


def fraction(value: float, scale: float) -> float:
    """`value / scale` clipped to [0, 1]: counts and clocks as observation values."""
    if value <= 0 or scale <= 0:
        return 0.0
    return min(1.0, value / scale)
