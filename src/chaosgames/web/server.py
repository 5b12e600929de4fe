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

WEBSOCKET_MAX_BYTES = 64 * 1024
"""A client only ever sends a short hello over the WebSocket."""
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
        ws="chaosgames.web.deflate:LargeOnlyDeflateProtocol",  # patches go uncompressed (issue 51)
        timeout_graceful_shutdown=3,
    )
    if workers == 1:
        server = uvicorn.Server(uvicorn.Config(create_app(database, **_app_settings(settings)), **options))
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
