"""benchmarks/paired.py: a screen plays both players on the same games and counts the
games that only one of them won."""

from __future__ import annotations

import pytest
from benchmarks import paired
from benchmarks.paired import Outcome

import chaosgames
from chaosgames import agents
from chaosgames.sim import play_match

pytestmark = pytest.mark.usefixtures("toy_games")


def test_game_k_is_the_same_game_whoever_plays_it() -> None:
    # The screened seat rotates with the game number, and the deal, the dice and every
    # agent's seed come from the screen's seed and the game number alone.
    for number in range(4):
        first = paired.play_one("toy-dice-race", 3, "greedy", "random", 7, number)
        again = paired.play_one("toy-dice-race", 3, "greedy", "random", 7, number)
        assert first == again
        assert first.seat == number % 3
        game = chaosgames.load_game("toy-dice-race", players=3)
        seats = [
            agents.from_spec("greedy" if p == number % 3 else "random", seed=paired.agent_seed(7, number, p))
            for p in range(3)
        ]
        played = play_match(game, seats, paired.match_seed(7, number)).result
        assert played.returns is not None
        assert first.score == played.returns[number % 3]
        assert first.rounds == played.rounds


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
