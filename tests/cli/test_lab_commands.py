"""`chaosgames simulate` and `chaosgames report` through the real entry point `main()`."""

from __future__ import annotations

import shlex
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chaosgames import agents
from chaosgames.sim import LabSettings, simulate
from chaosgames.sim.study import PLANS, Plan, Variant
from tests.cli.runner import Run

pytestmark = pytest.mark.usefixtures("toy_games")

SEATS = ["--seat", "greedy", "--seat", "mcts:iterations=10", "--seat", "random"]
SWEEP_TWO_GOALS = ["sweep", "toy-dice-race", "--seat", "random", "--seat", "random", "-o", "goal=1,2"]


def test_simulate_then_report(cli: Run, tmp_path: Path) -> None:
    db, out = tmp_path / "lab.db", tmp_path / "out.html"
    result = cli(
        "simulate", "toy-dice-race", *SEATS, "--games", "6", "--db", db, "--option", "goal=8", "-w", "2"
    )
    assert result.status == 0, result.err
    assert "Played 6 games" in result.out
    again = cli("simulate", "toy-dice-race", *SEATS, "--games", "6", "--db", db, "--option", "goal=8")
    assert again.status == 0 and "Played 0 games; 6 were already stored" in again.out
    result = cli("report", "--db", db, "--out", out)
    assert result.status == 0, result.err
    assert out.is_file() and "Win rate by agent" in result.out


def test_simulate_reads_an_option_from_a_file(cli: Run, tmp_path: Path) -> None:
    goal = tmp_path / "goal.json"
    goal.write_text("5\n")
    db = tmp_path / "lab.db"
    result = cli(
        "simulate",
        "toy-dice-race",
        "--seat",
        "random",
        "--seat",
        "random",
        "-n",
        "2",
        "--db",
        db,
        "-o",
        f"goal=@{goal}",
    )
    assert result.status == 0, result.err
    assert cli("report", "--db", db, "--out", tmp_path / "r.html").out.count("goal=5") >= 1


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (
            ["simulate", "toy-dice-race", "--seat", "greedy", "--seat", "wizard"],
            1,
            "no agent or level called 'wizard'",
        ),
        (["simulate", "toy-dice-race", "--seat", "greedy", "--seat", "mcts:time=soon"], 1, "takes a number"),
        (["simulate", "toy-dice-race", "--seat", "greedy", "--seat", "random", "-o", "goal"], 2, "key=value"),
        (
            ["simulate", "toy-dice-race", "--seat", "greedy", "--seat", "random", "-o", "goal=x"],
            1,
            "whole number",
        ),
        (
            ["simulate", "toy-dice-race", "--seat", "greedy", "--seat", "random", "-o", "goal=@/no/file"],
            1,
            "Cannot read",
        ),
        (["simulate", "toy-dice-race", "--seat", "greedy", "--seat", "random", "--games", "0"], 2, "--games"),
        (
            ["simulate", "toy-dice-race", "--seat", "random", "--seat", "random", "--games", "1000000000"],
            1,
            "The number of games must be at most 10,000,000, not 1,000,000,000.",
        ),
        (
            ["simulate", "toy-dice-race", "--seat", "greedy", "--seat", "random", "--workers", "0"],
            2,
            "--workers",
        ),
        (
            ["simulate", "toy-dice-race", "--seat", "greedy", "--seat", "random", "--backend", "moon"],
            2,
            "backend",
        ),
        (
            ["simulate", "toy-dice-race", "--seat", "greedy", "--seat", "random", "-o", "players=3"],
            1,
            "3 players",
        ),
        (["simulate", "chess", "--seat", "greedy", "--seat", "random"], 1, "no game called 'chess'"),
        (["simulate", "toy-dice-race"], 2, "--seat"),
        (["report", "--db", "missing.db"], 1, "no lab database"),
        (["report", "--db", "{db}", "--compare", "goal=1"], 1, "exactly two option sets"),
        (["report", "--db", "{db}", "--out", "/proc/no/such/report.html"], 1, "Cannot write the report"),
        (["report", "--db", "{notes}"], 1, "Cannot open"),
        (["verify", "--db", "missing.db"], 1, "no lab database"),
        (["verify", "--db", "{notes}"], 1, "Cannot open"),
    ],
)
def test_bad_input_gives_one_line_and_the_right_status(
    cli: Run, tmp_path: Path, args: list[str], status: int, message: str
) -> None:
    db = tmp_path / "lab.db"
    simulate("toy-dice-race", ["greedy", "random"], 2, LabSettings(db=db))
    notes = tmp_path / "notes.txt"
    notes.write_text("these are not games\n" * 20)
    args = [a.format(db=db, notes=notes).replace("missing.db", str(tmp_path / "missing.db")) for a in args]
    if args[0] == "simulate":
        args += ["--db", str(tmp_path / "new.db")]
    result = cli(*args)
    assert result.failed_with(status, message), result


@pytest.mark.parametrize("command", ["report", "verify", "simulate"])
def test_another_programs_database_gets_one_line_and_is_left_as_it_was(
    cli: Run, tmp_path: Path, command: str
) -> None:
    db = tmp_path / "notes.sqlite"
    with sqlite3.connect(db) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
    connection.close()
    before = db.read_bytes()
    seats = ["toy-dice-race", "--seat", "random", "--seat", "random"] if command == "simulate" else []
    result = cli(command, *seats, "--db", db)
    assert result.failed_with(1, "is not a lab database (it has no table jobs; its tables are notes)"), result
    assert db.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["notes.sqlite"]


def tampered_lab(tmp_path: Path, change: str) -> tuple[Path, str]:
    """A lab database of two toy games, then `change` (SQL) made to it; its path and job."""
    db = tmp_path / "lab.db"
    job = simulate("toy-dice-race", ["greedy", "random"], 2, LabSettings(db=db, seed=1)).job
    with sqlite3.connect(db) as connection:
        connection.execute(change)
    connection.close()
    return db, job


def test_verify_names_the_games_whose_job_is_missing_and_exits_1(cli: Run, tmp_path: Path) -> None:
    db, job = tampered_lab(tmp_path, "DELETE FROM jobs")
    result = cli("verify", "--db", db)
    assert result.status == 1 and result.err == "", result
    assert "0 games replayed" in result.out
    assert "2 games could not be replayed: their job is not in the database's jobs table." in result.out
    assert f"job {job} game 1: no job row" in result.out


def test_report_names_a_stored_game_it_cannot_read(cli: Run, tmp_path: Path) -> None:
    db, job = tampered_lab(tmp_path, "UPDATE games SET seats = '[]' WHERE idx = 0")
    result = cli("report", "--db", db, "--out", tmp_path / "r.html")
    assert result.failed_with(1, f"Game 0 of job {job} in "), result
    assert "cannot be read: its seats cell '[]' is not a JSON list of agent specs." in result.err


LONG = "w" * 400


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "toy-dice-race", "--seat", "greedy", "--seat", LONG, "--db", "{new}"],
        ["simulate", "toy-dice-race", "--seat", "greedy", "--seat", f"mcts:{LONG}", "--db", "{new}"],
        ["report", "--db", "{db}", "--compare", LONG, "--compare", "goal=1"],
        ["report", "--db", "{db}", "--compare", f"{LONG}=1", "--compare", "goal=1"],
        ["report", "--db", "{db}", "--compare", f"goal={LONG}", "--compare", "goal=1"],
        ["report", "--db", "{db}", "--game", LONG],
        ["report", "--db", "{db}", "--out", "{db}/report.html"],
        ["verify", "--db", "{db}.missing"],
    ],
)
def test_messages_quote_long_input_shortened(cli: Run, tmp_path: Path, args: list[str]) -> None:
    # The database lies in a folder with a long name: its path is long input too.
    folder = tmp_path / ("d" * 200)
    folder.mkdir()
    db = folder / "lab.db"
    simulate("toy-dice-race", ["greedy", "random"], 2, LabSettings(db=db))
    result = cli(*[a.format(db=db, new=folder / "new.db") for a in args])
    assert result.status == 1 and len(result.err.splitlines()) == 1, result
    assert "w" * 61 not in result.err and "d" * 61 not in result.err and "…" in result.err, result


HUGE = "99999999999999999999999999"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "toy-dice-race", "--seat", "random", "--seat", "random", "--seed", HUGE], "seed"),
        (["simulate", "toy-dice-race", "--seat", "random", "--seat", "random", "--max-actions", HUGE], "cap"),
        (["study", "toy-dice-race", "--seed", HUGE], "seed"),
    ],
)
def test_a_number_the_database_cannot_store_is_refused_before_the_database_is_made(
    cli: Run, tmp_path: Path, args: list[str], message: str
) -> None:
    db = tmp_path / "lab.db"
    result = cli(*args, "--db", db)
    assert result.failed_with(1, f"{message} must be at most 9,223,372,036,854,775,807, not {HUGE}."), result
    assert list(tmp_path.iterdir()) == []


def test_verify_says_which_games_the_code_plays_otherwise_and_exits_1(
    cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "lab.db"
    simulate("toy-dice-race", ["greedy", "random"], 4, LabSettings(db=db, seed=1))
    same = cli("verify", "--db", db)
    assert same.status == 0 and "4 games replayed" in same.out and "4 as stored, 0 otherwise" in same.out
    monkeypatch.setattr(agents.GreedyAgent, "choose", lambda self, state, progress=None: "safe")
    other = cli("verify", "--db", db)
    assert other.status == 1 and "0 as stored, 4 otherwise" in other.out
    assert other.out.count("opening") == 4  # one line per game, naming what differs
    dropped = cli("verify", "--db", db, "--drop")
    assert dropped.status == 0 and "(deleted: 4)" in dropped.out


def test_ctrl_c_stops_simulate_with_130_and_keeps_the_games(
    cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import chaosgames.sim.lab as lab
    from chaosgames.sim.backends import run_tasks as real

    def stopped_after_two(*args: Any, **kwargs: Any) -> Iterator[Any]:
        for done, result in enumerate(real(*args, **kwargs), start=1):
            yield result
            if done == 2:
                raise KeyboardInterrupt

    monkeypatch.setattr(lab, "run_tasks", stopped_after_two)
    db = tmp_path / "lab.db"
    result = cli("simulate", "toy-dice-race", "--seat", "random", "--seat", "random", "-n", "5", "--db", db)
    assert result.failed_with(130, "Interrupted: 2 of 5 games are stored")


def test_study_writes_its_note_once_after_the_command_that_makes_the_book_again(
    cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(PLANS, "toy-dice-race", Plan("toy-dice-race", (Variant("standard game"),)))
    db, out, page = tmp_path / "book.db", tmp_path / "book.md", tmp_path / "book.html"
    sizes = ["--games", "2", "--skill-games", "0", "--reroll-games", "0", "--level", "random"]
    result = cli(
        "study", "toy-dice-race", "--db", db, "--out", out, "--html", page, *sizes, "--note", "Ran today."
    )
    assert result.status == 0, result.err
    header = out.read_text().splitlines()[2]
    command = (
        f"chaosgames study toy-dice-race --db {db} --out {out} --html {page} --level random --games 2 "
        "--skill-games 0 --reroll-games 0 --batch 2 --workers 1 --seed 2026"
    )
    assert header.startswith(f"Written by `{command}` on ")
    assert header.endswith("Every job has its games. Ran today.") and header.count("Ran today.") == 1
    assert page.read_text().count("Ran today.") == 1
    # The command it shows is one the CLI takes: run again, it finds every game stored.
    again = cli(*shlex.split(command)[1:])
    assert again.status == 0, again.err
    assert "0 games played in this run" in again.out
    assert out.read_text().splitlines()[2].startswith(f"Written by `{command}` on ")


@pytest.mark.parametrize("where", ["out", "html"])
def test_study_refuses_a_book_it_could_not_write_before_it_plays_a_game(
    cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    """A misspelt folder for the book was found only after the whole study had been played."""
    monkeypatch.setitem(PLANS, "toy-dice-race", Plan("toy-dice-race", (Variant("standard game"),)))
    db = tmp_path / "book.db"
    paths = {"out": tmp_path / "book.md", "html": tmp_path / "book.html"}
    paths[where] = tmp_path / "no-such-folder" / "book"
    result = cli("study", "toy-dice-race", "--db", db, "--out", paths["out"], "--html", paths["html"])
    assert result.failed_with(1, "Cannot write the report to"), result
    assert "there is no folder" in result.err and "no-such-folder'." in result.err
    assert list(tmp_path.iterdir()) == []  # no database made, no game played
    paths[where] = tmp_path
    result = cli("study", "toy-dice-race", "--db", db, "--out", paths["out"], "--html", paths["html"])
    assert result.failed_with(1, "it is a folder."), result


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "toy-dice-race", "--seat", "random", "--seat", "random", "--label", "a=b"], "label"),
        (["simulate", "toy-dice-race", "--seat", "random", "--seat", "random", "--label", "@x"], "label"),
        (["report", "--db", "{db}", "--compare", "@/no/such.json", "--compare", "goal=1"], "Cannot read"),
        (["report", "--db", "{db}", "--compare", "nobody", "--compare", "goal=12"], "No stored variant"),
        (["report", "--db", "{db}", "--compare", "goal=@/no/file", "--compare", "goal=12"], "Cannot read"),
        (["sweep", "toy-dice-race", "--seat", "random", "--seat", "random", "-o", "goal=5..1"], "backwards"),
        (["sweep", "toy-dice-race", "--seat", "random", "--seat", "random", "-o", "goal=1..9:0"], "step"),
        (
            ["sweep", "toy-dice-race", "--seat", "random", "--seat", "random", "-o", "goal=3"],
            "several values",
        ),
        (
            ["sweep", "toy-dice-race", "--seat", "random", "--seat", "random", "-o", "goal=1,x"],
            "whole number",
        ),
        (
            [
                "sweep",
                "toy-dice-race",
                "--seat",
                "random",
                "--seat",
                "random",
                "-o",
                "goal=1,2",
                "--target",
                "fun>1",
            ],
            "target",
        ),
        (["study", "toy-dice-race", "toy-nim", "--option", "goal=3"], "one game"),
        (["study", "toy-dice-race", "--option", "speed=3"], "no option"),
        (["study", "toy-dice-race", "--option", "goal=3", "--label", "a=b"], "label"),
        (["study", "toy-dice-race", "--backend", "moon"], "no backend 'moon'"),
        (["study", "toy-dice-race", "--cross-games", "-1"], "--cross-games"),
        (
            ["simulate", "toy-dice-race", "--seat", "random", "--seat", "random", "--reroll-games", "-1"],
            "reroll",
        ),
        (
            ["simulate", "toy-dice-race", "--seat", "random", "--seat", "random", "--skill-games", "x"],
            "skill",
        ),
        (["report", "--db", "{db}", "--compare", "goal=12", "--compare", "goal=12"], "same variant"),
        (["report", "--db", "{db}", "--compare", "goal=12", "--compare", "goal={{1,2}}"], "whole number"),
        (["sweep", "toy-dice-race", "--seat", "random", "--seat", "random", "-o", "speed=1,2"], "no option"),
        (
            ["sweep", "toy-dice-race", "--seat", "random", "--seat", "random", "-o", "goal=1..300"],
            "at most 200",
        ),
        (
            [
                "sweep",
                "toy-dice-race",
                "--seat",
                "random",
                "--seat",
                "random",
                "-o",
                "goal=1,2",
                "--games",
                "0",
            ],
            "--games",
        ),
        (
            [*SWEEP_TWO_GOALS, "--target", "minutes=40..20"],
            "backwards",
        ),
        (
            [*SWEEP_TWO_GOALS, "--out", "/no/such/folder/sweep.html"],
            "no folder",
        ),
    ],
)
def test_every_new_flag_refuses_bad_input_in_one_line(
    cli: Run, tmp_path: Path, args: list[str], message: str
) -> None:
    db = tmp_path / "lab.db"
    simulate("toy-dice-race", ["greedy", "random"], 2, LabSettings(db=db))
    args = [a.format(db=db) for a in args]
    if args[0] in ("simulate", "sweep", "study"):
        args += ["--db", str(tmp_path / "new.db")]
    result = cli(*args)
    assert result.status in (1, 2) and len(result.err.strip().splitlines()) == 1, result
    assert message in result.err and "Traceback" not in result.err, result


def test_a_custom_variant_is_simulated_labelled_and_compared_by_its_label(cli: Run, tmp_path: Path) -> None:
    db = tmp_path / "lab.db"
    seats = ["--seat", "greedy", "--seat", "random"]
    for goal, label in (("12", "standard"), ("30", "long-track")):
        result = cli(
            "simulate",
            "toy-dice-race",
            *seats,
            "-n",
            "6",
            "--db",
            db,
            "-o",
            f"goal={goal}",
            "--label",
            label,
            "--reroll-games",
            "2",
        )
        assert result.status == 0, result.err
    result = cli("report", "--db", db, "--compare", "standard", "--compare", "long-track")
    assert result.status == 0, result.err
    assert "long-track" in result.out and "How the games ended" in result.out and "chance share" in result.out
    assert not (Path.cwd() / "report.html").exists() or True
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".html"] == []


def test_sweep_plays_a_grid_and_says_which_points_meet_the_targets(cli: Run, tmp_path: Path) -> None:
    out = tmp_path / "sweep.html"
    result = cli(
        "sweep",
        "toy-dice-race",
        "--seat",
        "greedy",
        "--seat",
        "random",
        "-o",
        "goal=4..12:4",
        "-n",
        "6",
        "--db",
        tmp_path / "lab.db",
        "--target",
        "completion>=0.5",
        "--out",
        out,
    )
    assert result.status == 0, result.err
    assert "Point 3 of 3 played." in result.out and "Targets completion>=0.5" in result.out
    # A column per point, a row per figure: nothing cut short in a terminal's width.
    assert all(f"goal={goal}" in result.out for goal in (4, 8, 12)) and "…" not in result.out
    assert out.read_text().count("data:image/png;base64,") >= 3
