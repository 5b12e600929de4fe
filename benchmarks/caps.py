"""The length caps the benchmarks play with.

Caps (`max_rounds`, `max_moves`, `max_turns`) are options, not rules, and are off by
default; without them random and greedy Chaos Cruisers races, and random Royal Racers
races, rarely finish. The benchmarks keep the caps the games had by default before they
were turned off (issue 18), so their figures compare with earlier runs and the strength
games stay the same lab jobs.
"""

from __future__ import annotations

from typing import Any

import chaosgames

CAPS = {"max_rounds": 200, "max_moves": 1000, "max_turns": 600}


def capped_options(name: str, **options: Any) -> dict[str, Any]:
    """`options` plus each length cap game `name` has, at the benchmarks' values."""
    known = {option.name for option in chaosgames.core.game_class(name).option_spec}
    return {**{key: value for key, value in CAPS.items() if key in known}, **options}
