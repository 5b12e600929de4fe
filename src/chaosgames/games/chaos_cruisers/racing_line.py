"""Turns to a gate: how many cruising rounds a cruiser needs to reach a gate's tile from a
square at a given speed, driving by the rules of "How to Move" on an empty course.

The heuristic evaluation is built on this table. Squares alone mislead in this race: a
cruiser must cover exactly its speed with one 90-degree turn at most, and speed changes
by one a turn, so a fast cruiser before a bend is worse off than a slow one a square
behind it. The table counts whole turns, speed included, over the course as it stands
(tiles and obstacles); other cruisers are ignored (they move: rams and traffic are left
to the search), and so are speed coins (their worth is counted apart).

A turn is the rulebook's: adjust the speed by -1, 0 or +1, then move exactly that many
squares, straight or with one turn. Entering the gate's tile reaches it, even if the
move then goes out of bounds (the squares entered before it still count, and the
cruiser is put back on that very tile). A move that leaves the course or hits an
obstacle before the gate is never part of the shortest plan.

Search visits the same few courses again and again (every playout replays the chaos
round's tile and obstacle moves from the root), so each game keeps the tables of the
courses it saw last in a `TableCache`.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from dataclasses import dataclass

from chaosgames.core.grid import ORTHOGONAL, Square
from chaosgames.games.chaos_cruisers.movement import MAX_SPEED

NO_ROUTE = 60
"""Turns counted for a square with no route to the gate (walled off by obstacles)."""

_NONE = bytes([NO_ROUTE] * (MAX_SPEED + 1))


@dataclass(frozen=True, slots=True)
class TurnsToGate:
    """Per square, one byte per speed 0-5. `before`: turns from the start of the
    cruiser's turn (it may still change speed). `moving`: turns when its speed is already
    set this turn (the move still to be made counts as one)."""

    before: dict[Square, bytes]
    moving: dict[Square, bytes]

    def turns(self, square: Square, speed: int, speed_set: bool) -> int:
        return (self.moving if speed_set else self.before).get(square, _NONE)[speed]

    def rows(self, square: Square) -> tuple[bytes, bytes]:
        """The square's `before` and `moving` bytes (speed 0-5)."""
        return self.before.get(square, _NONE), self.moving.get(square, _NONE)


Ray = tuple[tuple[Square, ...], int]
"""The free squares in a straight line from a square (up to top speed), and how many of
them come before the first goal square (top speed when none is a goal square)."""


def _rays(free: frozenset[Square], goal: frozenset[Square]) -> dict[Square, list[Ray]]:
    """For each square, its rays N, E, S, W."""
    rays: dict[Square, list[Ray]] = {}
    for square in free:
        lines = []
        for dx, dy in ORTHOGONAL:
            line: list[Square] = []
            short = MAX_SPEED
            x, y = square
            for i in range(MAX_SPEED):
                x, y = x + dx, y + dy
                if (x, y) not in free:
                    break
                line.append((x, y))
                if short == MAX_SPEED and (x, y) in goal:
                    short = i
            lines.append((tuple(line), short))
        rays[square] = lines
    return rays


def _paths_from(square: Square, rays: dict[Square, list[Ray]]) -> tuple[int, list[set[Square]]]:
    """The lowest speed whose move can enter the goal (MAX_SPEED + 1: none), and for each
    speed the end squares of its moves that stay on the course short of the goal.

    A move of speed v goes k squares one way (1 <= k <= v), then v - k squares after a
    90-degree turn. Reversed, such a move is again one of this shape, so the ends are
    also the squares from which a move of that speed comes here."""
    ends: list[set[Square]] = [set() for _ in range(MAX_SPEED + 1)]
    reach = MAX_SPEED + 1
    lines = rays[square]
    for d1 in range(4):
        first, hit = lines[d1]
        reach = min(reach, hit + 1)
        for k in range(1, min(len(first), hit) + 1):
            corner = first[k - 1]
            ends[k].add(corner)
            if k == MAX_SPEED:
                break
            corner_lines = rays[corner]
            for d2 in ((d1 + 1) % 4, (d1 + 3) % 4):
                second, hit2 = corner_lines[d2]
                reach = min(reach, k + hit2 + 1)
                for m in range(1, min(len(second), hit2, MAX_SPEED - k) + 1):
                    ends[k + m].add(second[m - 1])
    return reach, ends


def turns_to_gate(goal_squares: tuple[Square, ...], free: frozenset[Square]) -> TurnsToGate:
    """The table for one gate on one course (`free`: course squares without obstacles)."""
    goal = frozenset(s for s in goal_squares if s in free)
    rays = _rays(free, goal)
    # moving[s][v] = 1 when a move of v can enter the goal, else 1 + the least `before`
    # over its ends at speed v; before[s][v] = the least `moving` over speeds v-1, v, v+1.
    first_turn: list[tuple[Square, int]] = []
    ends_of: dict[Square, list[set[Square]]] = {}
    for square in free:
        if square in goal:
            continue
        reach, ends_of[square] = _paths_from(square, rays)
        first_turn += [(square, speed) for speed in range(reach, MAX_SPEED + 1)]
    before: dict[Square, list[int]] = {s: [NO_ROUTE] * (MAX_SPEED + 1) for s in free}
    moving: dict[Square, list[int]] = {s: [NO_ROUTE] * (MAX_SPEED + 1) for s in free}
    for square in goal:
        before[square] = [0] * (MAX_SPEED + 1)
    queue: deque[tuple[Square, int]] = deque()

    def settle(square: Square, speed: int, turns: int) -> None:
        row = moving[square]
        if row[speed] <= turns:
            return
        row[speed] = turns
        # Any speed one step away could have been set to this one.
        ahead = before[square]
        for v in (speed - 1, speed, speed + 1):
            if 0 <= v <= MAX_SPEED and ahead[v] > turns:
                ahead[v] = turns
                queue.append((square, v))

    # Breadth first from the moves that reach the gate: turns only grow along the queue.
    for square, speed in sorted(first_turn):
        settle(square, speed, 1)
    while queue:
        square, speed = queue.popleft()
        turns = before[square][speed] + 1
        if speed == 0:
            settle(square, 0, turns)  # speed null: the cruiser stands still a turn
            continue
        if square in goal:
            continue
        for start in ends_of[square][speed]:
            if start not in goal:
                settle(start, speed, turns)
    return TurnsToGate(
        {s: bytes(row) for s, row in before.items()}, {s: bytes(row) for s, row in moving.items()}
    )


class TableCache:
    """The turns tables of the courses seen last, by (free squares, gate tile)."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._tables: OrderedDict[tuple[frozenset[Square], tuple[Square, ...]], TurnsToGate] = OrderedDict()

    def table(self, goal_squares: tuple[Square, ...], free: frozenset[Square]) -> TurnsToGate:
        key = (free, goal_squares)
        table = self._tables.get(key)
        if table is None:
            table = self._tables[key] = turns_to_gate(goal_squares, free)
            if len(self._tables) > self.size:
                self._tables.popitem(last=False)
        else:
            self._tables.move_to_end(key)
        return table
