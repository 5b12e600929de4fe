"""A game as the database holds it, in plain data: what `storage` reads and writes and
`live` replays (so that a live game needs nothing of the database itself)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

RUNNING = "running"
FINISHED = "finished"


def plausible_id(game_id: str) -> bool:
    """Whether `game_id` could name a game (ids are short URL-safe text): others are not
    looked for in the database."""
    return 0 < len(game_id) <= 32 and all(c.isalnum() or c in "-_" for c in game_id)


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
    times: list[float] = field(default_factory=list)
    """When each action was committed (the clocks and the patience count from them)."""
    table: TableEvents = field(default_factory=lambda: TableEvents())
    table_version: int = 0
    """How many table changes the game has had (see `table_rows`)."""


@dataclass
class ListedGame:
    """A game as the lobby lists it (its row without the actions); the API's own shape of
    it is `schemas.GameSummary`."""

    id: str
    game: str
    options: dict[str, Any]
    status: str
    version: int
    seats: list[str]
    result: list[float] | None
    updated: float


RESIGNED = "resigned"
CLAIMED = "claimed"
OUT_OF_TIME = "time"
HANDED = "handed"
TAKEN_BACK = "taken back"


@dataclass(frozen=True)
class Ending:
    """How a game ended that its rules did not end (see `endings`): a resignation, a win
    claimed over an absent person, time. The returns are the games row's `result`."""

    how: str
    seat: int | None
    """The seat it happened to (who resigned, was claimed against, ran out of time)."""
    sentence: str
    created: float


@dataclass(frozen=True)
class SeatChange:
    """A seat passing from a person to a computer level or back (see `endings`, `absences`)."""

    seat: int
    who: str
    """Who plays the seat from then on: 'human' or an agent spec."""
    why: str
    version: int
    """The game's version when it happened."""
    created: float


@dataclass(frozen=True)
class TableRules:
    """The rules a table chose at creation, beside the game's options (docs/web.md)."""

    patience: float | None = None
    """Seconds a person may be absent on their turn before the others may hand their
    seat to a computer (None: never)."""
    clock: float | None = None
    """Seconds each person has for the game (None: no clock)."""
    increment: float = 0.0
    """Seconds added to a person's clock after each of their decisions."""
    out_of_time: str = "loss"
    """What running out of time does: 'loss' or 'computer' (a computer level takes over)."""


@dataclass
class TableEvents:
    """A game's table rules and events as the database holds them."""

    rules: TableRules = field(default_factory=TableRules)
    ending: Ending | None = None
    changes: list[SeatChange] = field(default_factory=list)
    offers: set[int] = field(default_factory=set)
    """The seats that offered or accepted a rematch."""
    rematch: str | None = None
    """The rematch's game id, once every person accepted."""
    pauses: list[tuple[float, float]] = field(default_factory=list)
    """(start, end) of the times no server kept the game: not charged to any clock."""
