"""`chaosgames export --pdn` and `chaosgames import`, as a user types them."""

from __future__ import annotations

from pathlib import Path

import pytest

import chaosgames
from chaosgames.cli.main import main
from chaosgames.core.records import GameRecord


def plain_record(path: Path, moves: list[str]) -> Path:
    game = chaosgames.load_game("chaos-checkers", chaos=False)
    state = game.new_initial_state()
    record = GameRecord.start(game, ["Ann", "Bob"])
    for text in moves:
        action = game.parse_action(state, text)
        record.append(action)
        state.apply_action(action)
    record.save(path)
    return path


def test_export_prints_pdn_and_import_writes_records_that_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = plain_record(tmp_path / "game.json", ["11-15", "23-19", "8-11", "22-17"])
    assert main(["export", str(record), "--pdn"]) == 0
    text = capsys.readouterr().out
    assert '[GameType "21"]' in text and "1. 11-15 23-19 2. 8-11 22-17 *" in text
    pdn = tmp_path / "club.pdn"
    assert main(["export", str(record), str(record), "--pdn", "--out", str(pdn)]) == 0
    assert "2 game(s) written" in capsys.readouterr().out
    assert main(["import", str(pdn), "--out", str(tmp_path / "imported")]) == 0
    out = capsys.readouterr().out
    assert "club-1.json: 4 moves, result: unfinished" in out and "club-2.json" in out
    again = GameRecord.load(tmp_path / "imported" / "club-2.json")
    assert again.actions == ["11-15", "23-19", "8-11", "22-17"] and again.players == ["Ann", "Bob"]
    assert again.replay().current_player() == 0


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (["export", "{record}"], 2, "Say which format to export to: --pdn"),
        (
            ["export", "{chaos}", "--pdn"],
            1,
            "Only plain checkers records (chaos-checkers, chaos=false) export to PDN.",
        ),
        (["import", "{missing}"], 1, "Cannot read"),
        (["import", "{bad}"], 1, "Move 1 of game 1 (Black, '11-14') is not a legal move; legal moves are"),
    ],
)
def test_bad_input_is_one_sentence_and_a_non_zero_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], status: int, message: str
) -> None:
    chaos = tmp_path / "chaos.json"
    GameRecord.start(chaosgames.load_game("chaos-checkers"), ["a", "b"]).save(chaos)
    bad = tmp_path / "bad.pdn"
    bad.write_text("1. 11-14 *\n", encoding="utf-8")
    paths = {
        "record": str(plain_record(tmp_path / "g.json", [])),
        "chaos": str(chaos),
        "missing": str(tmp_path / "nothere.pdn"),
        "bad": str(bad),
    }
    assert main([a.format(**paths) for a in args]) == status
    captured = capsys.readouterr()
    assert message in captured.err and "Traceback" not in captured.err
