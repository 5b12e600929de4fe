"""Nothing heavy on the server's event loop (issue 49, finding 3): records are replayed in a
worker with a time limit, and a long game's view is built in a thread."""

from __future__ import annotations

import secrets
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import chaosgames.web.hub
import chaosgames.web.replays
import chaosgames.web.views
from chaosgames.core.records import GameRecord
from chaosgames.core.registry import load_game
from chaosgames.web import create_app
from chaosgames.web.limits import GENEROUS
from tests.web.conftest import create, view


def fresh_record(actions: list[str]) -> dict[str, Any]:
    """A record no test replayed before (the worker keeps the replays it built)."""
    return GameRecord("chaos-checkers", {"chaos": False}, [secrets.token_hex(4), "b"], actions).to_json()


def threads_of(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[str]:
    """The names of the threads `owner.name` runs in, from now on."""
    seen: list[str] = []
    real = getattr(owner, name)

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(threading.current_thread().name)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, spy)
    return seen


def test_an_uploaded_record_is_replayed_off_the_event_loop(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = threads_of(monkeypatch, chaosgames.web.replays.Replay, "__init__")
    loop_thread = threading.current_thread().name  # the test client's loop runs elsewhere: see below
    assert client.post("/api/replay", json=fresh_record(["9-13", "21-17"])).status_code == 200
    assert client.post("/api/replay/1", json=fresh_record(["9-14"])).status_code == 200
    assert len(built) == 2 and loop_thread not in built
    # The test client's event loop runs in a thread of its own; the replays ran in the worker.
    assert all(name.startswith("chaosgames-worker") for name in built), built


def test_a_replay_over_its_time_limit_is_given_up_with_a_sentence(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = chaosgames.web.replays.Replay.__init__

    def slow(self: Any, record: GameRecord) -> None:
        time.sleep(1.0)
        real(self, record)

    monkeypatch.setattr(chaosgames.web.replays.Replay, "__init__", slow)
    app = create_app(str(db_path), computer_pool="thread", workers=1, limits=GENEROUS, replay_limit=0.2)
    with TestClient(app) as client:
        answer = client.post("/api/replay", json=fresh_record(["10-14"]))
        assert answer.status_code == 422
        assert answer.json()["detail"] == (
            "The record took more than 0.2 s to replay on this server; it was given up."
        )
        # The health check answered meanwhile, and answers after.
        assert client.get("/api/health").status_code == 200


def test_a_long_games_view_is_built_off_the_event_loop(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(chaosgames.web.hub, "LONG_LOG", 3)
    built = threads_of(monkeypatch, chaosgames.web.views, "log_entries")
    state = load_game("chaos-checkers", chaos=False).new_initial_state()
    actions = []
    for _ in range(4):
        action = state.legal_actions()[0]
        actions.append(str(action))
        state.apply_action(action)
    created = create(
        client, "chaos-checkers", ["human", "human"], options={"chaos": False}, seed=1, actions=actions
    )
    built.clear()
    assert view(client, created["id"])["version"] == 4
    with client.websocket_connect(f"/api/games/{created['id']}/ws") as ws:
        ws.send_text('{"token": null}')
        assert ws.receive_json()["view"]["version"] == 4
    assert len(built) >= 2 and all(name.startswith("asyncio_") for name in built), built
