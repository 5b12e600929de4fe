"""The lab's database: another program's SQLite file is refused untouched, and a query or
insert that fails says so in a sentence naming the database."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from chaosgames.sim import LabError, LabSettings, LabStore, report, simulate
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
    with LabStore(db) as store:
        assert [row.idx for row in store.rows()] == [0]


def test_a_database_name_too_long_for_the_file_system_is_refused(tmp_path: Path) -> None:
    db = tmp_path / ("x" * 300 + ".db")
    for read in (report, verify):
        with pytest.raises(LabError, match=r"Cannot open '.*' as a lab database: File name too long\."):
            read(db)


def _lab_with_games(path: Path, games: int = 2) -> str:
    """A lab database with `games` games of one job; the job's key."""
    return simulate("toy-dice-race", SEATS, games, LabSettings(db=path, seed=1)).job


def _change(db: Path, sql: str, *params: object) -> None:
    with sqlite3.connect(db) as connection:
        connection.execute(sql, params)
    connection.close()


@pytest.mark.parametrize(
    ("column", "value", "why"),
    [
        ("options", "not json", "its options cell 'not json' is not a JSON object"),
        ("options", "[1]", "its options cell '[1]' is not a JSON object"),
        (
            "options",
            "[" * 100_000,
            "its options cell '" + "[" * 39 + "…" + "[" * 18 + "' is not a JSON object",
        ),
        ("seats", "[]", "its seats cell '[]' is not a JSON list of agent specs"),
        ("lineup", '["greedy", 3]', """its lineup cell '["greedy", 3]' is not a JSON list of agent specs"""),
        ("returns", '"x"', """its returns cell '"x"' is not a JSON list of numbers"""),
        ("returns", "[1.0]", "it has 2 seats but 1 returns"),
        ("rounds", "x", "its rounds is 'x', not a whole number"),
        ("capped", 7, "its capped is 7, not 0 or 1"),
        ("winner", 5, "its winner 5 is not a seat (0 to 1)"),
        ("ended_by", "magic", "its ending 'magic' is not rules, cap or lab"),
    ],
)
@pytest.mark.parametrize("read", [report, verify])
def test_a_stored_game_that_cannot_be_read_is_named_not_a_crash(
    tmp_path: Path, read: object, column: str, value: object, why: str
) -> None:
    db = tmp_path / "lab.db"
    job = _lab_with_games(db)
    _change(db, f"UPDATE games SET {column} = ? WHERE idx = 1", value)
    with pytest.raises(LabError) as refused:
        read(db)  # type: ignore[operator]
    assert str(refused.value).startswith(f"Game 1 of job {job} in '")
    assert str(refused.value).endswith(f"lab.db' cannot be read: {why}.")


def test_a_round_cap_option_that_is_not_a_number_reads_as_no_cap(tmp_path: Path) -> None:
    db = tmp_path / "lab.db"
    _lab_with_games(db)
    _change(db, """UPDATE games SET options = '{"max_rounds": "x"}', ended_by = NULL""")
    with LabStore(db) as store:
        assert [row.ended_by for row in store.rows()] == ["rules", "rules"]


def test_a_job_whose_seed_cannot_be_read_is_named(tmp_path: Path) -> None:
    db = tmp_path / "lab.db"
    job = _lab_with_games(db)
    _change(db, "UPDATE jobs SET seed = 'x'")
    with pytest.raises(
        LabError, match=rf"Job {job} in '.*' cannot be read: its seed 'x' is not a whole number\."
    ):
        verify(db)
