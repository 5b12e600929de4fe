"""The lab's benchmark scripts run (tiny budgets, toy games; no figures are asserted)."""

from __future__ import annotations

from pathlib import Path

import pytest
from benchmarks import lab_speed, strength

from chaosgames.sim import GameRow

pytestmark = pytest.mark.usefixtures("toy_games")


def test_strength_benchmark_reports_mcts_against_greedy(tmp_path: Path) -> None:
    results = strength.measure(["toy-dice-race", "toy-nim"], "mcts:iterations=30", 4, tmp_path / "s.db")
    assert set(results) == {"toy-dice-race", "toy-nim"}
    race = results["toy-dice-race"]
    assert race["games"] == 4 and race["players"] == 2 and race["fair_share"] == 0.5
    low, high = race["interval95"]
    assert 0.0 <= low <= race["win_rate"] <= high <= 1.0


def test_strength_at_another_number_of_players_is_a_row_of_its_own(tmp_path: Path) -> None:
    results = strength.measure(["toy-dice-race"], "mcts:iterations=10", 3, tmp_path / "s.db", players=3)
    race = results["toy-dice-race@3p"]
    assert race["game"] == "toy-dice-race" and race["players"] == 3 and race["games"] == 3
    rows = {
        "toy-dice-race": {**race, "players": 2, "command": "a"},
        "toy-dice-race@3p": {**race, "command": "b"},
    }
    table = strength.markdown(rows)
    assert "- toy-dice-race (3 players): `b`" in table and "- toy-dice-race: `a`" in table
    assert table.count("| toy-dice-race | 3 |") == 1


def test_lab_speed_benchmark_measures_search_and_workers() -> None:
    results = lab_speed.run(True, games=["toy-nim"])
    figures = results["toy-nim"]
    assert figures["mcts_iterations_per_second"] > 0
    assert figures["lab_games_per_second_1_worker"] > 0 and figures["lab_games_per_second_2_workers"] > 0
    assert figures["machine_speedup_2_processes"] > 0 and figures["lab_efficiency"] > 0


def test_games_that_ran_to_their_round_cap_are_counted_apart() -> None:
    def row(rounds: int, ended_by: str) -> GameRow:
        return GameRow(
            "job",
            0,
            "toy",
            {},
            ["a", "b"],
            ["a", "b"],
            0,
            1,
            0,
            "a",
            [1.0, 0.0],
            rounds,
            9,
            0,
            0,
            ended_by == "lab",
            None,
            ended_by,
        )

    rows = [row(200, "cap"), row(143, "rules"), row(30, "rules"), row(30, "lab")]
    assert strength.at_round_cap(rows) == 1
    table = strength.markdown(
        {
            "toy": {
                "players": 4,
                "games": 3,
                "capped": 0,
                "at_round_cap": 1,
                "win_rate": 0.5,
                "interval95": [0.3, 0.7],
                "fair_share": 0.25,
                "clearly_above_fair_share": True,
                "mean_rounds": 124.3,
                "command": "strength.py",
                "mcts": "mcts",
                "opponent": "greedy",
            }
        }
    )
    assert "| toy | 4 | 3 | 0 | 1 | 50.0% | 30.0-70.0% | 25.0% | yes | 124.3 |" in table


def test_soak_checks_every_action_and_counts_broken_promises(monkeypatch: pytest.MonkeyPatch) -> None:
    from benchmarks import soak

    from tests.toy_games import NimState

    figures = soak.soak("toy-nim", 60)
    assert figures["actions_checked"] == 60 and figures["failures"] == 0
    # A clone that is not independent is caught, counted, and play goes on.
    monkeypatch.setattr(NimState, "clone", lambda self: self)
    figures = soak.soak("toy-nim", 30)
    assert figures["failures"] >= 1 and "clone" in figures["first_failures"][0]
