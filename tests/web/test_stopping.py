"""Stopping a server: Ctrl-C while its computer seats think ends it cleanly, and a server
killed outright leaves none of its computer-player processes running."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from tests.web.servers import ServerProcess, Servers, wait_until

THINKING = ["mcts:time=3", "mcts:time=3"]
"""Two computer seats that search for seconds a move: a worker is busy whenever we stop."""


def running_in_group(group: int) -> list[int]:
    """The processes of a process group that still run (zombies not counted: in a container
    nobody may reap an orphan's exit)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended while we looked
        state, pgrp = fields[0], int(fields[2])
        if pgrp == group and state != "Z":
            found.append(int(entry.name))
    return found


def start_thinking_game(servers: Servers, tmp_path: Path) -> ServerProcess:
    server = servers.start(str(tmp_path / "games.sqlite"))
    game = server.post("/api/games", {"game": "chaos-checkers", "seats": THINKING, "seed": 1})
    wait_until(lambda: server.get(f"/api/games/{game['id']}")["version"] > 1, 60, "a computer seat moving")
    wait_until(lambda: server.get(f"/api/games/{game['id']}")["thinking"], 30, "a computer seat thinking")
    return server


def test_ctrl_c_while_computers_think_stops_the_server_cleanly(servers: Servers, tmp_path: Path) -> None:
    server = start_thinking_game(servers, tmp_path)
    os.killpg(server.pid, signal.SIGINT)  # what Ctrl-C in a terminal sends: the whole group
    assert server.process.wait(timeout=30) == 130  # as a shell reports a command stopped by Ctrl-C
    said = "".join(server.said)
    assert "Traceback" not in said and "broke" not in said, said
    # Nothing left behind: multiprocessing's resource tracker names what was not cleaned up.
    assert "leaked" not in said, said
    assert wait_until(lambda: not running_in_group(server.pid), 10, "every process of the server ending")


def test_a_server_killed_outright_leaves_no_computer_player_running(servers: Servers, tmp_path: Path) -> None:
    server = start_thinking_game(servers, tmp_path)
    assert len(running_in_group(server.pid)) >= 2  # the server and its computer player
    os.kill(server.pid, signal.SIGKILL)  # the server alone, as the kernel's OOM killer would
    server.process.wait(timeout=30)
    assert wait_until(lambda: not running_in_group(server.pid), 10, "the computer player following it")


def test_a_server_stopped_by_sigterm_leaves_nothing_behind(servers: Servers, tmp_path: Path) -> None:
    # What `kill PID` or a service manager sends to the server process alone. The pool of
    # computer players it once had left semaphores for multiprocessing's resource tracker
    # to report ("leaked semaphore objects") when it was shut down mid-decision.
    server = start_thinking_game(servers, tmp_path)
    os.kill(server.pid, signal.SIGTERM)
    server.process.wait(timeout=30)
    assert wait_until(lambda: not running_in_group(server.pid), 10, "every process of the server ending")
    server.reader.join(10)  # all it said, up to the resource tracker's last words
    said = "".join(server.said)
    assert "leaked" not in said and "Traceback" not in said, said
