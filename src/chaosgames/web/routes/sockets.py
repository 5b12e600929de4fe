"""A game's WebSocket (see `hub`): the checks before a connection is served.

A connection is accepted, then checked: its `Origin` (the server's own, or one of
`--allow-origin`; see `origins`), the client's open connections (see `limits`), and its
hello, which says who it is (`{"token": ...}` for a seat, `{"token": null}` for a
spectator; `"table": true` asks for the table's news too, see `hub`) within
`HELLO_TIMEOUT` seconds. Then the hub serves it.
"""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from chaosgames.core import safejson
from chaosgames.web.deps import TheHub, seated_in
from chaosgames.web.errors import TooMany, WebError
from chaosgames.web.hub import Hub
from chaosgames.web.limits import client_address, gate
from chaosgames.web.origins import origin_allowed
from chaosgames.web.service import GameService

HELLO_TIMEOUT = 10.0
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_BAD_HELLO = 4400
CLOSE_TOO_MANY = 4429

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
    await hub.serve(websocket, seated.live, seated.seat, table, patched)


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
