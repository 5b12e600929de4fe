"""Who is at the table: whether each seat's person has the game open now, when each seat
last acted, and where a seat's "since you last played" starts.

Connected means a WebSocket of that seat is open to this server process (with several
processes, each knows its own connections). Last acted is when the seat's latest action
was committed (the `actions` table's `created`).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, func, select

from chaosgames.web.database import Database
from chaosgames.web.live import LiveGame
from chaosgames.web.tables import actions_table


def last_acted(db: Database, game_id: str, version: int) -> dict[int, float]:
    """When each seat last acted (seats that never acted are missing); `version` bounds the
    actions read to those in play."""
    with db.engine.connect() as conn:
        rows = conn.execute(
            select(actions_table.c.actor, func.max(actions_table.c.created))
            .where(
                and_(
                    actions_table.c.game_id == game_id,
                    actions_table.c.actor >= 0,
                    actions_table.c.seq <= version,
                )
            )
            .group_by(actions_table.c.actor)
        ).all()
    return {int(actor): float(at) for actor, at in rows}


def seats(live: LiveGame, connected: set[int], acted: dict[int, float]) -> list[dict[str, Any]]:
    """Each seat's presence: connected now (a person's page is open), last acted (or None)."""
    names = live.game.player_names()
    return [
        {
            "seat": i,
            "name": names[i],
            "human": not live.is_computer(i),
            "connected": (i in connected) if not live.is_computer(i) else True,
            "last_acted": acted.get(i),
        }
        for i in range(len(live.seats))
    ]


def since_last_played(live: LiveGame, viewer: int | None) -> int | None:
    """The number of the first move-log entry after `viewer`'s last decision (what happened
    since it last played), or None for a spectator or a seat that has not played yet."""
    if viewer is None:
        return None
    for at in range(live.length - 1, -1, -1):
        if live.steps[at].actor == viewer:
            return at + 2  # entries are numbered from 1
    return None
