"""A Royal Racers campaign played by the lab: every race scored, the standing read from the end."""

from __future__ import annotations

import pytest

import chaosgames
from chaosgames import agents
from chaosgames.games.royal_racers.campaign import campaign_result
from chaosgames.games.royal_racers.state import RoyalRacersState
from chaosgames.sim import play_match


def test_the_lab_plays_every_race_of_a_campaign_and_the_standing_sums_the_coins() -> None:
    game = chaosgames.load_game("royal-racers", players=3, races=3, max_rounds=3)
    seats = [agents.make("random", seed=p) for p in range(3)]
    played = play_match(game, seats, seed=5)
    assert isinstance(played.state, RoyalRacersState)
    result = campaign_result(played.state, played.record)
    assert len(result.coins) == 3 and len(result.race_winners) == 3
    assert result.totals == [sum(race[p] for race in result.coins) for p in range(3)]
    assert max(result.totals) == result.totals[result.winners[0]]
    assert result.returns == played.result.returns
    assert sum(result.returns) == pytest.approx(1.0)
    # The record replays to the same campaign.
    replayed = played.record.replay()
    assert isinstance(replayed, RoyalRacersState) and replayed.coins == result.coins


def test_a_campaign_stopped_by_the_round_cap_is_ended_by_the_cap() -> None:
    game = chaosgames.load_game("royal-racers", players=2, races=2, max_rounds=1)
    played = play_match(game, [agents.make("random", seed=1), agents.make("random", seed=2)], seed=1)
    assert isinstance(played.state, RoyalRacersState)
    result = campaign_result(played.state, played.record)
    # One round is too short to touch every flag: both races were stopped by the cap.
    assert result.race_winners == [-1, -1]
    assert played.result.ended_by == "cap" and not played.result.capped
