"""The database under the games: SQLAlchemy Core on SQLite (the default) or PostgreSQL.

This module makes the engine and the schema (`Database`) of the tables in `tables`;
`storage.Store` reads and writes the rows.
"""

from __future__ import annotations

import contextlib
import functools
import os
import secrets
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy import (
    Update,
    and_,
    bindparam,
    create_engine,
    event,
    inspect,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.pool import StaticPool
from sqlalchemy.sql import ClauseElement

from chaosgames.web.stored import RUNNING
from chaosgames.web.tables import games_table, metadata

CHANNEL = "chaosgames_games"
"""The PostgreSQL notification channel: payload '<game id> <version>' after each commit."""
SCHEMA_LOCK = 7_413_001
"""The advisory lock under which a PostgreSQL server creates or upgrades the schema."""


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


def server_identity() -> str:
    """A new id for this server process: host, process id and a random part."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


def gone_from_this_host(server_id: str) -> bool:
    """Whether `server_id` names a process of this machine that no longer exists.

    A server killed on this machine loses its games at once rather than after its lease
    runs out. Anything else (another machine, a process id in use) waits for the lease."""
    host, _, rest = server_id.partition(":")
    pid_text = rest.partition(":")[0]
    if host != socket.gethostname() or not pid_text.isdigit():
        return False
    try:
        os.kill(int(pid_text), 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False
    return False


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    # WAL lets readers work beside the writer; FULL syncs every commit, so an action
    # acknowledged to a player survives a crash of the machine, not only of the server.
    _switch_to_wal(cursor)
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


WAL_TRIES = 50


def _switch_to_wal(cursor: Any) -> None:
    """`PRAGMA journal_mode=WAL`, tried again while the database is locked.

    On a new database (still in rollback-journal mode) a server switching it to WAL and
    another one committing the schema can each wait for the other's lock; SQLite then
    answers one of them "database is locked" at once instead of waiting out the timeout."""
    for attempt in range(WAL_TRIES):
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == WAL_TRIES - 1:
                raise
            time.sleep(0.02 * (attempt + 1))


_NOTIFY = text("SELECT pg_notify(:channel, :payload)")


@functools.cache
def _taking(names: tuple[str, ...]) -> Update:
    """`take_version`'s statement for changing the columns `names`, built once: a statement
    built anew for every action is hashed anew too (SQLAlchemy's key for its cache of
    compiled statements), which cost about as much as running it."""
    game = games_table.c
    taking = update(games_table).where(
        and_(game.id == bindparam("at_id"), game.version == bindparam("at"), game.status == RUNNING)
    )
    return taking.values({name: bindparam(f"to_{name}") for name in names}) if names else taking


class Database:
    """The engine on a database, with its schema made or brought up to date."""

    def __init__(self, database: str) -> None:
        self.engine = make_engine(database)
        self.dialect = self.engine.dialect.name
        for attempt in range(WAL_TRIES):
            try:
                self._create_schema()
                break
            except OperationalError as exc:
                # Two servers making a new SQLite file at once: one may be told "locked"
                # at once (each waits for the other's lock); it takes its turn again.
                if self.dialect != "sqlite" or "locked" not in str(exc) or attempt == WAL_TRIES - 1:
                    raise
                time.sleep(0.02 * (attempt + 1))
        # SQLite takes one writer at a time and makes the others wait in growing sleeps
        # (its busy handler); taking turns here first keeps every commit prompt.
        self._writing: threading.Lock | contextlib.nullcontext[None] = (
            threading.Lock() if self.engine.dialect.name == "sqlite" else contextlib.nullcontext()
        )
        self.writer = ThreadPoolExecutor(1, thread_name_prefix="chaosgames-writer")
        """The thread that commits the games' actions (see `commits`), apart from the default
        pool, so that a commit never queues behind views being built."""

    @contextlib.contextmanager
    def writing(self) -> Iterator[Connection]:
        """A write transaction, committed when the block ends (SQLite's writers taking turns)."""
        with self._writing, self.engine.begin() as conn:
            yield conn

    def take_version(self, conn: Connection, game_id: str, at: int, **values: Any) -> bool:
        """Take a running game's row at version `at` in the transaction `conn`, changed to
        `values` (its new version, if they name one); False when it is no longer at `at`.

        The version check takes the row first (a row lock on PostgreSQL), so of two commits
        for the same turn exactly one finds its version; a finished game's row is never
        changed again. On PostgreSQL every listening server is told the new version when
        (and only if) the transaction commits."""
        params = {"at_id": game_id, "at": at}
        if any(isinstance(value, ClauseElement) for value in values.values()):
            done = conn.execute(_taking(()).values(**values), params)  # computed in SQL
        else:
            names = tuple(sorted(values))
            done = conn.execute(_taking(names), params | {f"to_{name}": values[name] for name in names})
        if done.rowcount != 1:
            return False
        if self.dialect == "postgresql" and "version" in values:
            conn.execute(_NOTIFY, {"channel": CHANNEL, "payload": f"{game_id} {values['version']}"})
        return True

    def _create_schema(self) -> None:
        """Create the tables when missing and add the columns later versions brought.

        Servers starting together take turns: on PostgreSQL an advisory lock, on SQLite the
        write lock taken before the tables are looked at (its driver would otherwise run the
        CREATEs outside any transaction, and the second server to look would find no table,
        then fail to create one the first had just made)."""
        with self.engine.begin() as conn:
            if self.dialect == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
            elif self.dialect == "sqlite":
                conn.exec_driver_sql("BEGIN IMMEDIATE")
            metadata.create_all(conn)
            columns = {c["name"] for c in inspect(conn).get_columns("games")}
            if "owner" not in columns:  # a database of the first web app (issue 11)
                conn.execute(text("ALTER TABLE games ADD COLUMN owner VARCHAR(100)"))
            if "secret" not in columns:  # a database from before keyed dice (issue 49)
                conn.execute(text("ALTER TABLE games ADD COLUMN secret VARCHAR(64)"))
            if "table_version" not in columns:  # a database from before the table's rules (issue 50)
                conn.execute(text("ALTER TABLE games ADD COLUMN table_version INTEGER"))

    def close(self) -> None:
        self.writer.shutdown(wait=True)
        self.engine.dispose()
