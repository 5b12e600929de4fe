"""Fixtures for the web app: an app on a fresh database, driven by the ASGI test client.

Tests that need PostgreSQL take `postgres_url`: a database of its own on the local server
(127.0.0.1:5432, trust auth; `CHAOSGAMES_TEST_POSTGRES` names other servers to try, comma
separated), created for the test and dropped after it, so that test runs of several people
on one machine never meet. Where no server answers they skip, saying so; under CI
(`CI=true`) they fail instead, so a machine without the server cannot pass unnoticed.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from chaosgames.web import create_app
from chaosgames.web.limits import GENEROUS
from chaosgames.web.service import GameService
from tests.web.servers import servers

__all__ = ["servers"]  # the fixture that kills every server process a test starts


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite"


POSTGRES_SERVERS = os.environ.get(
    "CHAOSGAMES_TEST_POSTGRES",
    "postgresql://postgres@127.0.0.1:5432/test,postgresql://root@127.0.0.1:5432/test",
).split(",")


def _postgres_admin() -> tuple[psycopg.Connection[Any], str]:
    """A connection to the first PostgreSQL server that answers, and its URL."""
    failures = []
    for url in POSTGRES_SERVERS:
        try:
            return psycopg.connect(url, autocommit=True, connect_timeout=3), url
        except psycopg.OperationalError as exc:
            failures.append(f"{url}: {str(exc).strip().splitlines()[0] if str(exc).strip() else exc}")
    reason = "no PostgreSQL server answers (" + "; ".join(failures) + ")"
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}: CI needs the local PostgreSQL server for the web app's tests")
    pytest.skip(reason)


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """The URL of a new, empty PostgreSQL database, dropped after the test."""
    admin, url = _postgres_admin()
    name = f"chaosgames_test_{os.getpid()}_{secrets.token_hex(4)}"
    admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield url.rsplit("/", 1)[0] + "/" + name
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database of each kind: a SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite")
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    # Computer seats think in threads here: the tests use cheap agents (random, greedy).
    app = create_app(str(db_path), computer_pool="thread", workers=1, limits=GENEROUS)
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
