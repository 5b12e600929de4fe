"""One game between agents: every action recorded, chance sampled with a seeded RNG.

`play_match` is the lab's unit of work. Besides the record it measures how the game
went, with the game's own heuristic (`Game.heuristic`) as the judge of who is ahead:
the leader is sampled at the start of every round (or every few decisions in a game
that has no rounds), which gives the number of lead changes and the leader at half
time (the last sample taken in the first half of the game's actions).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from chaosgames.agents import Agent
from chaosgames.core import CHANCE, Game, GameRecord, State
from chaosgames.core.chance import sample_outcome
from chaosgames.sim.storage import STOPPED_BY_LAB

DEFAULT_MAX_ACTIONS = 20_000
"""A game still running after this many actions (chance outcomes included) is capped."""

# Two players whose heuristic values differ by less than this are level: no one leads.
LEAD_MARGIN = 1e-9


@dataclass(frozen=True)
class MatchResult:
    """What the lab measured of one game besides its record."""

    returns: list[float] | None
    winner: int | None
    rounds: int
    actions: int
    lead_changes: int
    leader_at_half: int | None
    capped: bool
    """Stopped by the lab's `max_actions`: not finished, no result."""
    ended_by: str | None = None
    """How a finished game ended (`State.ended_by()`): "rules", or "cap" when the game's
    own length cap (an option, not a rule) decided it; None when the lab stopped it."""
    decisions: int = 0
    """Actions chosen by players (chance outcomes left out)."""
    choices: int = 0
    """Legal actions summed over the decisions (choices / decisions: the branching factor)."""
    leaders: list[tuple[int, int | None]] = field(default_factory=list)
    """(actions played, leader) at every sample, for analysis."""

    @property
    def ending(self) -> str:
        """ "rules", "cap" (the game's own cap option) or "lab" (the lab's action cap)."""
        return self.ended_by or STOPPED_BY_LAB


@dataclass(frozen=True)
class PlayedMatch:
    """A game played by `play_match`: its record, what was measured, the final state."""

    record: GameRecord
    result: MatchResult
    state: State


def leader_of(values: Sequence[float]) -> int | None:
    """The player with the highest value, or None when two or more are level at the top."""
    best = max(values)
    top = [i for i, v in enumerate(values) if v > best - LEAD_MARGIN]
    return top[0] if len(top) == 1 else None


def winner_of(returns: Sequence[float]) -> int | None:
    """The single player with the best return, or None for a shared result."""
    return leader_of(returns)


def play_match(
    game: Game,
    agents: Sequence[Agent],
    seed: int,
    *,
    players: Sequence[str] | None = None,
    max_actions: int = DEFAULT_MAX_ACTIONS,
    on_action: Callable[[State, Any], None] | None = None,
    state: State | None = None,
) -> PlayedMatch:
    """Play one game: `agents[p]` decides for player p; chance outcomes come from `seed`.

    Every agent is reset first and told every action (`Agent.observe`). The record holds
    every action including chance outcomes; the result holds what was measured (returns
    None and capped True when `max_actions` ran out). `state` starts the game from a
    position of the game instead of its initial state (the record then replays only
    from that position, so it is kept for analysis, not saved).
    """
    if len(agents) != game.num_players:
        raise ValueError(f"{game.name} needs {game.num_players} agents, got {len(agents)}.")
    labels = list(players) if players is not None else [a.spec for a in agents]
    record = GameRecord.start(game, labels, seed=seed)
    rng = random.Random(seed)
    for agent in agents:
        agent.reset()
    state = game.new_initial_state() if state is None else state.clone()
    tracker = _LeadTracker(game)
    played = 0
    while not state.is_terminal() and played < max_actions:
        player = state.current_player()
        if player == CHANCE:
            action = sample_outcome(state.chance_outcomes(), rng)
        else:
            tracker.sample(state, played)
            tracker.choices += len(state.legal_actions())
            action = agents[player].choose(state)
        for agent in agents:
            agent.observe(state, action)
        if on_action is not None:
            on_action(state, action)
        state.apply_action(action)
        record.append(action)
        played += 1
    record.finish(state)
    return PlayedMatch(record, tracker.result(state, played), state)


class _LeadTracker:
    """Samples the heuristic leader once per round (or every few decisions without rounds)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.samples: list[tuple[int, int | None]] = []
        self.last_round = -1
        self.decisions = 0
        self.choices = 0

    def sample(self, state: State, played: int) -> None:
        self.decisions += 1
        round_number = state.round_number()
        if round_number > 0:
            if round_number == self.last_round:
                return
            self.last_round = round_number
        elif (self.decisions - 1) % self.game.num_players:
            return
        self.samples.append((played, leader_of(self.game.heuristic(state))))

    def result(self, state: State, played: int) -> MatchResult:
        capped = not state.is_terminal()
        returns = None if capped else list(state.returns())
        changes = 0
        previous: int | None = None
        for _, leader in self.samples:
            if leader is None:
                continue
            if previous is not None and leader != previous:
                changes += 1
            previous = leader
        at_half: int | None = None
        for at, leader in self.samples:
            if at * 2 > played:
                break
            at_half = leader
        return MatchResult(
            returns=returns,
            winner=None if returns is None else winner_of(returns),
            rounds=max(state.round_number(), self.last_round, 0),
            actions=played,
            lead_changes=changes,
            leader_at_half=at_half,
            capped=capped,
            ended_by=state.ended_by(),
            decisions=self.decisions,
            choices=self.choices,
            leaders=self.samples,
        )
