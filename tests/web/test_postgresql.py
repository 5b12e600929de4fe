"""The same web app on PostgreSQL (the local server of the project's machines): games are
created, played, refused and resumed as on SQLite. Each run uses its own database."""

from __future__ import annotations

from fastapi.testclient import TestClient

from chaosgames.web import create_app
from chaosgames.web.limits import GENEROUS
from chaosgames.web.storage import Store
from chaosgames.web.stored import StoredGame
from tests.web.conftest import act, create, view
from tests.web.test_api import wait_for


def test_a_game_is_played_refused_and_resumed_on_postgresql(postgres_url: str) -> None:
    with TestClient(create_app(postgres_url, computer_pool="thread", workers=1, limits=GENEROUS)) as client:
        created = create(client, "chaos-checkers", ["human", "greedy"], options={"chaos": False}, seed=3)
        game_id, token = created["id"], created["seats"][0]["token"]
        assert act(client, game_id, token, "11-15", 0).status_code == 200
        assert act(client, game_id, token, "11-15", 0).status_code == 409  # stale
        wait_for(client, game_id, lambda v: v["version"] >= 2)
        before = view(client, game_id, token)
        assert act(client, game_id, token, "1-5", 2).status_code == 409  # illegal
    with TestClient(create_app(postgres_url, computer_pool="thread", workers=1, limits=GENEROUS)) as client:
        after = view(client, game_id, token)
        assert after == before
        assert act(client, game_id, token, after["legal"][0]["notation"], 2).status_code == 200


def test_two_commits_for_one_turn_accept_exactly_one(postgres_url: str) -> None:
    store = Store(postgres_url)
    try:
        game = StoredGame("g", "chaos-checkers", {"chaos": False}, 1, "running", 0, None, {}, 0.0, 0.0)
        game.seats, game.token_hashes = ["human", "human"], [None, None]
        store.create_game(game, [])
        assert store.commit("g", 0, [("11-15", 0)], "running", None) is True
        assert store.commit("g", 0, [("9-13", 0)], "running", None) is False
        loaded = store.load("g")
        assert loaded is not None and loaded.actions == ["11-15"] and loaded.version == 1
    finally:
        store.close()
