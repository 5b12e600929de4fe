"""The position as text for a terminal (the course, the race progress chart, whose turn),
and actions described in words."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from chaosgames.games.chaos_cruisers.actions import (
    COLOURS,
    DIRECTIONS,
    CruisersAction,
    Lead,
    Move,
    OnSquare,
    Speed,
)
from chaosgames.games.chaos_cruisers.course import Tile, tile_of
from chaosgames.games.chaos_cruisers.movement import SPEED_COINS, adjusted_speed, trace_move

if TYPE_CHECKING:
    from chaosgames.games.chaos_cruisers.state import ChaosCruisersState

CRUISER_LETTERS = "RKYB"
"""Red, blacK, Yellow, Blue."""
GATE_LETTERS = {
    **{"sun": "s", "moon": "m", "crown": "c", "arms": "a"},
    # The second set of gates (variant 4) in capitals.
    **{"sun2": "S", "moon2": "M", "crown2": "C", "arms2": "A"},
}

SQUARE_WORDS = {
    "start": "place the cruiser on",
    "reenter": "place the cruiser on",
    "lift": "pick up the tile at",
    "lay": "lay down the tile at",
    "obstacle": "put an obstacle on",
}
"""What an action on a square does, by its notation word."""

PHASE_WORDS = {
    "order": "the tie for the playing order is settled by a roll",
    "start": "places a cruiser on the sun gate tile",
    "speed": "adjusts speed",
    "move": "moves",
    "reenter": "puts the out-of-bounds cruiser back on its gate tile",
    "lift": "may pick up a tile (chaos round)",
    "lay": "lays the tile down (chaos round)",
    "obstacles": "places an obstacle (chaos round)",
}


def course_picture(state: ChaosCruisersState) -> list[str]:
    """One character per square: R K Y B cruisers, # obstacles, s m c a gate tiles
    (S M C A: the second set of gates), . other course squares. North is up."""
    gates = tuple(sorted((t, GATE_LETTERS[g]) for g, t in state.game.gate_tile.items()))
    min_x, max_y, rows, footer = _course_grid(state.course(), state.lifted, gates)
    grid = [list(row) for row in rows]
    # Obstacles, then cruisers over them, on the course drawn once for its tiles.
    marks = [(s, "#") for s in state.obstacles]
    marks += [(p, CRUISER_LETTERS[c]) for c, p in enumerate(state.pos) if p is not None]
    for (x, y), mark in marks:
        if 0 <= max_y - y < len(grid) and 0 <= x - min_x < len(grid[0]):
            grid[max_y - y][x - min_x] = mark
    return [*(f"{max_y - r:>3} {''.join(row)}" for r, row in enumerate(grid)), *footer]


@functools.lru_cache(maxsize=1024)
def _course_grid(
    course: frozenset[tuple[int, int]], lifted: Tile | None, gates: tuple[tuple[Tile, str], ...]
) -> tuple[int, int, tuple[str, ...], tuple[str, ...]]:
    """The course's squares and gate tiles, row by row from the north (with its left x and
    top y), and the lines under it."""
    squares = set(course)
    if lifted is not None:
        squares.add((lifted[0] * 2, lifted[1] * 2))
    xs = [s[0] for s in squares]
    ys = [s[1] for s in squares]
    gate_at = dict(gates)
    rows = tuple(
        "".join(
            gate_at.get(tile_of((x, y)), ".") if (x, y) in course else " "
            for x in range(min(xs), max(xs) + 1)
        )
        for y in range(max(ys), min(ys) - 1, -1)
    )
    # Units digit of each column's x, so squares can be named `x,y` from the picture.
    footer = (
        "    " + "".join(str(abs(x) % 10) for x in range(min(xs), max(xs) + 1)),
        f"    x from {min(xs)} to {max(xs)} (units digit shown), y up",
    )
    return min(xs), max(ys), rows, footer


def render_text(state: ChaosCruisersState) -> str:
    game = state.game
    lines = [f"Chaos Cruisers, round {state.round}, course {game.course_doc['name']}"]
    lines += course_picture(state)
    chart = game.chart
    for c in range(game.num_cruisers):
        k = state.progress[c]
        nxt = "finished" if k >= len(chart) else f"next {chart[k]}"
        p = state.pos[c]
        where = "off course" if p is None else f"at {p[0]},{p[1]}"
        coins = "".join(str(v) for v in SPEED_COINS if state.coins[c] >> v & 1) or "none"
        # One line within 80 columns per cruiser.
        lines.append(
            f"{COLOURS[c]:>6} {CRUISER_LETTERS[c]}  speed {state.speed[c]}  gates {k}/{len(chart)} {nxt}  "
            f"{where}  coins {coins}  obstacles {state.in_hand[c]}"
        )
    if state.order:
        lines.append("playing order: " + ", ".join(COLOURS[c] for c in state.order))
    lines.append(_turn_line(state))
    return "\n".join(lines)


def _turn_line(state: ChaosCruisersState) -> str:
    names = state.game.player_names()
    if state.phase == "over":
        if state.winner >= 0:
            return f"Game over: {names[state.winner]} wins the Chaos Cup."
        shares = state.returns()
        leaders = [names[p] for p, r in enumerate(shares) if r > 0]
        return f"Game over after max_rounds; leading: {', '.join(leaders)}."
    if state.phase == "order":
        return PHASE_WORDS["order"] + "."
    cruiser = state.deciding_cruiser()
    return f"{COLOURS[cruiser]} ({names[state.game.owner[cruiser]]}) {PHASE_WORDS[state.phase]}."


COMPASS = {"N": "north", "E": "east", "S": "south", "W": "west"}
SQUARE_CHOICES = {
    "start": "Start on",
    "reenter": "Re-enter on",
    "lift": "Lift the tile at",
    "lay": "Lay the tile at",
    "obstacle": "Put an obstacle on",
}
"""A choice that names a square, as a player reads it in a list of choices."""
WORD_CHOICES = {"stop": "Move no more tiles", "no-obstacle": "Place no obstacle"}


def describe_action(state: ChaosCruisersState, action: CruisersAction) -> str:
    """The choice in words, with what it leads to: the new speed, where a move ends. A
    player with two cruisers is told which one."""
    cruiser = state.deciding_cruiser()
    if isinstance(action, Lead):
        return f"{COLOURS[action.cruiser]} wins the tie for the next place"
    said = _choice(state, cruiser, action)
    game = state.game
    if cruiser >= 0 and game.num_cruisers > game.num_players:
        return f"{COLOURS[cruiser]}: {said[0].lower()}{said[1:]}"
    return said


def _choice(state: ChaosCruisersState, cruiser: int, action: CruisersAction) -> str:
    if isinstance(action, Speed):
        new = adjusted_speed(state.speed[cruiser], action)
        if action.coin:
            power = "Nitro-boost" if action.change > 0 else "Shock-brake"
            return f"{power} with the {action.coin} coin: speed {new} (the coin is used up)"
        return {1: f"Speed up to {new}", -1: f"Slow down to {new}", 0: f"Keep speed {new}"}[action.change]
    if isinstance(action, Move):
        legs = [f"{action.first} {COMPASS[DIRECTIONS[action.d1][0]]}"]
        if action.second:
            legs.append(f"{action.second} {COMPASS[DIRECTIONS[action.d2][0]]}")
        return f"Move {', then '.join(legs)}: {_move_outcome(state, action)}"
    if isinstance(action, OnSquare):
        x, y = action.square
        return f"{SQUARE_CHOICES[action.word]} {x},{y}"
    return WORD_CHOICES.get(str(action), str(action))


def _move_outcome(state: ChaosCruisersState, move: Move) -> str:
    start = state.pos[state.deciding_cruiser()]
    assert start is not None
    trace = trace_move(start, move, state.course(), state.obstacles, state.occupied())
    end = trace.entered[-1] if trace.entered else start
    if trace.outcome == "out":
        return "out of bounds"
    if trace.outcome == "ram":
        rammed = state.occupied()[end]
        return f"rams {COLOURS[rammed]} on {end[0]},{end[1]}"
    return f"ends on {end[0]},{end[1]}"
