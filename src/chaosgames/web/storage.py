"""Where games live: reading and writing the rows of the tables `database` makes.

A move is committed before it is acknowledged: `commit` raises the game's version from
the one the move was decided on and inserts the new actions in one transaction. If the
version has moved on (another request, or another server process, was faster) nothing is
written and `commit` answers False, so two moves can never both be accepted for one turn.
A finished game's row is never updated again, so nothing can change a finished game.

Several server processes may share one database. Each game has an `owner`, the server
process that moves its computer seats (its lease); a server whose heartbeat stops (or, on
the same machine, whose process is gone) loses its games to the first live server that
`claim`s them. On PostgreSQL every commit also sends a notification (`NOTIFY`) with the
game's id and new version, delivered to the other servers when the transaction commits.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence

from sqlalchemy import BindParameter, and_, bindparam, delete, insert, or_, select, update

from chaosgames.web.commits import Commit, commit_alone
from chaosgames.web.database import Database, gone_from_this_host
from chaosgames.web.stored import RUNNING, ListedGame, StoredGame
from chaosgames.web.table_rows import load_table, write_table
from chaosgames.web.tables import actions_table, games_table, seats_table, servers_table, undone_table

# `since` runs in every other server process after each action: its statements are built
# once (see `database._taking`).
_GAME: BindParameter[str] = bindparam("game_id")
_AFTER: BindParameter[int] = bindparam("version")
_VERSION = select(games_table.c.version).where(games_table.c.id == _GAME)
_REWOUND = (
    select(undone_table.c.seq)
    .where(and_(undone_table.c.game_id == _GAME, undone_table.c.undone_at > _AFTER))
    .limit(1)
)
_ACTIONS_SINCE = (
    select(actions_table.c.notation, actions_table.c.actor)
    .where(
        and_(
            actions_table.c.game_id == _GAME,
            actions_table.c.seq > _AFTER,
            actions_table.c.seq <= bindparam("now"),
        )
    )
    .order_by(actions_table.c.seq)
)


class Store(Database):
    """The games' rows: create games, commit actions, read games back; the servers' rows
    and the games' leases."""

    def create_game(
        self,
        stored: StoredGame,
        actors: Sequence[int],
        owner: str | None = None,
    ) -> None:
        """Insert a new game with its seats and the actions it starts from; `owner` (a
        server id) moves its computer seats."""
        now = stored.created  # the same clock as the game in memory (its patience counts from it)
        with self.writing() as conn:
            conn.execute(
                insert(games_table).values(
                    id=stored.id,
                    game=stored.game,
                    options=json.dumps(stored.options),
                    seed=stored.seed,
                    status=stored.status,
                    version=len(stored.actions),
                    result=None if stored.result is None else json.dumps(stored.result),
                    meta=json.dumps(stored.meta),
                    created=now,
                    updated=now,
                    owner=owner,
                    secret=stored.secret,
                )
            )
            conn.execute(
                insert(seats_table),
                [
                    {"game_id": stored.id, "seat": i, "who": who, "token_hash": stored.token_hashes[i]}
                    for i, who in enumerate(stored.seats)
                ],
            )
            if stored.actions:
                conn.execute(
                    insert(actions_table),
                    [
                        {
                            "game_id": stored.id,
                            "seq": seq,
                            "notation": notation,
                            "actor": actor,
                            "created": now,
                        }
                        for seq, (notation, actor) in enumerate(
                            zip(stored.actions, actors, strict=True), start=1
                        )
                    ],
                )
            write_table(conn, stored)

    def commit(
        self,
        game_id: str,
        version: int,
        actions: Sequence[tuple[str, int]],
        status: str,
        result: list[float] | None,
        now: float | None = None,
    ) -> bool:
        """Append `actions` (notation, actor) to a game at `version`, committed at `now`;
        False if it moved on."""
        now = time.time() if now is None else now
        return commit_alone(self, Commit(game_id, version, actions, status, result, now))

    def since(self, game_id: str, version: int) -> tuple[int, list[str], list[int], bool] | None:
        """The game's version now, the actions (notation, actor) after `version`, and whether
        actions were taken back since (then the game is to be read anew)."""
        at = {"game_id": game_id, "version": version}
        with self.engine.connect() as conn:
            now = conn.execute(_VERSION, at).scalar()
            if now is None:
                return None
            rewound = conn.execute(_REWOUND, at).first()
            rows = conn.execute(_ACTIONS_SINCE, at | {"now": now}).all()
        return int(now), [r.notation for r in rows], [int(r.actor) for r in rows], rewound is not None

    def versions(self, ids: Sequence[str]) -> dict[str, int]:
        """The version of each of these games (the check for changes by other servers)."""
        found: dict[str, int] = {}
        with self.engine.connect() as conn:
            for start in range(0, len(ids), 500):
                chunk = list(ids[start : start + 500])
                for row in conn.execute(
                    select(games_table.c.id, games_table.c.version).where(games_table.c.id.in_(chunk))
                ):
                    found[row.id] = int(row.version)
        return found

    # -- servers and leases ------------------------------------------------------------------

    def beat(self, server_id: str, now: float | None = None) -> None:
        """Record that `server_id` is alive (its heartbeat keeps its games' leases)."""
        now = time.time() if now is None else now
        with self.writing() as conn:
            done = conn.execute(
                update(servers_table).where(servers_table.c.id == server_id).values(heartbeat=now)
            )
            if done.rowcount == 0:
                conn.execute(insert(servers_table).values(id=server_id, started=now, heartbeat=now))

    def live_servers(self, lease: float, now: float | None = None) -> list[str]:
        now = time.time() if now is None else now
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(servers_table.c.id)
                .where(servers_table.c.heartbeat >= now - lease)
                .order_by(servers_table.c.started)
            ).all()
        return [r.id for r in rows if not gone_from_this_host(r.id)]

    def forget_servers(self, lease: float, now: float | None = None) -> None:
        """Drop the rows of servers long gone (their games are taken by then)."""
        now = time.time() if now is None else now
        with self.engine.connect() as conn:
            rows = conn.execute(select(servers_table.c.id, servers_table.c.heartbeat)).all()
        gone = [r.id for r in rows if r.heartbeat < now - 100 * lease or gone_from_this_host(r.id)]
        if gone:
            with self.writing() as conn:
                owners = select(games_table.c.owner).where(games_table.c.status == RUNNING)
                conn.execute(
                    delete(servers_table).where(
                        and_(servers_table.c.id.in_(gone), servers_table.c.id.not_in(owners))
                    )
                )

    def orphans(self, server_id: str, lease: float, now: float | None = None) -> list[tuple[str, str | None]]:
        """Running games with a computer seat whose owner is not a live server:
        (game id, owner)."""
        alive = set(self.live_servers(lease, now)) | {server_id}
        computers = select(seats_table.c.game_id).where(seats_table.c.who != "human")
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games_table.c.id, games_table.c.owner)
                .where(
                    and_(
                        games_table.c.status == RUNNING,
                        games_table.c.id.in_(computers),
                        or_(games_table.c.owner.is_(None), games_table.c.owner.not_in(alive)),
                    )
                )
                .order_by(games_table.c.updated)
            ).all()
        return [(r.id, r.owner) for r in rows]

    def claim(self, game_id: str, owner: str | None, server_id: str) -> bool:
        """Take the game from `owner` (who must still hold it); of two servers claiming it
        at once, one wins."""
        held = games_table.c.owner.is_(None) if owner is None else games_table.c.owner == owner
        with self.writing() as conn:
            done = conn.execute(
                update(games_table).where(and_(games_table.c.id == game_id, held)).values(owner=server_id)
            )
        return done.rowcount == 1

    def owned(self, server_id: str) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games_table.c.id).where(
                    and_(games_table.c.owner == server_id, games_table.c.status == RUNNING)
                )
            ).all()
        return [r.id for r in rows]

    def leave(self, server_id: str) -> None:
        """A server stopping cleanly: its games go to the others at once."""
        with self.writing() as conn:
            conn.execute(update(games_table).where(games_table.c.owner == server_id).values(owner=None))
            conn.execute(delete(servers_table).where(servers_table.c.id == server_id))

    def load(self, game_id: str) -> StoredGame | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(games_table).where(games_table.c.id == game_id)).first()
            if row is None:
                return None
            stored = StoredGame(
                id=row.id,
                game=row.game,
                options=json.loads(row.options),
                seed=int(row.seed),
                status=row.status,
                version=int(row.version),
                result=None if row.result is None else json.loads(row.result),
                meta=json.loads(row.meta),
                created=float(row.created),
                updated=float(row.updated),
                secret=row.secret,
                table_version=int(row.table_version or 0),
            )
            seats = conn.execute(
                select(seats_table.c.who, seats_table.c.token_hash)
                .where(seats_table.c.game_id == game_id)
                .order_by(seats_table.c.seat)
            ).all()
            stored.seats = [s.who for s in seats]
            stored.token_hashes = [s.token_hash for s in seats]
            actions = conn.execute(
                select(actions_table.c.notation, actions_table.c.actor, actions_table.c.created)
                .where(and_(actions_table.c.game_id == game_id, actions_table.c.seq <= stored.version))
                .order_by(actions_table.c.seq)
            ).all()
            stored.actions = [a.notation for a in actions]
            stored.actors = [int(a.actor) for a in actions]
            stored.times = [float(a.created) for a in actions]
            stored.table = load_table(conn, game_id)
        return stored

    def ids(self, status: str) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games_table.c.id).where(games_table.c.status == status).order_by(games_table.c.created)
            ).all()
        return [r.id for r in rows]

    def summaries(self, status: str, limit: int) -> list[ListedGame]:
        """The most recently changed games with `status`, newest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games_table)
                .where(games_table.c.status == status)
                .order_by(games_table.c.updated.desc())
                .limit(limit)
            ).all()
            ids = [r.id for r in rows]
            seats: dict[str, list[str]] = {i: [] for i in ids}
            if ids:
                for s in conn.execute(
                    select(seats_table.c.game_id, seats_table.c.who)
                    .where(seats_table.c.game_id.in_(ids))
                    .order_by(seats_table.c.game_id, seats_table.c.seat)
                ):
                    seats[s.game_id].append(s.who)
        return [
            ListedGame(
                id=r.id,
                game=r.game,
                options=json.loads(r.options),
                status=r.status,
                version=int(r.version),
                seats=seats[r.id],
                result=None if r.result is None else json.loads(r.result),
                updated=float(r.updated),
            )
            for r in rows
        ]
