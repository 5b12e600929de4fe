"""Square-grid helpers shared by the games played on grids (courses, card layouts)."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator

Square = tuple[int, int]

ORTHOGONAL: tuple[Square, ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))
"""Unit steps north, east, south, west (x to the right, y up)."""


def neighbours(square: Square) -> Iterator[Square]:
    x, y = square
    for dx, dy in ORTHOGONAL:
        yield (x + dx, y + dy)


def bfs_distances(starts: Iterable[Square], passable: Callable[[Square], bool]) -> dict[Square, int]:
    """Fewest orthogonal steps from any start to every reachable passable square."""
    dist: dict[Square, int] = {}
    queue: deque[Square] = deque()
    for s in starts:
        if s not in dist:
            dist[s] = 0
            queue.append(s)
    while queue:
        square = queue.popleft()
        d = dist[square] + 1
        for n in neighbours(square):
            if n not in dist and passable(n):
                dist[n] = d
                queue.append(n)
    return dist


def connected(squares: set[Square]) -> bool:
    """Whether all squares form one orthogonally connected region (empty counts as yes)."""
    if not squares:
        return True
    start = next(iter(squares))
    return len(bfs_distances([start], squares.__contains__)) == len(squares)
