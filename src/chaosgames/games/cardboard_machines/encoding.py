"""Cardboard Machines for research tools: action indices and observation vectors.

Actions (163): `gear:1`..`gear:6` (0-5), `move:left`, `move:ahead`, `move:right` (6-8),
`scroll` (9), `stop` (10), `ghost:<space>` (11-82), `ghost:none` (83), `place:<space>`
(84-155), `return` (156), `keep` (157), `swerve:left`, `swerve:right`, `malfunction`
(158-160), `buyoff:left`, `buyoff:right` (161-162). A space is counted from the table
row and lane of its notation: (row - 1) * 6 + lane, `1a` = 0 ... `12f` = 71.

Observation (741 numbers in [0, 1]), from `state.observation(player)` only (plus the
printed boards, which everyone sees):

- 9 planes of the 72 spaces of the table (plane-major, table row 1 = the back row first,
  lanes a-f): 0 terrain, 1 a ghost, 2-5 the car of player k (k seats after the observer),
  6 the row's sideways offset ((offset + 1) / 2), 7 the board shows its gray side, 8 the
  board has dark edges;
- then, for each player k (4 x 14): gear (6), stress (/ 10), lives (/ 3), round tokens
  (/ round_tokens), on the track, waiting to place a crashed car, starting row, whose
  turn it is; then the phase (10), the starting player k (4), round tokens left, laps
  (/ 10), this lap's token claimed, turns (/ max_turns, or / 600), movement points left
  (/ 6), gear changed, stressed, must continue, stress overflow, dice to roll (/ 12),
  blanks to reroll (/ 6), dice left to resolve (left, right, malfunction; / 6), a ghost
  to place, ghosts on the table (/ 10), the observer's seat (4), the number of players
  (3: 2-4).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chaosgames.core.encoding import NO_INDEX, BoardPlanes, Encoding, fraction, one_hot
from chaosgames.games.cardboard_machines.actions import Kind, MachineAction
from chaosgames.games.cardboard_machines.boards import BOARD_IDS, LANES, SIDES, TABLE_ROWS
from chaosgames.games.cardboard_machines.phases import PHASE_NAMES

if TYPE_CHECKING:
    from chaosgames.core.game import Action, State
    from chaosgames.games.cardboard_machines.rules_in_force import MachinesRules

SEATS = 4
SPACES = TABLE_ROWS * LANES

_FIXED: dict[str, int] = {
    **{f"gear:{g}": g - 1 for g in range(1, 7)},
    "move:left": 6,
    "move:ahead": 7,
    "move:right": 8,
    "scroll": 9,
    "stop": 10,
    "ghost:none": 11 + SPACES,
    "return": 12 + 2 * SPACES,
    "keep": 13 + 2 * SPACES,
    "swerve:left": 14 + 2 * SPACES,
    "swerve:right": 15 + 2 * SPACES,
    "malfunction": 16 + 2 * SPACES,
    "buyoff:left": 17 + 2 * SPACES,
    "buyoff:right": 18 + 2 * SPACES,
}
_SPACE_KINDS = {Kind.GHOST: 11, Kind.PLACE: 12 + SPACES}
NUM_ACTIONS = 19 + 2 * SPACES

_TERRAIN, _GHOST, _CAR, _OFFSET, _GRAY, _DARK = 0, 1, 2, 6, 7, 8
PLANES = 9
_PLAYER = PLANES * SPACES
_PER_PLAYER = 14
_PHASE = _PLAYER + SEATS * _PER_PLAYER
_FIRST = _PHASE + len(PHASE_NAMES)
_TURN = _FIRST + SEATS  # 16 numbers about the turn and the table
_SEAT = _TURN + 16
_PLAYERS = _SEAT + SEATS
SIZE = _PLAYERS + 3


@functools.lru_cache(maxsize=512)
def _boards_layout(boards: tuple[tuple[int, int], ...]) -> dict[int, float]:
    """The planes the six boards' faces give (they change only when the track scrolls)."""
    f: dict[int, float] = {}
    for b, (board, side_number) in enumerate(boards):
        side = SIDES[board][side_number]
        for row in range(2):
            for lane in range(LANES):
                cell = (2 * b + row) * LANES + lane
                if side.terrain[row * LANES + lane]:
                    f[_TERRAIN * SPACES + cell] = 1.0
                if side.offset != -1:
                    f[_OFFSET * SPACES + cell] = (side.offset + 1) / 2
                if side_number:
                    f[_GRAY * SPACES + cell] = 1.0
                if side.dark_edges:
                    f[_DARK * SPACES + cell] = 1.0
    return f


class CardboardEncoding(Encoding):
    """See the module docstring."""

    num_actions = NUM_ACTIONS
    observation_shape = (SIZE,)
    max_chance_outcomes = len(BOARD_IDS) - 1  # a board drawn from those not yet on the table

    def __init__(self, game: MachinesRules[Any, Any]) -> None:
        self.players = game.num_players
        self.round_tokens: int = game.options["round_tokens"]
        self.max_turns: int = game.options["max_turns"] or 600

    def board_planes(self) -> BoardPlanes:
        # Space (table row - 1) x 6 + lane: the back row first, as the table is drawn.
        return BoardPlanes(PLANES, TABLE_ROWS, LANES, tuple(divmod(space, LANES) for space in range(SPACES)))

    def action_index(self, state: State[Any], action: Action) -> int:
        if not isinstance(action, MachineAction):
            return NO_INDEX
        offset = _SPACE_KINDS.get(action.kind)
        if offset is not None and 0 <= action.arg < SPACES:
            return offset + action.arg  # the action holds the table space
        return _FIXED.get(str(action), NO_INDEX)

    def _slot_name(self, index: int) -> str:
        for text, i in _FIXED.items():
            if i == index:
                return text
        for kind, offset in _SPACE_KINDS.items():
            if offset <= index < offset + SPACES:
                return str(MachineAction(kind, index - offset))
        return f"no action ({index})"

    def observation_features(self, observation: Mapping[str, Any], player: int) -> dict[int, float]:
        f: dict[int, float] = {}
        back_row = 2 * observation["back"]
        self._track(f, observation, back_row)
        self._players(f, observation, player, back_row)
        self._turn(f, observation, player)
        return f

    def _relative(self, seat: int, player: int) -> int:
        return (seat - player) % self.players

    def _track(self, f: dict[int, float], obs: Mapping[str, Any], back_row: int) -> None:
        f.update(_boards_layout(tuple((b, s) for b, s in obs["boards"])))
        for space in obs["ghosts"]:
            cell = space - back_row * LANES
            if 0 <= cell < SPACES:
                f[_GHOST * SPACES + cell] = 1.0

    def _players(self, f: dict[int, float], obs: Mapping[str, Any], player: int, back_row: int) -> None:
        pending = set(obs["pending"])
        for seat, car in enumerate(obs["cars"]):
            k = self._relative(seat, player)
            base = _PLAYER + k * _PER_PLAYER
            cell = car["pos"] - back_row * LANES
            if car["pos"] >= 0 and 0 <= cell < SPACES:
                f[(_CAR + k) * SPACES + cell] = 1.0
                f[base + 10] = 1.0
            one_hot(f, base, car["gear"] - 1, 6)
            values = (
                fraction(car["stress"], 10),
                fraction(car["lives"], 3),
                fraction(car["tokens"], self.round_tokens),
            )
            for i, value in enumerate(values):
                if value:
                    f[base + 6 + i] = value
            if seat in pending:
                f[base + 11] = 1.0
            if car["start_row"]:
                f[base + 12] = 1.0
            if seat == obs["mover"]:
                f[base + 13] = 1.0

    def _turn(self, f: dict[int, float], obs: Mapping[str, Any], player: int) -> None:
        one_hot(f, _PHASE, PHASE_NAMES.index(obs["phase"]), len(PHASE_NAMES))
        if obs["first"] >= 0:
            f[_FIRST + self._relative(obs["first"], player)] = 1.0
        dice = obs["dice"]
        values = (
            fraction(obs["tokens_left"], self.round_tokens),
            fraction(obs["lap"], 10),
            float(obs["lap_claimed"]),
            fraction(obs["turn"], self.max_turns),
            fraction(obs["moves_left"], 6),
            float(obs["changed_gear"]),
            float(obs["stressed"]),
            float(obs["must_continue"]),
            float(obs["overflow"]),
            fraction(obs["to_roll"], 12),
            fraction(obs["rerolls"], 6),
            fraction(dice["left"], 6),
            fraction(dice["right"], 6),
            fraction(dice["malfunction"], 6),
            float(obs["ghost_pending"]),
            fraction(len(obs["ghosts"]), 10),
        )
        for i, value in enumerate(values):
            if value:
                f[_TURN + i] = value
        one_hot(f, _SEAT, player, SEATS)
        one_hot(f, _PLAYERS, self.players - 2, 3)
