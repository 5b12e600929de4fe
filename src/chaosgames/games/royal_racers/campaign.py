"""The Campaign Variant's standing: coins per race, totals and winners of a campaign state.

One state plays the whole campaign when the game is loaded with `races=N` (so the CLI
gets it with `--option races=N`). Games between agents are played by the lab
(`chaosgames.sim.play_match`, which returns the final state); this module reads the
standing a caller wants from that state:

    from chaosgames.sim import play_match
    played = play_match(load_game("royal-racers", players=4, races=3), agents, seed=7)
    result = campaign_result(played.state, played.record)
    result.coins          # one list per race: flags each player touched
    result.totals, result.winners, result.returns
"""

from __future__ import annotations

from dataclasses import dataclass

from chaosgames.core.records import GameRecord
from chaosgames.games.royal_racers.state import RoyalRacersState


@dataclass(frozen=True)
class CampaignResult:
    """Coins per race (flags touched), race winners (-1: stopped at max_rounds) and totals."""

    coins: list[list[int]]
    race_winners: list[int]
    totals: list[int]
    winners: list[int]
    returns: list[float]
    record: GameRecord


def campaign_result(state: RoyalRacersState, record: GameRecord | None = None) -> CampaignResult:
    """The standing of a campaign state; `winners` are the leaders (all of them on a tie)."""
    totals = state.totals()
    best = max(totals)
    winners = [p for p, t in enumerate(totals) if t == best]
    if record is None:
        record = GameRecord.start(state.game, state.game.player_names())
    return CampaignResult(
        coins=[race[:] for race in state.coins],
        race_winners=list(state.race_winners),
        totals=totals,
        winners=winners,
        returns=state.returns(),
        record=record,
    )
