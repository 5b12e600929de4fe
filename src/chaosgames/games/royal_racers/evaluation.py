"""Heuristic evaluation: the steps each prince still has to walk, as win shares.

A pawn moves one space a turn, so a race is won by the fewest steps. A player's steps
still to walk are:
- to his next flag: the fewest steps over face-up cards (pawns ignored, they move; the
  flag's own card counted passable, it may be flipped back, but FLAG_FACE_DOWN steps more
  while it is down), or, walled off by face-down cards, the straight-line distance plus
  DETOUR;
- then from flag to flag to the last one (under his start), in straight lines: the
  cards between will have flipped by then;
- less one if his move in the current round is still to come.

Coins won in earlier races of a campaign count FLAG_STEPS steps each (a flag is worth
about one leg). Shares are a softmax of minus the steps with temperature TEMPERATURE: a
step ahead is a clear edge in a game where the die decides the board, not a certainty.
The heuristic reads which cards are face down, never their ranks.
"""

from __future__ import annotations

import math
from itertools import pairwise

from chaosgames.games.royal_racers.board import SIZE, SQUARES
from chaosgames.games.royal_racers.state import FLIP_PHASE, MOVE_PHASE, ROLL_PHASE, RoyalRacersState

DETOUR = 4
FLAG_FACE_DOWN = 3
"""Steps added while the next flag's card is face down: the pawn may not land on it until
a roll of its rank lets someone (most likely its owner) turn it up."""
FLAG_STEPS = 4.0
TEMPERATURE = 2.0


def _apart(a: int, b: int) -> int:
    return abs(a % SIZE - b % SIZE) + abs(a // SIZE - b // SIZE)


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


def distance_to_next_flag(state: RoyalRacersState, player: int) -> int | None:
    """Steps over face-up cards from the pawn to its next flag; None when walled off."""
    pawn = state.pawns[player]
    touched = state.progress[player]
    if pawn < 0 or touched >= state.nflags:
        return None
    target = state.flag_sq[player * state.nflags + touched]
    if target < 0:
        return None
    # From the flag outwards: its own card counts passable even face down.
    return _steps_between(target, pawn, _FULL & ~state.down)


def steps_to_finish(state: RoyalRacersState, player: int) -> float:
    """Steps the player still has to walk in this race (see the module text); during
    setup, the straight-line route through the flags placed so far."""
    pawn = state.pawns[player]
    touched = state.progress[player]
    if pawn < 0 or touched >= state.nflags:
        return 0.0
    route = [
        pawn,
        *(
            sq
            for sq in state.flag_sq[player * state.nflags + touched : (player + 1) * state.nflags]
            if sq >= 0
        ),
    ]
    steps = float(sum(_apart(a, b) for a, b in pairwise(route)))
    flag = state.flag_sq[player * state.nflags + touched]
    if flag >= 0:
        # The first leg over face-up cards, or around the wall of face-down ones.
        d = distance_to_next_flag(state, player)
        steps += DETOUR if d is None else d - _apart(pawn, route[1])
        if state.down >> flag & 1:
            steps += FLAG_FACE_DOWN
    if _moves_this_round(state, player):
        steps -= 1
    return steps


def _moves_this_round(state: RoyalRacersState, player: int) -> bool:
    if state.phase not in (ROLL_PHASE, FLIP_PHASE, MOVE_PHASE):
        return False
    return (player - state.starter()) % state.n >= state.turn


def evaluate(state: RoyalRacersState) -> list[float]:
    """Per-player estimated win share, each in [0, 1], summing to 1."""
    if state.is_terminal():
        return state.returns()
    totals = state.totals()
    values = [FLAG_STEPS * totals[p] - steps_to_finish(state, p) for p in range(state.n)]
    top = max(values)
    weights = [math.exp((v - top) / TEMPERATURE) for v in values]
    total = sum(weights)
    return [w / total for w in weights]
