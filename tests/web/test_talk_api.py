"""The table's chat and presence through the API (issue 50): who may post, what a message
may be, the rate, and that what was said is kept with the game but never in its record."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from chaosgames.web import create_app
from chaosgames.web.limits import GENEROUS
from tests.web.conftest import act, bearer, create, view
from tests.web.test_limits import clients, limited_app

PEOPLE = {"options": {"chaos": False}, "seed": 3}


def say(client: TestClient, game_id: str, token: str | None, text: Any) -> Any:
    return client.post(f"/api/games/{game_id}/chat", json={"text": text}, headers=bearer(token))


def people(client: TestClient) -> tuple[str, str, str]:
    created = create(client, "chaos-checkers", ["human", "human"], **PEOPLE)
    return created["id"], created["seats"][0]["token"], created["seats"][1]["token"]


def test_a_person_says_something_and_the_table_reads_it(client: TestClient) -> None:
    game_id, black, _white = people(client)
    answer = say(client, game_id, black, "  Good   luck,\nhave fun  ")
    assert answer.status_code == 200, answer.text
    said = answer.json()["chat"]
    assert [(m["seat"], m["name"], m["text"]) for m in said] == [(0, "Black", "Good luck, have fun")]
    # A spectator reads the same chat.
    assert client.get(f"/api/games/{game_id}/table").json()["chat"] == said


def test_a_spectator_may_read_but_not_post(client: TestClient) -> None:
    game_id, _black, _white = people(client)
    answer = say(client, game_id, None, "hello")
    assert answer.status_code == 403
    assert "spectators read" in answer.json()["detail"]
    assert client.get(f"/api/games/{game_id}/table").json()["chat"] == []


def test_a_wrong_token_is_refused(client: TestClient) -> None:
    game_id, _black, _white = people(client)
    answer = say(client, game_id, "not-a-seat-token", "hello")
    assert answer.status_code == 403
    assert answer.json() == {"detail": "This token is not the key of any seat of this game."}


def test_an_empty_or_too_long_message_is_refused_and_nothing_is_kept(client: TestClient) -> None:
    game_id, black, _white = people(client)
    for text, status in (("", 422), ("   \n  ", 422), ("x" * 301, 422), (42, 422)):
        answer = say(client, game_id, black, text)
        assert answer.status_code == status, (text, answer.text)
        assert answer.json()["detail"]
    assert say(client, game_id, black, "x" * 300).status_code == 200
    assert len(client.get(f"/api/games/{game_id}/table").json()["chat"]) == 1
    extra = client.post(f"/api/games/{game_id}/chat", json={"text": "hi", "seat": 1}, headers=bearer(black))
    assert extra.status_code == 422


def test_chat_in_a_game_that_does_not_exist_is_404(client: TestClient) -> None:
    assert say(client, "nosuchgame", "token", "hello").status_code == 404


def test_messages_beyond_the_rate_are_answered_429(db_path: Path) -> None:
    for stranger, friend in clients(limited_app(db_path, chat="3/minute")):
        created = stranger.post(
            "/api/games", json={"game": "chaos-checkers", "seats": ["human", "human"], **PEOPLE}
        ).json()
        game_id, black, white = created["id"], created["seats"][0]["token"], created["seats"][1]["token"]
        for n in range(3):
            assert say(stranger, game_id, black, f"message {n}").status_code == 200
        refused = say(stranger, game_id, black, "one too many")
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
        assert "Too many chat messages from your address" in refused.json()["detail"]
        # The other person, at another address, still talks.
        assert say(friend, game_id, white, "my turn to talk").status_code == 200
        texts = [m["text"] for m in stranger.get(f"/api/games/{game_id}/table").json()["chat"]]
        assert texts == ["message 0", "message 1", "message 2", "my turn to talk"]


def test_what_was_said_is_kept_with_the_game_but_not_in_its_record(db_path: Path) -> None:
    app = create_app(str(db_path), computer_pool="thread", workers=1, limits=GENEROUS)
    with TestClient(app) as client:
        game_id, black, _white = people(client)
        assert say(client, game_id, black, "a secret plan").status_code == 200
        assert act(client, game_id, black, "9-13", 0).status_code == 200
    # A new server on the same database: the message is still there ...
    with TestClient(create_app(str(db_path), computer_pool="thread", workers=1, limits=GENEROUS)) as client:
        assert [m["text"] for m in client.get(f"/api/games/{game_id}/table").json()["chat"]] == [
            "a secret plan"
        ]
        # ... and the record has the moves only.
        record = client.get(f"/api/games/{game_id}/record")
        assert record.status_code == 200 and "secret plan" not in record.text


def test_a_viewer_that_asks_is_told_who_is_connected_and_what_was_said(client: TestClient) -> None:
    game_id, black, white = people(client)
    with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
        ws.send_text(json.dumps({"token": black, "table": True}))
        assert ws.receive_json()["type"] == "view"
        news = ws.receive_json()
        assert news["type"] == "table"
        assert [(p["seat"], p["connected"], p["last_acted"]) for p in news["presence"]] == [
            (0, True, None),
            (1, False, None),
        ]
        assert say(client, game_id, white, "hello").status_code == 200
        while not (news := ws.receive_json()).get("chat"):
            pass
        assert news["type"] == "table" and news["chat"][0]["text"] == "hello"
        assert act(client, game_id, black, "9-13", 0).status_code == 200
        while (news := ws.receive_json())["type"] != "table" or news["presence"][0]["last_acted"] is None:
            pass
        assert news["presence"][1]["last_acted"] is None


def test_the_view_says_where_since_you_last_played_starts(client: TestClient) -> None:
    game_id, black, white = people(client)
    assert view(client, game_id, black)["since"] is None  # not played yet
    assert act(client, game_id, black, "9-13", 0).status_code == 200
    assert act(client, game_id, white, "22-17", 1).status_code == 200
    mine = view(client, game_id, black)
    assert mine["since"] == 2  # the entry after Black's 9-13 (entry 1)
    assert [e["notation"] for e in mine["log"] if e["seq"] >= mine["since"]] == ["22-17"]
    assert view(client, game_id)["since"] is None  # a spectator never played


def test_a_connection_that_does_not_ask_for_the_table_gets_views_only(client: TestClient) -> None:
    game_id, black, white = people(client)
    with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
        ws.send_text(json.dumps({"token": None}))
        assert ws.receive_json()["type"] == "view"
        assert say(client, game_id, white, "hello").status_code == 200
        assert act(client, game_id, black, "9-13", 0).status_code == 200
        assert ws.receive_json()["view"]["version"] == 1


def test_the_table_s_routes_are_in_the_openapi_schema(client: TestClient) -> None:
    paths = client.get("/api/openapi.json").json()["paths"]
    for path in ("chat", "undo", "takeback", "takeback/accept", "takeback/decline"):
        responses = paths[f"/api/games/{{game_id}}/{path}"]["post"]["responses"]
        assert {"200", "403", "404", "409", "422", "429"} <= set(responses), path
    # The table's news may be read without a token (a spectator's).
    assert {} in paths["/api/games/{game_id}/table"]["get"]["security"]
