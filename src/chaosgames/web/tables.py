"""The tables of the database under the games (SQLAlchemy Core; see `database`).

Four tables of play. `games` holds a game's kind, options, seed (or the secret of its dice,
see `dice`), status and `version`, the number of actions committed so far, and its `owner`
(the server that moves its computer seats, see `cluster`). `seats` holds who plays each
seat and, for a person, the SHA-256 of the seat's secret token (the token itself is never
stored). `actions` holds every action, chance outcomes included, in notation, keyed by
(game, sequence number). `servers` holds every server process working on the database
with its last heartbeat. The table's own rules and events (issue 50) have tables of
their own: endings, seat changes, table rules, rematches and clocks, written by
`table_rows`; `chat` holds what the people at each table said, `undone` the actions taken
back and `takebacks` the takebacks waiting for answers (see `undo`). `designs` holds the
courses and tracks people saved (`designs`).

`database.Database` makes them; `storage.Store` and the table's modules read and write the
rows.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import BigInteger, Column, Float, ForeignKey, Index, Integer, MetaData, String, Table, Text

metadata = MetaData()


def _game_key() -> Column[Any]:
    """The game a row belongs to, first in its table's key."""
    return Column("game_id", String(32), ForeignKey("games.id"), primary_key=True)


def _created() -> Column[Any]:
    """When the row was written (Unix time)."""
    return Column("created", Float, nullable=False)


def _game_table(name: str, *columns: Column[Any]) -> Table:
    """A table of what belongs to one game, keyed by the game (then by the columns after it
    that are in the key)."""
    return Table(name, metadata, _game_key(), *columns)


games_table = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("options", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("status", String(16), nullable=False),
    Column("version", Integer, nullable=False),
    Column("result", Text, nullable=True),
    Column("meta", Text, nullable=False),
    _created(),
    Column("updated", Float, nullable=False),
    Column("owner", String(100), nullable=True),
    Column("secret", String(64), nullable=True),
    Column("table_version", Integer, nullable=True),
    Index("games_by_status", "status", "updated"),
)

seats_table = _game_table(
    "seats",
    Column("seat", Integer, primary_key=True),
    Column("who", String(200), nullable=False),
    Column("token_hash", String(64), nullable=True),
)


def _action_columns() -> list[Column[Any]]:
    """An action as stored after its game: its sequence number, notation, actor and commit
    time."""
    return [
        Column("seq", Integer, primary_key=True),
        Column("notation", Text, nullable=False),
        Column("actor", Integer, nullable=False),
        _created(),
    ]


actions_table = _game_table("actions", *_action_columns())


chat_table = Table(
    "chat",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("text", Text, nullable=False),
    _created(),
    Index("chat_by_game", "game_id", "id"),
)
"""What the people at a table said (see `chat`): kept with the game, never in its record."""

undone_table = _game_table("undone", *_action_columns(), Column("undone_at", Integer, nullable=False))
"""Actions taken back (see `undo`), moved out of `actions` with the game's version after."""

takebacks_table = _game_table(
    "takebacks",
    Column("seat", Integer, nullable=False),
    Column("version", Integer, nullable=False),
    Column("span", Integer, nullable=False),
    Column("accepted", Text, nullable=False),
    _created(),
)
"""A takeback a person asked for, waiting for the others' answers (see `undo`)."""
designs_table = Table(
    "designs",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("name", String(100), nullable=False),
    Column("value", Text, nullable=False),
    _created(),
    Index("designs_by_name", "game", "name", unique=True),
)
"""Saved designs (web/designs.py): a course or a track, an option value of its game."""

# The table's own rules and events (issue 50): how a game ended when the engine did not end
# it (a resignation, a claim, time), every change of who plays a seat (a resigned seat or an
# absent person's handed to a computer, taken back), the rules chosen at creation
# (patience, clock) and the rematch offers. Each is written in the same transaction as the
# change it records, under the game's lock (see `table_rows`).
endings_table = _game_table(
    "endings",
    Column("how", String(16), nullable=False),
    Column("seat", Integer, nullable=True),
    Column("sentence", Text, nullable=False),
    _created(),
)

seat_changes_table = _game_table(
    "seat_changes",
    Column("seq", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("who", String(200), nullable=False),
    Column("why", String(16), nullable=False),
    Column("version", Integer, nullable=False),
    _created(),
)

table_rules_table = _game_table(
    "table_rules",
    Column("rules", Text, nullable=False),
)

rematch_offers_table = _game_table(
    "rematch_offers",
    Column("seat", Integer, primary_key=True),
    Column("token_hash", String(64), nullable=False),
    _created(),
)

rematches_table = _game_table(
    "rematches",
    Column("new_game_id", String(32), nullable=False),
    _created(),
)

clock_pauses_table = _game_table(
    "clock_pauses",
    Column("start", Float, primary_key=True),
    Column("end", Float, nullable=False),
)

clocks_table = _game_table(
    "clocks",
    Column("alive", Float, nullable=False),
)
"""The last moment a server was known to keep each clock game (see `clocks`)."""

servers_table = Table(
    "servers",
    metadata,
    Column("id", String(100), primary_key=True),
    Column("started", Float, nullable=False),
    Column("heartbeat", Float, nullable=False),
)
