"""Tournaments: every lineup of n agents out of a pool plays its own rotated job."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence

from chaosgames.core import load_game
from chaosgames.sim.jobs import LabSettings
from chaosgames.sim.lab import SimulationSummary, simulate
from chaosgames.sim.storage import LabError


def tournament(
    game: str, pool: Sequence[str], games_per_lineup: int, settings: LabSettings
) -> list[SimulationSummary]:
    """Play every combination of `players` agents from `pool` (round robin for 2 players).

    Each lineup is a job of its own (resumable, seats rotated); all share the settings'
    seed, so they meet the same dice. `chaosgames report` then shows every agent's win
    rate over all.
    """
    players = load_game(game, **dict(settings.options)).num_players
    if len(pool) < players:
        raise LabError(f"A tournament of {game} for {players} players needs at least {players} agents.")
    each = dataclasses.replace(settings, options={**dict(settings.options), "players": players})
    return [
        simulate(game, list(lineup), games_per_lineup, each)
        for lineup in itertools.combinations(pool, players)
    ]
