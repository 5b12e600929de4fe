"""The rows of the table's own rules and events (issue 50): endings, seat changes, table
rules, rematch offers. Every write that changes a game checks its version and status in
the same transaction, as an action's commit does (`storage.Store.commit`), so a change
decided on a game that moved on (or ended) is refused and nothing is written."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from sqlalchemy import and_, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from chaosgames.web.database import Database
from chaosgames.web.stored import FINISHED, Ending, SeatChange, StoredGame, TableEvents, TableRules
from chaosgames.web.tables import (
    clock_pauses_table,
    clocks_table,
    endings_table,
    games_table,
    rematch_offers_table,
    rematches_table,
    seat_changes_table,
    seats_table,
    table_rules_table,
)


class _Refused(Exception):
    """The game is not at the version (or status) the change was decided on."""


def load_table(conn: Connection, game_id: str) -> TableEvents:
    """A game's table rules and events."""
    events = TableEvents()
    rules = conn.execute(
        select(table_rules_table.c.rules).where(table_rules_table.c.game_id == game_id)
    ).scalar()
    if rules is not None:
        events.rules = TableRules(**json.loads(rules))
    row = conn.execute(select(endings_table).where(endings_table.c.game_id == game_id)).first()
    if row is not None:
        events.ending = Ending(row.how, row.seat, row.sentence, float(row.created))
    events.changes = [
        SeatChange(r.seat, r.who, r.why, int(r.version), float(r.created))
        for r in conn.execute(
            select(seat_changes_table)
            .where(seat_changes_table.c.game_id == game_id)
            .order_by(seat_changes_table.c.seq)
        )
    ]
    events.offers = {
        int(r.seat)
        for r in conn.execute(
            select(rematch_offers_table.c.seat).where(rematch_offers_table.c.game_id == game_id)
        )
    }
    events.pauses = [
        (float(r.start), float(r.end))
        for r in conn.execute(
            select(clock_pauses_table)
            .where(clock_pauses_table.c.game_id == game_id)
            .order_by(clock_pauses_table.c.start)
        )
    ]
    events.rematch = conn.execute(
        select(rematches_table.c.new_game_id).where(rematches_table.c.game_id == game_id)
    ).scalar()
    return events


def table_versions(db: Database, ids: list[str]) -> dict[str, int]:
    """How many table changes each of these games has had (other servers' too)."""
    with db.engine.connect() as conn:
        rows = conn.execute(
            select(games_table.c.id, games_table.c.table_version).where(games_table.c.id.in_(ids))
        ).all()
    return {r.id: int(r.table_version or 0) for r in rows}


def endings_of(db: Database, ids: list[str]) -> dict[str, str]:
    """The sentence of each of these games that ended off the rules (for the lobby)."""
    if not ids:
        return {}
    with db.engine.connect() as conn:
        rows = conn.execute(
            select(endings_table.c.game_id, endings_table.c.sentence).where(endings_table.c.game_id.in_(ids))
        ).all()
    return {r.game_id: r.sentence for r in rows}


def write_table(conn: Connection, stored: StoredGame) -> None:
    """A new game's table rules, and the game it is the rematch of (in the transaction that
    creates it, so a rematch is made once)."""
    rules = stored.table.rules
    if rules != TableRules():
        conn.execute(insert(table_rules_table).values(game_id=stored.id, rules=json.dumps(asdict(rules))))
    if rules.clock is not None:
        conn.execute(insert(clocks_table).values(game_id=stored.id, alive=stored.created))
    origin = stored.meta.get("rematch_of")
    if origin is not None:
        conn.execute(
            insert(rematches_table).values(game_id=origin, new_game_id=stored.id, created=time.time())
        )


def _change(
    db: Database, game_id: str, version: int, write: Callable[[Connection], object], **values: Any
) -> bool:
    """Write a change decided on a running game at `version`, in one transaction with the
    game's row taken at that version (the row lock on PostgreSQL) and `values` set on it;
    False, and nothing written, if the game moved on or ended."""
    table_version = func.coalesce(games_table.c.table_version, 0) + 1
    try:
        with db.writing() as conn:
            if not db.take_version(
                conn, game_id, at=version, updated=time.time(), table_version=table_version, **values
            ):
                raise _Refused
            write(conn)
    except (_Refused, IntegrityError):
        return False
    return True


def end_game(db: Database, game_id: str, version: int, returns: list[float], ending: Ending) -> bool:
    """End a running game at `version` with these returns; False if it moved on or ended."""
    row = insert(endings_table).values(game_id=game_id, **asdict(ending))
    return _change(
        db, game_id, version, lambda conn: conn.execute(row), status=FINISHED, result=json.dumps(returns)
    )


def change_seat(db: Database, game_id: str, change: SeatChange) -> bool:
    """Hand a seat of a running game at `change.version` to `change.who`; False if the game
    moved on or ended."""

    def write(conn: Connection) -> None:
        conn.execute(
            update(seats_table)
            .where(and_(seats_table.c.game_id == game_id, seats_table.c.seat == change.seat))
            .values(who=change.who)
        )
        seq = conn.execute(select(func.count()).where(seat_changes_table.c.game_id == game_id)).scalar_one()
        conn.execute(insert(seat_changes_table).values(game_id=game_id, seq=int(seq) + 1, **asdict(change)))

    return _change(db, game_id, change.version, write)


def offer_rematch(db: Database, game_id: str, seat: int, token_hash: str) -> None:
    """A seat offers (or accepts) a rematch, with the hash of its token in the rematch."""
    with db.writing() as conn:
        known = conn.execute(
            select(rematch_offers_table.c.seat).where(
                and_(rematch_offers_table.c.game_id == game_id, rematch_offers_table.c.seat == seat)
            )
        ).first()
        if known is None:
            conn.execute(
                insert(rematch_offers_table).values(
                    game_id=game_id, seat=seat, token_hash=token_hash, created=time.time()
                )
            )


def offered_tokens(db: Database, game_id: str) -> dict[int, str]:
    """The token hash each seat that accepted the rematch holds in it."""
    with db.engine.connect() as conn:
        rows = conn.execute(
            select(rematch_offers_table.c.seat, rematch_offers_table.c.token_hash).where(
                rematch_offers_table.c.game_id == game_id
            )
        ).all()
    return {int(r.seat): r.token_hash for r in rows}


def keep_alive(db: Database, ids: list[str], now: float) -> None:
    """These clock games were kept by a live server until `now`."""
    if ids:
        with db.writing() as conn:
            conn.execute(update(clocks_table).where(clocks_table.c.game_id.in_(ids)).values(alive=now))


def resume_clock(
    db: Database, game_id: str, now: float, gap: float, last_commit: float
) -> tuple[float, float] | None:
    """A server takes a clock game up at `now`: the time since it was last kept (stamped
    alive, or its `last_commit`, which a server made), if longer than `gap`, is a pause,
    stored; returns it."""
    with db.writing() as conn:
        alive = conn.execute(select(clocks_table.c.alive).where(clocks_table.c.game_id == game_id)).scalar()
        if alive is None:
            return None
        conn.execute(update(clocks_table).where(clocks_table.c.game_id == game_id).values(alive=now))
        kept = max(float(alive), last_commit)
        if now - kept <= gap:
            return None
        pause = (kept, now)
        conn.execute(insert(clock_pauses_table).values(game_id=game_id, start=pause[0], end=pause[1]))
    return pause
