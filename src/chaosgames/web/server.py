"""`chaosgames serve`: the web app under uvicorn, on one address, with a database."""

from __future__ import annotations

import socket

import uvicorn

from chaosgames.core.errors import ChaosGamesError
from chaosgames.web.app import create_app
from chaosgames.web.storage import database_url

WEBSOCKET_MAX_BYTES = 64 * 1024
"""A client only ever sends a short hello over the WebSocket."""


def run(host: str, port: int, database: str, workers: int = 2, pace: float = 0.5) -> None:
    """Serve until interrupted; prints where, and on what database."""
    app = create_app(database, workers=workers, pace=pace)
    sock = _bind(host, port)
    shown = host if host not in ("0.0.0.0", "::") else "127.0.0.1"
    bound = sock.getsockname()[1]
    where = database_url(database).split("@")[-1]  # no password in the output
    print(f"chaosgames is at http://{shown}:{bound}/  (database {where}; Ctrl-C stops it)", flush=True)
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        ws_max_size=WEBSOCKET_MAX_BYTES,
        timeout_graceful_shutdown=3,
    )
    server = uvicorn.Server(config)
    server.run(sockets=[sock])


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
