"""Royal Racers over the web: no face-down card's rank reaches a seat or a spectator.

Two people and a spectator play; after every action every payload they could receive is
collected (the page, the lobby, each one's view, the answer to the action, each one's
WebSocket messages, whole views and patches alike, and the views rebuilt from the patches)
and searched for every face-down card the table cannot see, in every form a card is
written (`7h` in notation and documents, `7♥` in pictures and texts), and the structured
fields for those squares are checked to be empty.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from fastapi.testclient import TestClient

from chaosgames.games.royal_racers.board import (
    CARD_BY_NAME,
    CARD_SUIT_SYMBOLS,
    RANK_NAMES,
    RANK_OF,
    SQUARE_NAMES,
)
from chaosgames.web.patches import apply_patch
from tests.web.conftest import act, bearer, create, service


def secret_cards(full: dict[str, Any]) -> dict[str, str]:
    """Face-down cards no player can see now, by square, from the full state document.

    A card turned up by a wrong guess and put back down was seen by everyone (the last
    flip), so it is not secret.
    """
    seen = full["last_flip"]["card"] if full["last_flip"] else None
    secret = {}
    for square in full["face_down"]:
        card = full["cards"][SQUARE_NAMES.index(square)]
        if card != seen:
            secret[square] = card
    return secret


def forms(card: str) -> list[str]:
    number = CARD_BY_NAME[card.casefold()]
    return [card, f"{RANK_NAMES[RANK_OF[number]]}{CARD_SUIT_SYMBOLS[number % 4]}"]


def leaks(text: str, secret: dict[str, str]) -> list[str]:
    """Every written form of a secret card found in `text`, as a separate word."""
    if not secret:
        return []
    alternatives = "|".join(re.escape(form) for card in secret.values() for form in forms(card))
    return re.findall(rf"(?<![0-9A-Za-z])(?:{alternatives})(?![0-9A-Za-z])", text)


def check_view(view: dict[str, Any], secret: dict[str, str]) -> None:
    for square in secret:
        assert view["observation"]["cards"][SQUARE_NAMES.index(square)] is None


class Patched:
    """A connection on patches: its view rebuilt from them, every message kept."""

    def __init__(self, ws: Any, token: str | None) -> None:
        self.ws = ws
        ws.send_text(json.dumps({"token": token, "patches": True}))
        message = ws.receive_json()
        self.view: dict[str, Any] = message["view"]
        self.revision: int = message["revision"]
        self.messages = [json.dumps(message, ensure_ascii=False)]

    def until(self, version: int) -> dict[str, Any]:
        while self.view["version"] < version:
            message = self.ws.receive_json()
            self.messages.append(json.dumps(message, ensure_ascii=False))
            if message["type"] == "view":
                self.view, self.revision = message["view"], message["revision"]
            else:
                patched = apply_patch(self.view, self.revision, message)
                assert patched is not None
                self.view, self.revision = patched, message["revision"]
        return self.view


def test_no_face_down_rank_reaches_a_seat_or_a_spectator(client: TestClient) -> None:
    created = create(client, "royal-racers", ["human", "human"], options={"flags": 3}, seed=11)
    game_id = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    viewers: list[str | None] = [*tokens, None]
    live = service(client).cached(game_id)
    assert live is not None
    rng = random.Random(3)
    path = f"/api/games/{game_id}/ws"
    secrets_met = 0
    with (
        client.websocket_connect(path) as ws0,
        client.websocket_connect(path) as ws1,
        client.websocket_connect(path) as ws_spectator,
        client.websocket_connect(path) as patched0,
        client.websocket_connect(path) as patched1,
        client.websocket_connect(path) as patched_spectator,
    ):
        sockets = [ws0, ws1, ws_spectator]
        for ws, token in zip(sockets, viewers, strict=True):
            ws.send_text(json.dumps({"token": token}))
        patched = [
            Patched(ws, t) for ws, t in zip([patched0, patched1, patched_spectator], viewers, strict=True)
        ]
        answer_text = ""
        for _turn in range(150):
            full = live.state.to_json()
            secret = secret_cards(full)
            secrets_met += len(secret)
            if secret:  # the search finds the cards where they are written
                assert leaks(json.dumps(full), secret)
            payloads = [answer_text, client.get(f"/games/{game_id}").text, client.get("/").text]
            payloads.append(client.get("/api/games").text)
            for ws, token in zip(sockets, viewers, strict=True):
                while True:
                    message = ws.receive_json()
                    if message["view"]["version"] == live.version:
                        break
                check_view(message["view"], secret)
                payloads.append(json.dumps(message, ensure_ascii=False))
                view = client.get(f"/api/games/{game_id}", headers=bearer(token))
                check_view(view.json(), secret)
                payloads.append(view.text)
                payloads.append(json.dumps(view.json(), ensure_ascii=False))
            for connection in patched:
                check_view(connection.until(live.version), secret)
                payloads += connection.messages
                connection.messages = []
            for payload in payloads:
                assert leaks(payload, secret) == []
            if live.state.is_terminal():
                break
            seat = live.to_act()
            assert seat is not None
            mine = client.get(f"/api/games/{game_id}", headers=bearer(tokens[seat])).json()
            choice = rng.choice(mine["legal"])["notation"]
            answer = act(client, game_id, tokens[seat], choice, mine["version"])
            assert answer.status_code == 200
            answer_text = answer.text + json.dumps(answer.json(), ensure_ascii=False)
    assert secrets_met > 100  # the game went through many positions with hidden cards
