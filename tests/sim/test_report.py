"""Reports and statistics: tables, the HTML page with its plots, comparisons (the commands: tests/cli)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from rich.console import Console

from chaosgames.sim import (
    GameRow,
    LabError,
    LabSettings,
    report,
    simulate,
    summarise,
    two_means,
    two_proportions,
    wilson,
)

pytestmark = pytest.mark.usefixtures("toy_games")


def test_wilson_interval_matches_the_formula() -> None:
    low, high = wilson(0, 10)
    assert low == 0.0 and math.isclose(high, 0.2775, abs_tol=1e-4)
    low, high = wilson(50, 100)
    assert math.isclose(low, 0.4038, abs_tol=1e-4) and math.isclose(high, 0.5962, abs_tol=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_two_proportion_test() -> None:
    result = two_proportions(50, 100, 65, 100)
    # Pooled p = 0.575; z = 0.15 / sqrt(0.575 * 0.425 * 0.02) = 2.146.
    assert math.isclose(result.z, 2.146, abs_tol=1e-3)
    assert math.isclose(result.p_value, 0.0319, abs_tol=1e-3) and result.significant
    assert not two_proportions(50, 100, 55, 100).significant
    assert two_proportions(0, 0, 1, 2).p_value == 1.0


def test_two_means_test() -> None:
    assert two_means([1, 2, 3, 4] * 10, [5, 6, 7, 8] * 10).significant
    assert not two_means([1, 2, 3, 4], [1, 2, 3, 5]).significant


@pytest.fixture
def lab_db(tmp_path: Path) -> Path:
    db = tmp_path / "lab.db"
    simulate("toy-dice-race", ["greedy", "random"], 40, LabSettings(db=db, seed=1, options={"goal": 6}))
    simulate("toy-dice-race", ["greedy", "random"], 40, LabSettings(db=db, seed=1, options={"goal": 30}))
    return db


def test_report_prints_tables_and_writes_html_with_plots(lab_db: Path, tmp_path: Path) -> None:
    console = Console(record=True, width=150)
    out = tmp_path / "report.html"
    result = report(lab_db, out, console=console)
    text = console.export_text()
    assert "Win rate by agent" in text and "Win rate by seat" in text and "comeback rate" in text
    assert len(result.summaries) == 2
    page = out.read_text()
    # Per configuration: agent and seat rates, length and lead-change histograms.
    assert page.count("data:image/png;base64,") == 8
    assert "Wilson for rates" in page and "fair share 50.0%" in page
    summary = result.summaries[0]
    assert summary.games == 40
    assert sum(rate.games for rate in summary.by_agent.values()) == 80
    assert math.isclose(sum(rate.wins for rate in summary.by_seat.values()), 40 - summary.capped)


def test_compare_puts_two_option_sets_side_by_side(lab_db: Path, tmp_path: Path) -> None:
    console = Console(record=True, width=160)
    result = report(lab_db, tmp_path / "r.html", compare_options=["goal=6", "goal=30"], console=console)
    assert result.comparison is not None
    lines = {line.metric: line.comparison for line in result.comparison.lines}
    assert lines["rounds per game"].significant  # a goal five times farther takes longer
    assert lines["rounds per game"].difference > 0
    assert "win rate of greedy" in lines and "win rate of seat 1" in lines
    assert "Holm p" in console.export_text()
    names = result.comparison.labels
    assert (
        names[0].startswith("v-")
        and f"Comparison: {names[0]} vs {names[1]}" in (tmp_path / "r.html").read_text()
    )


@pytest.mark.parametrize(
    ("compare", "message"),
    [
        (["goal=6"], "exactly two option sets"),
        (["goal=6", "speed=3"], "No stored game has option speed"),
        (["goal=6", "goal=7"], "No stored game matches goal=7"),
        (["goal", "goal=7"], "No stored variant is called 'goal'"),
        (["goal=6,speed", "goal=7"], "write option=value"),
    ],
)
def test_bad_comparisons_are_refused(lab_db: Path, compare: list[str], message: str) -> None:
    with pytest.raises(LabError, match=message):
        report(lab_db, None, compare_options=compare, console=Console(file=None, quiet=True))


def test_a_missing_database_is_refused(tmp_path: Path) -> None:
    with pytest.raises(LabError, match="no lab database"):
        report(tmp_path / "nothing.db")


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("these are not games\n" * 20)
    with pytest.raises(LabError, match="Cannot open"):
        report(notes)


def test_an_empty_database_has_nothing_to_report(tmp_path: Path) -> None:
    db = tmp_path / "lab.db"
    simulate("toy-dice-race", ["greedy", "random"], 1, LabSettings(db=db))
    with pytest.raises(LabError, match="holds no games for toy-nim"):
        report(db, game="toy-nim")


def _row(idx: int, returns: list[float], ended_by: str | None) -> GameRow:
    winner = returns.index(1.0) if 1.0 in returns else None
    return GameRow(
        job="j",
        idx=idx,
        game="toy-dice-race",
        options={"players": 2},
        seats=["greedy", "random"],
        lineup=["greedy", "random"],
        rotation=0,
        seed=idx,
        winner=winner,
        winner_agent=None if winner is None else ["greedy", "random"][winner],
        returns=returns,
        rounds=10,
        actions=40,
        lead_changes=1,
        leader_at_half=1,
        capped=ended_by == "lab",
        record=None,
        ended_by=ended_by,
    )


def test_games_a_cap_decided_are_counted_apart_and_never_in_the_win_rates() -> None:
    rows = [
        _row(0, [1.0, 0.0], "rules"),
        _row(1, [0.0, 1.0], "rules"),
        # A length cap (an option, not a rule) handed greedy two wins by the lead order.
        _row(2, [1.0, 0.0], "cap"),
        _row(3, [1.0, 0.0], "cap"),
    ]
    (summary,) = summarise(rows)
    assert summary.games == 4 and summary.finished == 2 and summary.capped == 2
    assert summary.endings == {"rules": 2, "cap": 2}
    assert summary.by_agent["greedy"].wins == 1 and summary.by_agent["greedy"].games == 2
    assert summary.by_seat[0].rate == 0.5
    # The one rulebook game whose winner (greedy, seat 1) trailed at half time is a comeback.
    assert (summary.comebacks, summary.comeback_chances) == (1, 2)


def test_the_report_shows_how_games_ended(tmp_path: Path) -> None:
    db = tmp_path / "lab.db"
    # Four moves of plain checkers end no game by the rules: the max_moves cap draws them all.
    options = {"chaos": "false", "max_moves": "4"}
    simulate("chaos-checkers", ["random", "random"], 4, LabSettings(db=db, options=options))
    console = Console(record=True, width=150)
    (summary,) = report(db, console=console).summaries
    assert summary.endings == {"cap": 4} and summary.by_agent == {} and summary.draws == 0
    text = console.export_text()
    assert "ended by the game's length cap (an option, not a rule)" in text and "4 (100.0%)" in text


def test_the_strength_database_written_before_endings_were_stored_still_reports(tmp_path: Path) -> None:
    import shutil

    # docs/results/strength.db as it was before the lab stored endings (the file itself has
    # grown since, in the lab's newer shape): kept here so the old shape stays tested.
    db = tmp_path / "strength.db"
    shutil.copy(Path(__file__).parent / "data" / "strength-before-endings.db", db)
    summaries = report(db, console=Console(record=True, width=150)).summaries
    assert sum(s.games for s in summaries) == 100
    for summary in summaries:
        # Games that ran to their max_rounds are read as ended by the cap, apart from the win rates.
        cap = summary.options.get("max_rounds") or 0
        assert summary.endings["cap"] == sum(1 for r in summary.rounds if cap and r >= cap)
        assert sum(rate.games for rate in summary.by_seat.values()) == summary.finished * summary.players
