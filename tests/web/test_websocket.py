"""The WebSocket: each connection says who it is, then gets its own view after every change."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import chaosgames
from chaosgames.web.hub import Hub, Subscriber
from chaosgames.web.live import LiveGame
from tests.web.conftest import act, create


def hello(ws: Any, token: str | None) -> dict[str, Any]:
    ws.send_text(json.dumps({"token": token}))
    message: dict[str, Any] = ws.receive_json()
    assert message["type"] == "view"
    view: dict[str, Any] = message["view"]
    return view


class TestViewsOverTheSocket:
    def test_every_viewer_gets_its_own_view_after_a_change(self, client: TestClient) -> None:
        created = create(client, "chaos-checkers", ["human", "human"], options={"chaos": False})
        game_id = created["id"]
        first, second = (s["token"] for s in created["seats"])
        path = f"/api/games/{game_id}/ws"
        with (
            client.websocket_connect(path) as mine,
            client.websocket_connect(path) as theirs,
            client.websocket_connect(path) as watcher,
        ):
            assert [
                len(hello(mine, first)["legal"]),
                hello(theirs, second)["legal"],
                hello(watcher, None)["viewer"],
            ] == [
                7,
                [],
                None,
            ]
            assert act(client, game_id, first, "11-15", 0).status_code == 200
            after = [
                mine.receive_json()["view"],
                theirs.receive_json()["view"],
                watcher.receive_json()["view"],
            ]
            assert [v["version"] for v in after] == [1, 1, 1]
            assert [v["viewer"] for v in after] == [0, 1, None]
            assert after[0]["legal"] == [] and len(after[1]["legal"]) == 7
            # Only the log entries a connection has not had yet are sent.
            assert [(v["log_from"], [e["notation"] for e in v["log"]]) for v in after] == [(0, ["11-15"])] * 3
            assert act(client, game_id, second, "22-18", 1).status_code == 200
            later = watcher.receive_json()["view"]
            assert (later["log_from"], [e["notation"] for e in later["log"]]) == (1, ["22-18"])

    def test_a_computer_seats_move_arrives_without_asking(self, client: TestClient) -> None:
        created = create(client, "chaos-checkers", ["human", "greedy"], options={"chaos": False})
        game_id, token = created["id"], created["seats"][0]["token"]
        with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
            hello(ws, token)
            act(client, game_id, token, "11-15", 0)
            versions: list[int] = []
            while not versions or versions[-1] < 2:
                view = ws.receive_json()["view"]
                versions.append(view["version"])
            assert view["to_act"] == 0 and view["thinking"] is None and len(view["legal"]) > 0

    @pytest.mark.parametrize(
        ("hello_text", "game", "code", "reason"),
        [
            ('{"token": "nonsense"}', None, 4403, "This token is not the key of any seat of this game."),
            ('{"seat": 1}', None, 4400, 'Say who you are first: {"token": "..."} or {"token": null}.'),
            ("not json", None, 4400, 'Say who you are first: {"token": "..."} or {"token": null}.'),
            ('{"token": null}', "nosuchgame", 4404, "There is no game 'nosuchgame' on this server."),
            ("[" * 990 + "]" * 9, None, 4400, 'Say who you are first: {"token": "..."} or {"token": null}.'),
        ],
    )
    def test_a_bad_hello_closes_the_connection_with_a_reason(
        self, client: TestClient, hello_text: str, game: str | None, code: int, reason: str
    ) -> None:
        created = create(client, "chaos-checkers", ["human", "human"])
        with client.websocket_connect(f"/api/games/{game or created['id']}/ws") as ws:
            ws.send_text(hello_text)
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
        assert (closed.value.code, closed.value.reason) == (code, reason)

    def test_a_binary_hello_closes_the_connection_as_a_bad_hello(self, client: TestClient) -> None:
        created = create(client, "chaos-checkers", ["human", "human"])
        with client.websocket_connect(f"/api/games/{created['id']}/ws") as ws:
            ws.send_bytes(b'{"token": null}')
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
        assert closed.value.code == 4400

    def test_a_binary_message_after_the_hello_is_let_be(self, client: TestClient) -> None:
        created = create(client, "chaos-checkers", ["human", "human"], options={"chaos": False})
        game_id, first = created["id"], created["seats"][0]["token"]
        with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
            version = hello(ws, None)["version"]
            ws.send_bytes(b"\x00\x01")
            assert act(client, game_id, first, "9-13", version).status_code == 200
            assert ws.receive_json()["view"]["version"] == version + 1


def test_a_move_wakes_the_seats_connections_before_the_spectators() -> None:
    # Issue 49: a stranger holding many spectator sockets on a table delayed its players'
    # own views, whose writers were woken in no particular order behind the spectators'.
    class Woken:
        def __init__(self, order: list[int | None], viewer: int | None) -> None:
            self.order, self.viewer = order, viewer

        def set(self) -> None:
            self.order.append(self.viewer)

    hub, order = Hub(), list[int | None]()
    game = chaosgames.load_game("chaos-checkers")
    live = LiveGame(
        id="g",
        game=game,
        seats=["human", "human"],
        token_hashes=[None, None],
        seed=1,
        meta={},
        created=0.0,
        updated=0.0,
        state=game.new_initial_state(),
    )
    for viewer in (None, None, 1, None, 0, None):
        subscriber = Subscriber(websocket=None, viewer=viewer)  # type: ignore[arg-type]
        subscriber.wake = Woken(order, viewer)  # type: ignore[assignment]
        hub.subscribers["g"].add(subscriber)
    hub.publish(live)
    assert set(order[:2]) == {0, 1} and order[2:] == [None] * 4
