"""The table's news beside the game: who is present and what the people said.

One message for every viewer of a game (`{"type": "table", "presence": [...], "chat":
[...], "spectators": n, "takeback": ...}`), told again through the hub when a connection opens or closes,
when the game moves on (a seat acted), after each chat message and takeback answer. It is built from the
database in a thread, at most one build per game at a time (changes that come meanwhile
are taken by one more build).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import chaosgames.web.chat as chat
import chaosgames.web.presence as presence
import chaosgames.web.undo as undo
from chaosgames.web.database import Database
from chaosgames.web.hub import Hub
from chaosgames.web.live import LiveGame

log = logging.getLogger("chaosgames.web")


class Talk:
    """Builds each game's news and hands it to the hub."""

    def __init__(self, hub: Hub, db: Database) -> None:
        self.hub = hub
        self.db = db
        self._building: dict[str, bool] = {}
        """Games whose news is being built: True when another change came meanwhile."""
        self._tasks: set[asyncio.Task[None]] = set()
        hub.on_change.append(self.changed)

    def changed(self, game_id: str) -> None:
        """Something the news tells changed: build it anew (soon, off the event loop)."""
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
        """The table's news: who is connected (on the event loop, where the hub's connections
        change), the rest read from the database in a thread."""
        connected, spectators = self.hub.seats_connected(live.id)
        return await asyncio.to_thread(self._read, live, connected, spectators)

    def _read(self, live: LiveGame, connected: set[int], spectators: int) -> dict[str, Any]:
        acted = presence.last_acted(self.db, live.id, live.version)
        return {
            "presence": presence.seats(live, connected, acted),
            "spectators": spectators,
            "chat": chat.latest(self.db, live.id, live.game.player_names()),
            "takeback": undo.news(live, undo.pending(self.db, live.id)),
        }

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
