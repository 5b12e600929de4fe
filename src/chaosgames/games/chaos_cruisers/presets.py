"""Preset courses. The rulebook's suggested layout is a diagram lost from the text, so these
are our own designs (the rulebook's variant 1 invites eclectic shapes). Coordinates are tiles."""

from __future__ import annotations

from typing import Any

from chaosgames.games.chaos_cruisers.course import Tile, validate_course


def _ring(x0: int, y0: int, x1: int, y1: int) -> list[Tile]:
    """The tiles on the border of the rectangle x0..x1, y0..y1 (a track 2 squares wide)."""
    return [(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1) if x in (x0, x1) or y in (y0, y1)]


def _grand_loop() -> dict[str, Any]:
    # All 24 tiles as a ring 8 wide and 6 tall; one lap visits sun (bottom), moon (right),
    # crown (top), arms (left), anticlockwise.
    return {
        "name": "grand-loop",
        "tiles": [list(t) for t in _ring(0, 0, 7, 5)],
        "gates": {"sun": [4, 0], "moon": [7, 3], "crown": [3, 5], "arms": [0, 2]},
    }


def _figure_eight() -> dict[str, Any]:
    # Two 4x4 rings sharing the corner tile (3, 3): a crossing the race passes twice a lap.
    tiles = set(_ring(0, 0, 3, 3)) | set(_ring(3, 3, 6, 6))
    return {
        "name": "figure-eight",
        "tiles": [list(t) for t in sorted(tiles)],
        "gates": {"sun": [1, 0], "moon": [6, 4], "crown": [4, 6], "arms": [0, 2]},
    }


def _chicane() -> dict[str, Any]:
    # A ring whose bottom straight jogs up one tile halfway along: a chicane of four bends.
    tiles = [(x, 4) for x in range(7)] + [(0, 3), (6, 3), (0, 2), (6, 2)]
    tiles += [(0, 1), (3, 1), (4, 1), (5, 1), (6, 1), (0, 0), (1, 0), (2, 0), (3, 0)]
    return {
        "name": "chicane",
        "tiles": [list(t) for t in tiles],
        "gates": {"sun": [1, 0], "moon": [6, 2], "crown": [3, 4], "arms": [0, 2]},
    }


PRESETS: dict[str, dict[str, Any]] = {
    doc["name"]: validate_course(doc) for doc in (_grand_loop(), _figure_eight(), _chicane())
}
"""Every preset, validated when the module loads."""
