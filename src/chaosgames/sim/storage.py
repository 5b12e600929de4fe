"""The lab's SQLite database: one row per game, committed as soon as the game ends.

Table `games` holds only what the job determines (no timestamps), so the same command
with the same seed gives the same rows; wall-clock figures go to `timings`, which the
determinism guarantee leaves out. A job is identified by its game, options, lineup of
agents, seed and action cap; game `idx` of a job is stored at most once, which is what
makes an interrupted run resumable.

One dataclass, `GameRow`, is the table: its fields give the columns (their order, SQL
types and whether they may be NULL), the insert and the read. Databases written before a
column existed are still read: a missing column reads as its field's default, and the
column is added (NULL in the old rows) the first time such a database is written to.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import sqlite3
import types
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chaosgames.core import ChaosGamesError, GameRecord
from chaosgames.core.errors import quote, shorten


class LabError(ChaosGamesError):
    """Bad input to the simulation lab (seats, counts, database), said in a sentence."""


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


# How a game ended, as stored in `games.ended_by`: the two values of `State.ended_by()`,
# and the lab's own cap (the game did not finish, it has no result).
ENDED_BY_RULES = "rules"
ENDED_BY_CAP = "cap"
STOPPED_BY_LAB = "lab"

# Length caps that are game options, not rules; the round count shows only the first.
ROUND_CAP_OPTION = "max_rounds"


JSON = {"json": True}
"""Field metadata of the columns stored as JSON text."""


@dataclass
class GameRow:
    """One stored game. Field order is column order; `json` fields are stored as JSON text."""

    job: str
    idx: int
    game: str
    options: dict[str, Any] = field(metadata=JSON)
    seats: list[str] = field(metadata=JSON)
    lineup: list[str] = field(metadata=JSON)
    rotation: int
    seed: int
    winner: int | None
    winner_agent: str | None
    returns: list[float] | None = field(metadata=JSON)
    rounds: int
    actions: int
    lead_changes: int
    leader_at_half: int | None
    capped: bool
    """Stopped by the lab's action cap: not finished, no result."""
    record: str | None
    # Columns added after the first databases were written (read as these defaults there).
    ended_by: str | None = None
    """"rules", "cap" (a game's own length cap, an option), "lab" (the lab's action cap)."""
    decisions: int | None = None
    """Actions chosen by players (chance outcomes left out)."""
    choices: int | None = None
    """Legal actions summed over the decisions: choices / decisions is the branching factor."""
    finish: str | None = None
    """How the game ended in the rulebook's words ("race won", "last car left (elimination)")."""
    opening: str | None = None
    """A digest of the game's first actions (`jobs.OPENING_ACTIONS`, chance outcomes
    included): replaying them tells whether the code still plays the job's games as stored."""
    feel: dict[str, Any] | None = field(default=None, metadata=JSON)
    """How the game felt (`match.MatchResult.feel`): drama, when the winner was clear, real
    decisions, the branching factor over time, the hidden share of the state."""

    def __post_init__(self) -> None:
        if self.ended_by is None:
            self.ended_by = self._inferred_ending()

    def _inferred_ending(self) -> str:
        # A row written before `ended_by` was stored: the lab's cap shows in `capped`, a
        # round cap in the round count; other caps (max_moves, max_turns) cannot be told
        # from the row, and such a row is read as a rulebook end.
        if self.capped:
            return STOPPED_BY_LAB
        cap = self.options.get(ROUND_CAP_OPTION)
        capped_by_rounds = isinstance(cap, int) and cap > 0 and self.rounds >= cap
        return ENDED_BY_CAP if capped_by_rounds else ENDED_BY_RULES

    @property
    def ended_by_rules(self) -> bool:
        """Finished by the rulebook: the only games whose results count as wins."""
        return self.ended_by == ENDED_BY_RULES

    @property
    def branching(self) -> float | None:
        if not self.decisions or self.choices is None:
            return None
        return self.choices / self.decisions


_ROW_FIELDS = dataclasses.fields(GameRow)
GAME_COLUMNS = tuple(f.name for f in _ROW_FIELDS)
_JSON_COLUMNS = frozenset(f.name for f in _ROW_FIELDS if f.metadata.get("json"))
_HINTS = typing.get_type_hints(GameRow)


def _python_type(hint: Any) -> tuple[type, bool]:
    """The type of a field's annotation (list for list[str]) and whether None is allowed."""
    args = typing.get_args(hint)
    nullable = isinstance(hint, types.UnionType) and type(None) in args
    base = next((a for a in args if a is not type(None)), hint) if nullable else hint
    return typing.get_origin(base) or base, nullable


def _sql_type(hint: Any) -> tuple[str, bool]:
    """The SQL type of a field's annotation and whether NULL is allowed."""
    base, nullable = _python_type(hint)
    sql = {int: "INTEGER", bool: "INTEGER", float: "REAL", str: "TEXT"}.get(base, "TEXT")
    return sql, nullable


def _column(name: str) -> str:
    sql, nullable = _sql_type(_HINTS[name])
    return f"{name} {sql}" if nullable else f"{name} {sql} NOT NULL"


SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS jobs (
    job TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    lineup TEXT NOT NULL,
    seed INTEGER NOT NULL,
    max_actions INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    """
    + ",\n    ".join(_column(name) for name in GAME_COLUMNS)
    + """,
    PRIMARY KEY (job, idx)
);
CREATE TABLE IF NOT EXISTS labels (
    variant TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    label TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS timings (
    job TEXT NOT NULL,
    idx INTEGER NOT NULL,
    seconds REAL NOT NULL,
    PRIMARY KEY (job, idx)
);
"""
)


def _to_sql(row: GameRow) -> tuple[Any, ...]:
    values = []
    for name in GAME_COLUMNS:
        value = getattr(row, name)
        if name in _JSON_COLUMNS and value is not None:
            value = canonical_json(value)
        elif isinstance(value, bool):
            value = int(value)
        values.append(value)
    return tuple(values)


def _from_sql(names: Iterable[str], values: Iterable[Any], database: str) -> GameRow:
    """A stored row as a GameRow, every cell checked: a row another program (or a hand)
    changed is a LabError naming the game, not a crash in the report or in verify."""
    given = {name: value for name, value in zip(names, values, strict=True) if name in _HINTS}
    try:
        for name, value in given.items():
            given[name] = _cell(name, value)
        _check_row(given)
    except _Unreadable as exc:
        job, idx = given.get("job"), given.get("idx")
        shown = shorten(job) if isinstance(job, str) else quote(job)
        raise LabError(f"Game {quote(idx)} of job {shown} in {database} cannot be read: {exc}.") from None
    return GameRow(**given)


class _Unreadable(ValueError):
    """Why a stored cell or row cannot be read as a GameRow."""


_SHAPES: dict[type, tuple[type, str]] = {
    int: (int, "a whole number"),
    bool: (int, "0 or 1"),
    str: (str, "text"),
}


def _cell(name: str, value: Any) -> Any:
    """One stored cell as its field holds it (JSON decoded, 0/1 as a bool)."""
    base, nullable = _python_type(_HINTS[name])
    if value is None:
        if nullable:
            return None
        raise _Unreadable(f"its {name} is empty")
    if name in _JSON_COLUMNS:
        return _json_cell(name, value)
    kind, wanted = _SHAPES[base]
    if not isinstance(value, kind) or (base is bool and value not in (0, 1)):
        raise _Unreadable(f"its {name} is {quote(value)}, not {wanted}")
    return bool(value) if base is bool else value


def _json_cell(name: str, value: Any) -> Any:
    fits, wanted = _JSON_SHAPES[name]
    try:
        decoded = json.loads(value) if isinstance(value, str) else None
    except (ValueError, RecursionError):
        decoded = None
    if decoded is None or not fits(decoded):
        raise _Unreadable(f"its {name} cell {quote(value)} is not {wanted}")
    return decoded


def _specs(value: object) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) for v in value)


def _numbers(value: object) -> bool:
    return isinstance(value, list) and all(
        isinstance(v, int | float) and not isinstance(v, bool) for v in value
    )


_JSON_SHAPES: dict[str, tuple[Callable[[object], bool], str]] = {
    "options": (lambda value: isinstance(value, dict), "a JSON object"),
    "seats": (_specs, "a JSON list of agent specs"),
    "lineup": (_specs, "a JSON list of agent specs"),
    "returns": (_numbers, "a JSON list of numbers"),
    "feel": (lambda value: isinstance(value, dict), "a JSON object"),
}
"""What each JSON column decodes to, and how a message names it."""


def _check_row(row: Mapping[str, Any]) -> None:
    """What the report and verify rely on across cells: a seat per lineup entry, a result
    per seat, players that are seats, an ending the lab knows."""
    players = len(row["seats"])
    if len(row["lineup"]) != players:
        raise _Unreadable(f"it has {players} seats but a lineup of {len(row['lineup'])}")
    if row["returns"] is not None and len(row["returns"]) != players:
        raise _Unreadable(f"it has {players} seats but {len(row['returns'])} returns")
    for name in ("rotation", "winner", "leader_at_half"):
        if row[name] is not None and not 0 <= row[name] < players:
            raise _Unreadable(f"its {name} {row[name]} is not a seat (0 to {players - 1})")
    if row["idx"] < 0:
        raise _Unreadable("its game number is negative")
    if row.get("ended_by") not in (None, ENDED_BY_RULES, ENDED_BY_CAP, STOPPED_BY_LAB):
        raise _Unreadable(f"its ending {quote(row['ended_by'])} is not rules, cap or lab")


def _job_problem(seed: object, cap: object) -> str | None:
    """Why a stored job's seed and action cap cannot be used to replay its games, if so."""
    if not isinstance(seed, int):
        return f"its seed {quote(seed)} is not a whole number"
    if not isinstance(cap, int) or cap < 1:
        return f"its action cap {quote(cap)} is not a whole number of at least 1"
    return None


def database_path(db: object) -> Path:
    """The path of a lab database given as text or a path; LabError for anything else."""
    if not isinstance(db, str | os.PathLike) or not str(db):
        raise LabError(f"A lab database is named by a file path, not by {quote(db)}.")
    return Path(db)


LAB_TABLES: dict[str, tuple[str, ...]] = {
    "jobs": ("job", "game", "options", "lineup", "seed", "max_actions"),
    "games": GAME_COLUMNS,
    "timings": ("job", "idx", "seconds"),
}
"""The lab's tables and their columns, as SCHEMA makes them."""

LATER_TABLES: dict[str, tuple[str, ...]] = {"labels": ("variant", "game", "options", "label")}
"""Tables added after the first databases were written: made when such a database is opened."""

FIRST_GAME_COLUMNS = tuple(f.name for f in _ROW_FIELDS if f.default is dataclasses.MISSING)
"""The columns of `games` in the first lab databases: the later ones (the fields with a
default) may be missing, and are added when such a database is written to."""


def _tables(path: Path) -> dict[str, list[str]]:
    """The tables of the SQLite file at `path` and their columns, read without changing it:
    read-only, before any PRAGMA or CREATE (SQLite's own tables left out)."""
    uri = path.absolute().as_uri() + "?mode=ro"
    with contextlib.closing(sqlite3.connect(uri, uri=True)) as db:
        names = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {
            name: [column for (column,) in db.execute("SELECT name FROM pragma_table_info(?)", (name,))]
            for name in names
            if not name.startswith("sqlite_")
        }


def _not_ours(tables: Mapping[str, list[str]]) -> str | None:
    """Why tables that are there are not a lab database's (None when they are)."""
    for name, known in LAB_TABLES.items():
        columns = tables.get(name)
        if columns is None:
            others = ", ".join(sorted(tables))
            return f"it has no table {name}; its tables are {shorten(others)}"
        unknown = [c for c in columns if c not in known]
        needed = FIRST_GAME_COLUMNS if name == "games" else known
        missing = [c for c in needed if c not in columns]
        if unknown:
            return f"its table {name} has columns the lab does not know: {shorten(', '.join(unknown))}"
        if missing:
            return f"its table {name} lacks the lab's columns {', '.join(missing)}"
    for name, known in LATER_TABLES.items():
        if name in tables and sorted(tables[name]) != sorted(known):
            return f"its table {name} has other columns than the lab's {', '.join(known)}"
    return None


class LabStore:
    """An open lab database.

    A database file that exists is the lab's own or nothing is done to it: its tables are
    read first, read-only, and a file whose tables are another program's is refused before
    any PRAGMA, CREATE or ALTER would change it. An empty file (no tables) is made a lab
    database when `create` allows.
    """

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        self.path = database_path(path)
        self.name = quote(str(self.path))
        if self._exists():
            self._check_tables(create)
        elif not create:
            raise LabError(f"There is no lab database at {self.name}; run 'chaosgames simulate' first.")
        try:
            self.db = sqlite3.connect(str(self.path))
            # A commit per game must stay cheap: write-ahead log, synced at checkpoints.
            # Committed games survive the program being stopped (not a power cut).
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(SCHEMA)
            self.columns = [r[1] for r in self.db.execute("PRAGMA table_info(games)")]
        except (sqlite3.Error, ValueError) as exc:
            raise LabError(f"Cannot open {self.name} as a lab database: {exc}.") from None

    def _exists(self) -> bool:
        try:
            return self.path.is_file()
        except OSError as exc:  # a name too long for the file system, say
            raise LabError(f"Cannot open {self.name} as a lab database: {exc.strerror or exc}.") from None

    def _check_tables(self, create: bool) -> None:
        try:
            tables = _tables(self.path)
        except (sqlite3.Error, ValueError) as exc:
            raise LabError(f"Cannot open {self.name} as a lab database: {exc}.") from None
        if not tables:
            if create:
                return
            raise LabError(
                f"{self.name} is not a lab database (it holds no tables); run 'chaosgames simulate' first."
            )
        why = _not_ours(tables)
        if why is not None:
            raise LabError(f"{self.name} is not a lab database ({why}); nothing was changed in it.")

    @contextlib.contextmanager
    def _sql(self, doing: str) -> Iterator[None]:
        """Turn a failing query or insert (a locked, full or damaged database) into a LabError
        saying what was being done and where."""
        try:
            yield
        except sqlite3.Error as exc:
            raise LabError(f"Cannot {doing} {self.name}: {exc}.") from None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> LabStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _add_missing_columns(self) -> None:
        # An older database gains the newer columns (NULL in its old rows) before we write.
        for name in GAME_COLUMNS:
            if name not in self.columns:
                sql, _ = _sql_type(_HINTS[name])
                self.db.execute(f"ALTER TABLE games ADD COLUMN {name} {sql}")
                self.columns.append(name)

    def add_job(
        self, job: str, game: str, options: Mapping[str, Any], lineup: list[str], seed: int, cap: int
    ) -> None:
        with self._sql("store the job in"), self.db:
            self._add_missing_columns()
            self.db.execute(
                "INSERT OR IGNORE INTO jobs (job, game, options, lineup, seed, max_actions) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (job, game, canonical_json(options), canonical_json(lineup), seed, cap),
            )

    def done(self, job: str) -> set[int]:
        """The game numbers of `job` already stored."""
        with self._sql("read"):
            return {idx for (idx,) in self.db.execute("SELECT idx FROM games WHERE job = ?", (job,))}

    def first_opening(self, job: str) -> tuple[int, str] | None:
        """The lowest-numbered stored game of `job` that has an opening digest, and the digest
        (None when there is none: no game stored, or only games stored before digests were)."""
        if "opening" not in self.columns:
            return None
        with self._sql("read"):
            found = self.db.execute(
                "SELECT idx, opening FROM games WHERE job = ? AND opening IS NOT NULL ORDER BY idx LIMIT 1",
                (job,),
            ).fetchone()
        return None if found is None else (found[0], found[1])

    def job_seeds(self) -> dict[str, tuple[int, int]]:
        """Every job's seed and action cap, by job key (each checked: a whole seed, a cap of
        at least 1)."""
        with self._sql("read"):
            found = self.db.execute("SELECT job, seed, max_actions FROM jobs").fetchall()
        for job, seed, cap in found:
            why = _job_problem(seed, cap)
            if why is not None:
                shown = shorten(job) if isinstance(job, str) else quote(job)
                raise LabError(f"Job {shown} in {self.name} cannot be read: {why}.")
        return {job: (seed, cap) for job, seed, cap in found}

    def set_opening(self, job: str, idx: int, opening: str) -> None:
        with self._sql(f"store the opening of game {idx} of job {job} in"), self.db:
            self._add_missing_columns()
            self.db.execute("UPDATE games SET opening = ? WHERE job = ? AND idx = ?", (opening, job, idx))

    def drop_game(self, job: str, idx: int) -> None:
        """Delete one stored game and its timing (a resumed job plays it again)."""
        with self._sql(f"delete game {idx} of job {job} from"), self.db:
            self.db.execute("DELETE FROM games WHERE job = ? AND idx = ?", (job, idx))
            self.db.execute("DELETE FROM timings WHERE job = ? AND idx = ?", (job, idx))

    def add_game(self, row: GameRow, seconds: float) -> None:
        """Store one finished game and commit at once (an interruption loses no stored game)."""
        marks = ", ".join("?" for _ in GAME_COLUMNS)
        with self._sql(f"store game {row.idx} of job {row.job} in"), self.db:
            self.db.execute(
                f"INSERT OR IGNORE INTO games ({', '.join(GAME_COLUMNS)}) VALUES ({marks})", _to_sql(row)
            )
            self.db.execute(
                "INSERT OR REPLACE INTO timings (job, idx, seconds) VALUES (?, ?, ?)",
                (row.job, row.idx, seconds),
            )

    def rows(self, where: str = "", params: Iterable[Any] = ()) -> list[GameRow]:
        """The stored games, in job and game order."""
        with self._sql("read"):
            cursor = self.db.execute(f"SELECT * FROM games {where} ORDER BY job, idx", tuple(params))
            names = [d[0] for d in cursor.description]
            found = cursor.fetchall()
        return [_from_sql(names, values, self.name) for values in found]

    def record(self, job: str, idx: int) -> GameRecord:
        """The full record of a stored game (the job must have been run with records kept)."""
        with self._sql("read"):
            found = self.db.execute(
                "SELECT record FROM games WHERE job = ? AND idx = ?", (job, idx)
            ).fetchone()
        if found is None:
            raise LabError(f"Game {idx} of job {job} is not in {self.name}.")
        if found[0] is None:
            raise LabError(
                f"Game {idx} of job {job} was stored without its record (simulate --records keeps them)."
            )
        return GameRecord.from_json(found[0])

    def set_label(self, key: str, game: str, options: Mapping[str, Any], label: str) -> None:
        """Name a variant (`key` its hash, see `sim.variants`); a label names one variant of
        a game, and a variant has one label (a new one replaces the old)."""
        with self._sql("read"):
            taken = self.db.execute(
                "SELECT variant FROM labels WHERE game = ? AND label = ? AND variant != ?", (game, label, key)
            ).fetchone()
        if taken is not None:
            raise LabError(
                f"The label {quote(label)} already names another variant of {game} in {self.name} "
                f"(v-{taken[0]}); choose another."
            )
        with self._sql("store the label in"), self.db:
            self.db.execute(
                "INSERT OR REPLACE INTO labels (variant, game, options, label) VALUES (?, ?, ?, ?)",
                (key, game, canonical_json(options), label),
            )

    def labels(self) -> dict[str, str]:
        """Every variant's label, by the variant's hash."""
        with self._sql("read"):
            found = self.db.execute("SELECT variant, label FROM labels").fetchall()
        return {str(key): str(label) for key, label in found}

    def jobs(self) -> dict[str, tuple[int, list[str], int]]:
        """Every job's seed, lineup and action cap, by job key (for pairing and rerolls)."""
        with self._sql("read"):
            found = self.db.execute("SELECT job, seed, lineup, max_actions FROM jobs").fetchall()
        out = {}
        for job, seed, lineup, cap in found:
            try:
                specs = json.loads(lineup)
            except (TypeError, ValueError):
                specs = None
            if _job_problem(seed, cap) is None and _specs(specs):
                out[job] = (seed, specs, cap)
        return out

    def total_seconds(self, job: str) -> float:
        with self._sql("read"):
            (total,) = self.db.execute(
                "SELECT COALESCE(SUM(seconds), 0) FROM timings WHERE job = ?", (job,)
            ).fetchone()
        return float(total)
