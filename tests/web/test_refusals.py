"""The refusals layer (web/refusals.py, issue 49): a client that asks again at once after a
429, ignoring Retry-After, waits for its next refusal, up to so many held at once; others
are not held up. The hold is made endless here, so nothing depends on how long it is."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from starlette.types import Message, Receive, Scope, Send

import chaosgames.web.refusals as refusals
from chaosgames.web.errors import TooMany
from chaosgames.web.limits import GENEROUS, ClientLimits, Gate
from chaosgames.web.refusals import HELD_PER_CLIENT, Refusals

STRANGER = "203.0.113.9"
FRIEND = "198.51.100.2"


async def served(scope: Scope, receive: Receive, send: Send) -> None:
    """The app behind the layer: every request it is handed is created."""
    await send({"type": "http.response.start", "status": 201, "headers": []})
    await send({"type": "http.response.body", "body": b"{}"})


async def create_game(layer: Refusals, client: str) -> int:
    """POST /api/games from `client` through `layer`: the answer's status."""
    scope = {"type": "http", "method": "POST", "path": "/api/games", "client": (client, 40000), "headers": []}
    statuses: list[int] = []

    async def receive() -> Message:
        return {"type": "http.request", "body": b"{}", "more_body": False}

    async def send(message: Message) -> None:
        if message["type"] == "http.response.start":
            statuses.append(message["status"])

    await layer(scope, receive, send)
    return statuses[0]


async def settled(check: Any) -> None:
    """Let the event loop run until `check()` holds (bounded in steps, not in time)."""
    for _ in range(1000):
        if check():
            return
        await asyncio.sleep(0)
    raise AssertionError("the layer never got there")


def refused_once(client: str) -> Gate:
    """A gate that has just refused `client` a game (one a minute)."""
    gate = Gate(ClientLimits(**{**GENEROUS.described(), "games": "1/minute"}))
    gate.hit("games", client)
    with pytest.raises(TooMany):
        gate.hit("games", client)
    return gate


def test_a_client_asking_again_at_once_is_held_but_never_beyond_its_share(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(refusals, "HOLD", 3600.0)
    layer = Refusals(served, refused_once(STRANGER))

    async def scenario() -> None:
        held = [asyncio.create_task(create_game(layer, STRANGER)) for _ in range(HELD_PER_CLIENT)]
        await settled(lambda: layer.held[STRANGER] == HELD_PER_CLIENT)
        assert not any(task.done() for task in held)  # still waiting for their 429
        # One more at once: beyond its share, refused without waiting, as before.
        assert await create_game(layer, STRANGER) == 429
        # Someone else is neither held nor refused.
        assert await create_game(layer, FRIEND) == 201
        for task in held:
            task.cancel()
        await asyncio.gather(*held, return_exceptions=True)
        assert layer.held[STRANGER] == 0 and layer.holding == 0  # given back when they end

    asyncio.run(scenario())


def test_the_held_refusal_is_the_same_429(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(refusals, "HOLD", 0.0)
    layer = Refusals(served, refused_once(STRANGER))
    assert asyncio.run(create_game(layer, STRANGER)) == 429
    assert asyncio.run(create_game(layer, FRIEND)) == 201
