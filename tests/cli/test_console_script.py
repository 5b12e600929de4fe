"""The installed `chaosgames` script itself, in a process of its own (the other CLI tests
call `main()` in this process, which is much faster)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from chaosgames.core.records import GameRecord

SCRIPT = Path(sys.executable).with_name("chaosgames")
pytestmark = pytest.mark.skipif(not SCRIPT.exists(), reason="the chaosgames script is not installed here")


def test_the_script_plays_a_game_and_saves_its_record(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    args = [
        "play",
        "chaos-checkers",
        "-o",
        "chaos=false",
        "--seat",
        "random",
        "--seat",
        "random",
        "--seed",
        "2",
    ]
    done = subprocess.run([SCRIPT, *args, "--record", record], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert GameRecord.load(record).result is not None


def _stored_games(db: Path) -> int:
    try:
        with sqlite3.connect(db) as connection:
            return int(connection.execute("SELECT count(*) FROM games").fetchone()[0])
    except sqlite3.Error:
        return 0


def _ctrl_c_as_at_a_terminal() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _communicate_or_show_where_it_hangs(process: subprocess.Popen[str], seconds: float) -> str:
    try:
        return process.communicate(timeout=seconds)[1]
    except subprocess.TimeoutExpired:
        # SIGABRT makes the faulthandler print every thread's stack to stderr.
        process.send_signal(signal.SIGABRT)
        stacks = process.communicate(timeout=30)[1]
        pytest.fail(f"still running {seconds} s after Ctrl-C; its threads:\n{stacks}")


def test_ctrl_c_stops_simulate_with_130_and_the_games_stay_stored(tmp_path: Path) -> None:
    db = tmp_path / "lab.db"
    args = ["simulate", "chaos-checkers", "-o", "chaos=false", "--seat", "random", "--seat", "random"]
    process = subprocess.Popen(
        [SCRIPT, *args, "--games", "5000", "--workers", "2", "--db", db],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        # A job started in the background of a shell inherits Ctrl-C *ignored*, and Python
        # keeps it so: the script would play all 5000 games. Ctrl-C at a terminal is what
        # this test is about, so the script gets the terminal's default.
        preexec_fn=_ctrl_c_as_at_a_terminal,
        env={**os.environ, "PYTHONFAULTHANDLER": "1"},
    )
    try:
        give_up = time.monotonic() + 240
        while _stored_games(db) < 3 and process.poll() is None and time.monotonic() < give_up:
            time.sleep(0.2)
        process.send_signal(signal.SIGINT)
        err = _communicate_or_show_where_it_hangs(process, 120)
    finally:
        process.kill()
    assert process.returncode == 130, err
    assert "Interrupted:" in err and "Traceback" not in err
    assert _stored_games(db) >= 3
