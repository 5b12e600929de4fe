"""`chaosgames serve` as real processes for the fault tests, always killed afterwards.

Each server runs in its own process group (its computer-player processes and, with
`--workers`, its server processes in it), so `kill()` ends all of them at once. The
`servers` fixture kills whatever a test started, however it ends; `atexit` does it too
if the test run itself is interrupted.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

_alive: set[ServerProcess] = set()

GENEROUS = [
    *("--games-rate", "100000/minute", "--actions-rate", "100000/minute", "--replays-rate", "100000/minute"),
    *("--sockets", "100000", "--sockets-per-game", "100000", "--computer-games", "100000"),
    *("--chat-rate", "100000/minute"),
]
"""Limits no test reaches: tests create many games quickly from one address (a test about
the limits passes its own after these)."""


class Refused(Exception):
    """An HTTP answer that is not 2xx: its status and body."""

    def __init__(self, status: int, body: Any) -> None:
        super().__init__(f"{status}: {body}")
        self.status = status
        self.body = body


class ServerProcess:
    """`chaosgames serve --port 0` on a database, until `kill()`."""

    def __init__(self, database: str, *options: str, pace: float = 0.0) -> None:
        command = [sys.executable, "-m", "chaosgames.cli.main", "serve", "--port", "0"]
        command += ["--database", database, "--pace", str(pace), "--computers", "1", *GENEROUS, *options]
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True
        )
        _alive.add(self)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not found:
            self.kill()
            raise AssertionError(f"the server said {line!r}")
        self.url = f"http://127.0.0.1:{found.group(1)}"
        # Read what the server says from now on (else a full pipe would stop it), keep the end.
        self.said: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        deadline = time.monotonic() + 60
        while True:
            try:
                self.get("/api/health")
                break
            except (urllib.error.URLError, ConnectionError):
                if time.monotonic() > deadline or self.process.poll() is not None:
                    self.kill()
                    raise
                time.sleep(0.05)

    def _read(self) -> None:
        assert self.process.stdout is not None
        with contextlib.suppress(ValueError, OSError):
            for line in self.process.stdout:
                self.said = [*self.said[-200:], line]

    @property
    def pid(self) -> int:
        return self.process.pid

    def kill(self) -> None:
        """kill -9 of the server and every process it started."""
        _alive.discard(self)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)

    def request(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return json.load(answer)
        except urllib.error.HTTPError as refused:
            raise Refused(refused.code, json.load(refused)) from None

    def get(self, path: str, token: str | None = None) -> Any:
        return self.request("GET", path, token=token)

    def post(self, path: str, body: Any, token: str | None = None) -> Any:
        return self.request("POST", path, body, token)


@atexit.register
def _kill_left_over() -> None:
    for server in list(_alive):
        server.kill()


class Servers:
    """Starts servers for one test; the fixture kills every one of them at its end."""

    def __init__(self) -> None:
        self.started: list[ServerProcess] = []

    def start(self, database: str, *options: str, pace: float = 0.0) -> ServerProcess:
        server = ServerProcess(database, *options, pace=pace)
        self.started.append(server)
        return server


@pytest.fixture
def servers() -> Iterator[Servers]:
    started = Servers()
    try:
        yield started
    finally:
        for server in started.started:
            server.kill()


def wait_until(check: Any, seconds: float, what: str) -> Any:
    """Poll `check()` until it gives something true (bounded: fails after `seconds`)."""
    deadline = time.monotonic() + seconds
    while True:
        got = check()
        if got:
            return got
        assert time.monotonic() < deadline, f"{what} did not happen within {seconds} s"
        time.sleep(0.05)
