"""Refusing again, before any routing, a client the limits have just refused (issue 49).

A stranger flooding the server ignores `Retry-After` and asks again at once, hundreds of
times a second. Each of those requests, answered 429 by a route's limit, still went through
the whole app: routing, the body read and checked, the dependencies, the exception handlers.
`Refusals`, the outermost layer of the app, answers them itself: once `limits.Gate` has
refused a client a rate (games, actions, replays, chat, designs, tests of designs), every
request of that kind from the client is answered the same 429, with the same sentence and
the time left, until the refusal's `Retry-After` runs out; and once it has refused a client
a WebSocket, further handshakes while the client is still at its count of connections are
refused in the handshake itself (HTTP 429, the ASGI denial response) instead of accepted and
closed with 4429. The first refusal of each kind is answered by the app as before, so a page
still reads why. Requests of other kinds, and other clients, pass as if this were not here.

A handshake refused here is not an error in the server's log (see `quiet_denials`).
"""

from __future__ import annotations

import json
import logging
import re
from contextvars import ContextVar

from starlette.types import ASGIApp, Receive, Scope, Send

from chaosgames.web.limits import Gate

RATED = [
    ("POST", re.compile(r"/api/games"), "games"),
    ("POST", re.compile(r"/api/games/[^/]+/actions"), "actions"),
    ("POST", re.compile(r"/api/replay"), "replays"),
    ("POST", re.compile(r"/api/games/[^/]+/chat"), "chat"),
    ("POST", re.compile(r"/api/designs"), "designs"),
    ("POST", re.compile(r"/api/designs/trials"), "trials"),
]
"""The requests each rate counts, by method and whole path (see the routes' `limited`)."""
SOCKET = re.compile(r"/api/games/([^/]+)/ws")
INCOMPLETE = "ASGI callable returned without completing handshake."
"""What uvicorn logs when an app leaves a WebSocket handshake unfinished."""
DENIED: ContextVar[bool] = ContextVar("chaosgames_handshake_denied", default=False)
"""Set in the task of a connection whose handshake this layer refused (uvicorn logs in it)."""


def rated(method: str, path: str) -> str | None:
    """The rate (a key of `limits.RATES`) a request of `method` on `path` counts, if any."""
    for wanted, pattern, what in RATED:
        if method == wanted and pattern.fullmatch(path):
            return what
    return None


class Refusals:
    """ASGI middleware: answer at once what `gate` has just refused (see the module)."""

    def __init__(self, app: ASGIApp, gate: Gate) -> None:
        self.app = app
        self.gate = gate

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope["client"][0] if scope.get("client") else "unknown"
        if scope["type"] == "http":
            what = rated(scope["method"], scope["path"])
            boxed = None if what is None else self.gate.still_refused(what, client)
            if boxed is not None:
                await _drain(receive)
                await _refuse_http(send, *boxed)
                return
        elif scope["type"] == "websocket":
            found = SOCKET.fullmatch(scope["path"])
            why = None if found is None else self.gate.sockets_still_refused(client, found.group(1))
            if why is not None:
                await receive()  # the handshake's websocket.connect
                await _refuse_socket(scope, send, why)
                return
        await self.app(scope, receive, send)


async def _drain(receive: Receive) -> None:
    """Read the request's body (a keep-alive connection then serves the client's next one)."""
    while True:
        message = await receive()
        if message["type"] != "http.request" or not message.get("more_body", False):
            return


def _headers(retry_after: float) -> list[tuple[bytes, bytes]]:
    return [
        (b"content-type", b"application/json"),
        (b"retry-after", str(max(1, int(retry_after + 0.999))).encode()),
    ]


async def _refuse_http(send: Send, detail: str, retry_after: float) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send({"type": "http.response.start", "status": 429, "headers": _headers(retry_after)})
    await send({"type": "http.response.body", "body": body})


async def _refuse_socket(scope: Scope, send: Send, detail: str) -> None:
    if "websocket.http.response" in scope.get("extensions", {}):
        DENIED.set(True)
        body = json.dumps({"detail": detail}).encode()
        await send({"type": "websocket.http.response.start", "status": 429, "headers": _headers(10.0)})
        await send({"type": "websocket.http.response.body", "body": body})
    else:  # a server without the denial response: closed before it is accepted (HTTP 403)
        await send({"type": "websocket.close", "code": 4429, "reason": detail[:120]})


class _DenialIsNoError(logging.Filter):
    """uvicorn's WebSocket protocol (websockets-sansio, 0.54) never marks a handshake refused
    with an HTTP response as finished, so it logs `INCOMPLETE` at ERROR after each one
    (uvicorn's pull request 3138 would fix it): a line for every handshake of a flood, a log
    a stranger could fill. This drops that line for the handshakes `Refusals` refused."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (DENIED.get() and record.msg == INCOMPLETE)


def quiet_denials() -> None:
    """Keep the handshakes refused here out of uvicorn's error log (once uvicorn set it up)."""
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, _DenialIsNoError) for f in logger.filters):
        logger.addFilter(_DenialIsNoError())
