"""Fixtures for the web app: an app on a fresh database, driven by the ASGI test client."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from chaosgames.web import create_app
from chaosgames.web.service import GameService


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite"


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    # Computer seats think in threads here: the tests use cheap agents (random, greedy).
    app = create_app(str(db_path), computer_pool="thread", workers=1)
    with TestClient(app) as test_client:
        yield test_client


def service(client: TestClient) -> GameService:
    svc: GameService = client.app.state.service  # type: ignore[attr-defined]
    return svc


def bearer(token: str | None) -> dict[str, str]:
    return {} if token is None else {"Authorization": f"Bearer {token}"}


def create(client: TestClient, game: str, seats: list[str], **extra: Any) -> dict[str, Any]:
    answer = client.post("/api/games", json={"game": game, "seats": seats, **extra})
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def view(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    answer = client.get(f"/api/games/{game_id}", headers=bearer(token))
    assert answer.status_code == 200, answer.text
    got: dict[str, Any] = answer.json()
    return got


def act(client: TestClient, game_id: str, token: str, action: str, version: int) -> Any:
    return client.post(
        f"/api/games/{game_id}/actions", json={"action": action, "version": version}, headers=bearer(token)
    )
