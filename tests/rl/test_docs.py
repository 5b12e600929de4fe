"""The example in docs/research.md runs as printed (with fewer episodes)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"


def test_the_tabular_example_learns_and_prints_opening_moves() -> None:
    section = DOC.read_text(encoding="utf-8").split("## Example", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert code is not None
    source = code.group(1).replace("range(200)", "range(12)")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source, str(DOC), "exec"), {})
    lines = out.getvalue().splitlines()
    assert lines and all(re.fullmatch(r"\d+-\d+ +\d\.\d\d over \d+ games", line) for line in lines)
    assert sum(int(line.split()[-2]) for line in lines) == 12
