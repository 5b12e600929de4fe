"""Several server processes started at once on a new database (`serve --workers N`) all
come up: they take turns creating the schema, so none finds a table half-made by another."""

from __future__ import annotations

import multiprocessing
from typing import Any

from chaosgames.web.storage import Store
from chaosgames.web.stored import StoredGame

PROCESSES = 6


def open_store(database: str, start: Any) -> str:
    start.wait()  # every process opens the database at the same moment
    try:
        Store(database).close()
    except Exception as exc:  # the test reports what a server would have died of
        return f"{type(exc).__name__}: {exc}".splitlines()[0]
    return "ok"


def test_processes_opening_a_new_database_at_once_all_start(database: str) -> None:
    context = multiprocessing.get_context("spawn")  # as uvicorn starts its server processes
    with context.Manager() as manager:
        start = manager.Barrier(PROCESSES)
        with context.Pool(PROCESSES) as pool:
            outcomes = pool.starmap(open_store, [(database, start)] * PROCESSES)
    assert outcomes == ["ok"] * PROCESSES
    store = Store(database)  # and the schema they made is whole: a game goes in and out
    try:
        game = StoredGame("g", "chaos-checkers", {"chaos": False}, 1, "running", 0, None, {}, 0.0, 0.0)
        game.seats, game.token_hashes = ["human", "human"], [None, None]
        store.create_game(game, [])
        assert store.commit("g", 0, [("11-15", 0)], "running", None) is True
        loaded = store.load("g")
        assert loaded is not None and loaded.actions == ["11-15"]
    finally:
        store.close()
