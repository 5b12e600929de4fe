"""Royal Racers for research tools: action indices and observation vectors.

Actions (217): `start:`, `place:`, `down:`, `up:`, `reveal:` and `move:` each take one of
the 36 squares, in that order of kinds, squares numbered a1=0, b1=1, ..., f6=35; then
`stay` (216). Index = 36 * kind + square.

Observation (1098 numbers in [0, 1]), from `state.observation(player)` only:

- 28 planes of the 6x6 grid (plane-major, square a1 first): 0 a card lies there (face up
  or down), 1 face down, 2-10 rank ace..9 and 11-14 suit s h d c of a card the player can
  see (face-down ranks stay zero unless `memory_aid` shows them), 15-18 the pawn of
  player k, 19-22 a flag of player k, 23-26 player k's next flag to touch, 27 the flag's
  place in its owner's order ((index + 1) / flags). Player k is k seats after the
  observer (k = 0: the observer).
- then 90 numbers: phase (7: deal start flags roll flip move over), the die (6: null ace
  2-5; only during the turn it was rolled for, as the observation shows it), the latest
  flip's kind (3: down up reveal), whether it succeeded, its square (36), the rank (9) and
  suit (4) of the card it showed (all zero once the next decision has come), flags
  touched per player k (/ flags), coins per player k (/ flags x races), who acts (4
  players k, then chance), the observer's seat (4), the number of players (3: 2-4),
  race / races, round / max_rounds, turn / players, rounds played / (max_rounds x races).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chaosgames.core.encoding import NO_INDEX, BoardPlanes, Encoding, fraction, one_hot
from chaosgames.games.royal_racers.actions import (
    BY_SQUARE,
    DIE_FACES,
    FLIP_KINDS,
    SQUARE_KINDS,
    Kind,
    RacerAction,
)
from chaosgames.games.royal_racers.board import CARD_BY_NAME, NUM_CARDS, RANK_OF, SQUARE_BY_NAME, SQUARES
from chaosgames.games.royal_racers.state import PHASE_NAMES

if TYPE_CHECKING:
    from chaosgames.core.game import Action, State
    from chaosgames.games.royal_racers.rules_in_force import RacersRules

SEATS = 4
PLANES = 28
FLIP_WORDS = tuple(kind.value for kind in FLIP_KINDS)
"""The flip kinds as observations write them."""
_KIND_OFFSET = {kind: 36 * k for k, kind in enumerate(SQUARE_KINDS)}
STAY_INDEX = 36 * len(SQUARE_KINDS)

# Offsets of the planes and of the numbers after them.
_DEALT, _DOWN, _RANK, _SUIT, _PAWN, _FLAG, _NEXT, _ORDER = 0, 1, 2, 11, 15, 19, 23, 27
_PHASE = PLANES * SQUARES
_ROLL = _PHASE + len(PHASE_NAMES)
_FLIP_KIND = _ROLL + len(DIE_FACES)
_FLIP_OK = _FLIP_KIND + 3
_FLIP_SQUARE = _FLIP_OK + 1
_FLIP_RANK = _FLIP_SQUARE + SQUARES
_FLIP_SUIT = _FLIP_RANK + 9
_TOUCHED = _FLIP_SUIT + 4
_COINS = _TOUCHED + SEATS
_TO_ACT = _COINS + SEATS
_SEAT = _TO_ACT + SEATS + 1
_PLAYERS = _SEAT + SEATS
_CLOCKS = _PLAYERS + 3
SIZE = _CLOCKS + 4


class RoyalRacersEncoding(Encoding):
    """See the module docstring."""

    num_actions = STAY_INDEX + 1
    observation_shape = (SIZE,)
    max_chance_outcomes = NUM_CARDS  # the deal: any card left in the deck

    def __init__(self, game: RacersRules[Any, Any]) -> None:
        self.players = game.num_players
        self.flags: int = game.options["flags"]
        self.races: int = game.options["races"]
        self.max_rounds: int = game.options["max_rounds"]

    def action_index(self, state: State[Any], action: Action) -> int:
        if not isinstance(action, RacerAction):
            return NO_INDEX
        if action.kind is Kind.STAY:
            return STAY_INDEX
        offset = _KIND_OFFSET.get(action.kind)
        return NO_INDEX if offset is None else offset + action.arg

    def board_planes(self) -> BoardPlanes:
        # Square y * 6 + x; row 6 (y = 5) drawn at the top.
        return BoardPlanes(PLANES, 6, 6, tuple((5 - sq // 6, sq % 6) for sq in range(SQUARES)))

    def _slot_name(self, index: int) -> str:
        if index == STAY_INDEX:
            return "stay"
        kind, square = divmod(index, 36)
        return str(BY_SQUARE[SQUARE_KINDS[kind]][square])

    def observation_features(self, observation: Mapping[str, Any], player: int) -> dict[int, float]:
        f: dict[int, float] = {}
        self._cards(f, observation)
        self._pieces(f, observation, player)
        self._turn(f, observation, player)
        return f

    def _relative(self, seat: int, player: int) -> int:
        return (seat - player) % self.players

    def _cards(self, f: dict[int, float], obs: Mapping[str, Any]) -> None:
        for square in obs["face_down"]:
            sq = SQUARE_BY_NAME[square]
            f[_DEALT * SQUARES + sq] = 1.0
            f[_DOWN * SQUARES + sq] = 1.0
        for sq, name in enumerate(obs["cards"]):
            if name is not None:
                card = CARD_BY_NAME[name.casefold()]
                f[_DEALT * SQUARES + sq] = 1.0
                f[(_RANK + RANK_OF[card] - 1) * SQUARES + sq] = 1.0
                f[(_SUIT + card % 4) * SQUARES + sq] = 1.0

    def _pieces(self, f: dict[int, float], obs: Mapping[str, Any], player: int) -> None:
        for seat, square in enumerate(obs["pawns"]):
            if square is not None:
                f[(_PAWN + self._relative(seat, player)) * SQUARES + SQUARE_BY_NAME[square]] = 1.0
        for seat, row in enumerate(obs["flags"]):
            k = self._relative(seat, player)
            touched = obs["touched"][seat]
            for index, square in enumerate(row):
                if square is None:
                    continue
                sq = SQUARE_BY_NAME[square]
                f[(_FLAG + k) * SQUARES + sq] = 1.0
                f[_ORDER * SQUARES + sq] = (index + 1) / self.flags
                if index == touched:
                    f[(_NEXT + k) * SQUARES + sq] = 1.0
            if touched:
                f[_TOUCHED + k] = fraction(touched, self.flags)
        for seat in range(self.players):
            coins = sum(race[seat] for race in obs["coins"])
            if coins:
                f[_COINS + self._relative(seat, player)] = fraction(coins, self.flags * self.races)

    def _turn(self, f: dict[int, float], obs: Mapping[str, Any], player: int) -> None:
        one_hot(f, _PHASE, PHASE_NAMES.index(obs["phase"]), len(PHASE_NAMES))
        if obs["roll"] is not None:
            one_hot(f, _ROLL, DIE_FACES.index(obs["roll"]), len(DIE_FACES))
        flip = obs["last_flip"]
        if flip is not None:
            one_hot(f, _FLIP_KIND, FLIP_WORDS.index(flip["kind"]), 3)
            if flip["ok"]:
                f[_FLIP_OK] = 1.0
            f[_FLIP_SQUARE + SQUARE_BY_NAME[flip["square"]]] = 1.0
            card = CARD_BY_NAME[flip["card"].casefold()]
            f[_FLIP_RANK + RANK_OF[card] - 1] = 1.0
            f[_FLIP_SUIT + card % 4] = 1.0
        to_act = obs["to_act"]
        if to_act >= 0:
            f[_TO_ACT + self._relative(to_act, player)] = 1.0
        elif to_act == -1:
            f[_TO_ACT + SEATS] = 1.0
        one_hot(f, _SEAT, player, SEATS)
        one_hot(f, _PLAYERS, self.players - 2, 3)
        clocks = (
            fraction(obs["race"], self.races),
            fraction(obs["round"], self.max_rounds),
            fraction(obs["turn"], self.players),
            fraction(obs["rounds_played"], self.max_rounds * self.races),
        )
        for i, value in enumerate(clocks):
            if value:
                f[_CLOCKS + i] = value
