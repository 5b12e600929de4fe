"""The WebSocket hub: after every change of a game, each connected viewer gets its own view.

A connection first says who it is (`{"token": ...}` for a seat, `{"token": null}` for a
spectator). From then on the server sends `{"type": "view", "view": {...}}` at once and
after every change: the view of that seat (or of a spectator), with only the move-log
entries the connection has not had yet (`log_from` says where they start). A connection
that says `"patches": true` in its hello gets its whole view first, then only what changed
(`patches`); `{"resync": true}` from it asks for the whole view again. Updates a slow
connection has not taken yet are merged: it gets the newest view (or one patch to it),
never a queue of stale ones.

Beside the views, a connection that asks for it in its hello (`"table": true`) gets the
table's news (`{"type": "table", ...}`: who is connected, the chat, a waiting takeback;
built by `talk`). The news is the same for every viewer of a game: encoded once, and
merged like the views (a connection gets the newest, never a queue). The hub tells its
`on_change` listeners whenever a game's connections change or its version does.

The service reaches the hub only through `publish(live)` (its `Transport`): the hub keeps
the newest game of each game it has connections for, and wakes them. The checks before a
connection is served (its `Origin`, the client's open connections, its hello) are the
socket route's (`routes.sockets`). A long game's view (a move log of thousands of entries)
is built and encoded in a thread, off the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import json
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

import chaosgames.web.views as views
from chaosgames.web import patches
from chaosgames.web.live import LiveGame

COMPACT = (",", ":")
"""JSON without the spaces after separators: a view's or a patch's bytes, not its meaning."""

REPLIES = 32
"""Answers a connection may have waiting at most: one that sends without reading loses the rest."""

LONG_LOG = 1_000
"""Move-log entries from which a view is built in a thread rather than on the event loop."""


class Subscriber:
    def __init__(
        self, websocket: WebSocket, viewer: int | None, table: bool = False, patched: bool = False
    ) -> None:
        self.websocket = websocket
        self.viewer = viewer
        self.table = table
        """Whether the connection asked for the table's news in its hello."""
        self.patched = patched
        """Whether it is sent patches after its whole view."""
        self.sent_log: int | None = None
        """Move-log entries this connection has had; None before its first view."""
        self.sent_version = 0
        """The game's version in the last view sent."""
        self.sent: tuple[int, dict[str, Any]] | None = None
        """The revision and the view (without its log) it was last sent; None: none yet,
        or it asked for the whole view again."""
        self.replies: list[str] = []
        """Answers to the connection's own messages (see `serve`'s `on_text`), sent after
        any view due."""
        self.wake = asyncio.Event()
        self.view_due = True
        self.table_due = table


class Hub:
    """Connections by game; `publish(live)` wakes every connection of that game."""

    def __init__(self) -> None:
        self.subscribers: dict[str, set[Subscriber]] = defaultdict(set)
        self.latest: dict[str, LiveGame] = {}
        """The game as last published, for each game with connections."""
        # The last view built per (game, viewer), with its revision: several tabs of one
        # seat share it.
        self._views: dict[tuple[str, int | None], tuple[tuple[Any, ...], int, dict[str, Any]]] = {}
        self._revisions = itertools.count(1)
        self._messages: dict[tuple[str, int | None], tuple[tuple[Any, ...], str]] = {}
        """The last message encoded per (game, viewer), for the next connection that needs it."""
        self.tables: dict[str, str] = {}
        """The table's news of each game with connections, encoded (see `tell`)."""
        self._versions: dict[str, int] = {}
        self.on_change: list[Callable[[str], None]] = []
        """Called with a game's id when a connection to it opens or closes, or it changed."""

    def publish(self, live: LiveGame) -> None:
        """The service's `Transport`: `live` changed; its connections send their views."""
        subscribers = self.subscribers.get(live.id)
        if not subscribers:
            return
        self.latest[live.id] = live
        # The seats' connections are woken first, so their views go out before any
        # spectator's: a table watched by many (a stranger's dozens of sockets among them)
        # keeps its players' pace.
        for subscriber in sorted(subscribers, key=lambda s: s.viewer is None):
            subscriber.view_due = True
            subscriber.wake.set()
        if self._versions.get(live.id) != live.version:  # not only a computer's thinking
            self._versions[live.id] = live.version
            self._changed(live.id)

    def tell(self, game_id: str, news: dict[str, Any]) -> None:
        """Send every viewer of a game the table's news (the same for all of them)."""
        subscribers = self.subscribers.get(game_id)
        if not subscribers:
            return
        self.tables[game_id] = json.dumps({"type": "table", **news})
        for subscriber in subscribers:
            if subscriber.table:
                subscriber.table_due = True
                subscriber.wake.set()

    def seats_connected(self, game_id: str) -> tuple[set[int], int]:
        """The seats with a connection open to this game, and how many spectators watch."""
        viewers = [s.viewer for s in self.subscribers.get(game_id, ())]
        return {v for v in viewers if v is not None}, sum(1 for v in viewers if v is None)

    def _changed(self, game_id: str) -> None:
        for listener in self.on_change:
            listener(game_id)

    def connections(self) -> int:
        return sum(len(s) for s in self.subscribers.values())

    def base_view(self, live: LiveGame, viewer: int | None) -> dict[str, Any]:
        """The view without its move log, built once per change for each viewer."""
        return self.revised_view(live, viewer)[1]

    def revised_view(self, live: LiveGame, viewer: int | None) -> tuple[int, dict[str, Any]]:
        """`base_view` with its revision (a number no other view of this server has)."""
        key = (live.id, viewer)
        stamp = (live.version, live.thinking, live.trouble, live.table_version)
        cached = self._views.get(key)
        if cached is not None and cached[0] == stamp:
            return cached[1], cached[2]
        view = views.view(live, viewer, log_from=live.length)
        revision = next(self._revisions)
        self._views[key] = (stamp, revision, view)
        return revision, view

    def view(self, live: LiveGame, viewer: int | None, log_from: int | None = None) -> dict[str, Any]:
        """`viewer`'s view with the move log from entry `log_from` on (by default its last
        page, `views.LOG_PAGE` entries)."""
        if log_from is None:
            log_from = views.log_start(live)
        view = dict(self.base_view(live, viewer))
        view["thinking"] = views.thinking(live)  # its clock runs on between changes
        view["log_from"] = log_from
        view["log"] = views.log_entries(live, viewer, log_from)
        return view

    async def view_off_loop(
        self, live: LiveGame, viewer: int | None, log_from: int | None = None
    ) -> dict[str, Any]:
        """`view`, built in a thread when its move log is long."""
        start = views.log_start(live) if log_from is None else log_from
        if live.length - start < LONG_LOG:
            return self.view(live, viewer, log_from)
        return await asyncio.to_thread(self.view, _snapshot(live), viewer, log_from)

    def message(self, live: LiveGame, subscriber: Subscriber) -> str | None:
        """The next message for `subscriber` (None: it has everything): encoded once for
        every connection of the same viewer that had the same entries and view (the
        spectators of a game, a seat's tabs), not once a connection."""
        sent = subscriber.sent_log
        # Actions taken back since this connection's last view: its move log anew.
        fresh = sent is not None and sent <= live.length and subscriber.sent_version >= live.rewound
        start = sent if fresh else None
        revision, base = self.revised_view(live, subscriber.viewer)
        had = subscriber.sent if subscriber.patched and start is not None else None
        if had is not None and had[0] == revision and start == live.length:
            return None
        subscriber.sent_log = live.length
        subscriber.sent_version = live.version
        subscriber.sent = (revision, base)
        key = (live.id, subscriber.viewer)
        stamp = (live.version, start, revision, None if had is None else had[0])
        cached = self._messages.get(key)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        if had is None or start is None:
            doc = {"type": "view", "revision": revision, "view": self.view(live, subscriber.viewer, start)}
        else:
            log = views.log_entries(live, subscriber.viewer, start)
            doc = patches.patch(had, (revision, base), start, log)
        text = json.dumps(doc, separators=COMPACT)
        self._messages[key] = (stamp, text)
        return text

    def resync(self, subscriber: Subscriber) -> None:
        """The connection asks for its whole view again (it could not apply a patch)."""
        subscriber.sent = None
        subscriber.sent_log = None
        subscriber.view_due = True
        subscriber.wake.set()

    def reply(self, subscriber: Subscriber, text: str) -> None:
        """Send `subscriber` an answer of its own, after any view due (so an action's
        acknowledgement follows the view that shows it)."""
        if len(subscriber.replies) < REPLIES:
            subscriber.replies.append(text)
        subscriber.wake.set()

    async def serve(
        self,
        websocket: WebSocket,
        live: LiveGame,
        viewer: int | None,
        table: bool = False,
        patched: bool = False,
        on_text: Callable[[Subscriber, str], Awaitable[None]] | None = None,
    ) -> None:
        """One connection, checked and hello said (see `routes.sockets`), until its end;
        `table`: it asked for the table's news too; `patched`: for patches after its whole
        view; `on_text`: what its other text messages are given to (an action), one at a
        time."""
        game_id = live.id
        self.latest.setdefault(game_id, live)
        subscriber = Subscriber(websocket, viewer, table, patched)
        self.subscribers[game_id].add(subscriber)
        self._changed(game_id)
        writer = asyncio.create_task(self._write(game_id, subscriber))
        try:
            # After its hello a client asks for its whole view again, or says something
            # `on_text` answers (binary messages are let be); reading also notices it leave.
            while (message := await websocket.receive())["type"] != "websocket.disconnect":
                text = message.get("text")
                if patches.asks_resync(text):
                    self.resync(subscriber)
                elif on_text is not None and isinstance(text, str):
                    await on_text(subscriber, text)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            writer.cancel()
            with contextlib.suppress(BaseException):
                await writer
            self.subscribers[game_id].discard(subscriber)
            if not self.subscribers[game_id]:
                del self.subscribers[game_id]
                self.latest.pop(game_id, None)
                self.tables.pop(game_id, None)
                self._versions.pop(game_id, None)
                for key in [k for k in self._views if k[0] == game_id]:
                    del self._views[key]
                for key in [k for k in self._messages if k[0] == game_id]:
                    del self._messages[key]
            self._changed(game_id)

    async def _write(self, game_id: str, subscriber: Subscriber) -> None:
        try:
            while True:
                if subscriber.view_due:
                    subscriber.view_due = False
                    text = await self._view_text(game_id, subscriber)
                    if text is not None:
                        await subscriber.websocket.send_text(text)
                if subscriber.table_due:
                    subscriber.table_due = False
                    table = self.tables.get(game_id)
                    if table is not None:
                        await subscriber.websocket.send_text(table)
                # An answer waits for a view due (the one that shows the action answered).
                while subscriber.replies and not subscriber.view_due:
                    await subscriber.websocket.send_text(subscriber.replies.pop(0))
                if not (subscriber.view_due or subscriber.table_due or subscriber.replies):
                    await subscriber.wake.wait()
                    subscriber.wake.clear()
        except (WebSocketDisconnect, RuntimeError):
            with contextlib.suppress(BaseException):
                await subscriber.websocket.close()

    async def _view_text(self, game_id: str, subscriber: Subscriber) -> str | None:
        live = self.latest[game_id]
        sent = subscriber.sent_log
        if live.length - (views.log_start(live) if sent is None else sent) < LONG_LOG:
            return self.message(live, subscriber)
        return await asyncio.to_thread(self.message, _snapshot(live), subscriber)


def _snapshot(live: LiveGame) -> LiveGame:
    """The game as it is now, for a thread to read while the loop goes on changing it (a
    change replaces the state and extends the move log)."""
    return dataclasses.replace(live, steps=list(live.steps))
