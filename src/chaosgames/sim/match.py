"""One game between agents: every action recorded, chance sampled with a seeded RNG.

`play_match` is the lab's unit of work. Besides the record it measures how the game
went, with the game's own heuristic (`Game.heuristic`) as the judge of who is ahead:
the leader is sampled at the start of every round (or every few decisions in a game
that has no rounds), which gives the number of lead changes and the leader at half
time (the last sample taken in the first half of the game's actions).
"""

from __future__ import annotations

import itertools
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

SENSIBLE_MARGIN = 0.1
"""A choice is sensible when the game's heuristic rates the position it leads to (for the
deciding player, one move ahead) within this share of the spread between the best and the
worst choice of the best: a decision with two or more sensible choices is a real decision;
one with a single sensible choice is an obvious one, and one whose choices all rate the same
does not matter (by the heuristic)."""

CURVE_PARTS = 10
"""The branching factor over time is given for each tenth of a game's decisions."""


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
    feel: dict[str, Any] = field(default_factory=dict)
    """How the game felt (see `feel_of`): drama, when the winner was clear, real decisions,
    the branching factor over time, the share of the state hidden from the deciding seat."""

    @property
    def ending(self) -> str:
        """ "rules", "cap" (the game's own cap option) or "lab" (the lab's action cap)."""
        return self.ended_by or STOPPED_BY_LAB


@dataclass(frozen=True)
class PlayedMatch:
    """A game played by `play_match`: its record, what was measured, the final state."""

    record: GameRecord
    result: MatchResult
    state: State[Any]


def leader_of(values: Sequence[float]) -> int | None:
    """The player with the highest value, or None when two or more are level at the top."""
    best = max(values)
    top = [i for i, v in enumerate(values) if v > best - LEAD_MARGIN]
    return top[0] if len(top) == 1 else None


def winner_of(returns: Sequence[float]) -> int | None:
    """The single player with the best return, or None for a shared result."""
    return leader_of(returns)


def play_match(
    game: Game[Any, Any],
    agents: Sequence[Agent],
    seed: int,
    *,
    players: Sequence[str] | None = None,
    max_actions: int = DEFAULT_MAX_ACTIONS,
    on_action: Callable[[State[Any], Any], None] | None = None,
    state: State[Any] | None = None,
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

    def __init__(self, game: Game[Any, Any], judge: bool = True) -> None:
        self.game = game
        self.judge = judge
        """Whether decisions are judged (real or obvious) and the hidden share measured;
        the leader alone is cheap enough for a finished game's story (`lead_samples`)."""
        self.samples: list[tuple[int, int | None]] = []
        self.values: list[list[float]] = []
        self.last_round = -1
        self.decisions = 0
        self.choices = 0
        self.branching: list[int] = []
        self.real = 0
        self.judged = 0
        self.hidden: list[float] = []
        self.hides = game.hides_information()

    def sample(self, state: State[Any], played: int) -> None:
        self.decisions += 1
        legal = state.legal_actions()
        self.choices += len(legal)
        self.branching.append(len(legal))
        if self.judge and (self.decisions - 1) % self.game.num_players == 0:  # every n-th is judged
            self.judged += 1
            self.real += real_decision(self.game, state, legal)
        round_number = state.round_number()
        if round_number > 0:
            if round_number == self.last_round:
                return
            self.last_round = round_number
        elif (self.decisions - 1) % self.game.num_players:
            return
        values = list(self.game.heuristic(state))
        self.samples.append((played, leader_of(values)))
        self.values.append(values)
        if self.hides and self.judge:
            self.hidden.append(hidden_share(state))

    def result(self, state: State[Any], played: int) -> MatchResult:
        capped = not state.is_terminal()
        returns = None if capped else list(state.returns())
        changes = lead_changes(self.samples)
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
            feel=self.feel(returns, played),
        )

    def feel(self, returns: list[float] | None, played: int) -> dict[str, Any]:
        winner = None if returns is None else winner_of(returns)
        drama = decided = None
        if winner is not None and self.values:
            drama = sum(max(v) - v[winner] for v in self.values) / len(self.values)
            decided = decided_at(self.samples, winner, played)
        return {
            "drama": _rounded(drama),
            "decided_at": _rounded(decided),
            "real": self.real,
            "judged": self.judged,
            "branching_curve": [_rounded(v) for v in curve(self.branching)],
            "hidden": _rounded(sum(self.hidden) / len(self.hidden)) if self.hidden else None,
        }


def lead_changes(samples: Sequence[tuple[int, int | None]]) -> int:
    """How often the heuristic's leader changed between samples (levels left out)."""
    changes = 0
    previous: int | None = None
    for _, leader in samples:
        if leader is None:
            continue
        if previous is not None and leader != previous:
            changes += 1
        previous = leader
    return changes


def lead_samples(
    game: Game[Any, Any], state: State[Any], actions: Sequence[str]
) -> list[tuple[int, int | None]]:
    """(actions played, leader) sampled as `play_match` samples them, over a game's actions
    in notation from `state` (changed in place): the lead changes and turning point of a
    game played elsewhere (the web app's game-over panel)."""
    tracker = _LeadTracker(game, judge=False)
    for played, text in enumerate(actions):
        if state.current_player() >= 0:
            tracker.sample(state, played)
        state.apply_action(game.parse_action(state, text))
    return tracker.samples


def _rounded(value: float | None) -> float | None:
    # Six decimals: the stored figures are the same on every machine, and replay the same.
    return None if value is None else round(value, 6)


def decided_at(samples: Sequence[tuple[int, int | None]], winner: int, played: int) -> float:
    """How early the winner was clear: the share of the game's actions played when the
    heuristic last took the lead to the winner for good (0: the winner led from the first
    sample on; 1: the winner never led before the end)."""
    clear = played
    for at, leader in reversed(samples):
        if leader != winner:
            break
        clear = at
    return clear / played if played else 0.0


def curve(branching: Sequence[int], parts: int = CURVE_PARTS) -> list[float]:
    """The mean number of legal actions in each of `parts` equal stretches of the decisions
    (fewer stretches in a game of fewer decisions)."""
    n = len(branching)
    if not n:
        return []
    parts = min(parts, n)
    bounds = [round(i * n / parts) for i in range(parts + 1)]
    return [sum(branching[a:b]) / (b - a) for a, b in itertools.pairwise(bounds)]


def real_decision(game: Game[Any, Any], state: State[Any], legal: Sequence[Any]) -> bool:
    """Whether the decision offers two or more sensible choices (see `SENSIBLE_MARGIN`)."""
    if len(legal) < 2:
        return False
    player = state.current_player()
    values = []
    for action in legal:
        child = state.clone()
        child.apply_unchecked(action)
        values.append(game.heuristic(child)[player])
    best, worst = max(values), min(values)
    if best - worst <= LEAD_MARGIN:
        return False
    return sum(1 for v in values if v >= best - SENSIBLE_MARGIN * (best - worst)) >= 2


def hidden_share(state: State[Any]) -> float:
    """The share of the state document's values that the deciding seat's view leaves out or
    hides (the game's name and options, which every seat knows, left out)."""
    full = dict(_leaves(state.to_json()))
    for known in ("game", "options"):
        full = {k: v for k, v in full.items() if k[0] != known}
    seen = dict(_leaves(state.observation(state.current_player())))
    hidden = sum(1 for path, value in full.items() if value is not None and seen.get(path) != value)
    return hidden / len(full) if full else 0.0


def _leaves(doc: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    if isinstance(doc, dict):
        return [leaf for key, value in doc.items() for leaf in _leaves(value, (*path, key))]
    if isinstance(doc, list):
        return [leaf for i, value in enumerate(doc) for leaf in _leaves(value, (*path, i))]
    return [(path, doc)]
