"""The worked example of docs/research.md (examples/learn_checkers.py) runs: it needs the
`learn` extra (torch, stable-baselines3, sb3-contrib), which the default install leaves out."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib", reason="the learn extra (pip install chaosgames[learn]) is not installed")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "learn_checkers.py"


def test_the_example_trains_and_measures_its_learning_curve(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = importlib.util.spec_from_file_location("learn_checkers", EXAMPLE)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    out = tmp_path / "learning.md"
    argv = ["learn_checkers.py", "--steps", "1024", "--every", "1024", "--games", "2", "--out", str(out)]
    monkeypatch.setattr(sys, "argv", argv)
    assert example.main() == 0
    rows = [line for line in out.read_text().splitlines() if line.startswith("| ") and line[2].isdigit()]
    assert [row.split("|")[1].strip() for row in rows] == ["0", "1024"]
    for row in rows:  # two games against each opponent: won-drawn-lost adds up to 2
        for cell in (row.split("|")[3], row.split("|")[5]):
            assert sum(int(n) for n in cell.strip().split("-")) == 2
    assert "examples/learn_checkers.py --steps 1024" in out.read_text()
