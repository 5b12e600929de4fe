"""The lobby's lists: games in progress and the last finished games, built at most once a
second for everyone who asks."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import chaosgames.web.views as views
from chaosgames.web.errors import WebError
from chaosgames.web.service import GameService
from chaosgames.web.stored import FINISHED, RUNNING
from chaosgames.web.table_rows import endings_of

LIST_LIMIT = 50
LISTS_FRESH = 1.0
"""Seconds a list of games, once built, is given to everyone who asks (building it reads and
describes every game listed, and anyone may ask for the lobby as often as they like)."""


async def game_lists(service: GameService, limit: int) -> dict[str, Any]:
    built = service.lists.get(limit)
    now = time.monotonic()
    if built is not None and now - built[0] < LISTS_FRESH:
        return built[1]
    lists = await _game_lists(service, limit)
    service.lists[limit] = (now, lists)
    return lists


async def _game_lists(service: GameService, limit: int) -> dict[str, Any]:
    # Running games come from the database too: other servers may have started some.
    newest = await asyncio.to_thread(service.store.summaries, RUNNING, limit)
    running = []
    for summary in newest:
        with contextlib.suppress(WebError):
            running.append(views.live_summary(await service.get(summary.id)))
    stored = await asyncio.to_thread(service.store.summaries, FINISHED, limit)
    endings = await asyncio.to_thread(endings_of, service.store, [s.id for s in stored])
    return {"running": running, "finished": [views.stored_summary(s, endings.get(s.id)) for s in stored]}
