"""`chaosgames serve`: bad arguments and a busy port end with a sentence, not a traceback."""

from __future__ import annotations

import socket

import pytest

from chaosgames.cli.main import main


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
