"""The race progress chart and the lead order (Cruising Round, rules 1-4)."""

from __future__ import annotations

from chaosgames.core.grid import Square, bfs_distances
from chaosgames.games.chaos_cruisers.course import GATE_NAMES, Tile, tile_squares

UNREACHABLE = 10**6


def progress_chart(gates: int, laps: int) -> tuple[str, ...]:
    """The chart's rows: per lap the gates after the sun, in order, then the sun again.

    With the rulebook's 4 gates and 2 laps: moon, crown, arms, sun, moon, crown, arms, sun.
    More gates add the second set after arms: with 6, moon, crown, arms, moon2, crown2, sun."""
    lap = (*GATE_NAMES[1:gates], "sun")
    return lap * laps


def gate_distances(
    gate_tile: Tile, course: frozenset[Square], obstacles: frozenset[Square]
) -> dict[Square, int]:
    """Fewest orthogonal steps from every free square to a square of the gate's tile,
    around obstacles (rule 2; other cruisers do not block, our reading)."""
    starts = [s for s in tile_squares(gate_tile) if s in course and s not in obstacles]
    return bfs_distances(starts, lambda s: s in course and s not in obstacles)


def lead_key(progress: int, distance: int, speed: int) -> tuple[int, int, int]:
    """Smaller is further ahead: most gates (rule 1), fewest squares to the next gate
    (rule 2), highest speed (rule 3)."""
    return (-progress, distance, -speed)


def lead_groups(keys: dict[int, tuple[int, int, int]]) -> tuple[tuple[int, ...], ...]:
    """Cruisers from the lead to last place, those tied on rules 1-3 grouped together
    (rule 4 then breaks the tie by chance)."""
    groups: list[tuple[int, ...]] = []
    last: tuple[int, int, int] | None = None
    for cruiser in sorted(keys, key=lambda c: (keys[c], c)):
        if keys[cruiser] == last:
            groups[-1] = (*groups[-1], cruiser)
        else:
            groups.append((cruiser,))
            last = keys[cruiser]
    return tuple(groups)
