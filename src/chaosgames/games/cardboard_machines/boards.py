"""The nine double-sided track boards (boards.json) and the geometry between their rows.

Each board side is 2 rows of 6 spaces (lanes). A side's offset shifts all its spaces
sideways by half a space, so a space's lateral position, in half spaces, is
`2 * col + offset`. The spaces "in front" of a space are those of the next row whose
lateral position differs by at most 2 half spaces: three (diagonal left, straight,
diagonal right) where the rows line up, two where they are staggered by half a space,
fewer at the outer lanes, where the frame (the wall) cuts the diagonal off.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any, NamedTuple

LANES = 6
ROWS = 2
BOARD_SPACES = LANES * ROWS
TABLE_BOARDS = 6
"""Boards on the table: one behind the starting board, the starting board, four in front."""
TABLE_ROWS = TABLE_BOARDS * ROWS
WHITE = 0
GRAY = 1
SIDE_NAMES = ("white", "gray")
START_BOARD = 0


class Side(NamedTuple):
    """One face of a board."""

    offset: int
    terrain: tuple[bool, ...]
    """Indexed by `row * LANES + col`."""
    dark_edges: bool


def _load() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("boards.json").read_text(encoding="utf-8")
    doc: dict[str, Any] = json.loads(text)
    return doc


def _side(doc: dict[str, Any]) -> Side:
    terrain = [False] * BOARD_SPACES
    for col, row in doc["terrain"]:
        terrain[row * LANES + col] = True
    return Side(int(doc["offset"]), tuple(terrain), bool(doc.get("dark_edges", False)))


_DOC = _load()
SIDES: tuple[tuple[Side, Side], ...] = tuple((_side(b["white"]), _side(b["gray"])) for b in _DOC["boards"])
"""SIDES[board_id][side]."""
BOARD_IDS: tuple[int, ...] = tuple(int(b["id"]) for b in _DOC["boards"])
START_SPACES: dict[int, tuple[int, int]] = {
    int(number): (int(cr[0]), int(cr[1]))
    for number, cr in _DOC["boards"][START_BOARD]["white"]["start"].items()
}
"""Starting space number -> (col, row) on the starting board's white side."""


def laid_boards(value: list[Any]) -> tuple[list[int], list[int]]:
    """The ids and the sides up of a checked `boards` option, back to front."""
    ids = [item if isinstance(item, int) else item[0] for item in value]
    sides = [WHITE if isinstance(item, int) else SIDE_NAMES.index(item[1]) for item in value]
    return ids, sides


def _front_table(back_offset: int, front_offset: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each column of a row, the (lateral step, column) pairs of the spaces in front."""
    table = []
    for col in range(LANES):
        here = 2 * col + back_offset
        ahead = []
        for col2 in range(LANES):
            step = 2 * col2 + front_offset - here
            if -2 <= step <= 2:
                ahead.append((step, col2))
        table.append(tuple(ahead))
    return tuple(table)


_OFFSETS = sorted({s.offset for pair in SIDES for s in pair})
FRONT: dict[tuple[int, int], tuple[tuple[tuple[int, int], ...], ...]] = {
    (a, b): _front_table(a, b) for a in _OFFSETS for b in _OFFSETS
}
"""FRONT[(offset of a row, offset of the next row)][col] -> ((lateral step, col), ...)."""


def direction(step: int) -> str:
    """How a step in front is named: left, ahead or right (diagonals of either stagger)."""
    if step < 0:
        return "left"
    if step > 0:
        return "right"
    return "ahead"


ROW_AHEAD: dict[tuple[int, int], tuple[tuple[tuple[int, int], ...], ...]] = {
    key: tuple(
        tuple(((step > 0) - (step < 0), LANES + col2 - col) for step, col2 in pairs)
        for col, pairs in enumerate(table)
    )
    for key, table in FRONT.items()
}
"""ROW_AHEAD[(offset of a row, offset of the next row)][col] -> ((direction, space in front - space), ...):
direction -1 left, 0 ahead, 1 right."""


class Track(NamedTuple):
    """The six boards on the table as lookup tables by table space (table row * LANES +
    lane, 0 = the back row's left lane): they change only when the track scrolls."""

    terrain: tuple[bool, ...]
    ahead: tuple[tuple[tuple[int, int], ...], ...]
    """(direction: -1 left, 0 ahead, 1 right; space in front - space) of the spaces in
    front, from left to right; none from the front row."""
    dodge: tuple[bool, ...]
    """Three spaces in front and the one straight ahead is terrain: going beside it is a
    barely dodge."""
    start_rows: tuple[int, int]
    """The table rows of the starting board."""
    directions: tuple[tuple[int, ...], ...]
    """The directions of `ahead`, alone."""


_FRONT_ROW: tuple[tuple[tuple[int, int], ...], ...] = ((),) * LANES
ROW_DIRECTIONS: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {
    key: tuple(tuple(d for d, _ in pairs) for pairs in row) for key, row in ROW_AHEAD.items()
}
"""The directions of ROW_AHEAD alone (a track is built at every scroll)."""


@functools.cache
def _row_dodge(pair: tuple[int, int], next_row: tuple[bool, ...]) -> tuple[bool, ...]:
    """For each lane of a row: three spaces in front and terrain straight ahead in `next_row`."""
    return tuple(
        len(pairs) == 3 and any(d == 0 and next_row[lane + delta - LANES] for d, delta in pairs)
        for lane, pairs in enumerate(ROW_AHEAD[pair])
    )


BoardRows = tuple[
    tuple[tuple[tuple[int, int], ...], ...],
    tuple[bool, ...],
    tuple[tuple[int, ...], ...],
]
"""A board's two rows of `Track.ahead`, `Track.dodge` and `Track.directions`."""


@functools.cache
def _board_rows(board: int, side: int, next_board: int, next_side: int) -> BoardRows:
    """The two rows of `board` showing `side` in the track's tables: they depend on it and
    on the board in front of it (`next_board` -1: none, it is the front board)."""
    face = SIDES[board][side]
    own = (face.offset, face.offset)  # from its first row to its second
    first_dodge = _row_dodge(own, face.terrain[LANES:])
    if next_board < 0:
        return (
            ROW_AHEAD[own] + _FRONT_ROW,
            first_dodge + (False,) * LANES,
            ROW_DIRECTIONS[own] + _NO_DIRECTIONS,
        )
    ahead_face = SIDES[next_board][next_side]
    pair = (face.offset, ahead_face.offset)
    return (
        ROW_AHEAD[own] + ROW_AHEAD[pair],
        first_dodge + _row_dodge(pair, ahead_face.terrain[:LANES]),
        ROW_DIRECTIONS[own] + ROW_DIRECTIONS[pair],
    )


_NO_DIRECTIONS: tuple[tuple[int, ...], ...] = ((),) * LANES


@functools.lru_cache(maxsize=4096)
def track(board_ids: tuple[int, ...], sides: tuple[int, ...]) -> Track:
    """The lookup tables of the boards `board_ids` (back to front) showing `sides`, put
    together from the tables of each board with the one in front of it (a scroll builds
    a new one)."""
    if len(sides) != len(board_ids):
        raise ValueError(f"{len(board_ids)} boards and {len(sides)} sides")
    terrain: tuple[bool, ...] = ()
    ahead: tuple[tuple[tuple[int, int], ...], ...] = ()
    dodge: tuple[bool, ...] = ()
    directions: tuple[tuple[int, ...], ...] = ()
    last = len(board_ids) - 1
    for i, board in enumerate(board_ids):
        side = sides[i]
        terrain += SIDES[board][side].terrain
        if i < last:
            rows = _board_rows(board, side, board_ids[i + 1], sides[i + 1])
        else:
            rows = _board_rows(board, side, -1, 0)
        ahead += rows[0]
        dodge += rows[1]
        directions += rows[2]
    start = ROWS * board_ids.index(START_BOARD) if START_BOARD in board_ids else -ROWS
    return Track(terrain, ahead, dodge, (start, start + 1), directions)
