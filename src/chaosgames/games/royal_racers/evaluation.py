"""Heuristic evaluation: the steps each prince still has to walk, as win shares.

A pawn moves one space a turn, so a race is won by the fewest steps. A player's steps
still to walk are:
- to his next flag: the fewest steps over face-up cards (pawns ignored, they move; the
  flag's own card counted passable, it may be flipped back, but FLAG_FACE_DOWN steps more
  while it is down), or, walled off by face-down cards, the straight-line distance plus
  DETOUR;
- then from flag to flag to the last one (under his start), in straight lines: the
  cards between will have flipped by then;
- for every flag still to touch, the steps its card is likely to cost on top (see
  FLIPPABLE_FLAG and OPEN_SIDE): a flag on a card that may turn face down, or with few
  sides guarded by cards that never do, is easily walled off. This is what makes flag
  placement matter, and it is worth more than any other term measured (see
  docs/games/royal-racers.md, Heuristic);
- less one if his move in the current round is still to come.

Coins won in earlier races of a campaign count FLAG_STEPS steps each (a flag is worth
about one leg). Shares are a softmax of minus the steps with temperature TEMPERATURE: a
step ahead is a clear edge in a game where the die decides the board, not a certainty.
The heuristic reads which cards are face down and which never flip (6-9, public: they
are never face down), never a face-down card's rank.
"""

from __future__ import annotations

import math

from chaosgames.games.royal_racers.board import NEIGHBOURS, SIZE, SQUARES
from chaosgames.games.royal_racers.state import FLIP_PHASE, MOVE_PHASE, OVER, ROLL_PHASE, RoyalRacersState

DETOUR = 4
FLAG_FACE_DOWN = 1
"""Steps added while the next flag's card is face down: the pawn may not land on it until
a roll of its rank lets someone (most likely its owner) turn it up. One step, measured:
greedy with it beat greedy with 3 (see docs/games/royal-racers.md, Heuristic)."""
FLAG_STEPS = 4.0
TEMPERATURE = 2.0
FLIPPABLE_FLAG = 3
"""Steps added for every flag still to touch that lies on a card ace-5: such a card may be
turned face down ("Cards ranked 6 through 9 will always remain face-up")."""
OPEN_SIDE = 1
"""Steps added for every side of a flag's card (any rank) that no card 6-9 guards (the
board's edge counts as open): the fewer guarded sides, the fewer flips wall the flag off."""


def _apart(a: int, b: int) -> int:
    return abs(a % SIZE - b % SIZE) + abs(a // SIZE - b // SIZE)


APART: tuple[tuple[int, ...], ...] = tuple(
    tuple(_apart(a, b) for b in range(SQUARES)) for a in range(SQUARES)
)
"""Straight-line (orthogonal) steps between two squares, looked up rather than computed."""

_FULL = (1 << SQUARES) - 1
_WEST_EDGE = sum(1 << (y * SIZE) for y in range(SIZE))
_EAST_EDGE = _WEST_EDGE << (SIZE - 1)


def _steps_between(start: int, goal: int, passable: int) -> int | None:
    """Fewest steps from `start` to `goal` over passable squares (bit sets; the start
    itself need not be passable), by flooding outwards one step at a time."""
    frontier = seen = 1 << start
    target = 1 << goal
    steps = 0
    while frontier:
        if frontier & target:
            return steps
        east = (frontier & ~_EAST_EDGE) << 1
        west = (frontier & ~_WEST_EDGE) >> 1
        frontier = (east | west | frontier << SIZE | frontier >> SIZE) & passable & ~seen
        seen |= frontier
        steps += 1
    return None


def _flood(start: int, passable: int) -> tuple[int | None, ...]:
    """`_steps_between(start, sq, passable)` for every square at once (None: not reached)."""
    found: list[int | None] = [None] * SQUARES
    frontier = seen = 1 << start
    steps = 0
    while frontier:
        layer = frontier
        while layer:
            low = layer & -layer
            found[low.bit_length() - 1] = steps
            layer ^= low
        east = (frontier & ~_EAST_EDGE) << 1
        west = (frontier & ~_WEST_EDGE) >> 1
        frontier = (east | west | frontier << SIZE | frontier >> SIZE) & passable & ~seen
        seen |= frontier
        steps += 1
    return tuple(found)


_FLOODS: dict[int, tuple[int | None, ...]] = {}
"""Floods from a flag by (face-down cards, flag): search meets the same few boards again
and again, and a pawn's distance is then one look-up. Cleared when it grows large."""
_FLOODS_KEPT = 20_000


def _flood_from_flag(flag: int, down: int) -> tuple[int | None, ...]:
    key = down << 6 | flag
    flood = _FLOODS.get(key)
    if flood is None:
        if len(_FLOODS) >= _FLOODS_KEPT:
            _FLOODS.clear()
        # From the flag outwards: its own card counts passable even face down.
        flood = _FLOODS[key] = _flood(flag, _FULL & ~down)
    return flood


def distance_to_next_flag(state: RoyalRacersState, player: int) -> int | None:
    """Steps over face-up cards from the pawn to its next flag; None when walled off."""
    pawn = state.pawns[player]
    touched = state.progress[player]
    if pawn < 0 or touched >= state.nflags:
        return None
    target = state.flag_sq[player * state.nflags + touched]
    if target < 0:
        return None
    return _flood_from_flag(target, state.down)[pawn]


def steps_to_finish(state: RoyalRacersState, player: int) -> float:
    """Steps the player still has to walk in this race (see the module text); during
    setup, the straight-line route through the flags placed so far."""
    return float(_steps_to_finish(state, player, _moves_this_round(state, player)))


def _steps_to_finish(state: RoyalRacersState, player: int, moves_this_round: bool) -> int:
    # Whole steps: the sum is the same however it is added up.
    pawn = state.pawns[player]
    touched = state.progress[player]
    flags = state.nflags
    if pawn < 0 or touched >= flags:
        return 0
    first = player * flags + touched
    route = state.flag_sq[first : (player + 1) * flags]
    steps = 0
    here = pawn
    exposure = flag_exposure(state)
    for sq in route:
        if sq >= 0:
            steps += APART[here][sq] + exposure[sq]
            here = sq
    flag = route[0]
    if flag >= 0:
        # The first leg over face-up cards, or around the wall of face-down ones.
        down = state.down
        d = _flood_from_flag(flag, down)[pawn]
        steps += DETOUR if d is None else d - APART[pawn][flag]
        if down >> flag & 1:
            steps += FLAG_FACE_DOWN
    if moves_this_round:
        steps -= 1
    return steps


_EXPOSURE: dict[int, tuple[int, ...]] = {}
"""The steps a flag costs on each square, by the squares of the cards 6-9 (a deal's: cards
never move within a race)."""
_EXPOSURE_KEPT = 1_000


def flag_exposure(state: RoyalRacersState) -> tuple[int, ...]:
    """Per square, the steps a flag there is likely to cost its owner besides the walk (see
    FLIPPABLE_FLAG and OPEN_SIDE). Public knowledge: only cards ace-5 are ever face down."""
    always_up = state.always_up
    table = _EXPOSURE.get(always_up)
    if table is None:
        if len(_EXPOSURE) >= _EXPOSURE_KEPT:
            _EXPOSURE.clear()
        table = _EXPOSURE[always_up] = tuple(
            (0 if always_up >> sq & 1 else FLIPPABLE_FLAG)
            + OPEN_SIDE * (4 - sum(always_up >> side & 1 for side in NEIGHBOURS[sq]))
            for sq in range(SQUARES)
        )
    return table


def steps_left(state: RoyalRacersState) -> float | None:
    """The fewest steps any prince still has to walk (`steps_to_finish`), None outside the
    race (setup, or the race over)."""
    if state.phase not in (ROLL_PHASE, FLIP_PHASE, MOVE_PHASE):
        return None
    return min(steps_to_finish(state, player) for player in range(state.n))


def _moves_this_round(state: RoyalRacersState, player: int) -> bool:
    if state.phase not in (ROLL_PHASE, FLIP_PHASE, MOVE_PHASE):
        return False
    return (player - state.starter()) % state.n >= state.turn


_VERDICTS: dict[tuple[object, ...], tuple[float, ...]] = {}
"""Win shares by what `evaluate` reads of a position. Greedy rates a move by the shares
after each of the next player's six rolls, which leave all it reads alone, and playouts
meet the same positions again: one verdict then serves them all. Cleared when it grows
large."""
_VERDICTS_KEPT = 50_000


def evaluate(state: RoyalRacersState) -> list[float]:
    """Per-player estimated win share, each in [0, 1], summing to 1."""
    if state.phase == OVER:
        return state.returns()
    racing = state.phase in (ROLL_PHASE, FLIP_PHASE, MOVE_PHASE)
    # Who still moves this round is read (below) only in the race, from starter and turn.
    key = (
        state.starter() * 16 + state.turn if racing else -1,
        state.down,
        state.always_up,
        tuple(state.pawns),
        tuple(state.progress),
        tuple(state.flag_sq),
        tuple(map(tuple, state.coins)) if state.coins else (),
    )
    verdict = _VERDICTS.get(key)
    if verdict is None:
        if len(_VERDICTS) >= _VERDICTS_KEPT:
            _VERDICTS.clear()
        verdict = _VERDICTS[key] = tuple(_shares(state, racing))
    return list(verdict)


def _shares(state: RoyalRacersState, racing: bool) -> list[float]:
    n = state.n
    starter = state.starter()
    turn = state.turn
    coins = state.coins
    values = [
        FLAG_STEPS * (sum(race[p] for race in coins) if coins else 0)
        - _steps_to_finish(state, p, racing and (p - starter) % n >= turn)
        for p in range(n)
    ]
    top = max(values)
    weights = [math.exp((v - top) / TEMPERATURE) for v in values]
    total = sum(weights)
    return [w / total for w in weights]
