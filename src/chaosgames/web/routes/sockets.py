"""A game's WebSocket (see `hub`): the checks before a connection is served.

A connection is accepted, then checked: its `Origin` (the server's own, or one of
`--allow-origin`; see `origins`), the client's open connections (see `limits`), and its
hello, which says who it is (`{"token": ...}` for a seat, `{"token": null}` for a
spectator; `"table": true` asks for the table's news too, see `hub`) within
`HELLO_TIMEOUT` seconds. Then the hub serves it.

A seat's page acts on its open socket, saving an HTTP request per move:
`{"type": "act", "action": "11-15", "version": 3, "id": 7}` is checked as the POST route
checks it (the seat's token anew, the version, the client's rate of actions, whose turn it
is), committed, and only then answered `{"type": "acted", "id": 7, "version": ..., "status":
..., "to_act": ...}` (after the view that shows it); a refusal is `{"type": "refused", "id":
7, "status": 409, "detail": "a sentence", ...}` with the same status, sentence and details
as the POST's answer. `id` is the client's own, given back as it was sent (any short
number or text).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from chaosgames.core import safejson
from chaosgames.core.errors import ChaosGamesError
from chaosgames.web.deps import TheHub, seated_in
from chaosgames.web.errors import TooMany, Unprocessable, WebError
from chaosgames.web.handlers import ERROR_STATUS
from chaosgames.web.hub import COMPACT, Hub, Subscriber
from chaosgames.web.limits import client_address, gate
from chaosgames.web.origins import origin_allowed
from chaosgames.web.service import GameService

HELLO_TIMEOUT = 10.0
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_BAD_HELLO = 4400
CLOSE_TOO_MANY = 4429
ACT_BYTES = 1000
"""The longest action message read (a notation is at most 64 characters)."""

router = APIRouter()


@router.websocket("/api/games/{game_id}/ws")
async def game_socket(websocket: WebSocket, game_id: str, hub: TheHub) -> None:
    await websocket.accept()
    if not origin_allowed(websocket, websocket.app.state.origins):
        await _close(websocket, CLOSE_FORBIDDEN, "This page's origin may not open this server's games.")
        return
    try:
        with gate(websocket).socket(client_address(websocket), game_id):
            await _serve(websocket, game_id, hub)
    except TooMany as exc:
        await _close(websocket, CLOSE_TOO_MANY, exc.detail)


async def _serve(websocket: WebSocket, game_id: str, hub: Hub) -> None:
    service: GameService = websocket.app.state.service
    try:
        hello = await asyncio.wait_for(_receive_text(websocket), HELLO_TIMEOUT)
        token, table, patched = _hello(hello)
        seated = await seated_in(service, game_id, token)
    except (TimeoutError, ValueError):
        await _close(
            websocket, CLOSE_BAD_HELLO, 'Say who you are first: {"token": "..."} or {"token": null}.'
        )
        return
    except WebError as exc:
        await _close(websocket, CLOSE_NOT_FOUND if exc.status == 404 else CLOSE_FORBIDDEN, exc.detail)
        return
    except WebSocketDisconnect:
        return
    act = _acting(websocket, service, hub, game_id, token)
    await hub.serve(websocket, seated.live, seated.seat, table, patched, on_text=act)


def _acting(
    websocket: WebSocket, service: GameService, hub: Hub, game_id: str, token: str | None
) -> Callable[[Subscriber, str], Awaitable[None]]:
    """What a connection's messages after its hello are given to: an action is played and
    answered; anything else is let be, as before actions came over the socket."""

    async def on_text(subscriber: Subscriber, text: str) -> None:
        doc = _act_message(text)
        if doc is None:
            return
        answer = await act(websocket, service, game_id, token, doc)
        hub.reply(subscriber, json.dumps({**answer, "id": _ident(doc)}, separators=COMPACT))

    return on_text


def _act_message(text: str) -> dict[str, Any] | None:
    """The action message `text` is, or None for anything else."""
    if '"act"' not in text:  # a cheap test before parsing
        return None
    try:
        doc = safejson.parse(text) if len(text) <= ACT_BYTES else {"type": "act", "id": None, "long": True}
    except ValueError:
        return None
    return doc if isinstance(doc, dict) and doc.get("type") == "act" else None


async def act(
    websocket: WebSocket, service: GameService, game_id: str, token: str | None, doc: dict[str, Any]
) -> dict[str, Any]:
    """An action over the socket, with the POST route's checks in its order (the request's
    form, the client's rate, the game and the seat's token, then the service's: the
    version, whose turn, the action); its acknowledgement once committed, or its refusal."""
    try:
        gate(websocket).hit("actions", client_address(websocket))
        notation, version = _action(doc)
        seated = await seated_in(service, game_id, token)
        live = await service.act(seated.live, seated.seat, notation, version)
    except WebError as exc:
        refusal = {"type": "refused", "status": exc.status, "detail": exc.detail, **exc.extra}
        if isinstance(exc, TooMany):
            refusal["retry_after"] = exc.retry_after
        return refusal
    except ChaosGamesError as exc:  # as the HTTP app answers them (handlers.game_error)
        status = next((code for kind, code in ERROR_STATUS.items() if isinstance(exc, kind)), 422)
        return {"type": "refused", "status": status, "detail": str(exc)}
    return {
        "type": "acted",
        "version": live.version,
        "status": live.status,
        "to_act": live.to_act(),
    }


def _ident(doc: dict[str, Any]) -> int | str | None:
    """The client's id of an action message, given back as sent: a number or a short text."""
    ident = doc.get("id")
    if isinstance(ident, bool) or not isinstance(ident, int | str) or len(str(ident)) > 64:
        return None
    return ident


def _action(doc: dict[str, Any]) -> tuple[str, int]:
    """The notation and version of an action message; Unprocessable (422) for a malformed one."""
    notation, version = doc.get("action"), doc.get("version")
    if (
        doc.get("long")
        or not isinstance(notation, str)
        or len(notation) > 64
        or not isinstance(version, int)
        or isinstance(version, bool)
        or version < 0
    ):
        raise Unprocessable(
            'An action is {"type": "act", "action": "<notation, at most 64 characters>", '
            '"version": <the version it was decided at>, "id": <your number for it>}.'
        )
    return notation, version


async def _receive_text(websocket: WebSocket) -> str:
    """The next message's text; ValueError for a binary one (a hello is text)."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    if not isinstance(text, str):
        raise ValueError("a binary message")
    return text


def _hello(hello: str) -> tuple[str | None, bool, bool]:
    """The hello's token, whether it asks for the table's news (`"table": true`) and whether
    for patches (`"patches": true`)."""
    if len(hello) > 1000:
        raise ValueError("hello too long")
    doc = safejson.parse(hello)  # JsonRefused (a ValueError) for what is no JSON, or nested too deep
    if not isinstance(doc, dict) or "token" not in doc:
        raise ValueError("no token field")
    token = doc["token"]
    if token is not None and not isinstance(token, str):
        raise ValueError("token must be text")
    return token, doc.get("table") is True, doc.get("patches") is True


async def _close(websocket: WebSocket, code: int, reason: str) -> None:
    with contextlib.suppress(BaseException):
        await websocket.close(code=code, reason=reason[:120])
