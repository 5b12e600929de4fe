"""Building Chaos Cruisers positions directly, and a sensible random policy for playouts."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import chaosgames
from chaosgames.core.grid import Square
from chaosgames.games.chaos_cruisers import ChaosCruisersGame, ChaosCruisersState
from chaosgames.games.chaos_cruisers.actions import COLOURS, Move, OnSquare
from chaosgames.games.chaos_cruisers.movement import trace_move
from chaosgames.games.chaos_cruisers.state import OrderFor, Phase


def open_field(width: int = 4, height: int = 4) -> dict[str, Any]:
    """A filled rectangle of tiles: room to move in every direction."""
    return {
        "name": "open-field",
        "tiles": [[x, y] for x in range(width) for y in range(height)],
        "gates": {
            "sun": [0, 0],
            "moon": [width - 1, 0],
            "crown": [width - 1, height - 1],
            "arms": [0, height - 1],
        },
    }


def load(**options: Any) -> ChaosCruisersGame:
    game = chaosgames.load_game("chaos-cruisers", **options)
    assert isinstance(game, ChaosCruisersGame)
    return game


CruiserAt = tuple[Square | None, int] | tuple[Square | None, int, int]
"""Where a cruiser stands and its speed, with the gates it has reached (default none)."""


def position(
    game: ChaosCruisersGame,
    cruisers: Mapping[str, CruiserAt],
    *,
    order: list[str] | None = None,
    phase: str = "speed",
    obstacles: dict[Square, str] | None = None,
    round_number: int = 1,
) -> ChaosCruisersState:
    """A cruising-round position: each named cruiser at (square, speed[, gates reached]);
    `order` is the playing order (default: as listed), the first in it to act; `phase`
    names a `Phase` by its value, as documents spell it."""
    state = game.new_initial_state()
    rows = len(game.chart)
    for c in range(game.num_cruisers):
        state.pos[c] = None
    for name, spec in cruisers.items():
        c = COLOURS.index(name)
        state.pos[c] = spec[0]
        state.speed[c] = spec[1]
        progress = spec[2] if len(spec) > 2 else 0
        state.progress[c] = progress
        reached = [0] * rows
        for row in range(progress):
            state.clock += 1
            reached[row] = state.clock
        state.reached[c] = tuple(reached)
    state.obstacles = {s: COLOURS.index(owner) for s, owner in (obstacles or {}).items()}
    state.in_hand = [2 - list(state.obstacles.values()).count(c) for c in range(game.num_cruisers)]
    state._course_changed()
    state.order = tuple(COLOURS.index(n) for n in (order or list(cruisers)))
    state.ties = ()
    state.order_for = OrderFor.CRUISE
    state.turn = 0
    state.phase = Phase(phase)
    state.round = round_number
    state._invalidate()
    return state


def squares(state: ChaosCruisersState) -> list[Square]:
    """The squares the legal actions name (a start, a re-entry, a tile lifted or laid, an
    obstacle), in their order."""
    return [a.square for a in state.legal_actions() if isinstance(a, OnSquare)]


def moves(state: ChaosCruisersState) -> list[Move]:
    """The legal moves, in their order."""
    return [a for a in state.legal_actions() if isinstance(a, Move)]


def end_square(state: ChaosCruisersState, move: Move) -> tuple[Square | None, str]:
    c = state.deciding_cruiser()
    start = state.pos[c]
    assert start is not None
    trace = trace_move(start, move, state.course(), state.obstacles, state.occupied())
    return (trace.entered[-1] if trace.entered else start), trace.outcome


def sensible_action(state: ChaosCruisersState, rng: random.Random) -> Any:
    """Random, but mostly avoiding out-of-bounds moves and heading for the next gate, so
    playouts reach gates, chaos rounds and the finish."""
    legal = state.legal_actions()
    if state.phase == "move":
        c = state.deciding_cruiser()
        scored = []
        for move in moves(state):
            _, outcome = end_square(state, move)
            if outcome == "out":
                continue
            twin = state.clone()
            twin.apply_action(move)
            scored.append((twin.progress[c] * 1000 - twin.distance_to_next_gate(c), move))
        if scored:
            if rng.random() < 0.7:
                return max(scored, key=lambda pair: pair[0])[1]
            return rng.choice(scored)[1]
    if state.phase == "speed" and rng.random() < 0.7:
        return legal[rng.randrange(3)]
    return rng.choice(legal)


def play(state: ChaosCruisersState, rng: random.Random, steps: int) -> ChaosCruisersState:
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(chaosgames.core.chance.sample_outcome(state.chance_outcomes(), rng))
        else:
            state.apply_action(sensible_action(state, rng))
    return state
