"""The racecourse: piecepack tiles of 2x2 squares, gates on tiles, obstacles on squares.

Course JSON format (the `course` option takes a preset name or such a document):

    {"name": "my-course",                      # optional
     "tiles": [[0, 0], [1, 0], ...],           # tile coordinates, one pair per tile
     "gates": {"sun": [0, 0], "moon": [1, 0], "crown": ..., "arms": ...,
               "moon2": ..., "crown2": ..., "arms2": ..., "sun2": ...}}

The first set of gates are the piecepack's four pawns; `moon2` ... `sun2` are an optional
second set (a second piecepack's pawns) for races with more than four gates (variant 4).

Tiles sit on a lattice of 2x2 squares (reading chosen for "tiles placed in alignment"):
tile (tx, ty) covers squares (2tx, 2ty) .. (2tx+1, 2ty+1). x runs to the right, y up.
Square coordinates are what the action notation and the pictures use.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from typing import Any

from chaosgames.core.errors import PlacedValueError, quote
from chaosgames.core.grid import ORTHOGONAL, Square, bfs_distances

Tile = tuple[int, int]

GATE_NAMES: tuple[str, ...] = ("sun", "moon", "crown", "arms", "moon2", "crown2", "arms2", "sun2")
"""The gates in the order a lap visits them: the four pawns (sun is the start and the
lap's end), then a second set of pawns in the same suit order, for more gates (variant 4)."""

FIRST_SET = 4
"""The first four gate names are the piecepack's own pawns."""


def gate_title(name: str) -> str:
    """A gate as players call it: 'Moon', or 'Moon II' for the second set's moon."""
    if name.endswith("2"):
        return f"{name[:-1].capitalize()} II"
    return name.capitalize()


MAX_TILES = 24
MAX_TILE_COORDINATE = 10**5
"""A course's tiles lie within this many tiles of the origin: the state document holds
squares (two a tile) within 10**6, and chaos rounds move tiles a step at a time, so a
course laid inside this bound stays inside the document's for any race."""
"""One piecepack holds 24 tiles."""


def tile_of(square: Square) -> Tile:
    """The tile (lattice position) holding a square (floor division, so negatives work)."""
    return (square[0] >> 1, square[1] >> 1)


def tile_squares(tile: Tile) -> tuple[Square, Square, Square, Square]:
    """The four squares of a tile: lower-left, lower-right, upper-left, upper-right."""
    x, y = tile[0] * 2, tile[1] * 2
    return ((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1))


def course_squares(tiles: Iterable[Tile]) -> frozenset[Square]:
    return frozenset(s for t in tiles for s in tile_squares(t))


def tile_neighbours(tile: Tile) -> list[Tile]:
    return [(tile[0] + dx, tile[1] + dy) for dx, dy in ORTHOGONAL]


def tile_place(tile: Tile) -> str:
    """A tile as the picture names it (`data-place`): 'tile:' and its lower-left square."""
    return f"tile:{tile[0] * 2},{tile[1] * 2}"


def validate_course(doc: Any) -> dict[str, Any]:
    """A course document checked and normalised; ValueError says what is wrong (a
    PlacedValueError, naming the tiles or gates it is about, where it is about a place)."""
    if not isinstance(doc, dict):
        raise ValueError("a course is a preset name or a JSON object with 'tiles' and 'gates'.")
    unknown = sorted(set(doc) - {"name", "tiles", "gates"})
    if unknown:
        raise ValueError(f"a course has only 'name', 'tiles' and 'gates', not {', '.join(unknown)}.")
    name = doc.get("name", "custom")
    if not isinstance(name, str):
        raise ValueError("the course 'name' must be text.")
    tiles = _read_tiles(doc.get("tiles"))
    gates = _read_gates(doc.get("gates"), tiles)
    return {"name": name, "tiles": [list(t) for t in sorted(tiles)], "gates": gates}


def _read_pair(value: Any, what: str) -> Tile:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise ValueError(f"{what} must be a pair of whole numbers [tx, ty], not {quote(value)}.")
    if any(abs(v) > MAX_TILE_COORDINATE for v in value):
        raise ValueError(
            f"{what} must lie within {MAX_TILE_COORDINATE:,} tiles of [0, 0], not at {quote(list(value))}."
        )
    return (value[0], value[1])


def _read_tiles(value: Any) -> set[Tile]:
    if not isinstance(value, list) or not value:
        raise ValueError("'tiles' must be a non-empty list of [tx, ty] pairs.")
    if len(value) > MAX_TILES:
        extra = [tile_place(_read_pair(item, "each tile")) for item in value[MAX_TILES:]]
        raise PlacedValueError(f"a piecepack has {MAX_TILES} tiles; this course uses {len(value)}.", extra)
    tiles: set[Tile] = set()
    for item in value:
        tile = _read_pair(item, "each tile")
        if tile in tiles:
            raise PlacedValueError(f"two tiles overlap at {list(tile)}.", [tile_place(tile)])
        tiles.add(tile)
    # Squares of lattice tiles touch exactly when the tiles are orthogonal neighbours.
    cut_off = _cut_off(tiles)
    if cut_off:
        raise PlacedValueError(
            "the course is disconnected: every tile must touch the others side to side.",
            [tile_place(t) for t in sorted(cut_off)],
        )
    return tiles


def _cut_off(tiles: set[Tile]) -> set[Tile]:
    """The tiles outside the largest connected part (none when the course is connected):
    what a designer has to join up or lift."""
    left, parts = set(tiles), []
    while left:
        part = set(bfs_distances([min(left)], left.__contains__))
        parts.append(part)
        left -= part
    largest = max(parts, key=len) if parts else set()
    return tiles - largest


def _read_gates(value: Any, tiles: set[Tile]) -> dict[str, list[int]]:
    if not isinstance(value, dict):
        raise ValueError("'gates' must be an object naming the tile of each gate, e.g. {'sun': [0, 0]}.")
    unknown = sorted(set(value) - set(GATE_NAMES))
    if unknown:
        raise ValueError(
            f"unknown gate {', '.join(unknown)}; the gates are sun, moon, crown and arms, "
            "and a second set moon2, crown2, arms2 and sun2."
        )
    if "sun" not in value:
        raise PlacedValueError("the course is missing the sun gate (the start and finish).", ["gate:sun"])
    seen: dict[Tile, str] = {}
    gates: dict[str, list[int]] = {}
    for name in GATE_NAMES:
        if name not in value:
            continue
        tile = _read_pair(value[name], f"the {name} gate")
        if tile not in tiles:
            raise PlacedValueError(
                f"the {name} gate at {list(tile)} is not on a tile of the course.", [f"gate:{name}"]
            )
        if tile in seen:
            raise PlacedValueError(
                f"the {name} and {seen[tile]} gates share the tile {list(tile)}.",
                [f"gate:{name}", f"gate:{seen[tile]}", tile_place(tile)],
            )
        seen[tile] = name
        gates[name] = list(tile)
    return gates


Cell = tuple[int, int]
"""A square or a tile: both sit on a lattice where cells touch side to side."""


def separations(cells: AbstractSet[Cell]) -> tuple[Cell, dict[Cell, int], dict[Cell, list[tuple[int, int]]]]:
    """A depth-first numbering of connected cells from the least (Tarjan, iterative) and,
    for each cell whose removal splits them, the number ranges of the parts cut off below
    it; the rest of the cells are one more part unless the cell is the root."""
    root = min(cells)
    order: dict[Cell, int] = {root: 0}
    low: dict[Cell, int] = {root: 0}
    counter = 1
    cuts: dict[Cell, list[tuple[int, int]]] = {}
    stack: list[tuple[Cell, Cell | None, int]] = [(root, None, 0)]
    while stack:
        cell, parent, i = stack[-1]
        if i < 4:
            stack[-1] = (cell, parent, i + 1)
            dx, dy = ORTHOGONAL[i]
            n = (cell[0] + dx, cell[1] + dy)
            if n not in cells or n == parent:
                continue
            if n in order:
                if order[n] < low[cell]:
                    low[cell] = order[n]
            else:
                order[n] = low[n] = counter
                counter += 1
                stack.append((n, cell, 0))
            continue
        stack.pop()
        if parent is not None:
            if low[cell] < low[parent]:
                low[parent] = low[cell]
            if parent == root or low[cell] >= order[parent]:
                # The subtree below `cell` was numbered order[cell] .. counter - 1.
                cuts.setdefault(parent, []).append((order[cell], counter))
    if len(cuts.get(root, ())) < 2:
        cuts.pop(root, None)
    return root, order, cuts


def articulation_squares(free: AbstractSet[Square]) -> set[Square]:
    """Free squares whose removal would split the free squares in two.

    An obstacle may not go there (chaos round, obstacle rule D)."""
    return set(separations(free)[2]) if free else set()
