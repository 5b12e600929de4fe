"""The chaosgames command, as a user types it, through the real entry point `main()`.

Every command either works (exit 0) or prints one line on stderr and exits 1 (it failed),
2 (the command line cannot be read) or 130 (Ctrl-C), never with a traceback. The
commands run in this process; tests/cli/test_console_script.py starts the installed
`chaosgames` script itself.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

import chaosgames
from chaosgames.core.records import GameRecord
from tests.cli.runner import Run

GAMES = chaosgames.list_games()


def random_seats(name: str) -> list[str]:
    return [arg for _ in range(chaosgames.load_game(name).num_players) for arg in ("--seat", "random")]


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A short saved record of each game (the first 40 actions of a random game)."""
    import random

    folder = tmp_path_factory.mktemp("records")
    made = {}
    for name in GAMES:
        game = chaosgames.load_game(name)
        state = game.new_initial_state()
        record = GameRecord.start(game, ["random"] * game.num_players)
        rng = random.Random(1)
        for _ in range(40):
            if state.is_terminal():
                break
            if state.is_chance_node():
                action = chaosgames.sample_outcome(state.chance_outcomes(), rng)
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            record.append(action)
        made[name] = folder / f"{name}.json"
        record.save(made[name])
    return made


# -- commands that work ---------------------------------------------------------------


def test_list_names_every_game(cli: Run) -> None:
    result = cli("list")
    assert result.status == 0 and result.err == ""
    for name in GAMES:
        assert name in result.out


def test_agents_lists_every_agent_with_its_parameters(cli: Run) -> None:
    result = cli("agents")
    assert result.status == 0
    for word in ("random", "greedy", "mcts", "iterations", "time", "rollout", "unstick"):
        assert word in result.out
    # And the levels, each game's own: easy is greedy with blunders in Royal Racers only
    # (a narrow terminal folds the specs onto a second line).
    levels = result.out[result.out.index("levels for --seat") :].splitlines()
    racers = next(line for line in levels if "royal-racers" in line)
    checkers = next(line for line in levels if "chaos-checkers" in line)
    assert "greedy:blunders=" in racers and "blunders" not in checkers


@pytest.mark.parametrize("name", GAMES)
def test_rules_shows_the_summary_and_options(cli: Run, name: str) -> None:
    result = cli("rules", name)
    assert result.status == 0
    assert "Options" in result.out and "players=" in result.out


def test_help_and_no_arguments(cli: Run) -> None:
    assert cli("--help").status == 0
    assert cli().status == 2  # the help is shown, and nothing was done


@pytest.mark.parametrize("name", GAMES)
def test_computer_game_plays_to_the_end_and_replays(cli: Run, name: str, tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    # Random cruisers rarely finish a race: this test needs an end, so it sets the cap.
    cap = ["--option", "max_rounds=20"] if name == "chaos-cruisers" else []
    result = cli("play", name, *random_seats(name), *cap, "--seed", "3", "--record", record)
    assert result.status == 0, result.err
    saved = GameRecord.load(record)
    assert saved.game == name and saved.actions and saved.result is not None
    assert saved.ended_by in ("rules", "cap")
    replayed = cli("replay", record, "--verbose")
    assert replayed.status == 0, replayed.err
    assert "every one was legal" in replayed.out and "Result:" in replayed.out
    assert f"{len(saved.actions):4d}. " in replayed.out
    svg = tmp_path / "final.svg"
    shown = cli("show", record, "--svg", svg, "--upto", "1")
    assert shown.status == 0, shown.err
    assert svg.read_text().lstrip().startswith(("<svg", "<?xml"))


@pytest.mark.parametrize("name", GAMES)
def test_no_terminal_input_ends_cleanly_and_saves(cli: Run, name: str, tmp_path: Path) -> None:
    record = tmp_path / "r.json"
    result = cli("play", name, "--seed", "5", "--record", record, stdin="")
    assert result.status == 0, result.err
    assert "Game stopped" in result.out
    assert GameRecord.load(record).game == name


def test_a_game_ended_by_its_length_cap_says_so(cli: Run, tmp_path: Path) -> None:
    record = tmp_path / "capped.json"
    seats = ["--seat", "random", "--seat", "random"]
    options = ["--option", "chaos=false", "--option", "max_moves=4"]
    result = cli("play", "chaos-checkers", *seats, *options, "--seed", "1", "--record", record)
    assert result.status == 0, result.err
    assert "ended by its length cap" in result.out
    assert GameRecord.load(record).ended_by == "cap"
    assert "ended by its length cap" in cli("replay", record).out


def test_a_course_option_is_read_from_a_file(cli: Run, tmp_path: Path) -> None:
    from chaosgames.games.chaos_cruisers.presets import PRESETS

    course = tmp_path / "course.json"
    course.write_text(json.dumps(PRESETS["chicane"]))
    record = tmp_path / "r.json"
    result = cli("play", "chaos-cruisers", "-o", f"course=@{course}", "--seed", "1", "--record", record)
    assert result.status == 0, result.err
    assert GameRecord.load(record).options["course"] == PRESETS["chicane"]


# -- commands that fail: one line, the right status -------------------------------------


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (["frobnicate"], 2, "No such command 'frobnicate'"),
        (["play"], 2, "Missing argument"),
        (["play", "chaos-checkers", "--seed", "soon"], 2, "--seed"),
        (["play", "chaos-checkers", "--option", "players"], 2, "key=value"),
        (["play", "chaos-checkers", "-o", "pink=true", "-o", "pink=false"], 2, "given twice"),
        (["play", "chaos-checkers", "--seat", "random"], 1, "Option 'players' must be at least 2"),
        (["play", "royal-racers", "--seat", "random", "--seat", "human", "-o", "players=3"], 2, "2 seats"),
        (["play", "no-such-game"], 1, "There is no game called 'no-such-game'"),
        (["rules", "no-such-game"], 1, "There is no game called"),
        (["play", "chaos-checkers", "--option", "players=²"], 1, "takes a whole number, not '²'"),
        (["play", "chaos-checkers", "--option", "players=" + "9" * 5000], 1, "takes a whole number"),
        (["play", "chaos-checkers", "--option", "pink=maybe"], 1, "takes true or false"),
        (
            ["play", "chaos-cruisers", "--option", "course=" + "[" * 5000 + "]" * 5000],
            1,
            "nested more than 64 levels",
        ),
        (
            ["play", "chaos-cruisers", "--option", "course=@/no/such/course.json"],
            1,
            "Cannot read the option file",
        ),
        (["play", "chaos-checkers", "--seat", "random", "--seat", "wizard"], 1, "or level called 'wizard'"),
        (["replay", "/no/such/record.json"], 1, "Cannot read the record"),
        (["show", "/no/such/record.json"], 1, "Cannot read the record"),
        (["replay", "/"], 1, "Is a directory"),
    ],
)
def test_bad_arguments_get_one_line_and_the_right_status(
    cli: Run, args: list[str], status: int, message: str
) -> None:
    result = cli(*args)
    assert result.failed_with(status, message), result


@pytest.mark.parametrize("name", GAMES)
def test_unknown_option_is_refused(cli: Run, name: str) -> None:
    assert cli("play", name, "--option", "no_such=1", "--seed", "1").failed_with(1, "has no option no_such")


def test_a_record_cannot_be_written_into_a_directory(cli: Run, tmp_path: Path) -> None:
    result = cli("play", "chaos-checkers", "--seat", "random", "--seat", "random", "--record", tmp_path)
    assert result.failed_with(1, "it is a directory")
    assert result.out == ""  # refused before the game started


def test_a_picture_cannot_be_written_to_a_missing_place(cli: Run, records: dict[str, Path]) -> None:
    result = cli("show", records["chaos-checkers"], "--svg", "/proc/no/such/place.svg")
    assert result.failed_with(1, "Cannot write the picture")


LONG_NAME = "x" * 300
"""A file name longer than any file system takes (255 bytes)."""


def test_a_record_name_too_long_is_refused_before_the_game_starts(cli: Run, tmp_path: Path) -> None:
    record = tmp_path / f"{LONG_NAME}.json"
    result = cli("play", "chaos-checkers", "--seat", "random", "--seat", "random", "--record", record)
    assert result.failed_with(1, "Cannot write the game record to"), result
    assert "File name too long." in result.err and result.out == ""


def test_a_seed_too_long_for_the_default_record_name_is_refused_before_the_game_starts(
    cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The record would go to records/royal-racers-<300 digits>.json: the game used to be
    # played to its end, then lost when that file could not be written.
    monkeypatch.chdir(tmp_path)
    result = cli("play", "royal-racers", *random_seats("royal-racers"), "--seed", "7" * 300)
    assert result.failed_with(1, "Cannot write the game record to 'records/royal-racers-777"), result
    assert result.out == ""
    assert list(tmp_path.iterdir()) == []  # the records folder it made is gone again


def test_a_picture_name_too_long_is_refused(cli: Run, records: dict[str, Path], tmp_path: Path) -> None:
    result = cli("show", records["chaos-checkers"], "--svg", tmp_path / f"{LONG_NAME}.svg")
    assert result.failed_with(1, "Cannot write the picture to"), result
    assert "File name too long." in result.err


def test_a_record_that_does_not_replay_makes_no_folder_for_its_picture(cli: Run, tmp_path: Path) -> None:
    record = tmp_path / "bad.json"
    record.write_bytes(BROKEN_RECORDS["illegal action"])
    result = cli("show", record, "--svg", tmp_path / "new" / "dir" / "x.svg")
    assert result.failed_with(1, "record"), result
    assert [p.name for p in tmp_path.iterdir()] == ["bad.json"]


def test_checking_where_a_file_goes_keeps_a_file_that_is_there_and_removes_one_it_made(
    tmp_path: Path,
) -> None:
    from chaosgames.cli.app import _check_writable

    old = tmp_path / "old.json"
    old.write_text("an old record")
    _check_writable(old, "the game record")  # opened for appending: neither emptied nor removed
    assert old.read_text() == "an old record"
    new = tmp_path / "a" / "b" / "new.json"
    _check_writable(new, "the game record")
    assert not new.exists() and new.parent.is_dir()  # its folders stay, for the file to come


def test_upto_beyond_the_record_is_a_usage_error(cli: Run, records: dict[str, Path]) -> None:
    assert cli("show", records["chaos-checkers"], "--upto", "99999").failed_with(2, "--upto must be between")


BROKEN_RECORDS: dict[str, bytes] = {
    "deeply nested": b"[" * 100_000 + b"]" * 100_000,
    "huge integer": b'{"format": "chaosgames-record", "version": ' + b"9" * 5000 + b"}",
    "invalid UTF-8": b'{"format": "chaosgames-record", "game": "\xff\xfe"}',
    "UTF-16": json.dumps({"format": "chaosgames-record"}).encode("utf-16"),
    "NaN result": b'{"format": "chaosgames-record", "game": "chaos-checkers", "options": {}, '
    b'"players": ["a", "b"], "actions": [], "result": [NaN, 1]}',
    "junk result": b'{"format": "chaosgames-record", "game": "chaos-checkers", "options": {}, '
    b'"players": ["a", "b"], "actions": [], "result": "won"}',
    "version 999": b'{"format": "chaosgames-record", "version": 999, "game": "chaos-checkers", '
    b'"options": {}, "players": ["a", "b"], "actions": []}',
    "unknown game": b'{"format": "chaosgames-record", "game": "chess", "options": {}, '
    b'"players": ["a", "b"], "actions": []}',
    "illegal action": b'{"format": "chaosgames-record", "game": "chaos-checkers", '
    b'"options": {"chaos": false}, "players": ["a", "b"], "actions": ["24-20"]}',
    "not JSON": b"{not json",
    "empty": b"",
}


@pytest.mark.parametrize("command", ["replay", "show"])
@pytest.mark.parametrize("kind", BROKEN_RECORDS)
def test_broken_record_files_get_one_line(cli: Run, tmp_path: Path, command: str, kind: str) -> None:
    path = tmp_path / "broken.json"
    path.write_bytes(BROKEN_RECORDS[kind])
    result = cli(command, path)
    assert result.failed_with(1, "record"), result


# -- Ctrl-C ------------------------------------------------------------------------------


def test_ctrl_c_during_a_command_exits_130(cli: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted() -> list[str]:
        raise KeyboardInterrupt

    monkeypatch.setattr(chaosgames, "list_games", interrupted)
    assert cli("list").failed_with(130, "Interrupted")


def test_ctrl_c_while_starting_exits_130(cli: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while the commands are being imported (Typer, Rich, the lab)."""

    class Interrupting:
        def find_spec(self, name: str, *args: Any) -> None:
            if name == "chaosgames.cli.app":
                raise KeyboardInterrupt

    monkeypatch.delitem(sys.modules, "chaosgames.cli.app")
    monkeypatch.setattr(sys, "meta_path", [Interrupting(), *sys.meta_path])
    assert cli("list").failed_with(130, "Interrupted")


def test_an_unexpected_failure_is_one_line_too(cli: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> list[str]:
        raise RuntimeError("something deep went wrong")

    monkeypatch.delenv("CHAOSGAMES_TRACEBACK", raising=False)
    monkeypatch.setattr(chaosgames, "list_games", broken)
    assert cli("list").failed_with(1, "unexpected RuntimeError: something deep went wrong")
