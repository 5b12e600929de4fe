"""The games and player counts the research interfaces are checked on."""

from __future__ import annotations

from typing import Any

from chaosgames.core import game_class

CASES: list[tuple[str, dict[str, Any]]] = [
    ("chaos-checkers", {"chaos": False}),
    ("chaos-checkers", {}),
    *[
        (name, {"players": n})
        for name in ("cardboard-machines", "chaos-cruisers", "royal-racers")
        for n in range(game_class(name).min_players, game_class(name).max_players + 1)
    ],
]
IDS = [f"{name}-{'-'.join(f'{k}={v}' for k, v in options.items())}" for name, options in CASES]
