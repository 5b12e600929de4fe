"""Chaos Round, steps 3 and 4: which tiles may be moved and where, and where obstacle
coins may go. Pure functions of the course; the state drives the steps."""

from __future__ import annotations

from collections.abc import Iterable

from chaosgames.core.grid import Square
from chaosgames.games.chaos_cruisers.course import (
    Tile,
    articulation_squares,
    tile_neighbours,
    tile_of,
)


def movable_tiles(
    tiles: frozenset[Tile], gate_tiles: frozenset[Tile], cruiser_tiles: set[Tile], moved: frozenset[Tile]
) -> list[Tile]:
    """Tiles the last player may pick up: no cruiser on it (rule A), not a gate tile
    (rule B), not one already moved this chaos round ("3 tiles" are three different
    tiles), and lifting it leaves the other tiles connected (rule C). Sorted."""
    if len(tiles) < 2:
        return []
    cut = articulation_squares(tiles)
    fixed = gate_tiles | cruiser_tiles | moved | cut
    return sorted(t for t in tiles if t not in fixed)


def lay_spots(tiles: frozenset[Tile], origin: Tile) -> list[Tile]:
    """Where a lifted tile may go: an empty place on the tile lattice (rule D: aligned),
    touching a tile on the board side to side (rule D, which also keeps every tile
    reachable, rule C), and not where it came from ("different locations"). Sorted."""
    spots = {n for t in tiles for n in tile_neighbours(t) if n not in tiles}
    spots.discard(origin)
    return sorted(spots)


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
