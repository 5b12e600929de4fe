"""benchmarks/paired.py: a screen plays both players on the same games and counts the
games that only one of them won."""

from __future__ import annotations

from pathlib import Path

import pytest
from benchmarks import paired
from benchmarks.caps import capped_options
from benchmarks.paired import Outcome

from chaosgames.sim import LabSettings, LabStore, simulate

pytestmark = pytest.mark.usefixtures("toy_games")


def test_game_k_is_game_k_of_the_lab_run_with_the_same_seed(tmp_path: Path) -> None:
    # strength.py plays `simulate` with the screened player first in the lineup and the
    # benchmarks' caps: a screen's game k is that run's game k (the same deal, dice, seat
    # and agent seeds), so a screen can be checked against a stored run.
    db = tmp_path / "lab.db"
    lineup = ["greedy", "random", "random"]
    simulate(
        "toy-dice-race",
        lineup,
        6,
        LabSettings(db=db, seed=7, options=capped_options("toy-dice-race", players=3)),
    )
    with LabStore(db) as store:
        stored = store.rows()
    assert [row.idx for row in stored] == list(range(6))
    for row in stored:
        screened = paired.play_one("toy-dice-race", 3, "greedy", "random", 7, row.idx)
        assert row.returns is not None
        assert screened.seat == row.seats.index("greedy")
        assert screened.score == row.returns[screened.seat]
        assert screened.rounds == row.rounds
        assert not screened.capped
    # The screened player sits in every seat in turn.
    assert [paired.play_one("toy-dice-race", 3, "greedy", "random", 7, n).seat for n in range(3)] == [0, 2, 1]


def test_a_race_ended_by_the_length_cap_is_no_result(monkeypatch: pytest.MonkeyPatch) -> None:
    # max_rounds is an option, not a rule: a race it stops is left out of the sign test
    # and the totals, as a game the lab's action cap stopped is.
    monkeypatch.setattr(paired, "capped_options", lambda name, **options: {"max_rounds": 1, **options})
    stopped = paired.play_one("royal-racers", 2, "random", "random", 5, 0)
    assert stopped.capped
    finished = Outcome(number=0, seat=stopped.seat, score=1.0, rounds=30, capped=False)
    result = paired.compare([finished], [stopped])
    assert result.capped == [0]
    assert result.games == 0
    assert result.only_baseline == result.only_candidate == []


def test_a_player_screened_against_itself_wins_and_loses_the_same_games() -> None:
    same = [paired.play_one("toy-dice-race", 2, "greedy", "random", 3, n) for n in range(12)]
    again = [paired.play_one("toy-dice-race", 2, "greedy", "random", 3, n) for n in range(12)]
    result = paired.compare(same, again)
    assert result.games == 12
    assert result.baseline == result.candidate == sum(o.score for o in same)
    assert result.only_baseline == result.only_candidate == []
    assert result.p_value == 1.0


def _outcome(number: int, score: float, capped: bool = False) -> Outcome:
    return Outcome(number=number, seat=number % 2, score=score, rounds=10, capped=capped)


def test_the_sign_test_weighs_the_games_only_one_player_won() -> None:
    # Games 0-5: the candidate alone won; 6-7: both; 8: a shared win for the baseline
    # (on neither side of the test); 9: stopped by the lab for the candidate (left out).
    baseline = [_outcome(n, 0.0) for n in range(6)] + [_outcome(6, 1.0), _outcome(7, 1.0)]
    baseline += [_outcome(8, 0.5), _outcome(9, 1.0)]
    candidate = [_outcome(n, 1.0) for n in range(8)] + [_outcome(8, 0.0), _outcome(9, 0.0, capped=True)]
    result = paired.compare(baseline, candidate)
    assert result.games == 9
    assert result.baseline == 2.5
    assert result.candidate == 8.0
    assert result.only_candidate == [0, 1, 2, 3, 4, 5]
    assert result.only_baseline == []
    assert result.capped == [9]
    assert result.p_value == pytest.approx(2 * 0.5**6)  # six of six discordant games, two-sided


def test_games_in_other_seats_are_not_pairs() -> None:
    moved = Outcome(number=0, seat=1, score=1.0, rounds=10, capped=False)
    with pytest.raises(ValueError, match="same games in the same seats"):
        paired.compare([_outcome(0, 1.0)], [moved])
