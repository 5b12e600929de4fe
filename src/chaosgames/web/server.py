"""`chaosgames serve`: the web app under uvicorn, on one address, with a database.

`--workers N` runs N server processes on one listening socket (uvicorn's supervisor
restarts one that dies); they share the database as separate servers would (see
`service` for how they keep each other informed).
"""

from __future__ import annotations

import json
import os
import socket
from typing import Any

import uvicorn
from fastapi import FastAPI
from uvicorn.supervisors import Multiprocess

from chaosgames.core.errors import ChaosGamesError
from chaosgames.web.app import create_app
from chaosgames.web.database import database_url
from chaosgames.web.limits import ClientLimits
from chaosgames.web.refusals import quiet_denials

WEBSOCKET_MAX_BYTES = 64 * 1024
"""A client only ever sends a short hello over the WebSocket."""
WEBSOCKET_COMPRESSION = False
"""No per-message deflate on the WebSockets (uvicorn offers it by default). After its whole
view a page is sent patches of a kilobyte or two a move, which deflate barely shortens; and
deflate is paid per connection, since each keeps its own compression state: one message
for a game's spectators is encoded once but compressed once for each of them (0.5 ms of the
event loop for each spectator of a Chaos Checkers table at every move, measured), which a
stranger holding dozens of sockets turned into most of its cost. A page's first view goes
out whole and uncompressed (30-110 KB), once a connection."""
SETTINGS = "CHAOSGAMES_SERVE_SETTINGS"
"""How the supervisor hands the app's settings to each server process it starts."""


def run(
    host: str,
    port: int,
    database: str,
    workers: int = 1,
    computers: int = 2,
    pace: float = 0.5,
    **settings: Any,
) -> None:
    """Serve until interrupted; prints where, and on what database. `settings` are
    `create_app`'s limits (`think_limit`, `limits` as a dict of ClientLimits' fields,
    `allow_origins`, `replay_limit`)."""
    settings = {"workers": computers, "pace": pace, **settings}
    _app_settings(settings)  # a bad limit is refused before anything starts
    sock = _bind(host, port)
    shown = host if host not in ("0.0.0.0", "::") else "127.0.0.1"
    bound = sock.getsockname()[1]
    where = database_url(database).split("@")[-1]  # no password in the output
    processes = f"; {workers} server processes" if workers > 1 else ""
    print(
        f"chaosgames is at http://{shown}:{bound}/  (database {where}{processes}; Ctrl-C stops it)",
        flush=True,
    )
    options: dict[str, Any] = dict(
        log_level="warning",
        access_log=False,
        ws_max_size=WEBSOCKET_MAX_BYTES,
        ws_per_message_deflate=WEBSOCKET_COMPRESSION,
        timeout_graceful_shutdown=3,
    )
    if workers == 1:
        server = uvicorn.Server(uvicorn.Config(create_app(database, **_app_settings(settings)), **options))
        quiet_denials()  # after the Config: it sets up uvicorn's loggers
        server.run(sockets=[sock])
        return
    os.environ[SETTINGS] = json.dumps({"database": database, **settings})
    config = uvicorn.Config(
        "chaosgames.web.server:app_from_settings", factory=True, workers=workers, **options
    )
    Multiprocess(config, sockets=[sock]).run()


def app_from_settings() -> FastAPI:
    """The app of one of several server processes (uvicorn's factory)."""
    settings = json.loads(os.environ[SETTINGS])
    database = settings.pop("database")
    quiet_denials()
    return create_app(database, **_app_settings(settings))


def _app_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """`create_app`'s keywords from plain (JSON) settings."""
    limits = settings.get("limits")
    return {**settings, "limits": None if limits is None else ClientLimits(**limits)}


def _bind(host: str, port: int) -> socket.socket:
    """The listening socket, bound before the URL is printed (port 0 picks a free one)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise ChaosGamesError(f"Cannot listen on {host}:{port}: {exc.strerror}.") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock
