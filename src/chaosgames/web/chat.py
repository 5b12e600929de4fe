"""The table's chat: short messages from the people at a table, read by everyone watching.

Only a seat's token may post (spectators read); a message is one line of at most
`MAX_CHARS` characters, kept in the `chat` table with the game (committed before the
post is answered) and never in the game's record. The page shows it as text, never as
markup. Posts are counted per client address by the `chat` limit (see `limits`).
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import insert, select

from chaosgames.web.database import Database
from chaosgames.web.errors import Forbidden, Unprocessable
from chaosgames.web.tables import chat_table

MAX_CHARS = 300
SHOWN = 50
"""Messages the table's news carries: the latest ones."""


def cleaned(text: str) -> str:
    """The message as it is kept: one line, trimmed; Unprocessable when empty or too long."""
    line = " ".join(text.split())
    if not line:
        raise Unprocessable("A chat message needs some text.")
    if len(line) > MAX_CHARS:
        raise Unprocessable(f"A chat message has at most {MAX_CHARS} characters; this one has {len(line)}.")
    return line


def check_poster(seat: int | None) -> int:
    """The seat a message is posted for: spectators read the chat but do not post."""
    if seat is None:
        raise Forbidden(
            "Only the people at the table may chat (with their seat's private link); spectators read."
        )
    return seat


def post(db: Database, game_id: str, seat: int, text: str) -> None:
    """Keep a message (committed when this returns)."""
    with db.writing() as conn:
        conn.execute(insert(chat_table).values(game_id=game_id, seat=seat, text=text, created=time.time()))


def latest(db: Database, game_id: str, names: list[str]) -> list[dict[str, Any]]:
    """The table's latest messages, oldest first."""
    with db.engine.connect() as conn:
        rows = conn.execute(
            select(chat_table.c.id, chat_table.c.seat, chat_table.c.text, chat_table.c.created)
            .where(chat_table.c.game_id == game_id)
            .order_by(chat_table.c.id.desc())
            .limit(SHOWN)
        ).all()
    return [
        {"id": r.id, "seat": r.seat, "name": names[r.seat], "text": r.text, "at": r.created}
        for r in reversed(rows)
    ]
