"""Heuristic evaluation: the turns each player still needs to finish the race, as win shares.

A cruiser's remaining race is counted in cruising turns (see `racing_line`):
- to its next gate: the turns table of that gate on the course as it stands, from its
  square and speed (with its speed already set if it is about to move; from the best
  square of its return tile at speed null if it is out of bounds);
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
from functools import cache
from itertools import pairwise
from typing import TYPE_CHECKING

from chaosgames.games.chaos_cruisers.course import Tile, course_squares, tile_squares
from chaosgames.games.chaos_cruisers.racing_line import NO_ROUTE, turns_to_gate

if TYPE_CHECKING:
    from chaosgames.games.chaos_cruisers.state import ChaosCruisersState

TEMPERATURE = 4.0
COIN_WORTH = 0.15
SQUARE_WORTH = 0.01
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
    table = state.turns_table(game.gate_tile[game.chart[row]])
    square = state.pos[cruiser]
    if square is None:
        home = state.return_tile(cruiser)
        squares = state.free_squares(home) or list(tile_squares(home))
        turns = float(min(table.turns(s, 0, False) for s in squares))
        squares_left = 0
    else:
        deciding = state.phase == "move" and state.deciding_cruiser() == cruiser
        turns = float(table.turns(square, state.speed[cruiser], deciding))
        squares_left = min(state.distance_to_next_gate(cruiser), NO_ROUTE)
    if _moves_this_round(state, cruiser):
        turns -= 1
    coins = bin(state.coins[cruiser]).count("1")
    return turns + sum(legs[row + 1 :]) + SQUARE_WORTH * squares_left - COIN_WORTH * coins


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
