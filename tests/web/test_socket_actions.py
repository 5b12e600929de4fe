"""Actions over a seat's WebSocket: checked as the POST route checks them, committed before
they are acknowledged, and refused with the same sentence when wrong."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from tests.web.conftest import create, service
from tests.web.test_limits import limited_app
from tests.web.test_websocket import hello


def acting(ws: Any, action: str, version: int, ident: Any = 1) -> dict[str, Any]:
    """Send an action on the socket; the answer to it (the views before it are skipped)."""
    ws.send_text(json.dumps({"type": "act", "action": action, "version": version, "id": ident}))
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] in ("acted", "refused"):
            return message


def plain_checkers(client: TestClient, seats: list[str]) -> tuple[str, list[str | None]]:
    created = create(client, "chaos-checkers", seats, options={"chaos": False})
    return created["id"], [s["token"] for s in created["seats"]]


@contextmanager
def after_black_opens(client: TestClient) -> Iterator[tuple[str, Any]]:
    """A plain checkers game of two people, each on a socket, after black's 11-15 over its
    own: the game's id and white's socket."""
    game_id, (black, white) = plain_checkers(client, ["human", "human"])
    path = f"/api/games/{game_id}/ws"
    with client.websocket_connect(path) as mine, client.websocket_connect(path) as theirs:
        hello(mine, black)
        hello(theirs, white)
        assert acting(mine, "11-15", 0)["type"] == "acted"
        yield game_id, theirs


class TestAMoveOverTheSocket:
    def test_black_opens_11_15_and_it_is_in_the_database_before_the_acknowledgement(
        self, client: TestClient
    ) -> None:
        game_id, (black, _white) = plain_checkers(client, ["human", "human"])
        with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
            hello(ws, black)
            ws.send_text(json.dumps({"type": "act", "action": "11-15", "version": 0, "id": 7}))
            shown = ws.receive_json()
            answer = ws.receive_json()
            stored = service(client).store.load(game_id)
        # The view that shows the move comes first, then the acknowledgement.
        assert shown["type"] == "view" and shown["view"]["version"] == 1
        assert answer == {"type": "acted", "version": 1, "status": "running", "to_act": 1, "id": 7}
        assert stored is not None and (stored.version, stored.actions) == (1, ["11-15"])

    def test_white_sees_black_s_move_from_the_socket_as_from_the_post(self, client: TestClient) -> None:
        with after_black_opens(client) as (_game_id, theirs):
            seen = theirs.receive_json()["view"]
            assert (seen["version"], [e["notation"] for e in seen["log"]], len(seen["legal"])) == (
                1,
                ["11-15"],
                7,
            )
            assert acting(theirs, "22-18", 1, "w1") == {
                "type": "acted",
                "version": 2,
                "status": "running",
                "to_act": 0,
                "id": "w1",
            }


class TestRefusedOverTheSocket:
    def test_a_spectator_may_not_move(self, client: TestClient) -> None:
        game_id, _tokens = plain_checkers(client, ["human", "human"])
        with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
            hello(ws, None)
            refused = acting(ws, "11-15", 0)
        assert (refused["status"], refused["detail"]) == (
            403,
            "Only a seat's private link may act: this request carries no seat token.",
        )

    def test_a_move_decided_on_an_old_board_changes_nothing(self, client: TestClient) -> None:
        with after_black_opens(client) as (game_id, theirs):
            refused = acting(theirs, "22-18", 0)
        assert (refused["status"], refused["detail"], refused["version"]) == (
            409,
            "The game has moved on: this action was decided at version 0, the game is at "
            "version 1. Look at the board again.",
            1,
        )
        stored = service(client).store.load(game_id)
        assert stored is not None and stored.actions == ["11-15"]

    def test_white_may_not_move_on_black_s_turn(self, client: TestClient) -> None:
        game_id, (_black, white) = plain_checkers(client, ["human", "human"])
        with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
            hello(ws, white)
            refused = acting(ws, "22-18", 0)
        assert (refused["status"], refused["detail"]) == (409, "It is not your turn: Black is to act.")

    def test_a_piece_that_cannot_go_there_is_refused_with_the_legal_moves(self, client: TestClient) -> None:
        game_id, (black, _white) = plain_checkers(client, ["human", "human"])
        with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
            hello(ws, black)
            refused = acting(ws, "11-20", 0)
        assert refused["status"] == 409 and "11-15" in refused["legal"] and refused["detail"]

    def test_a_message_that_is_no_action_is_answered_with_what_one_is(self, client: TestClient) -> None:
        game_id, (black, _white) = plain_checkers(client, ["human", "human"])
        with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
            hello(ws, black)
            refused = acting(ws, "11-15", -1, {"not": "an id"})
        assert (refused["status"], refused["id"]) == (422, None)
        assert refused["detail"].startswith('An action is {"type": "act"')

    def test_a_client_over_its_rate_of_actions_is_refused_until_the_window_passes(
        self, db_path: Path
    ) -> None:
        with TestClient(limited_app(db_path, actions="1/minute")) as client:
            with after_black_opens(client) as (game_id, theirs):
                refused = acting(theirs, "22-18", 1)
            stored = service(client).store.load(game_id)
        assert (refused["status"], refused["retry_after"] > 0) == (429, True)
        assert refused["detail"].startswith("Too many actions from your address")
        assert stored is not None and stored.actions == ["11-15"]
