"""Chaos Round, steps 3 and 4: which tiles may be moved and where, and where obstacle
coins may go. Pure functions of the course; the state drives the steps."""

from __future__ import annotations

from collections.abc import Iterable

from chaosgames.core.grid import Square
from chaosgames.games.chaos_cruisers.course import (
    Tile,
    articulation_squares,
    separations,
    tile_neighbours,
    tile_of,
)


def movable_tiles(
    tiles: frozenset[Tile], gate_tiles: frozenset[Tile], cruiser_tiles: set[Tile], moved: frozenset[Tile]
) -> list[Tile]:
    """Tiles the last player may pick up: no cruiser on it (rule A), not a gate tile
    (rule B), not one already moved this chaos round ("3 tiles" are three different
    tiles), and some lay leaves the course whole (rule C: a tile whose removal splits the
    course may go only where it joins the parts again). Sorted."""
    if len(tiles) < 2:
        return []
    fixed = gate_tiles | cruiser_tiles | moved
    candidates = [t for t in tiles if t not in fixed]
    if not candidates:
        return []
    root, order, cuts = separations(tiles)
    if not any(t in cuts for t in candidates):
        return sorted(candidates)
    # Only a place touching two tiles or more can join two parts.
    touching: dict[Tile, list[Tile]] = {}
    for t in tiles:
        for n in tile_neighbours(t):
            if n not in tiles:
                touching.setdefault(n, []).append(t)
    joints = [tuple(order[t] for t in near) for near in touching.values() if len(near) > 1]
    movable = []
    for t in candidates:
        ranges = cuts.get(t)
        if ranges is None or _joinable(order[t], ranges, t != root, joints):
            movable.append(t)
    return sorted(movable)


def _joinable(number: int, ranges: list[tuple[int, int]], rest: bool, joints: list[tuple[int, ...]]) -> bool:
    """Whether some place touches every part left when the tile numbered `number` is
    lifted (`joints`: the numbers of the tiles each place touches)."""
    parts = len(ranges) + rest
    for near in joints:
        seen = set()
        for n in near:
            if n == number:
                continue
            for k, (low, high) in enumerate(ranges):
                if low <= n < high:
                    seen.add(k)
                    break
            else:
                seen.add(-1)
        if len(seen) == parts:
            return True
    return False


def lay_spots(tiles: frozenset[Tile], origin: Tile) -> list[Tile]:
    """Where a lifted tile may go: an empty place on the tile lattice (rule D: aligned),
    touching a tile on the board side to side (rule D), not where it came from
    ("different locations"), and leaving the course whole (rule C: if lifting the tile
    split the course, only places touching every part). Sorted."""
    spots = {n for t in tiles for n in tile_neighbours(t) if n not in tiles}
    spots.discard(origin)
    if _splits(tiles, origin):
        part = _parts(tiles)
        count = max(part.values()) + 1
        spots = {s for s in spots if len({part.get(n, -1) for n in tile_neighbours(s)} - {-1}) == count}
    return sorted(spots)


def _splits(tiles: frozenset[Tile], origin: Tile) -> bool:
    """Whether the tiles touching the lifted tile's place lie in different parts."""
    near = [n for n in tile_neighbours(origin) if n in tiles]
    if len(near) < 2:
        return False
    part = _parts(tiles, near[0])
    return any(n not in part for n in near[1:])


def _parts(tiles: frozenset[Tile], first: Tile | None = None) -> dict[Tile, int]:
    """Each tile's connected part of the course, numbered from 0 (only the part of
    `first` when given)."""
    part: dict[Tile, int] = {}
    count = 0
    for start in (first,) if first is not None else tiles:
        if start in part:
            continue
        part[start] = count
        stack = [start]
        while stack:
            x, y = stack.pop()
            for n in ((x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y)):
                if n in tiles and n not in part:
                    part[n] = count
                    stack.append(n)
        count += 1
    return part


def obstacle_squares(
    course: frozenset[Square],
    obstacles: Iterable[Square],
    gate_tiles: frozenset[Tile],
    cruiser_tiles: set[Tile],
) -> list[Square]:
    """Squares that may take an obstacle coin: on a square of a tile (rule A), not on a
    tile holding a cruiser (rule B), not on a gate tile (rule C), and not isolating any
    part of the course (rule D: the free squares stay connected, and no tile is covered
    entirely, so every tile stays reachable). Sorted."""
    blocked = set(obstacles)
    per_tile: dict[Tile, int] = {}
    for square in blocked:
        tile = tile_of(square)
        per_tile[tile] = per_tile.get(tile, 0) + 1
    free = course - blocked
    cut = articulation_squares(free)
    allowed: list[Square] = []
    for square in free:
        tile = tile_of(square)
        if tile in gate_tiles or tile in cruiser_tiles or square in cut or per_tile.get(tile, 0) >= 3:
            continue
        allowed.append(square)
    return sorted(allowed)
