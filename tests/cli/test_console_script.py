"""The installed `chaosgames` script itself, in a process of its own (the other CLI tests
call `main()` in this process, which is much faster)."""

from __future__ import annotations

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


def test_ctrl_c_stops_simulate_with_130_and_the_games_stay_stored(tmp_path: Path) -> None:
    db = tmp_path / "lab.db"
    args = ["simulate", "chaos-checkers", "-o", "chaos=false", "--seat", "random", "--seat", "random"]
    process = subprocess.Popen(
        [SCRIPT, *args, "--games", "5000", "--workers", "2", "--db", db],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        give_up = time.monotonic() + 240
        while _stored_games(db) < 3 and process.poll() is None and time.monotonic() < give_up:
            time.sleep(0.2)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == 130, err
    assert "Interrupted:" in err and "Traceback" not in err
    assert _stored_games(db) >= 3
