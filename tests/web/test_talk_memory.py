"""The table's news kept in memory (issue 51): a move reads nothing from the database for
it, a game nobody asked the news of builds none, and what a page is told is still what the
database says, after chat, takebacks, undo and reconnects, and with two server processes
(another process's chat reaches a page with its next change, as docs/web.md promises)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import chaosgames.web.chat as chat
import chaosgames.web.presence as presence
import chaosgames.web.undo as undo
from chaosgames.web import create_app
from chaosgames.web.limits import GENEROUS
from tests.web.conftest import act, bearer, create, service, view

CHECKERS = {"options": {"chaos": False}, "seed": 3}
LAST_ACTED, LATEST, PENDING = presence.last_acted, chat.latest, undo.pending
"""The database's answers, read directly (the originals: a test may count the calls)."""


def people(client: TestClient) -> tuple[str, str, str]:
    created = create(client, "chaos-checkers", ["human", "human"], **CHECKERS)
    return created["id"], created["seats"][0]["token"], created["seats"][1]["token"]


def from_database(client: TestClient, game_id: str) -> dict[str, Any]:
    """The news as it was built before issue 51: everything but the connections read from
    the database at the game's version."""
    live = service(client).cached(game_id)
    assert live is not None
    db = client.app.state.talk.db  # type: ignore[attr-defined]
    connected, spectators = client.app.state.hub.seats_connected(game_id)  # type: ignore[attr-defined]
    return {
        "presence": presence.seats(live, connected, LAST_ACTED(db, game_id, live.version)),
        "spectators": spectators,
        "chat": LATEST(db, game_id, live.game.player_names()),
        "takeback": undo.news(live, PENDING(db, game_id)),
    }


def told_right(client: TestClient, game_id: str) -> dict[str, Any]:
    """Wait for the news the pages were last told to be the database's; it, and what
    `GET .../table` answers, must be."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    for _ in range(200):
        told = hub.tables.get(game_id)
        if told is not None and json.loads(told) == {"type": "table", **from_database(client, game_id)}:
            break
        time.sleep(0.025)
    expected = from_database(client, game_id)
    assert json.loads(hub.tables[game_id]) == {"type": "table", **expected}
    assert client.get(f"/api/games/{game_id}/table").json() == expected
    return expected


def say(client: TestClient, game_id: str, token: str, text: str) -> None:
    answer = client.post(f"/api/games/{game_id}/chat", json={"text": text}, headers=bearer(token))
    assert answer.status_code == 200, answer.text


def post(client: TestClient, game_id: str, path: str, token: str, version: int) -> None:
    answer = client.post(f"/api/games/{game_id}/{path}", json={"version": version}, headers=bearer(token))
    assert answer.status_code == 200, answer.text


def hello(ws: Any, token: str | None, table: bool = True) -> None:
    ws.send_text(json.dumps({"token": token, "table": table}))
    assert ws.receive_json()["type"] == "view"


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every read of the news's part from the database, by name."""
    seen: list[str] = []

    def counted(name: str, read: Callable[..., Any]) -> Callable[..., Any]:
        def reading(*args: Any) -> Any:
            seen.append(name)
            return read(*args)

        return reading

    monkeypatch.setattr(presence, "last_acted", counted("last_acted", LAST_ACTED))
    monkeypatch.setattr(chat, "latest", counted("latest", LATEST))
    monkeypatch.setattr(undo, "pending", counted("pending", PENDING))
    return seen


def play_on(client: TestClient, game_id: str, tokens: list[str], moves: int) -> None:
    """`moves` legal moves, whoever is to act."""
    for _ in range(moves):
        token = tokens[view(client, game_id)["to_act"]]
        seen = view(client, game_id, token)
        assert act(client, game_id, token, seen["legal"][0]["notation"], seen["version"]).status_code == 200


def test_a_move_reads_nothing_from_the_database_for_the_news(client: TestClient, reads: list[str]) -> None:
    game_id, black, white = people(client)
    with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
        hello(ws, black)
        told_right(client, game_id)
        before = len(reads)  # the first need: one read of each, when the page came
        for _ in range(4):
            play_on(client, game_id, [black, white], 1)
            news = told_right(client, game_id)
        assert news["presence"][0]["last_acted"] is not None and news["presence"][1]["last_acted"] is not None
        # told_right read the database directly (the originals); the news read nothing.
        assert reads[before:] == []


def test_a_game_nobody_asked_the_news_of_builds_none(client: TestClient, reads: list[str]) -> None:
    game_id, black, white = people(client)
    with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
        hello(ws, black, table=False)
        play_on(client, game_id, [black, white], 4)
        assert ws.receive_json()["type"] == "view"
        assert reads == [] and game_id not in client.app.state.hub.tables  # type: ignore[attr-defined]
        # A page that asks later is built the news then.
        with client.websocket_connect(f"/api/games/{game_id}/ws") as page:
            hello(page, white)
            assert page.receive_json()["type"] == "table"
            told_right(client, game_id)


def test_the_news_stays_right_through_chat_takebacks_undo_and_reconnects(client: TestClient) -> None:
    game_id, black, white = people(client)
    with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
        hello(ws, black)
        told_right(client, game_id)
        say(client, game_id, white, "hello")
        # The chat message reaches the connected page.
        while (news := ws.receive_json())["type"] != "table" or not news["chat"]:
            pass
        assert news["chat"][0]["text"] == "hello"
        told_right(client, game_id)
        act(client, game_id, black, "9-13", 0)
        act(client, game_id, white, "22-17", 1)
        told_right(client, game_id)
        post(client, game_id, "takeback", black, 2)
        assert told_right(client, game_id)["takeback"]["waiting"] == [1]
        post(client, game_id, "takeback/decline", white, 2)
        assert told_right(client, game_id)["takeback"] is None
        post(client, game_id, "takeback", black, 2)
        post(client, game_id, "takeback/accept", white, 2)
        news = told_right(client, game_id)
        assert news["takeback"] is None and news["presence"][0]["last_acted"] is None
        version = view(client, game_id)["version"]
        act(client, game_id, black, "10-14", version)
        assert told_right(client, game_id)["presence"][0]["last_acted"] is not None
        post(client, game_id, "undo", black, version + 1)
        assert told_right(client, game_id)["presence"][0]["last_acted"] is None
        say(client, game_id, black, "sorry")
        assert [m["text"] for m in told_right(client, game_id)["chat"]] == ["hello", "sorry"]
    # Black's page reconnects, White's and a spectator's come.
    with (
        client.websocket_connect(f"/api/games/{game_id}/ws") as again,
        client.websocket_connect(f"/api/games/{game_id}/ws") as other,
        client.websocket_connect(f"/api/games/{game_id}/ws") as watcher,
    ):
        hello(again, black)
        hello(other, white)
        hello(watcher, None)
        play_on(client, game_id, [black, white], 2)
        news = told_right(client, game_id)
        assert [p["connected"] for p in news["presence"]] == [True, True] and news["spectators"] == 1


def test_another_process_s_chat_and_moves_reach_a_page_with_its_next_change(db_path: Path) -> None:
    first_app = create_app(str(db_path), computer_pool="thread", workers=1, limits=GENEROUS)
    second_app = create_app(str(db_path), computer_pool="thread", workers=1, limits=GENEROUS)
    with TestClient(first_app) as first, TestClient(second_app) as second:
        game_id, black, white = people(first)
        # The first process learns of the second at its heartbeat (every 2 s).
        for _ in range(200):
            if service(first).cluster.servers == 2:
                break
            time.sleep(0.05)
        with first.websocket_connect(f"/api/games/{game_id}/ws") as ws:
            hello(ws, black)
            told_right(first, game_id)
            say(second, game_id, white, "from the other process")
            act(first, game_id, black, "9-13", 0)  # the first's next change
            assert told_right(first, game_id)["chat"][0]["text"] == "from the other process"
            # A move committed by the second: its commit time as the database has it.
            assert act(second, game_id, white, "22-17", 1).status_code == 200
            for _ in range(200):
                if view(first, game_id)["version"] == 2:
                    break
                time.sleep(0.025)
            assert told_right(first, game_id)["presence"][1]["last_acted"] is not None
