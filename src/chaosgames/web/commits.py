"""Group commit: the actions of several games that arrive together go in one transaction.

An action is committed before it is acknowledged, and on SQLite every transaction ends in
an fsync (`PRAGMA synchronous=FULL`): a couple of milliseconds that, one action per
transaction, bound how many actions a server takes a second. Here one writer (the
database's writer thread) takes every commit waiting, writes them in one transaction with
each game's version checked as if alone (`commit_together`), and answers each caller only
once that transaction is committed. A commit that finds the writer idle goes at once: a
batch is only what gathered while the writer was busy with the one before, so nothing
waits for company.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Sequence
from typing import NamedTuple

from sqlalchemy import insert
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from chaosgames.web.database import Database
from chaosgames.web.tables import actions_table

log = logging.getLogger("chaosgames.web")

_INSERT_ACTIONS = insert(actions_table)  # built once (see `database._taking`)


class Commit(NamedTuple):
    """Actions (notation, actor) to append to a game at `version`, committed at `now`."""

    game_id: str
    version: int
    actions: Sequence[tuple[str, int]]
    status: str
    result: list[float] | None
    now: float


class _MovedOn(Exception):
    """The game's version is not the one an action was decided on (rolls the commit back)."""


def commit_alone(db: Database, commit: Commit) -> bool:
    """Commit one game's actions in a transaction of their own; False if it moved on."""
    try:
        with db.writing() as conn:
            if not append(db, conn, commit):
                raise _MovedOn
    except (_MovedOn, IntegrityError):
        return False
    return True


def commit_together(db: Database, commits: Sequence[Commit]) -> list[bool | Exception]:
    """Commit several games' actions in one transaction (one fsync): for each, whether it
    was committed (False: its game moved on) or the error it met.

    A game that moved on changes no row, so it is passed over and the others go on. Should
    the transaction fail as a whole (an action's row already there, a lost connection),
    each is committed again alone and gets what it would have got alone; its version check
    makes that safe even if the failed transaction was in fact committed."""
    if len(commits) > 1:
        done: list[bool | Exception] = [False] * len(commits)
        try:
            with db.writing() as conn:
                # In the games' order, so that two servers' batches never lock rows crosswise.
                for i in sorted(range(len(commits)), key=lambda i: commits[i].game_id):
                    done[i] = append(db, conn, commits[i])
            return done
        except Exception as exc:
            log.warning("%d commits made together failed (%s); each goes alone", len(commits), exc)
    return [_alone(db, c) for c in commits]


def _alone(db: Database, commit: Commit) -> bool | Exception:
    try:
        return commit_alone(db, commit)
    except Exception as exc:  # handed to the commit's caller
        return exc


def append(db: Database, conn: Connection, commit: Commit) -> bool:
    """Take the game's version and insert its actions in the transaction `conn`; False if
    it moved on (then nothing is written)."""
    game_id, version, actions, status, result, now = commit
    moved = db.take_version(
        conn,
        game_id,
        at=version,
        version=version + len(actions),
        status=status,
        result=None if result is None else json.dumps(result),
        updated=now,
    )
    if moved:
        conn.execute(
            _INSERT_ACTIONS,
            [
                {"game_id": game_id, "seq": seq, "notation": notation, "actor": actor, "created": now}
                for seq, (notation, actor) in enumerate(actions, start=version + 1)
            ],
        )
    return moved


class Commits:
    """The one writer of a server's actions and the commits waiting for it."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.waiting: list[tuple[Commit, asyncio.Future[bool]]] = []
        self.writer: asyncio.Task[None] | None = None

    async def commit(self, commit: Commit) -> bool:
        """Commit `commit` (with whatever else is waiting); False if its game moved on.

        Answers only after the transaction holding it is committed."""
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.waiting.append((commit, future))
        if self.writer is None or self.writer.done():
            self.writer = asyncio.create_task(self._write())
        return await future

    async def _write(self) -> None:
        """Write batches until nothing is waiting."""
        loop = asyncio.get_running_loop()
        batch: list[tuple[Commit, asyncio.Future[bool]]] = []
        try:
            while self.waiting:
                # A caller that gave up before its batch was taken is not written at all.
                batch = [(c, f) for c, f in self.waiting if not f.done()]
                self.waiting = []
                if not batch:
                    continue
                done = await loop.run_in_executor(
                    self.db.writer, commit_together, self.db, [c for c, _ in batch]
                )
                for (_, future), answer in zip(batch, done, strict=True):
                    if future.done():  # its caller was cancelled meanwhile
                        continue
                    if isinstance(answer, BaseException):
                        future.set_exception(answer)
                    else:
                        future.set_result(answer)
                batch = []
        except BaseException as exc:
            # The writer itself failed (its thread gone) or was cancelled (the loop stopping):
            # whoever waits is told, never acknowledged (the batch may or may not be committed).
            for _, future in batch + self.waiting:
                if future.done():
                    continue
                if isinstance(exc, Exception):
                    future.set_exception(exc)
                else:
                    future.cancel()
            self.waiting = []
            if not isinstance(exc, Exception):
                raise
