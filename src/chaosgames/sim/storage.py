"""The lab's SQLite database: one row per game, committed as soon as the game ends.

Table `games` holds only what the job determines (no timestamps), so the same command
with the same seed gives the same rows; wall-clock figures go to `timings`, which the
determinism guarantee leaves out. A job is identified by its game, options, lineup of
agents, seed and action cap; game `idx` of a job is stored at most once, which is what
makes an interrupted run resumable.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from chaosgames.core import ChaosGamesError, GameRecord

SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    job TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    lineup TEXT NOT NULL,
    seed INTEGER NOT NULL,
    max_actions INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    job TEXT NOT NULL,
    idx INTEGER NOT NULL,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    seats TEXT NOT NULL,
    lineup TEXT NOT NULL,
    rotation INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    winner INTEGER,
    winner_agent TEXT,
    returns TEXT,
    rounds INTEGER NOT NULL,
    actions INTEGER NOT NULL,
    lead_changes INTEGER NOT NULL,
    leader_at_half INTEGER,
    capped INTEGER NOT NULL,
    record TEXT,
    PRIMARY KEY (job, idx)
);
CREATE TABLE IF NOT EXISTS timings (
    job TEXT NOT NULL,
    idx INTEGER NOT NULL,
    seconds REAL NOT NULL,
    PRIMARY KEY (job, idx)
);
"""

GAME_COLUMNS = (
    "job",
    "idx",
    "game",
    "options",
    "seats",
    "lineup",
    "rotation",
    "seed",
    "winner",
    "winner_agent",
    "returns",
    "rounds",
    "actions",
    "lead_changes",
    "leader_at_half",
    "capped",
    "record",
)


class LabError(ChaosGamesError):
    """Bad input to the simulation lab (seats, counts, database), said in a sentence."""


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


class Store:
    """An open lab database."""

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        self.path = Path(path)
        if not create and not self.path.is_file():
            raise LabError(f"There is no lab database at {str(path)!r}; run 'chaosgames simulate' first.")
        try:
            self.db = sqlite3.connect(str(self.path))
            # A commit per game must stay cheap: write-ahead log, synced at checkpoints.
            # Committed games survive the program being stopped (not a power cut).
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(SCHEMA)
        except sqlite3.Error as exc:
            raise LabError(f"Cannot open {str(path)!r} as a lab database: {exc}.") from None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def add_job(
        self, job: str, game: str, options: Mapping[str, Any], lineup: list[str], seed: int, cap: int
    ) -> None:
        self.db.execute(
            "INSERT OR IGNORE INTO jobs VALUES (?, ?, ?, ?, ?, ?)",
            (job, game, canonical_json(options), canonical_json(lineup), seed, cap),
        )
        self.db.commit()

    def done(self, job: str) -> set[int]:
        """The game numbers of `job` already stored."""
        return {idx for (idx,) in self.db.execute("SELECT idx FROM games WHERE job = ?", (job,))}

    def add_game(self, row: Mapping[str, Any], seconds: float) -> None:
        """Store one finished game and commit at once (an interruption loses no stored game)."""
        values = tuple(row[c] for c in GAME_COLUMNS)
        marks = ", ".join("?" for _ in GAME_COLUMNS)
        with self.db:
            self.db.execute(f"INSERT OR IGNORE INTO games VALUES ({marks})", values)
            self.db.execute(
                "INSERT OR REPLACE INTO timings VALUES (?, ?, ?)", (row["job"], row["idx"], seconds)
            )

    def rows(self, where: str = "", params: Iterable[Any] = ()) -> list[dict[str, Any]]:
        """The stored games as dicts (JSON columns decoded), in job and game order."""
        cursor = self.db.execute(f"SELECT * FROM games {where} ORDER BY job, idx", tuple(params))
        names = [d[0] for d in cursor.description]
        result = []
        for values in cursor:
            row = dict(zip(names, values, strict=True))
            for key in ("options", "seats", "lineup", "returns"):
                if row[key] is not None:
                    row[key] = json.loads(row[key])
            row["capped"] = bool(row["capped"])
            result.append(row)
        return result

    def record(self, job: str, idx: int) -> GameRecord:
        """The full record of a stored game (the job must have been run with records kept)."""
        found = self.db.execute("SELECT record FROM games WHERE job = ? AND idx = ?", (job, idx)).fetchone()
        if found is None:
            raise LabError(f"Game {idx} of job {job} is not in {str(self.path)!r}.")
        if found[0] is None:
            raise LabError(
                f"Game {idx} of job {job} was stored without its record (simulate --records keeps them)."
            )
        return GameRecord.from_json(found[0])

    def total_seconds(self, job: str) -> float:
        (total,) = self.db.execute(
            "SELECT COALESCE(SUM(seconds), 0) FROM timings WHERE job = ?", (job,)
        ).fetchone()
        return float(total)
