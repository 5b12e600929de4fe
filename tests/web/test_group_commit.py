"""Group commit (issue 51): the actions of games that arrive together are committed in one
transaction, each checked as if alone, each acknowledged only once it is committed, and a
game that moved on (or whose rows fail) costs the others nothing."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator, Sequence

import pytest
from sqlalchemy import insert

from chaosgames.web import commits as commits_module
from chaosgames.web.commits import Commit, Commits, commit_together
from chaosgames.web.database import Database
from chaosgames.web.storage import Store
from chaosgames.web.stored import StoredGame
from chaosgames.web.tables import actions_table

GAMES = ["a", "b", "c", "d"]


@pytest.fixture
def store(database: str) -> Iterator[Store]:
    store = Store(database)
    for game_id in GAMES:
        game = StoredGame(game_id, "chaos-checkers", {"chaos": False}, 1, "running", 0, None, {}, 0.0, 0.0)
        game.seats, game.token_hashes = ["human", "human"], [None, None]
        store.create_game(game, [])
    try:
        yield store
    finally:
        store.close()


def opening(game_id: str, version: int = 0) -> Commit:
    return Commit(game_id, version, [("11-15", 0)], "running", None, 1.0)


def read_anew(database: str, game_id: str) -> list[str]:
    """The game's actions as another process would read them (a connection of its own)."""
    other = Store(database)
    try:
        loaded = other.load(game_id)
    finally:
        other.close()
    assert loaded is not None
    return loaded.actions


def test_a_game_that_moved_on_is_refused_and_the_others_in_its_batch_are_committed(
    store: Store, database: str
) -> None:
    assert store.commit("b", 0, [("9-13", 0)], "running", None) is True  # b moved on
    done = commit_together(store, [opening("a"), opening("b"), opening("c")])
    assert done == [True, False, True]
    assert read_anew(database, "a") == ["11-15"]
    assert read_anew(database, "b") == ["9-13"]  # untouched by the refused commit
    assert read_anew(database, "c") == ["11-15"]


def test_a_batch_that_fails_whole_gives_each_what_it_would_have_had_alone(
    store: Store, database: str
) -> None:
    # A row already where b's action would go: b's insert fails, and with it the transaction.
    with store.writing() as conn:
        conn.execute(insert(actions_table).values(game_id="b", seq=1, notation="9-13", actor=0, created=0.0))
    done = commit_together(store, [opening("a"), opening("b"), opening("c")])
    assert done == [True, False, True]
    assert read_anew(database, "a") == ["11-15"]
    assert read_anew(database, "b") == []  # its version never moved: the stray row is not read
    assert read_anew(database, "c") == ["11-15"]


def test_commits_arriving_together_share_a_transaction_and_each_is_acknowledged_after_it(
    store: Store, database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    batches: list[list[str]] = []
    committed: set[str] = set()
    first_batch_taken = threading.Event()
    let_it_finish = threading.Event()

    def watched(db: Database, batch: Sequence[Commit]) -> list[bool | Exception]:
        batches.append([c.game_id for c in batch])
        first_batch_taken.set()
        let_it_finish.wait(10)  # the others arrive while the writer is busy with the first
        done = commit_together(db, batch)
        committed.update(c.game_id for c in batch)  # its transaction is over
        return done

    monkeypatch.setattr(commits_module, "commit_together", watched)

    async def scenario() -> dict[str, bool]:
        writer = Commits(store)
        answers: dict[str, bool] = {}

        async def one(commit: Commit) -> None:
            answers[commit.game_id] = await writer.commit(commit)
            # Answered: after its transaction, and what it says is there for anyone reading anew.
            assert commit.game_id in committed
            expected = ["11-15"] if answers[commit.game_id] else ["9-13"]
            assert read_anew(database, commit.game_id) == expected

        first = asyncio.create_task(one(opening("a")))
        await asyncio.to_thread(first_batch_taken.wait, 10)
        others = [asyncio.create_task(one(opening(g))) for g in ["b", "c", "d"]]
        await asyncio.sleep(0.05)
        assert not any(t.done() for t in [first, *others])  # nothing answered before a commit
        let_it_finish.set()
        await asyncio.gather(first, *others)
        return answers

    assert store.commit("c", 0, [("9-13", 0)], "running", None) is True  # c moved on
    answers = asyncio.run(scenario())
    assert batches == [["a"], ["b", "c", "d"]]  # a lone commit went at once; the rest together
    assert answers == {"a": True, "b": True, "c": False, "d": True}


def test_a_caller_that_gave_up_before_its_batch_was_taken_is_not_written(store: Store, database: str) -> None:
    async def scenario() -> bool:
        writer = Commits(store)
        gives_up = asyncio.create_task(writer.commit(opening("a")))
        stays = asyncio.create_task(writer.commit(opening("b")))
        await asyncio.sleep(0)  # both waiting, the writer not yet started
        gives_up.cancel()
        return await stays

    assert asyncio.run(scenario()) is True
    assert read_anew(database, "a") == []
    assert read_anew(database, "b") == ["11-15"]
