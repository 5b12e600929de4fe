"""Seat tokens: never sent to anyone but their seat, unguessable, compared in constant time;
and a finished game that nobody can change any more."""

from __future__ import annotations

import hmac
import json
import secrets
from typing import Any

import pytest
from fastapi.testclient import TestClient

from chaosgames.web.seats import token_hash
from chaosgames.web.stored import FINISHED
from tests.web.conftest import act, bearer, create, service, view
from tests.web.test_websocket import hello


def everything_seen(client: TestClient, game_id: str, token: str | None) -> list[str]:
    """Every payload a viewer (a seat's token, or None) gets: API views, the WebSocket,
    pages, lists, replays."""
    seen = [
        client.get(f"/api/games/{game_id}", headers=bearer(token)).text,
        client.get(f"/games/{game_id}").text,
        client.get(f"/games/{game_id}/replay").text,
        client.get("/api/games").text,
        client.get("/").text,
        client.get(f"/api/games/{game_id}/replay").text,
        client.get(f"/api/games/{game_id}/record").text,
    ]
    with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
        seen.append(json.dumps(hello(ws, token)))
    return seen


class TestSeatTokens:
    def test_a_seats_token_reaches_no_other_seat_and_no_spectator(self, client: TestClient) -> None:
        created = create(client, "chaos-cruisers", ["human", "human", "greedy"], seed=4)
        game_id = created["id"]
        tokens: list[str] = [s["token"] for s in created["seats"][:2]]
        # A few moves, so that the log, the lists and the answers to actions hold something.
        for _ in range(3):
            seat = view(client, game_id)["to_act"]
            if seat not in (0, 1):
                break
            mine = view(client, game_id, tokens[seat])
            answer = act(client, game_id, tokens[seat], mine["legal"][0]["notation"], mine["version"])
            assert answer.status_code == 200
            assert tokens[1 - seat] not in answer.text
        secrets_of = {seat: [token, token_hash(token)] for seat, token in enumerate(tokens)}
        for viewer, token in [(0, tokens[0]), (1, tokens[1]), (None, None)]:
            payloads = everything_seen(client, game_id, token)
            for seat, kept in secrets_of.items():
                if seat == viewer:
                    continue
                assert not [p for p in payloads if any(k in p for k in kept)], (viewer, seat)
            # Nobody's stored hash is sent anywhere, not even to its own seat.
            assert not [p for p in payloads if token_hash(tokens[viewer or 0]) in p]

    def test_tokens_come_from_secrets_and_are_long(
        self, client: TestClient, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        drawn: list[str] = []
        real = secrets.token_urlsafe

        def token_urlsafe(nbytes: int) -> str:
            token = real(nbytes)
            drawn.append(token)
            return token

        monkeypatch.setattr("chaosgames.web.service.secrets.token_urlsafe", token_urlsafe)
        created = create(client, "chaos-checkers", ["human", "human"])
        tokens = [s["token"] for s in created["seats"]]
        assert set(tokens) <= set(drawn) and len(set(tokens)) == 2
        assert all(len(t) >= 32 for t in tokens)  # 24 random bytes, 192 bits

    def test_tokens_are_compared_in_constant_time(
        self, client: TestClient, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        created = create(client, "chaos-checkers", ["human", "human"])
        compared: list[tuple[str, str]] = []
        real = hmac.compare_digest

        def compare_digest(a: Any, b: Any) -> bool:
            compared.append((a, b))
            return real(a, b)

        monkeypatch.setattr(hmac, "compare_digest", compare_digest)
        token = created["seats"][1]["token"]
        assert view(client, created["id"], token)["viewer"] == 1
        # Every seat's hash is compared (so the time taken does not tell which seat matched).
        assert sorted(b for _, b in compared) == sorted(token_hash(s["token"]) for s in created["seats"])
        other = token[:-1] + ("x" if token[-1] != "x" else "y")  # one character off (never the same)
        assert client.get(f"/api/games/{created['id']}", headers=bearer(other)).status_code == 403


class TestAFinishedGame:
    def finish(self, client: TestClient) -> tuple[str, list[str], dict[str, Any]]:
        created = create(client, "cardboard-machines", ["human", "human"], seed=2)
        game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
        for _ in range(2000):
            spectator = view(client, game_id)
            if spectator["status"] == FINISHED:
                return game_id, tokens, spectator
            mine = view(client, game_id, tokens[spectator["to_act"]])
            answer = act(
                client, game_id, tokens[mine["viewer"]], mine["legal"][0]["notation"], mine["version"]
            )
            assert answer.status_code == 200, answer.text
        raise AssertionError("the game did not end in 2000 actions")

    def test_cannot_be_changed_by_any_seat_nor_by_the_store(self, client: TestClient) -> None:
        game_id, tokens, final = self.finish(client)
        for token in tokens:
            for version in (final["version"], final["version"] - 1, final["version"] + 1):
                answer = act(client, game_id, token, "d", version)
                assert answer.status_code == 409, answer.text
        assert view(client, game_id) == final
        store = service(client).store
        # Not even a server process that thinks the game goes on can commit to it.
        assert store.commit(game_id, final["version"], [("d", 0)], "running", None) is False
        stored = store.load(game_id)
        assert stored is not None and stored.status == FINISHED and stored.version == final["version"]
