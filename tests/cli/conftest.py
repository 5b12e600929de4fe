import io
import sys

import pytest

from chaosgames.cli.main import main
from tests.cli.runner import Result, Run


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Run:
    """`cli("play", "chaos-checkers", stdin="1\\n")`: the real main() with these arguments and input."""

    def run(*args: object, stdin: str = "") -> Result:
        capsys.readouterr()
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        status = main([str(a) for a in args])
        captured = capsys.readouterr()
        return Result(status, captured.out, captured.err)

    return run
