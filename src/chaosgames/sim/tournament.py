"""Tournaments: every lineup of n agents out of a pool plays its own rotated job."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from chaosgames.core import load_game
from chaosgames.sim.lab import SimulationSummary, simulate
from chaosgames.sim.match import DEFAULT_MAX_ACTIONS
from chaosgames.sim.storage import LabError


def tournament(
    game: str,
    pool: Sequence[str],
    games_per_lineup: int,
    *,
    db: str | Path,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    workers: int = 1,
    backend: str = "local",
    max_actions: int = DEFAULT_MAX_ACTIONS,
) -> list[SimulationSummary]:
    """Play every combination of `players` agents from `pool` (round robin for 2 players).

    Each lineup is a job of its own (resumable, seats rotated); all share `seed`, so they
    meet the same dice. `chaosgames report` then shows every agent's win rate over all.
    """
    players = load_game(game, **dict(options or {})).num_players
    if len(pool) < players:
        raise LabError(f"A tournament of {game} for {players} players needs at least {players} agents.")
    return [
        simulate(
            game,
            list(lineup),
            games_per_lineup,
            db=db,
            seed=seed,
            options={**dict(options or {}), "players": players},
            workers=workers,
            backend=backend,
            max_actions=max_actions,
        )
        for lineup in itertools.combinations(pool, players)
    ]
