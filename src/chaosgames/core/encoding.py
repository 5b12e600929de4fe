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
- An index is an integer: a Python int, a numpy integer or a 0-d integer array (anything
  `operator.index` takes), but not a bool: `True` is an int to Python, yet as an action
  it is almost surely a mask entry passed by mistake (and numpy's own bools refuse
  `operator.index`). A float is refused even when whole, so `14.9` never quietly plays 14.
  Anything else raises `ActionIndexTypeError` (also a TypeError); an integer outside
  `range(num_actions)` raises `ActionIndexRangeError` (also a ValueError), so a negative
  index never wraps round to the end of the space.
- `observation_features(observation, player)` reads only what `state.observation(player)`
  returned (plus the game's options, which every player knows), so hidden information
  never reaches a learner. Every value lies in [0, 1].
"""

from __future__ import annotations

import operator
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from math import prod
from typing import Any, TypeAlias

from chaosgames.core.actions import Action
from chaosgames.core.errors import ChaosGamesError, IllegalActionError, quote

GameState: TypeAlias = Any
"""A state (a `State`) of the encoding's game, whose legal actions it numbers. Not named
as `State`: core's game names this module (`Game.encoding()`), so naming it back would be
a circle; nor as a protocol of what this module reads (`legal_actions()`): the games'
encodings take a `State`, and a method may not take less than the one it overrides."""

NO_INDEX = -1
"""What `action_index` returns for a legal action the scheme cannot express (see the game's
documentation; research tools then never offer that action)."""


class ActionIndexTypeError(IllegalActionError, TypeError):
    """An action index that is not an integer: a float, text, None, a bool, a list ...

    Also a TypeError, as research libraries (Gymnasium, PettingZoo) expect of a value of
    the wrong kind.
    """


class ActionIndexRangeError(IllegalActionError, ValueError):
    """An integer outside the game's action space `range(num_actions)`.

    Also a ValueError, as research libraries expect of a value out of bounds.
    """


def as_index(value: Any) -> int:
    """`value` as an action index (see the module docstring); ActionIndexTypeError if not an integer."""
    if not isinstance(value, bool):
        try:
            return operator.index(value)
        except TypeError:
            pass
    raise ActionIndexTypeError(
        f"An action index is an integer (a Python or numpy int), not {quote(value)} ({type(value).__name__})."
    )


@dataclass(frozen=True)
class BoardPlanes:
    """The observation vector begins with `planes` planes of `len(cells)` entries each
    (plane-major); entry i of a plane is the grid cell `cells[i]`, (row, column) of a
    `height` x `width` grid, row 0 at the top as the board is drawn."""

    planes: int
    height: int
    width: int
    cells: tuple[tuple[int, int], ...]


class Encoding(ABC):
    """Action indices and observation vectors of one game with its options."""

    num_actions: int
    """Size of the action space: every index lies in `range(num_actions)`."""
    observation_shape: tuple[int, ...]
    """Shape of an observation vector (a flat list of `prod(observation_shape)` numbers)."""
    max_chance_outcomes: int
    """The most outcomes a chance node of this game offers."""

    @abstractmethod
    def action_index(self, state: GameState, action: Action) -> int:
        """Index of `action`, a legal action of the deciding player in `state` (or NO_INDEX)."""

    @abstractmethod
    def observation_features(self, observation: Mapping[str, Any], player: int) -> dict[int, float]:
        """The non-zero entries of the observation vector: position -> value in (0, 1].

        `observation` is what `state.observation(player)` returned.
        """

    def board_planes(self) -> BoardPlanes | None:
        """For a game played on a grid: how the observation vector's first planes lie on
        it, so a learner can take them as images (`chaosgames.rl`'s `observation="planes"`).
        None (the default) for a game without one."""
        return None

    @abstractmethod
    def _slot_name(self, index: int) -> str:
        """What `index`, already checked to lie in `range(num_actions)`, stands for."""

    # -- what every encoding shares ------------------------------------------------------

    def slot_name(self, index: object) -> str:
        """What an index stands for, in words or notation (for documentation and debugging).

        Anything but an integer in `range(num_actions)` is refused (see `checked_index`).
        """
        return self._slot_name(self.checked_index(index))

    def checked_index(self, value: object) -> int:
        """`value` as an index of this action space; ActionIndexTypeError or ActionIndexRangeError if not."""
        index = as_index(value)
        if not 0 <= index < self.num_actions:
            raise ActionIndexRangeError(
                f"Action index {quote(index)} is outside the action space: "
                f"indices run from 0 to {self.num_actions - 1}."
            )
        return index

    @property
    def observation_size(self) -> int:
        return prod(self.observation_shape)

    def observation_vector(self, observation: Mapping[str, Any], player: int) -> list[float]:
        """The whole observation vector as a flat list."""
        vector = [0.0] * self.observation_size
        for position, value in self.observation_features(observation, player).items():
            vector[position] = value
        return vector

    def legal_indices(self, state: GameState) -> dict[int, Action]:
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

    def action_at(self, state: GameState, index: object) -> Action:
        """The legal action whose index is `index`; IllegalActionError if there is none."""
        self.checked_index(index)  # before listing the legal actions, the costly part
        return self.pick(self.legal_indices(state), index)

    def pick(self, legal: Mapping[int, Action], value: object) -> Action:
        """The action numbered `value` among `legal` (from `legal_indices`).

        ActionIndexTypeError or ActionIndexRangeError for a value that is no index at
        all, IllegalActionError (naming the legal indices) for an index not among them.
        """
        index = self.checked_index(value)
        action = legal.get(index)
        if action is None:
            shown = ", ".join(str(i) for i in list(legal)[:12]) + (" ..." if len(legal) > 12 else "")
            raise IllegalActionError(
                f"Action index {index} ({self._slot_name(index)}) is not legal here; "
                f"legal indices are {shown or 'none'}."
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
