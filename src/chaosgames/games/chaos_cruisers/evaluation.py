"""Heuristic evaluation: the turns each player still needs to finish the race, as win shares.

A cruiser's remaining race is counted in cruising turns (see `racing_line`):
- to its next gate: the turns table of that gate on the course as it stands, from its
  square and speed (with its speed already set if it is about to move; from the best
  square of its return tile at speed null if it is out of bounds, squares included);
- plus BLOCKED_WORTH if every square one step nearer the gate holds another cruiser
  (it must ram, losing speed, or go round);
- less one if its turn in the current cruising round is still to come (it will use it);
- then every later leg of the chart, from one gate's tile at speed null to the next,
  measured once on the starting course (tiles moved in chaos rounds change them little,
  and the same legs lie ahead of every cruiser);
- plus a hundredth of a turn per square to the next gate, to tell apart positions equal
  in whole turns, less COIN_WORTH per speed coin in hand (a coin can save a turn later).

A player's remaining race is that of his trailing cruiser (with two cruisers each, both
must finish). Shares are a softmax of minus the remaining turns with temperature
TEMPERATURE: a turn ahead is an edge and a lap ahead nearly a win, while a trailing
player's moves still differ in worth (search compares them).
"""

from __future__ import annotations

import math
from functools import cache, lru_cache
from itertools import pairwise
from typing import TYPE_CHECKING

from chaosgames.core.grid import Square
from chaosgames.games.chaos_cruisers.course import Tile, course_squares, tile_squares
from chaosgames.games.chaos_cruisers.race import gate_distances
from chaosgames.games.chaos_cruisers.racing_line import NO_ROUTE, turns_to_gate

if TYPE_CHECKING:
    from chaosgames.games.chaos_cruisers.state import ChaosCruisersState

TEMPERATURE = 4.0
COIN_WORTH = 0.15
SQUARE_WORTH = 0.01
BLOCKED_WORTH = 1.0
"""Turns counted for a cruiser whose every step towards its gate is taken by another
cruiser: it must ram (and lose speed) or go round. Without it, two cruisers meeting head on
in a narrow stretch ram each other back and forth for the rest of the game."""
"""Turns counted per square to the next gate, only to break ties between whole turns."""


@cache
def chart_legs(tiles: frozenset[Tile], gate_tiles: tuple[Tile, ...]) -> tuple[int, ...]:
    """Turns from each gate of the chart to the next (index k: from row k-1 to row k; 0
    for the first row), from the best square of the earlier gate's tile at speed null."""
    free = course_squares(tiles)
    legs = [0]
    for before, after in pairwise(gate_tiles):
        table = turns_to_gate(tile_squares(after), free)
        legs.append(min(table.turns(s, 0, False) for s in tile_squares(before)))
    return tuple(legs)


def cruiser_turns(state: ChaosCruisersState, cruiser: int, legs: tuple[int, ...]) -> float:
    """Cruising turns the cruiser still needs to finish the race (see the module text)."""
    game = state.game
    row = state.progress[cruiser]
    if row >= len(game.chart):
        return 0.0
    gate = game.gate_tile[game.chart[row]]
    table = state.turns_table(gate)
    distances = _distances(gate, state.course(), state.obstacle_set())
    square = state.pos[cruiser]
    turns: float
    if square is None:
        # Out of bounds: it comes back on the best square of its return tile. Its squares
        # count too: at 0 a cruiser far from its gate would rather leave the course than move.
        home = state.return_tile(cruiser)
        squares = state.free_squares(home) or list(tile_squares(home))
        turns, squares_left = min((table.turns(s, 0, False), distances.get(s, NO_ROUTE)) for s in squares)
    else:
        deciding = state.phase == "move" and state.deciding_cruiser() == cruiser
        turns = table.turns(square, state.speed[cruiser], deciding)
        squares_left = min(distances.get(square, NO_ROUTE), NO_ROUTE)
        if _blocked(state, square, distances):
            turns += BLOCKED_WORTH
    if _moves_this_round(state, cruiser):
        turns -= 1
    coins = bin(state.coins[cruiser]).count("1")
    return turns + sum(legs[row + 1 :]) + SQUARE_WORTH * squares_left - COIN_WORTH * coins


def _blocked(state: ChaosCruisersState, square: Square, distances: dict[Square, int]) -> bool:
    """Whether every square one step nearer the gate holds another cruiser."""
    ahead = distances.get(square, NO_ROUTE) - 1
    x, y = square
    forward = [n for n in ((x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y)) if distances.get(n) == ahead]
    return bool(forward) and all(n in state.pos for n in forward)


@lru_cache(maxsize=64)
def _distances(gate: Tile, course: frozenset[Square], obstacles: frozenset[Square]) -> dict[Square, int]:
    return gate_distances(gate, course, obstacles)


def _moves_this_round(state: ChaosCruisersState, cruiser: int) -> bool:
    if state.phase not in ("speed", "move") or state.out_this_round[cruiser]:
        return False
    return cruiser in state.order[state.turn :]


def win_shares(state: ChaosCruisersState) -> list[float]:
    if state.is_terminal():
        return list(state.returns())
    game = state.game
    legs = chart_legs(game.start_tiles, tuple(game.gate_tile[g] for g in game.chart))
    remaining = [max(cruiser_turns(state, c, legs) for c in own) for own in game.cruisers_of]
    best = min(remaining)
    weights = [math.exp((best - r) / TEMPERATURE) for r in remaining]
    total = sum(weights)
    shares = [w / total for w in weights]
    # Keep the sum exactly 1 despite rounding.
    shares[-1] = max(0.0, 1.0 - sum(shares[:-1]))
    return shares
