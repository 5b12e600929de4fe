"""How to Move: speed adjustment, exact-distance movement with at most one 90-degree turn,
out-of-bounds and ramming (the rulebook's sections "How to Move", "Moving Out-of-Bounds",
"Playing a Speed Coin", "Ramming Another Cruiser")."""

from __future__ import annotations

from collections.abc import Container, Iterable
from typing import NamedTuple

from chaosgames.core.game import shared_actions
from chaosgames.core.grid import Square
from chaosgames.games.chaos_cruisers.actions import MAX_SPEED as MAX_SPEED
from chaosgames.games.chaos_cruisers.actions import CruisersAction, Move, Speed

SPEED_COINS = (2, 3, 4, 5)
"""Coins 2-5 are speed coins; null and ace are obstacles only."""


def speed_choices(coins: int) -> list[Speed]:
    """+1, -1, stay, then each coin in hand as nitro-boost, then as shock-brake.

    `coins` is a bit set: bit v set when coin v is in hand."""
    choices = [Speed(1), Speed(-1), Speed(0)]
    held = [v for v in SPEED_COINS if coins >> v & 1]
    choices += [Speed(1, v) for v in held]
    choices += [Speed(-1, v) for v in held]
    return choices


def adjusted_speed(speed: int, choice: Speed) -> int:
    """The new speed, held between null (0) and 5 as the rulebook says (worked out once
    per choice, from each speed: `Speed.after`)."""
    return choice.after[speed]


def move_choices(speed: int) -> list[Move]:
    """Every path of exactly `speed` squares with at most one 90-degree turn.

    Order: first direction N, E, S, W; within it the straight move, then turns after
    1, 2, ... squares, turning clockwise before anticlockwise."""
    moves: list[Move] = []
    for d1 in range(4):
        moves.append(Move(d1, speed))
        for first in range(1, speed):
            for d2 in ((d1 + 1) % 4, (d1 + 3) % 4):
                moves.append(Move(d1, first, d2, speed - first))
    return moves


SPEED_TABLE: tuple[tuple[Speed, ...], ...] = tuple(tuple(speed_choices(coins)) for coins in range(64))
"""Speed choices for every set of coins in hand (precomputed: the inner loop of search)."""
MOVE_TABLE: tuple[tuple[Move, ...], ...] = tuple(tuple(move_choices(speed)) for speed in range(MAX_SPEED + 1))
"""Paths for every speed."""
SPEED_LISTS: tuple[list[CruisersAction], ...] = tuple(shared_actions(table) for table in SPEED_TABLE)
MOVE_LISTS: tuple[list[CruisersAction], ...] = tuple(shared_actions(table) for table in MOVE_TABLE)
"""The same as lists, handed to the core's cache of legal actions as they are (shared by
every state: the cache is replaced, never changed in place)."""


class Trace(NamedTuple):
    """What a movement does: the squares entered, and how it ends.

    outcome is 'stop' (moved the full distance), 'out' (the next step left the course or
    hit an obstacle: the squares entered before it still count) or 'ram' (the last square
    entered holds another cruiser)."""

    entered: list[Square]
    outcome: str
    direction: tuple[int, int]


def trace_move(
    start: Square,
    move: Move,
    course: Container[Square],
    obstacles: Container[Square],
    occupied: Container[Square | None],
) -> Trace:
    return Trace(*walk(start, move.path, course, obstacles, occupied))


def walk(
    start: Square,
    steps: Iterable[tuple[int, int]],
    course: Container[Square],
    obstacles: Container[Square],
    occupied: Container[Square | None],
) -> tuple[list[Square], str, tuple[int, int]]:
    """`trace_move` of the unit steps as a plain tuple (the state's move reads it at once)."""
    entered: list[Square] = []
    x, y = start
    step = (0, 0)
    for step in steps:
        x, y = x + step[0], y + step[1]
        square = (x, y)  # made once: each (x, y) is a new tuple
        if square not in course or square in obstacles:
            return entered, "out", step
        entered.append(square)
        if square in occupied:
            return entered, "ram", step
    return entered, "stop", step


def push_chain(
    first: Square, direction: tuple[int, int], occupied: Container[Square]
) -> tuple[list[Square], Square]:
    """The squares of the rammed cruiser and of any cruisers lined up behind it in the
    direction of travel (each is pushed one square on: our reading for a push into an
    occupied square), and the square the last of them is pushed to."""
    chain = [first]
    nxt = (first[0] + direction[0], first[1] + direction[1])
    while nxt in occupied:
        chain.append(nxt)
        nxt = (nxt[0] + direction[0], nxt[1] + direction[1])
    return chain, nxt
