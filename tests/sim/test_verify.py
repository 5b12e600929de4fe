"""`verify`: every stored game replayed with the code as it is now, and the ones played
otherwise found (and, asked to, deleted so that a resume plays them again)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from chaosgames import agents
from chaosgames.sim import LabError, LabSettings, LabStore, simulate
from chaosgames.sim.verify import verify

pytestmark = pytest.mark.usefixtures("toy_games")

SEATS = ["mcts:iterations=20", "greedy", "random"]


def always_risky(monkeypatch: pytest.MonkeyPatch) -> None:
    """The random agent rewritten: it now always takes the risky die."""
    monkeypatch.setattr(agents.RandomAgent, "choose", lambda self, state, progress=None: "risky")


def test_games_played_by_the_code_as_it_is_reproduce(tmp_path: Path) -> None:
    db = tmp_path / "lab.db"
    simulate("toy-dice-race", SEATS, 6, LabSettings(db=db, seed=3))
    simulate("toy-dice-race", ["greedy", "random"], 4, LabSettings(db=db, seed=3), reroll=1)
    seen: list[tuple[int, int]] = []
    found = verify(db, workers=2, on_game=lambda done, total: seen.append((done, total)))
    assert (found.checked, found.reproduced, found.differ, found.openings_added) == (10, 10, [], 0)
    assert seen == [(done, 10) for done in range(1, 11)]  # what a progress bar is fed, game by game


def test_games_the_code_now_plays_otherwise_are_found_and_dropped_then_replayed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "lab.db"
    simulate("toy-dice-race", SEATS, 9, LabSettings(db=db, seed=3))
    with LabStore(db) as store:
        before = {row.idx: row for row in store.rows()}
    always_risky(monkeypatch)
    found = verify(db)
    changed = {idx for _, idx, _ in found.differ}
    # Some games, not all: those where the random seat had taken the safe die.
    assert changed and len(changed) < 9 and found.reproduced == 9 - len(changed)
    assert all("opening" in cols for _, _, cols in found.differ)  # toy games fit in 40 actions
    with LabStore(db) as store:
        assert {row.idx: row for row in store.rows()} == before  # reported, nothing changed
    dropped = verify(db, drop=True)
    assert dropped.dropped == len(changed)
    with LabStore(db) as store:
        assert {row.idx for row in store.rows()} == set(range(9)) - changed
    # The resume plays the dropped games again, with the code as it is now.
    assert simulate("toy-dice-race", SEATS, 9, LabSettings(db=db, seed=3)).played == len(changed)
    assert verify(db).differ == []


def test_rows_written_before_openings_and_endings_were_stored_are_checked_and_given_their_opening(
    tmp_path: Path,
) -> None:
    db = tmp_path / "lab.db"
    simulate("toy-dice-race", SEATS, 3, LabSettings(db=db, seed=3))
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE games SET opening = NULL, finish = NULL, decisions = NULL, choices = NULL")
    found = verify(db)
    assert (found.reproduced, found.openings_added) == (3, 3)
    with LabStore(db) as store:
        assert all(row.opening is not None for row in store.rows())


def test_verify_refuses_a_missing_database(tmp_path: Path) -> None:
    with pytest.raises(LabError, match="There is no lab database"):
        verify(tmp_path / "none.db")


def test_verify_refuses_workers_that_are_not_a_whole_number(tmp_path: Path) -> None:
    db = tmp_path / "lab.db"
    simulate("toy-dice-race", SEATS, 1, LabSettings(db=db, seed=3))
    with pytest.raises(LabError, match=r"number of workers must be a whole number, not 1\.5"):
        verify(db, workers=1.5)  # type: ignore[arg-type]


def test_games_whose_job_has_no_row_are_reported_not_replayed(tmp_path: Path) -> None:
    db = tmp_path / "lab.db"
    lost = simulate("toy-dice-race", SEATS, 2, LabSettings(db=db, seed=3)).job
    kept = simulate("toy-dice-race", ["greedy", "random"], 2, LabSettings(db=db, seed=3)).job
    with sqlite3.connect(db) as connection:
        connection.execute("DELETE FROM jobs WHERE job = ?", (lost,))
    connection.close()
    found = verify(db, drop=True)
    # The lost job's games cannot be replayed (their agents' seeds come from the job's row):
    # named, and kept; the other job's are replayed as usual.
    assert found.jobless == [(lost, 0), (lost, 1)]
    assert (found.checked, found.reproduced, found.dropped) == (2, 2, 0)
    with LabStore(db) as store:
        assert len(store.rows()) == 4 and kept in {row.job for row in store.rows()}
