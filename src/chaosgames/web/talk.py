"""The table's news beside the game: who is present and what the people said.

One message for every viewer of a game (`{"type": "table", "presence": [...], "chat":
[...], "spectators": n, "takeback": ...}`), told again through the hub when a connection
opens or closes, when the game moves on (a seat acted), after each chat message and
takeback answer. It is built only for games with a connection that asked for it
(`table: true` in its hello, as the game page's does), at most one build per game at a
time (changes that come meanwhile are taken by one more build).

A move does not read the database. While a game has such a connection this process
keeps what the news needs (`Known`): when each seat last acted, kept up from the game's
own steps and their commit times (`LiveGame.times`, the `created` the commit wrote), the
latest chat and the waiting takeback, read anew when a chat message or a takeback answer
is committed here (`heard`). The database is read, in a thread, on first need (a page
connects), when actions were taken back or the game was read anew, and at every change
while other server processes share the database (`alone` says when not): this process
cannot know their chat, their takebacks, nor exactly when their actions were committed.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import chaosgames.web.chat as chat
import chaosgames.web.presence as presence
import chaosgames.web.undo as undo
from chaosgames.web.database import Database
from chaosgames.web.hub import Hub
from chaosgames.web.live import LiveGame

log = logging.getLogger("chaosgames.web")


@dataclass
class Known:
    """What the news of one game needs beside its connections, as of one database read
    (`ticket`: later reads have higher ones) and the steps seen since."""

    ticket: int
    chat: list[dict[str, Any]]
    takeback: undo.Request | None
    acted: dict[int, float]
    """When each seat last acted, over the first `scanned` steps of `live`."""
    live: LiveGame
    rewound: int
    scanned: int

    def follows(self, live: LiveGame) -> bool:
        """Whether `live` is the game read, only grown since (nothing taken back, not read anew)."""
        return live is self.live and live.rewound == self.rewound and self.scanned <= live.length

    def catch_up(self) -> None:
        """Take the last-acted times of the steps committed since (their `created`)."""
        live = self.live
        for step, at in zip(live.steps[self.scanned :], live.times[self.scanned :], strict=True):
            if step.actor >= 0:
                self.acted[step.actor] = max(at, self.acted.get(step.actor, at))
        self.scanned = live.length


class Talk:
    """Builds each game's news and hands it to the hub; `alone` says whether this is the
    only server process on the database (then it knows every change of the news)."""

    def __init__(self, hub: Hub, db: Database, alone: Callable[[], bool] = lambda: True) -> None:
        self.hub = hub
        self.db = db
        self.alone = alone
        self._building: dict[str, bool] = {}
        """Games whose news is being built: True when another change came meanwhile."""
        self._known: dict[str, Known] = {}
        """What this process knows of the news of each game a connection asked it for."""
        self._tickets = itertools.count(1)
        self._tasks: set[asyncio.Task[None]] = set()
        hub.on_change.append(self.changed)

    def asked(self, game_id: str) -> bool:
        """Whether a connection to the game asked for its news."""
        return any(s.table for s in self.hub.subscribers.get(game_id, ()))

    def changed(self, game_id: str) -> None:
        """Something the news tells changed: build it anew (soon) if a connection asked for it."""
        if not self.asked(game_id):
            # Nobody reads it: nothing to keep up, and a page that asks later is built
            # its news then (never sent one told before it came).
            self._known.pop(game_id, None)
            self.hub.tables.pop(game_id, None)
            return
        if game_id in self._building:
            self._building[game_id] = True
            return
        self._building[game_id] = False
        task = asyncio.get_running_loop().create_task(self._build(game_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _build(self, game_id: str) -> None:
        try:
            while True:
                live = self.hub.latest.get(game_id)
                if live is None:
                    break
                try:
                    self.hub.tell(game_id, await self.news(live))
                except Exception:  # a database hiccup: the next change tells it again
                    log.exception("The table news of game %s could not be built.", game_id)
                if not self._building.get(game_id):
                    break
                self._building[game_id] = False
        finally:
            self._building.pop(game_id, None)

    async def news(self, live: LiveGame) -> dict[str, Any]:
        """The table's news: from what this process knows, or read from the database (in a
        thread) when it cannot know it (see the module's docstring)."""
        known = self._known.get(live.id)
        if known is not None and known.follows(live) and self.alone():
            known.catch_up()
        else:
            known = await self._read(live)
        return self._told(live, known)

    async def heard(self, live: LiveGame) -> dict[str, Any]:
        """A chat message or a takeback's answer was committed by this process: read the
        news anew, tell it to the game's viewers and return it."""
        known = await self._read(live)
        self.changed(live.id)
        return self._told(live, known)

    async def _read(self, live: LiveGame) -> Known:
        """The news's part from the database (kept while a connection asks for the news,
        unless a read begun later was kept first)."""
        ticket = next(self._tickets)
        # The game may move on while the thread reads: the steps read are those up to now.
        rewound, length, version, names = live.rewound, live.length, live.version, live.game.player_names()
        acted, said, takeback = await asyncio.to_thread(self._query, live.id, version, names)
        known = Known(ticket, said, takeback, acted, live, rewound, length)
        kept = self._known.get(live.id)
        if self.asked(live.id) and (kept is None or kept.ticket < ticket):
            self._known[live.id] = known
        return known

    def _query(
        self, game_id: str, version: int, names: list[str]
    ) -> tuple[dict[int, float], list[dict[str, Any]], undo.Request | None]:
        return (
            presence.last_acted(self.db, game_id, version),
            chat.latest(self.db, game_id, names),
            undo.pending(self.db, game_id),
        )

    def _told(self, live: LiveGame, known: Known) -> dict[str, Any]:
        """The news itself; who is connected is read on the event loop, where the hub's
        connections change."""
        connected, spectators = self.hub.seats_connected(live.id)
        return {
            "presence": presence.seats(live, connected, known.acted),
            "spectators": spectators,
            "chat": known.chat,
            "takeback": undo.news(live, known.takeback),
        }

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
