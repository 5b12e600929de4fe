"""What the PettingZoo and Gymnasium adapters share: a game at a table.

The table holds the state, resolves chance nodes itself with its seeded random
generator (so the same seed gives the same episode), numbers the legal actions with the
game's encoding and builds the numpy arrays a learner sees: the observation vector of a
seat (from `state.observation(seat)` only) and the action mask.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from chaosgames.core import CHANCE, Action, Game, State, load_game
from chaosgames.core.chance import sample_outcome
from chaosgames.core.information import ALL, Recollection
from chaosgames.rl.settings import (
    SettingError,
    SettingTypeError,
    checked_seed,
    optional_whole_number,
    whole_number,
)

DEFAULT_MAX_STEPS = 2000
"""Decisions after which an episode is truncated (random play never ends some races)."""
MAX_STEPS_ACCEPTED = "a positive number of decisions, or None for no limit"

Watcher = Callable[[State[Any], Action], None]


def resolve_game(game: Game[Any, Any] | str, options: Mapping[str, Any]) -> Game[Any, Any]:
    """A Game from a registry name and options, or the Game itself (then no options)."""
    if isinstance(game, Game):
        if options:
            raise SettingTypeError("Give options to load_game, or a game name with options, not both.")
        return game
    return load_game(game, **options)


MEMORY_ACCEPTED = "-1 (every card seen), 0 (what the table shows) or a count of cards remembered"


def checked_memory(value: object) -> int:
    return whole_number("memory", value, ALL, accepted=MEMORY_ACCEPTED)


def checked_planes(value: object) -> bool:
    if not isinstance(value, bool):
        raise SettingTypeError(f"planes must be True or False, not {value!r}.")
    return value


class Table:
    """One game being played by learners: state, chance, indices and arrays.

    `memory`: in a game that hides information, what a seat's observation adds to what the
    table shows: the things it saw and remembers (`chaosgames.core.information`; 0, the
    default: nothing, the table as it lies; -1: everything it saw). `planes`: observations
    also give the board's planes as an image (`board`, planes x height x width).
    """

    def __init__(
        self,
        game: Game[Any, Any],
        max_steps: int | None = DEFAULT_MAX_STEPS,
        memory: int = 0,
        planes: bool = False,
    ) -> None:
        self.max_steps = optional_whole_number("max_steps", max_steps, 1, MAX_STEPS_ACCEPTED)
        self.memory = checked_memory(memory)
        self.game = game
        self.encoding = game.encoding()
        self.board = self.encoding.board_planes() if checked_planes(planes) else None
        if planes and self.board is None:
            raise SettingError(f"{game.title} is not played on a grid: it has no board planes.")
        self.rng = random.Random()
        self.state: State[Any] = game.new_initial_state()
        self.steps = 0
        self.watchers: list[Watcher] = []
        self.seats: list[Recollection[Any, Any]] = []
        self._legal: dict[int, Action] | None = None

    def observation_space(self) -> spaces.Dict:
        """What a seat's observation holds: the vector, the action mask and, with `planes`,
        the board."""
        encoding, board = self.encoding, self.board
        fields: dict[str, spaces.Space[Any]] = {
            "observation": spaces.Box(0.0, 1.0, encoding.observation_shape, np.float32),
            "action_mask": spaces.Box(0, 1, (encoding.num_actions,), np.int8),
        }
        if board is not None:
            fields["board"] = spaces.Box(0.0, 1.0, (board.planes, board.height, board.width), np.float32)
        return spaces.Dict(fields)

    def reset(self, seed: object = None) -> None:
        """A new game; with a seed (an integer, numpy's too), chance restarts from it, else it draws on."""
        number = checked_seed(seed)  # random.Random refuses numpy integers, takes floats and text
        if number is not None:
            self.rng = random.Random(number)
        self.state = self.game.new_initial_state()
        self.steps = 0
        self._legal = None
        hides = self.game.hides_information()
        self.seats = [self.game.recollection(seat) for seat in range(self.game.num_players)] if hides else []
        self._settle()

    @property
    def player(self) -> int:
        """The deciding player (never CHANCE between calls), or TERMINAL."""
        return self.state.current_player()

    @property
    def over(self) -> bool:
        return self.state.is_terminal()

    @property
    def truncated(self) -> bool:
        """The decision budget is spent and the game is not over."""
        return self.max_steps is not None and self.steps >= self.max_steps and not self.over

    def legal(self) -> dict[int, Action]:
        """Index -> legal action of the deciding player."""
        if self._legal is None:
            self._legal = {} if self.over else self.encoding.legal_indices(self.state)
        return self._legal

    def is_legal(self, index: int) -> bool:
        return index in self.legal()

    def mask(self) -> npt.NDArray[np.int8]:
        mask = np.zeros(self.encoding.num_actions, dtype=np.int8)
        legal = list(self.legal())
        if legal:
            mask[legal] = 1
        return mask

    def view(self, seat: int, memory: int | None = None) -> dict[str, Any]:
        """What `seat` knows: `state.observation(seat)`, with what it remembers (`memory`,
        the table's by default) in a game that hides information."""
        memory = self.memory if memory is None else memory
        if self.seats and memory:
            return self.seats[seat].document(self.state, memory)
        return self.state.observation(seat)

    def observe(self, seat: int, memory: int | None = None) -> npt.NDArray[np.float32]:
        """The observation vector of `seat`, built from what it knows (`view`) only."""
        vector = np.zeros(self.encoding.observation_shape, dtype=np.float32)
        features = self.encoding.observation_features(self.view(seat, memory), seat)
        if features:
            flat = vector.reshape(-1)
            flat[list(features)] = list(features.values())
        return vector

    def planes(self, vector: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The board's planes of an observation vector as an image (planes x height x width)."""
        board = self.board
        assert board is not None
        image = np.zeros((board.planes, board.height, board.width), dtype=np.float32)
        cells = len(board.cells)
        rows = np.array([r for r, _ in board.cells])
        cols = np.array([c for _, c in board.cells])
        image[:, rows, cols] = vector.reshape(-1)[: board.planes * cells].reshape(board.planes, cells)
        return image

    def whole(self) -> npt.NDArray[np.float32]:
        """The whole position as a vector (PettingZoo's `state()`): seat 0's view with every
        thing it saw remembered, which since it saw the game from its start is all of it."""
        return self.observe(0, ALL)

    def picture(self, seat: int) -> npt.NDArray[np.uint8]:
        """The seat's view of the board as an RGB image (height x width x 3), from the game's
        SVG drawn by resvg (`resvg-py`, part of the `rl` extra)."""
        import io

        import resvg_py
        from PIL import Image

        svg = self.game.render_svg(self.state, seat)
        png = bytes(resvg_py.svg_to_bytes(svg_string=svg, background="#ffffff"))
        with Image.open(io.BytesIO(png)) as image:
            return np.asarray(image.convert("RGB"), dtype=np.uint8)

    def action_at(self, index: object) -> Action:
        """The deciding player's action numbered `index`, an integer (see `Encoding.pick`).

        Anything else raises (an IllegalActionError), so `14.9` never plays 14 and `"3"`
        never plays 3.
        """
        return self.encoding.pick(self.legal(), index)

    def play_index(self, index: object) -> None:
        """Play the deciding player's action numbered `index`; IllegalActionError if none."""
        self.play(self.action_at(index))

    def play(self, action: Action) -> None:
        """Play a legal action (an agent's choice), count the decision, resolve chance."""
        self._apply(action)
        self.steps += 1
        self._settle()

    def render(self, seat: int) -> str:
        return self.game.render_text(self.state, seat)

    def _apply(self, action: Action) -> None:
        for watch in self.watchers:
            watch(self.state, action)
        for recollection in self.seats:
            recollection.hear(self.state, action)
        self.state.apply_action(action)
        self._legal = None

    def _settle(self) -> None:
        while self.state.current_player() == CHANCE:
            self._apply(sample_outcome(self.state.chance_outcomes(), self.rng))
