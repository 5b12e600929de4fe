"""A game as the database holds it, in plain data: what `storage` reads and writes and
`live` replays (so that a live game needs nothing of the database itself)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

RUNNING = "running"
FINISHED = "finished"


@dataclass
class StoredGame:
    """One game as the database holds it."""

    id: str
    game: str
    options: dict[str, Any]
    seed: int
    status: str
    version: int
    result: list[float] | None
    meta: dict[str, Any]
    created: float
    updated: float
    seats: list[str] = field(default_factory=list)
    token_hashes: list[str | None] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    actors: list[int] = field(default_factory=list)
    secret: str | None = None
    """The key of the game's dice, in hex (None: a game created with a seed)."""


@dataclass
class GameSummary:
    id: str
    game: str
    options: dict[str, Any]
    status: str
    version: int
    seats: list[str]
    result: list[float] | None
    updated: float
