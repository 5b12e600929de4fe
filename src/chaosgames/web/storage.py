"""Where games live: SQLAlchemy Core tables, on SQLite (the default) or PostgreSQL.

Three tables. `games` holds a game's kind, options, seed, status and `version`, the number
of actions committed so far. `seats` holds who plays each seat and, for a person, the
SHA-256 of the seat's secret token (the token itself is never stored). `actions` holds
every action, chance outcomes included, in notation, keyed by (game, sequence number).

A move is committed before it is acknowledged: `commit` raises the game's version from
the one the move was decided on and inserts the new actions in one transaction. If the
version has moved on (another request, or another server process, was faster) nothing is
written and `commit` answers False, so two moves can never both be accepted for one turn.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    create_engine,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import StaticPool

metadata = MetaData()

games_table = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("options", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("status", String(16), nullable=False),
    Column("version", Integer, nullable=False),
    Column("result", Text, nullable=True),
    Column("meta", Text, nullable=False),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Index("games_by_status", "status", "updated"),
)

seats_table = Table(
    "seats",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("who", String(200), nullable=False),
    Column("token_hash", String(64), nullable=True),
)

actions_table = Table(
    "actions",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("notation", Text, nullable=False),
    Column("actor", Integer, nullable=False),
    Column("created", Float, nullable=False),
)


class _MovedOn(Exception):
    """The game's version is not the one an action was decided on (rolls the commit back)."""


RUNNING = "running"
FINISHED = "finished"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str, stored_hash: str | None) -> bool:
    """Whether `token` is the one whose hash is stored, compared in constant time."""
    if stored_hash is None:
        return False
    return hmac.compare_digest(token_hash(token), stored_hash)


def database_url(database: str) -> str:
    """A SQLAlchemy URL from what a user gives: a URL, or the path of a SQLite file.

    `postgresql://` URLs use psycopg 3 (the driver chaosgames installs).
    """
    if "://" not in database:
        return f"sqlite:///{database}"
    for prefix in ("postgresql://", "postgres://"):
        if database.startswith(prefix):
            return "postgresql+psycopg://" + database[len(prefix) :]
    return database


def make_engine(database: str) -> Engine:
    url = database_url(database)
    if url.startswith("sqlite"):
        memory = url in ("sqlite://", "sqlite:///:memory:")
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": 30},
            poolclass=StaticPool if memory else None,
        )
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True)


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    # WAL lets readers work beside the writer; FULL syncs every commit, so an action
    # acknowledged to a player survives a crash of the machine, not only of the server.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


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


class Store:
    """The database: create the schema, create games, commit actions, read games back."""

    def __init__(self, database: str) -> None:
        self.engine = make_engine(database)
        metadata.create_all(self.engine)
        # SQLite takes one writer at a time and makes the others wait in growing sleeps
        # (its busy handler); taking turns here first keeps every commit prompt.
        self._writing: threading.Lock | contextlib.nullcontext[None] = (
            threading.Lock() if self.engine.dialect.name == "sqlite" else contextlib.nullcontext()
        )

    def close(self) -> None:
        self.engine.dispose()

    def create_game(
        self,
        stored: StoredGame,
        actors: Sequence[int],
    ) -> None:
        """Insert a new game with its seats and the actions it starts from."""
        now = time.time()
        with self._writing, self.engine.begin() as conn:
            conn.execute(
                insert(games_table).values(
                    id=stored.id,
                    game=stored.game,
                    options=json.dumps(stored.options),
                    seed=stored.seed,
                    status=stored.status,
                    version=len(stored.actions),
                    result=None if stored.result is None else json.dumps(stored.result),
                    meta=json.dumps(stored.meta),
                    created=now,
                    updated=now,
                )
            )
            conn.execute(
                insert(seats_table),
                [
                    {"game_id": stored.id, "seat": i, "who": who, "token_hash": stored.token_hashes[i]}
                    for i, who in enumerate(stored.seats)
                ],
            )
            if stored.actions:
                conn.execute(
                    insert(actions_table),
                    [
                        {"game_id": stored.id, "seq": seq, "notation": text, "actor": actor, "created": now}
                        for seq, (text, actor) in enumerate(zip(stored.actions, actors, strict=True), start=1)
                    ],
                )

    def commit(
        self,
        game_id: str,
        version: int,
        actions: Sequence[tuple[str, int]],
        status: str,
        result: list[float] | None,
    ) -> bool:
        """Append `actions` (notation, actor) to a game at `version`; False if it moved on."""
        now = time.time()
        try:
            with self._writing, self.engine.begin() as conn:
                # The version check takes the row first (a row lock on PostgreSQL), so of
                # two commits for the same turn exactly one finds its version.
                done = conn.execute(
                    update(games_table)
                    .where(and_(games_table.c.id == game_id, games_table.c.version == version))
                    .values(
                        version=version + len(actions),
                        status=status,
                        result=None if result is None else json.dumps(result),
                        updated=now,
                    )
                )
                if done.rowcount != 1:
                    raise _MovedOn
                conn.execute(
                    insert(actions_table),
                    [
                        {"game_id": game_id, "seq": seq, "notation": text, "actor": actor, "created": now}
                        for seq, (text, actor) in enumerate(actions, start=version + 1)
                    ],
                )
        except (_MovedOn, IntegrityError):
            return False
        return True

    def load(self, game_id: str) -> StoredGame | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(games_table).where(games_table.c.id == game_id)).first()
            if row is None:
                return None
            stored = StoredGame(
                id=row.id,
                game=row.game,
                options=json.loads(row.options),
                seed=int(row.seed),
                status=row.status,
                version=int(row.version),
                result=None if row.result is None else json.loads(row.result),
                meta=json.loads(row.meta),
                created=float(row.created),
                updated=float(row.updated),
            )
            seats = conn.execute(
                select(seats_table.c.who, seats_table.c.token_hash)
                .where(seats_table.c.game_id == game_id)
                .order_by(seats_table.c.seat)
            ).all()
            stored.seats = [s.who for s in seats]
            stored.token_hashes = [s.token_hash for s in seats]
            actions = conn.execute(
                select(actions_table.c.notation, actions_table.c.actor)
                .where(and_(actions_table.c.game_id == game_id, actions_table.c.seq <= stored.version))
                .order_by(actions_table.c.seq)
            ).all()
            stored.actions = [a.notation for a in actions]
            stored.actors = [int(a.actor) for a in actions]
        return stored

    def ids(self, status: str) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games_table.c.id).where(games_table.c.status == status).order_by(games_table.c.created)
            ).all()
        return [r.id for r in rows]

    def summaries(self, status: str, limit: int) -> list[GameSummary]:
        """The most recently changed games with `status`, newest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games_table)
                .where(games_table.c.status == status)
                .order_by(games_table.c.updated.desc())
                .limit(limit)
            ).all()
            ids = [r.id for r in rows]
            seats: dict[str, list[str]] = {i: [] for i in ids}
            if ids:
                for s in conn.execute(
                    select(seats_table.c.game_id, seats_table.c.who)
                    .where(seats_table.c.game_id.in_(ids))
                    .order_by(seats_table.c.game_id, seats_table.c.seat)
                ):
                    seats[s.game_id].append(s.who)
        return [
            GameSummary(
                id=r.id,
                game=r.game,
                options=json.loads(r.options),
                status=r.status,
                version=int(r.version),
                seats=seats[r.id],
                result=None if r.result is None else json.loads(r.result),
                updated=float(r.updated),
            )
            for r in rows
        ]

    def count(self, status: str) -> int:
        with self.engine.connect() as conn:
            return int(
                conn.execute(
                    select(func.count()).select_from(games_table).where(games_table.c.status == status)
                ).scalar_one()
            )
