"""The lab's database: another program's SQLite file is refused untouched, and a query or
insert that fails says so in a sentence naming the database."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from chaosgames.sim import LabError, LabSettings, Store, report, simulate
from chaosgames.sim.verify import verify

pytestmark = pytest.mark.usefixtures("toy_games")

SEATS = ["greedy", "random"]


def _sqlite_file(path: Path, script: str) -> Path:
    """A SQLite file made by another program (rollback journal, its own tables)."""
    with sqlite3.connect(path) as connection:
        connection.executescript(script)
    connection.close()
    return path


def _untouched(path: Path, before: bytes) -> bool:
    """The file has the same bytes, and no write-ahead log or shared memory was made beside it."""
    beside = [p.name for p in path.parent.iterdir() if p != path]
    return path.read_bytes() == before and beside == []


NOTES = "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes VALUES (1, 'hello');"


@pytest.mark.parametrize("command", ["report", "verify", "simulate"])
def test_another_programs_database_is_refused_and_left_as_it_was(tmp_path: Path, command: str) -> None:
    db = _sqlite_file(tmp_path / "notes.sqlite", NOTES)
    before = db.read_bytes()
    with pytest.raises(
        LabError, match=r"is not a lab database \(it has no table jobs; its tables are notes\)"
    ):
        if command == "report":
            report(db)
        elif command == "verify":
            verify(db)
        else:
            simulate("toy-dice-race", SEATS, 1, LabSettings(db=db))
    assert _untouched(db, before)
    with sqlite3.connect(db) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    connection.close()


@pytest.mark.parametrize(
    ("script", "why"),
    [
        # A games table of another shape: the lab used to add its columns to it.
        (
            "CREATE TABLE jobs (job, game, options, lineup, seed, max_actions);"
            "CREATE TABLE games (id INTEGER PRIMARY KEY, player TEXT, score INTEGER);"
            "CREATE TABLE timings (job, idx, seconds);",
            "its table games has columns the lab does not know: id, player, score",
        ),
        # It used to fail with 'table jobs has 1 columns but 6 values'.
        (
            "CREATE TABLE jobs (job TEXT);",
            "its table jobs lacks the lab's columns game, options, lineup, seed, max_actions",
        ),
    ],
)
def test_a_database_whose_tables_have_another_shape_is_refused_untouched(
    tmp_path: Path, script: str, why: str
) -> None:
    db = _sqlite_file(tmp_path / "other.db", script)
    before = db.read_bytes()
    with pytest.raises(LabError, match=rf"is not a lab database \({why}\); nothing was changed in it\."):
        simulate("toy-dice-race", SEATS, 1, LabSettings(db=db))
    assert _untouched(db, before)


def test_an_empty_file_becomes_a_lab_database_but_is_not_reported_on(tmp_path: Path) -> None:
    db = tmp_path / "empty.db"
    db.touch()
    with pytest.raises(LabError, match=r"empty.db' is not a lab database \(it holds no tables\)"):
        report(db)
    assert db.read_bytes() == b"" and [p.name for p in tmp_path.iterdir()] == ["empty.db"]
    assert simulate("toy-dice-race", SEATS, 2, LabSettings(db=db)).played == 2


def test_a_lab_database_with_a_table_of_its_own_added_is_still_the_labs(tmp_path: Path) -> None:
    db = tmp_path / "lab.db"
    simulate("toy-dice-race", SEATS, 2, LabSettings(db=db))
    with sqlite3.connect(db) as connection:
        connection.execute("CREATE TABLE my_notes (text TEXT)")
    connection.close()
    assert simulate("toy-dice-race", SEATS, 3, LabSettings(db=db)).played == 1


def test_an_insert_the_database_refuses_is_a_sentence_naming_the_database(tmp_path: Path) -> None:
    db = tmp_path / "lab.db"
    simulate("toy-dice-race", SEATS, 1, LabSettings(db=db))
    with sqlite3.connect(db) as connection:
        connection.execute(
            "CREATE TRIGGER full BEFORE INSERT ON games BEGIN SELECT RAISE(ABORT, 'no more games'); END"
        )
    connection.close()
    with pytest.raises(LabError, match=r"Cannot store game 1 of job \w+ in '.*lab.db': no more games\."):
        simulate("toy-dice-race", SEATS, 2, LabSettings(db=db))
    with Store(db) as store:
        assert [row.idx for row in store.rows()] == [0]


def test_a_database_name_too_long_for_the_file_system_is_refused(tmp_path: Path) -> None:
    db = tmp_path / ("x" * 300 + ".db")
    for read in (report, verify):
        with pytest.raises(LabError, match=r"Cannot open '.*' as a lab database: File name too long\."):
            read(db)
