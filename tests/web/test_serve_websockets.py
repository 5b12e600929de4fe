"""`chaosgames serve`'s WebSockets as uvicorn really serves them (issue 49): no per-message
compression, and a handshake refused over a client's count answered 429 without an error in
the server's log."""

from __future__ import annotations

import json
import logging
import socket
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from chaosgames.web.refusals import INCOMPLETE, quiet_denials
from tests.web.servers import ServerProcess, Servers, wait_until

PEOPLE = {"game": "chaos-checkers", "seats": ["human", "human"]}


def socket_url(server: ServerProcess, game_id: str) -> str:
    return server.url.replace("http://", "ws://") + f"/api/games/{game_id}/ws"


def test_a_page_offering_compression_is_sent_its_views_uncompressed(tmp_path: Path, servers: Servers) -> None:
    server = servers.start(f"{tmp_path}/games.sqlite")
    game = server.post("/api/games", PEOPLE)["id"]
    with connect(socket_url(server, game), compression="deflate") as ws:
        assert ws.request is not None and ws.response is not None
        assert "permessage-deflate" in ws.request.headers["Sec-WebSocket-Extensions"]
        assert "Sec-WebSocket-Extensions" not in ws.response.headers  # declined
        ws.send(json.dumps({"token": None}))
        assert json.loads(ws.recv())["view"]["id"] == game


def test_a_stranger_over_its_count_is_refused_in_the_handshake_and_the_log_stays_clean(
    tmp_path: Path, servers: Servers
) -> None:
    server = servers.start(f"{tmp_path}/games.sqlite", "--sockets", "1")
    game = server.post("/api/games", PEOPLE)["id"]
    with connect(socket_url(server, game)) as held:
        held.send(json.dumps({"token": None}))
        held.recv()
        with connect(socket_url(server, game)) as second, pytest.raises(ConnectionClosed) as closed:
            second.recv()  # the app's own refusal, after the handshake: why, in the close
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        for _ in range(3):  # asked again at once: refused in the handshake itself
            with pytest.raises(InvalidStatus) as refused:
                connect(socket_url(server, game))
            assert refused.value.response.status_code == 429
    # uvicorn logs from its one event loop in order: once a later bad request's warning is
    # written, whatever the refusals would have logged is written too.
    address = urlsplit(server.url)
    with socket.create_connection((address.hostname, address.port)) as raw:
        raw.sendall(b"NOT HTTP\r\n\r\n")
        raw.recv(1024)
    wait_until(lambda: any("Invalid HTTP request" in line for line in server.said), 30, "the warning")
    assert not any("handshake" in line for line in server.said), server.said


def test_an_unfinished_handshake_the_refusals_did_not_refuse_is_still_an_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    quiet_denials()
    with caplog.at_level(logging.ERROR, logger="uvicorn.error"):
        logging.getLogger("uvicorn.error").error(INCOMPLETE)
    assert INCOMPLETE in caplog.text
