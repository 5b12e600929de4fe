"""The Campaign Variant as a match in the API: several races, coins for flags touched.

One state plays the whole campaign when the game is loaded with `races=N` (so the CLI
gets it with `--option races=N`); this module adds the bookkeeping a caller wants:

    from chaosgames.games.royal_racers.campaign import play_campaign
    result = play_campaign(races=3, players=4, policies=[...], seed=7)
    result.coins          # one list per race: flags each player touched
    result.totals, result.winners, result.returns

A policy is any callable `policy(state) -> action` (an agent's `step`, a human prompt,
`random.choice` over legal actions ...).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from chaosgames.core.chance import sample_outcome
from chaosgames.core.constants import CHANCE
from chaosgames.core.game import Action
from chaosgames.core.records import GameRecord
from chaosgames.games.royal_racers.game import RoyalRacersGame
from chaosgames.games.royal_racers.state import RoyalRacersState

Policy = Callable[[RoyalRacersState], Action]


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


def random_policy(rng: random.Random) -> Policy:
    def choose(state: RoyalRacersState) -> Action:
        return rng.choice(state.legal_actions())

    return choose


def play_campaign(
    races: int,
    policies: Sequence[Policy] | None = None,
    seed: int = 0,
    players: int = 4,
    **options: Any,
) -> CampaignResult:
    """Play a whole campaign of `races` races; chance is drawn from `random.Random(seed)`.

    Without policies every seat plays uniformly at random (from the same seed).
    """
    game = RoyalRacersGame(players=players, races=races, **options)
    rng = random.Random(seed)
    seats = list(policies) if policies is not None else [random_policy(rng)] * players
    if len(seats) != players:
        raise ValueError(f"play_campaign needs one policy per player ({players}), got {len(seats)}.")
    state = game.new_initial_state()
    record = GameRecord.start(game, game.player_names(), seed=seed)
    while not state.is_terminal():
        player = state.current_player()
        action = sample_outcome(state.chance_outcomes(), rng) if player == CHANCE else seats[player](state)
        state.apply_action(action)
        record.append(action)
    record.finish(state)
    return campaign_result(state, record)
