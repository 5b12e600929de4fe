"""Several servers on one database: leases, heartbeats, sweeps for orphans, and news of
the other servers' commits (see docs/web.md, "Running it for a club").

- a game's computer seats are moved by the server that owns the game (`games.owner`);
  every server beats a heartbeat every `HEARTBEAT` seconds, and one that missed its
  heartbeats for `LEASE` seconds (or, on the same machine, whose process is gone) loses
  its games to the first live server that sweeps for orphans;
- a change committed by one server reaches the others' viewers: on PostgreSQL through
  LISTEN/NOTIFY at once, on SQLite by comparing versions every `SQLITE_POLL` seconds (a
  cheap query over the games this server has in memory); PostgreSQL servers also compare
  every `POSTGRES_POLL` seconds, in case a notification was lost with its connection;
- the version check of `Store.commit` keeps two servers from both accepting a move for
  one turn: the slower one reloads the game and answers 409.

The cluster knows the games only through `Games`, the few things it asks of the service.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from typing import Any, Protocol

from chaosgames.web.database import CHANNEL, server_identity
from chaosgames.web.live import LiveGame
from chaosgames.web.storage import Store
from chaosgames.web.table_rows import table_versions

log = logging.getLogger("chaosgames.web")

HEARTBEAT = 2.0
"""Seconds between a server's heartbeats (and its sweeps for orphaned games)."""
LEASE = 10.0
"""Seconds without a heartbeat after which a server's games go to another server."""
SQLITE_POLL = 0.5
"""Seconds between checks for other servers' changes on SQLite (under a second to a viewer)."""
POSTGRES_POLL = 5.0
"""The same on PostgreSQL, where notifications carry changes and this only backs them up."""


class Games(Protocol):
    """What the cluster asks of the games this server has in memory."""

    def held(self) -> list[str]:
        """The ids of the running games in memory."""
        ...

    def cached(self, game_id: str) -> LiveGame | None: ...

    async def refresh(self, game_id: str, anew: bool = False) -> None:
        """Take the actions another server committed to the game (`anew`: read it whole)."""
        ...

    async def take_over(self, game_id: str) -> None:
        """Move the computer seats of a game this server has just claimed."""
        ...


class Cluster:
    """This server among the others on the database: its id, its leases, its loops."""

    def __init__(self, store: Store, games: Games) -> None:
        self.store = store
        self.games = games
        self.server_id = server_identity()
        self.owned: set[str] = set()
        """Games whose computer seats this server moves (it holds their lease)."""
        self.servers = 1
        """Live servers on the database, this one included (as of the last heartbeat)."""
        self._loops: list[asyncio.Task[None]] = []
        self._pending: set[asyncio.Task[None]] = set()

    async def join(self) -> None:
        """Say this server is alive (before it resumes its games)."""
        await asyncio.to_thread(self.store.beat, self.server_id)

    async def start(self) -> None:
        """Take the orphaned games, then beat, sweep, poll and listen until `stop`."""
        await self._sweep()
        self._loops = [asyncio.create_task(self._heartbeats()), asyncio.create_task(self._polls())]
        if self.store.dialect == "postgresql":
            self._loops.append(asyncio.create_task(self._notifications()))

    async def stop(self) -> None:
        for loop in [*self._loops, *self._pending]:
            loop.cancel()
        for loop in [*self._loops, *self._pending]:
            with contextlib.suppress(BaseException):
                await loop
        self._loops = []

    async def leave(self) -> None:
        """The other servers take this one's games at once (not after its lease)."""
        with contextlib.suppress(Exception):
            await asyncio.to_thread(self.store.leave, self.server_id)
        self.owned.clear()

    def background(self, work: Coroutine[Any, Any, None]) -> None:
        """Run `work` beside the request that started it (kept until it is done)."""
        task = asyncio.get_running_loop().create_task(work)
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _heartbeats(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT)
            try:
                await asyncio.to_thread(self.store.beat, self.server_id)
                await self._sweep()
            except asyncio.CancelledError:
                raise
            except Exception:  # the database is away for a moment: try at the next beat
                log.warning("Heartbeat of server %s failed", self.server_id, exc_info=True)

    async def _sweep(self) -> None:
        """Take the games of servers that died, and move their computer seats."""
        await asyncio.to_thread(self.store.forget_servers, LEASE)
        servers = await asyncio.to_thread(self.store.live_servers, LEASE)
        self.servers = len(set(servers) | {self.server_id})
        orphans = await asyncio.to_thread(self.store.orphans, self.server_id, LEASE)
        for game_id, owner in orphans:
            if not await asyncio.to_thread(self.store.claim, game_id, owner, self.server_id):
                continue  # another server was faster
            log.info("Server %s takes game %s over from %s", self.server_id, game_id, owner)
            self.owned.add(game_id)
            await self.games.take_over(game_id)

    async def _polls(self) -> None:
        every = POSTGRES_POLL if self.store.dialect == "postgresql" else SQLITE_POLL
        while True:
            await asyncio.sleep(every)
            try:
                await self.catch_up()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("Checking for other servers' changes failed", exc_info=True)

    async def catch_up(self) -> None:
        """Bring every game in memory to the version the database has."""
        ids = self.games.held()
        if not ids:
            return
        versions = await asyncio.to_thread(self.store.versions, ids)
        tables = await asyncio.to_thread(table_versions, self.store, ids)
        for game_id, version in versions.items():
            live = self.games.cached(game_id)
            if live is not None and version > live.version:
                await self.games.refresh(game_id)
            elif live is not None and tables.get(game_id, 0) != live.table_seen:
                # A resignation, a seat handed on or taken back elsewhere (issue 50).
                await self.games.refresh(game_id, anew=True)

    async def _notifications(self) -> None:
        """LISTEN for other servers' commits; reconnect (and catch up) when the line drops."""
        import psycopg

        url = self.store.engine.url.set(drivername="postgresql")
        conninfo = url.render_as_string(hide_password=False)
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    await self.catch_up()  # what was committed while nobody listened
                    async for note in conn.notifies():
                        game_id, _, version = note.payload.partition(" ")
                        live = self.games.cached(game_id)
                        if live is not None and version.isdigit() and int(version) > live.version:
                            self.background(self.games.refresh(game_id))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("The notification connection dropped; reconnecting", exc_info=True)
                await asyncio.sleep(1.0)
