"""Chaos Cruisers for research tools: action indices and observation vectors.

The course moves: tiles are lifted and laid elsewhere in chaos rounds, and coordinates may
become negative. Squares are therefore counted in a frame that follows the course: its
lower-left tile is one tile left of and below the leftmost and lowest tiles on the table,
and it is T = tiles + 2 tiles (S = 2T squares) wide and high, which holds every square of
the course, every place a lifted tile may be laid and every cruiser, because a connected
course of n tiles spans at most n tiles either way. A square (x, y) of the table is frame
cell (y - y0) * S + (x - x0), where (x0, y0) is the frame's lower-left square; a tile
likewise is (ty - ty0) * T + (tx - tx0). With the default 24-tile course, T = 26, S = 52.

Actions (11 + 100 + 3 S^2 + 2 T^2 + 2; 9577 for 24 tiles): the 11 speed choices
(`speed:+1`, `speed:-1`, `speed:=`, `nitro:2`..`nitro:5`, `brake:2`..`brake:5`), the
100 moves (`move:N1` ... in the game's order, speed 1 to 5), then `start:`, `reenter:`
and `obstacle:` on each frame cell, `lift:` and `lay:` on each frame tile, `stop` and
`no-obstacle`.

Observation (12 S^2 + 108 numbers in [0, 1]), from `state.observation(player)` and the
course option (gate places, which every player knows):

- 12 planes of frame cells (plane-major, bottom row first): 0 the course, 1-4 the tiles of
  the sun, moon, crown and arms gates (gates in use), 5 obstacles, 6 tiles laid in this
  chaos round, 7 the place the lifted tile came from, 8-11 cruiser k;
- then for each cruiser k (4 x 21): speed (6: null-5), the gate it must reach next (4),
  gates reached (/ the chart's length), speed coins 2-5 in hand (4), obstacle coins in
  hand (/ 2), out this round, off the course and still racing, finished, the cruiser
  deciding now, one of the observer's; then the phase (9), the round (/ max_rounds), tiles
  still to move (/ 10), the obstacle pass (2), the last chart row that began a chaos
  round ((row + 1) / chart length), the observer's seat (4), the number of players (3),
  who acts (the observer, another player, chance).

Cruiser k: the cruisers sorted by owner, starting with the observer's and going round
the table, then by colour (red, black, yellow, blue).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from chaosgames.core.encoding import NO_INDEX, BoardPlanes, Encoding, fraction, one_hot
from chaosgames.games.chaos_cruisers.actions import (
    COLOURS,
    KeepObstacle,
    Move,
    OnSquare,
    Speed,
    StopRelocating,
)
from chaosgames.games.chaos_cruisers.course import GATE_NAMES, tile_of, tile_squares
from chaosgames.games.chaos_cruisers.movement import MOVE_TABLE, SPEED_TABLE
from chaosgames.games.chaos_cruisers.state import PHASES, ChaosCruisersState

if TYPE_CHECKING:
    from chaosgames.core.game import Action, State
    from chaosgames.games.chaos_cruisers.rules_in_force import CruisersRules

SEATS = 4
SPEEDS: tuple[Speed, ...] = SPEED_TABLE[-1]  # every coin in hand: all 11 choices
MOVES: tuple[Move, ...] = tuple(m for table in MOVE_TABLE[1:] for m in table)  # speed null never moves
_SPEED_INDEX = {s: i for i, s in enumerate(SPEEDS)}
_MOVE_INDEX = {m: len(SPEEDS) + i for i, m in enumerate(MOVES)}
_FIXED = len(SPEEDS) + len(MOVES)

_COURSE, _GATE, _OBSTACLE, _MOVED, _LIFTED, _CRUISER = 0, 1, 5, 6, 7, 8
PLANES = 12
_PER_CRUISER = 21
_COLOUR = {name: c for c, name in enumerate(COLOURS)}
TILE_WORDS = ("lift", "lay")
"""Actions on a square that name a tile (by its lower-left square): indexed per frame tile."""


def frame_origin(tiles: Sequence[Sequence[int]]) -> tuple[int, int]:
    """The frame's lower-left tile: one tile left of and below the course's extremes."""
    return min(t[0] for t in tiles) - 1, min(t[1] for t in tiles) - 1


class CruisersEncoding(Encoding):
    """See the module docstring."""

    max_chance_outcomes = len(COLOURS)  # a tie for a place among at most four cruisers

    def __init__(self, game: CruisersRules[Any, Any]) -> None:
        self.players = game.num_players
        self.tiles_across = len(game.start_tiles) + 2
        self.squares_across = 2 * self.tiles_across
        cells = self.squares_across**2
        self.cells = cells
        self.offsets = {
            "start": _FIXED,
            "reenter": _FIXED + cells,
            "obstacle": _FIXED + 2 * cells,
            "lift": _FIXED + 3 * cells,
            "lay": _FIXED + 3 * cells + self.tiles_across**2,
        }
        self.stop_index = _FIXED + 3 * cells + 2 * self.tiles_across**2
        self.num_actions = self.stop_index + 2
        self.chart: tuple[str, ...] = tuple(game.chart)
        self.max_rounds: int = game.options["max_rounds"]
        self.gate_squares = {
            GATE_NAMES.index(gate): tile_squares(tile) for gate, tile in game.gate_tile.items()
        }
        self.globals = PLANES * cells + SEATS * _PER_CRUISER
        self._layouts: dict[tuple[tuple[int, int], ...], dict[int, float]] = {}
        self.observation_shape = (self.globals + 24,)

    # -- actions ------------------------------------------------------------------------

    def board_planes(self) -> BoardPlanes:
        # Frame cell (y - y0) x S + (x - x0): the bottom row first, drawn at the bottom.
        side = self.squares_across
        return BoardPlanes(
            PLANES, side, side, tuple((side - 1 - c // side, c % side) for c in range(side * side))
        )

    def action_index(self, state: State[Any], action: Action) -> int:
        return self._index(_origin(state), action)

    def legal_indices(self, state: State[Any]) -> dict[int, Action]:
        origin = _origin(state)
        found = {self._index(origin, a): a for a in state.legal_actions()}
        found.pop(NO_INDEX, None)
        return dict(sorted(found.items()))

    def _index(self, origin: tuple[int, int], action: Action) -> int:
        if isinstance(action, Speed):
            return _SPEED_INDEX[action]
        if isinstance(action, Move):
            return _MOVE_INDEX[action]
        if isinstance(action, OnSquare):
            if action.word in TILE_WORDS:
                tx, ty = tile_of(action.square)
                x, y = tx - origin[0], ty - origin[1]
                if not (0 <= x < self.tiles_across and 0 <= y < self.tiles_across):
                    return NO_INDEX
                return self.offsets[action.word] + y * self.tiles_across + x
            cell = self._cell(origin, action.square)
            return NO_INDEX if cell < 0 else self.offsets[action.word] + cell
        if isinstance(action, StopRelocating):
            return self.stop_index
        if isinstance(action, KeepObstacle):
            return self.stop_index + 1
        return NO_INDEX  # Lead: a chance outcome

    def _cell(self, origin: tuple[int, int], square: Sequence[int]) -> int:
        x, y = square[0] - 2 * origin[0], square[1] - 2 * origin[1]
        if not (0 <= x < self.squares_across and 0 <= y < self.squares_across):
            return NO_INDEX
        return y * self.squares_across + x

    def _slot_name(self, index: int) -> str:
        if index < len(SPEEDS):
            return str(SPEEDS[index])
        if index < _FIXED:
            return str(MOVES[index - len(SPEEDS)])
        if index == self.stop_index:
            return "stop"
        if index == self.stop_index + 1:
            return "no-obstacle"
        for kind in ("lay", "lift", "obstacle", "reenter", "start"):
            offset = self.offsets[kind]
            if index >= offset:
                across = self.tiles_across if kind in TILE_WORDS else self.squares_across
                y, x = divmod(index - offset, across)
                return f"{kind}: frame {'tile' if across == self.tiles_across else 'square'} ({x}, {y})"
        return f"no action ({index})"

    # -- observations -------------------------------------------------------------------

    def observation_features(self, observation: Mapping[str, Any], player: int) -> dict[int, float]:
        f: dict[int, float] = {}
        origin = frame_origin(observation["tiles"])
        self._course(f, observation, origin)
        slots = sorted(
            range(len(observation["cruisers"])),
            key=lambda c: ((observation["cruisers"][c]["player"] - player) % self.players, c),
        )
        deciding = _deciding(observation)
        for k, c in enumerate(slots):
            self._cruiser(f, observation["cruisers"][c], k, origin, player, c == deciding)
        self._turn(f, observation, player, deciding)
        return f

    def _mark(self, f: dict[int, float], plane: int, origin: tuple[int, int], square: Sequence[int]) -> None:
        cell = self._cell(origin, square)
        if cell >= 0:
            f[plane * self.cells + cell] = 1.0

    def _course(self, f: dict[int, float], obs: Mapping[str, Any], origin: tuple[int, int]) -> None:
        # The course and its gates change only in chaos rounds: kept per course.
        key = tuple((t[0], t[1]) for t in obs["tiles"])
        layout = self._layouts.get(key)
        if layout is None:
            layout = {}
            for tile in key:
                for square in tile_squares(tile):
                    self._mark(layout, _COURSE, origin, square)
            for gate, squares in self.gate_squares.items():
                for square in squares:
                    self._mark(layout, _GATE + gate, origin, square)
            if len(self._layouts) >= 256:
                self._layouts.clear()
            self._layouts[key] = layout
        f.update(layout)
        for x, y, _ in obs["obstacles"]:
            self._mark(f, _OBSTACLE, origin, (x, y))
        for tile in obs["moved_tiles"]:
            for square in tile_squares((tile[0], tile[1])):
                self._mark(f, _MOVED, origin, square)
        if obs["lifted"] is not None:
            for square in tile_squares((obs["lifted"][0], obs["lifted"][1])):
                self._mark(f, _LIFTED, origin, square)

    def _cruiser(
        self,
        f: dict[int, float],
        cruiser: Mapping[str, Any],
        k: int,
        origin: tuple[int, int],
        player: int,
        deciding: bool,
    ) -> None:
        base = PLANES * self.cells + k * _PER_CRUISER
        if cruiser["square"] is not None:
            self._mark(f, _CRUISER + k, origin, cruiser["square"])
        one_hot(f, base, cruiser["speed"], 6)
        reached = cruiser["gates_reached"]
        finished = reached >= len(self.chart)
        if not finished:
            f[base + 6 + GATE_NAMES.index(self.chart[reached])] = 1.0
        if reached:
            f[base + 10] = fraction(reached, len(self.chart))
        for coin in cruiser["speed_coins"]:
            f[base + 11 + coin - 2] = 1.0
        flags = (
            fraction(cruiser["obstacles_in_hand"], 2),
            float(cruiser["out_this_round"]),
            float(cruiser["square"] is None and not finished),
            float(finished),
            float(deciding),
            float(cruiser["player"] == player),
        )
        for i, value in enumerate(flags):
            if value:
                f[base + 15 + i] = value

    def _turn(self, f: dict[int, float], obs: Mapping[str, Any], player: int, deciding: int) -> None:
        base = self.globals
        one_hot(f, base, PHASES.index(obs["phase"]), len(PHASES))
        values = (
            fraction(obs["round"], self.max_rounds),
            fraction(obs["tiles_left"], 10),
            float(obs["obstacle_pass"] == 1),
            float(obs["obstacle_pass"] == 2),
            fraction(obs["chaos_row"] + 1, len(self.chart)),
        )
        for i, value in enumerate(values):
            if value:
                f[base + 9 + i] = value
        one_hot(f, base + 14, player, SEATS)
        one_hot(f, base + 18, self.players - 2, 3)
        if obs["phase"] == "order":
            f[base + 23] = 1.0
        elif deciding >= 0:
            owner = obs["cruisers"][deciding]["player"]
            f[base + (21 if owner == player else 22)] = 1.0


def _origin(state: State[Any]) -> tuple[int, int]:
    """The frame of a state: from its tiles, as its observation lists them."""
    assert isinstance(state, ChaosCruisersState)
    return frame_origin(tuple(state.tiles))


def _deciding(obs: Mapping[str, Any]) -> int:
    """The cruiser whose player decides now (as `state.deciding_cruiser()`), or -1."""
    phase = obs["phase"]
    if phase in ("start", "speed", "move", "obstacles"):
        return _COLOUR[obs["order"][obs["turn"]]]
    if phase == "reenter" and obs["reentering"] is not None:
        return _COLOUR[obs["reentering"]]
    if phase in ("lift", "lay") and obs["relocator"] is not None:
        return _COLOUR[obs["relocator"]]
    return -1
