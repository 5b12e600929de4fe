"""Limits per client address (issue 49, finding 2), and the WebSocket's Origin check."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from chaosgames.core.records import GameRecord
from chaosgames.web import create_app
from chaosgames.web.limits import GENEROUS, ClientLimits, rate
from tests.web.conftest import act, view
from tests.web.test_websocket import hello

STRANGER = ("203.0.113.9", 40000)
FRIEND = ("198.51.100.2", 40000)


def clients(app: Any) -> Iterator[tuple[TestClient, TestClient]]:
    with TestClient(app, client=STRANGER) as stranger, TestClient(app, client=FRIEND) as friend:
        yield stranger, friend


@pytest.fixture
def public(db_path: Path) -> Iterator[tuple[TestClient, TestClient]]:
    """A server with the limits `chaosgames serve` has by default."""
    yield from clients(create_app(str(db_path), computer_pool="thread", workers=1))


def limited_app(db_path: Path, **limits: Any) -> Any:
    settings = {**GENEROUS.described(), **limits}
    return create_app(str(db_path), computer_pool="thread", workers=1, limits=ClientLimits(**settings))


PEOPLE = {"game": "chaos-checkers", "seats": ["human", "human"], "options": {"chaos": False}}


def test_one_address_creating_games_quickly_is_answered_429_with_when_to_try_again(
    public: tuple[TestClient, TestClient],
) -> None:
    stranger, friend = public
    answers = [stranger.post("/api/games", json=PEOPLE) for _ in range(30)]
    allowed = rate(ClientLimits().games).amount
    assert [a.status_code for a in answers[:allowed]] == [201] * allowed
    refused = answers[-1]
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) >= 1
    assert "Too many games created from your address" in refused.json()["detail"]
    # Someone else is not held up by the stranger.
    assert friend.post("/api/games", json=PEOPLE).status_code == 201


def test_actions_beyond_the_rate_are_refused_and_change_nothing(db_path: Path) -> None:
    for stranger, _ in clients(limited_app(db_path, actions="2/minute")):
        created = stranger.post("/api/games", json=PEOPLE).json()
        game_id, black, white = created["id"], created["seats"][0]["token"], created["seats"][1]["token"]
        assert act(stranger, game_id, black, "9-13", 0).status_code == 200
        assert act(stranger, game_id, white, "21-17", 1).status_code == 200
        refused = act(stranger, game_id, black, "10-14", 2)
        assert refused.status_code == 429 and "Retry-After" in refused.headers
        assert view(stranger, game_id)["version"] == 2


def test_replays_of_new_records_are_counted_but_stepping_through_one_is_not(db_path: Path) -> None:
    for stranger, friend in clients(limited_app(db_path, replays="2/minute")):
        records = [
            GameRecord("chaos-checkers", {"chaos": False}, ["a", "b"], opening).to_json()
            for opening in (["9-13"], ["9-14"], ["10-14"])
        ]
        assert stranger.post("/api/replay", json=records[0]).status_code == 200
        for at in (0, 1, 0, 1):  # the replay viewer asks for a position at every step
            assert stranger.post(f"/api/replay/{at}", json=records[0]).status_code == 200
        assert stranger.post("/api/replay", json=records[1]).status_code == 200
        refused = stranger.post("/api/replay", json=records[2])
        assert refused.status_code == 429 and "replays of uploaded records" in refused.json()["detail"]
        assert friend.post("/api/replay", json=records[2]).status_code == 200


def test_running_games_with_computer_seats_are_limited_per_address(db_path: Path) -> None:
    for stranger, friend in clients(limited_app(db_path, computer_games=2)):
        versus = {"game": "chaos-checkers", "seats": ["human", "greedy"], "options": {"chaos": False}}
        for _ in range(2):
            assert stranger.post("/api/games", json=versus).status_code == 201
        refused = stranger.post("/api/games", json=versus)
        assert refused.status_code == 429 and "games with computer seats running" in refused.json()["detail"]
        assert stranger.post("/api/games", json=PEOPLE).status_code == 201  # people alone: no workers
        assert friend.post("/api/games", json=versus).status_code == 201


def closed_with(ws: Any) -> int:
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.send_text('{"token": null}')
        ws.receive_json()
    return closed.value.code


def test_websockets_are_limited_per_address_and_game(db_path: Path) -> None:
    for stranger, friend in clients(limited_app(db_path, sockets=3, sockets_per_game=2)):
        first = stranger.post("/api/games", json=PEOPLE).json()["id"]
        second = stranger.post("/api/games", json=PEOPLE).json()["id"]
        with (
            stranger.websocket_connect(f"/api/games/{first}/ws") as a,
            stranger.websocket_connect(f"/api/games/{first}/ws") as b,
        ):
            assert hello(a, None)["id"] == hello(b, None)["id"] == first
            with stranger.websocket_connect(f"/api/games/{first}/ws") as c:
                assert closed_with(c) == 4429
            with stranger.websocket_connect(f"/api/games/{second}/ws") as d:
                hello(d, None)
                with stranger.websocket_connect(f"/api/games/{second}/ws") as e:
                    assert closed_with(e) == 4429  # three open from this address
            with friend.websocket_connect(f"/api/games/{first}/ws") as f:
                assert hello(f, None)["id"] == first
        # Closed connections no longer count.
        with stranger.websocket_connect(f"/api/games/{first}/ws") as g:
            assert hello(g, None)["id"] == first


class TestOrigin:
    def test_a_page_of_another_site_may_not_open_the_websocket(self, client: TestClient) -> None:
        game_id = client.post("/api/games", json=PEOPLE).json()["id"]
        evil = {"Origin": "https://evil.example"}
        with client.websocket_connect(f"/api/games/{game_id}/ws", headers=evil) as ws:
            assert closed_with(ws) == 4403

    @pytest.mark.parametrize("origin", ["http://testserver", "https://testserver", None])
    def test_the_servers_own_pages_and_clients_without_origin_may(
        self, client: TestClient, origin: str | None
    ) -> None:
        game_id = client.post("/api/games", json=PEOPLE).json()["id"]
        headers = {} if origin is None else {"Origin": origin}
        with client.websocket_connect(f"/api/games/{game_id}/ws", headers=headers) as ws:
            assert hello(ws, None)["id"] == game_id

    def test_allow_origin_names_other_sites_that_may(self, db_path: Path) -> None:
        app = create_app(
            str(db_path),
            computer_pool="thread",
            workers=1,
            limits=GENEROUS,
            allow_origins=["https://club.example/"],
        )
        with TestClient(app) as client:
            game_id = client.post("/api/games", json=PEOPLE).json()["id"]
            with client.websocket_connect(
                f"/api/games/{game_id}/ws", headers={"Origin": "https://club.example"}
            ) as ws:
                assert hello(ws, None)["id"] == game_id
            with client.websocket_connect(
                f"/api/games/{game_id}/ws", headers={"Origin": "https://other.example"}
            ) as ws:
                assert closed_with(ws) == 4403


def test_a_refused_client_asking_again_at_once_is_refused_before_the_route_until_its_time(
    db_path: Path,
) -> None:
    # A stranger ignoring Retry-After: its next request of the same kind is refused by the
    # app's outermost layer, so even a body the route would answer 422 is answered 429 with
    # the same sentence; when the window has room again it is served; others never wait.
    for stranger, friend in clients(limited_app(db_path, games="2/second")):
        assert [stranger.post("/api/games", json=PEOPLE).status_code for _ in range(2)] == [201, 201]
        first = stranger.post("/api/games", json=PEOPLE)
        assert first.status_code == 429
        # Not JSON: the route would read the body first and answer 422.
        again = stranger.post("/api/games", content=b"{", headers={"content-type": "application/json"})
        assert again.status_code == 429
        assert again.json() == first.json()
        assert 1 <= int(again.headers["Retry-After"]) <= 1
        assert friend.post("/api/games", json=PEOPLE).status_code == 201
        assert (
            friend.post("/api/games", content=b"{", headers={"content-type": "application/json"}).status_code
            == 422
        )
        time.sleep(1.1)
        assert stranger.post("/api/games", json=PEOPLE).status_code == 201


def test_a_client_refused_a_websocket_is_refused_in_the_handshake_while_still_at_its_count(
    db_path: Path,
) -> None:
    for stranger, friend in clients(limited_app(db_path, sockets=1)):
        game = stranger.post("/api/games", json=PEOPLE).json()["id"]
        with stranger.websocket_connect(f"/api/games/{game}/ws") as a:
            hello(a, None)
            with stranger.websocket_connect(f"/api/games/{game}/ws") as b:
                assert closed_with(b) == 4429  # the first refusal says why, in the app
            with (
                pytest.raises(WebSocketDenialResponse) as denied,
                stranger.websocket_connect(f"/api/games/{game}/ws"),
            ):
                pass
            assert denied.value.status_code == 429
            assert denied.value.json() == {"detail": "Your address has 1 connections open already."}
            with friend.websocket_connect(f"/api/games/{game}/ws") as f:
                assert hello(f, None)["id"] == game
        # Its connection closed, the stranger is served again.
        with stranger.websocket_connect(f"/api/games/{game}/ws") as c:
            assert hello(c, None)["id"] == game
