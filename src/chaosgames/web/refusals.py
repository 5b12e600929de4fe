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

A refusal repeated here is held `HOLD` seconds before it is answered: a client asking again
at once, as a flood does, then asks once a second instead of as fast as the server answers,
while holding costs the server a sleeping task and an open connection (a tarpit, as proxies
have). The first refusal, the app's, is answered at once; a person over a limit who tries
again within its `Retry-After` reads the same refusal a second later. At most
`HELD_PER_CLIENT` refusals of one client, and `HELD_IN_ALL` of all, are held at a time;
beyond, they are answered at once (a stranger opening many connections at once is refused
as cheaply as before, no cheaper).

A handshake refused here is not an error in the server's log (see `quiet_denials`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections import Counter
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
HOLD = 1.0
"""Seconds a repeated refusal is held before it is answered."""
HELD_PER_CLIENT = 16
"""Refusals of one client held at once: more than a page ever has outstanding (a browser
opens at most 6 connections to a server, and a page's requests wait for their answers)."""
HELD_IN_ALL = 1_000
"""Refusals held at once in all, so that a flood from many addresses holds no more than so
many connections open."""
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
    """ASGI middleware: answer itself what `gate` has just refused (see the module)."""

    def __init__(self, app: ASGIApp, gate: Gate) -> None:
        self.app = app
        self.gate = gate
        self.held: Counter[str] = Counter()
        """Refusals being held now, by client."""
        self.holding = 0
        """Refusals being held now, in all."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope["client"][0] if scope.get("client") else "unknown"
        if scope["type"] == "http":
            what = rated(scope["method"], scope["path"])
            boxed = None if what is None else self.gate.still_refused(what, client)
            if boxed is not None:
                await _drain(receive)
                await self.hold(client)
                await _refuse_http(send, *boxed)
                return
        elif scope["type"] == "websocket":
            found = SOCKET.fullmatch(scope["path"])
            why = None if found is None else self.gate.sockets_still_refused(client, found.group(1))
            if why is not None:
                await receive()  # the handshake's websocket.connect
                await self.hold(client)
                await _refuse_socket(scope, send, why)
                return
        await self.app(scope, receive, send)

    async def hold(self, client: str) -> None:
        """Wait `HOLD` seconds before answering `client`'s repeated refusal, unless it, or
        every client together, has as many held as may be."""
        if self.held[client] >= HELD_PER_CLIENT or self.holding >= HELD_IN_ALL:
            return
        self.held[client] += 1
        self.holding += 1
        try:
            await asyncio.sleep(HOLD)
        finally:
            self.holding -= 1
            self.held[client] -= 1
            if self.held[client] <= 0:
                del self.held[client]


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
