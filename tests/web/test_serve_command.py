"""`chaosgames serve`: bad arguments and a busy port end with a sentence, not a traceback."""

from __future__ import annotations

import socket
import urllib.error

import pytest

from chaosgames.cli.main import main
from tests.web.servers import ServerProcess, Servers, wait_until


def test_a_port_out_of_range_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "70000"]) == 2
    assert "Invalid value for '--port'" in capsys.readouterr().err


def test_a_busy_port_is_refused_with_a_sentence(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port), "--database", f"{tmp_path}/x.sqlite"]) == 1
    err = capsys.readouterr().err
    assert f"Cannot listen on 127.0.0.1:{port}" in err and "Traceback" not in err


def live_servers(server: ServerProcess) -> int | None:
    try:
        count: int = server.get("/api/health")["servers"]
    except (ConnectionError, urllib.error.URLError):
        return None
    return count


def test_workers_starts_that_many_server_processes_on_one_database(
    tmp_path: object, servers: Servers
) -> None:
    server = servers.start(f"{tmp_path}/games.sqlite", "--workers", "2")
    # Each process beats its heartbeat into the database; either one counts both. (Both
    # create the schema of the new file at once: see test_schema_race.py.)
    assert wait_until(lambda: live_servers(server) == 2, 90, "two live servers")
    # A game created through one process is listed by both (the lobby reads the database).
    created = server.post("/api/games", {"game": "chaos-checkers", "seats": ["human", "human"]})
    for _ in range(6):  # new connections, spread over the two processes by the kernel
        assert created["id"] in [g["id"] for g in server.get("/api/games")["running"]]
