"""The figures of a lab database, per variant (see `sim.variants`).

Games are grouped by variant (game and options, named by label or hash). Only games the rulebook ended
count in win rates, draws and comebacks: a game that a length cap decided (the game's own
cap option, or the lab's action cap) is counted apart, by how it ended.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from chaosgames.agents import from_spec, levels
from chaosgames.core import ChaosGamesError
from chaosgames.sim.endings import LAB_CAP, LENGTH_CAP, RULEBOOK_END
from chaosgames.sim.jobs import is_reroll, job_key
from chaosgames.sim.stats import wilson
from chaosgames.sim.storage import ENDED_BY_CAP, ENDED_BY_RULES, STOPPED_BY_LAB, GameRow
from chaosgames.sim.variants import VariantName, variant_key

ENDINGS = {
    ENDED_BY_RULES: "by the rulebook",
    ENDED_BY_CAP: "by the game's length cap (an option, not a rule)",
    STOPPED_BY_LAB: "stopped by the lab's action cap (no result)",
}


@dataclass
class Rate:
    """A win rate: shares of wins over seat-games, with its Wilson 95% interval."""

    wins: float = 0.0
    games: int = 0

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)


def finish_of(row: GameRow) -> str:
    """How a game ended in the rulebook's words (a row stored before they were kept: by kind)."""
    if row.finish:
        return row.finish
    return {ENDED_BY_RULES: RULEBOOK_END, ENDED_BY_CAP: LENGTH_CAP}.get(row.ended_by or "", LAB_CAP)


@dataclass
class Summary:
    """The figures of one variant (a game with one complete set of options)."""

    game: str
    options: dict[str, Any]
    players: int
    key: str = ""
    label: str | None = None
    games: int = 0
    endings: Counter[str] = field(default_factory=Counter)
    finishes: Counter[str] = field(default_factory=Counter)
    """How the games ended in the rulebook's words (`race won`, `last car left (elimination)`)."""
    draws: int = 0
    by_agent: dict[str, Rate] = field(default_factory=dict)
    by_seat: dict[int, Rate] = field(default_factory=dict)
    rounds: list[int] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    decisions: list[int] = field(default_factory=list)
    branching: list[float] = field(default_factory=list)
    lead_changes: list[int] = field(default_factory=list)
    comebacks: int = 0
    comeback_chances: int = 0
    """Games ended by the rulebook with a single winner and a half-time leader."""
    feel: list[dict[str, Any]] = field(default_factory=list)
    """Each game's `feel` (games stored before it was kept have none)."""
    rows: list[GameRow] = field(default_factory=list, repr=False)
    chance_pairs: int = 0
    chance_changed: int = 0
    """Rerolled replays whose original and replay both ended by the rulebook, and how many
    of them another player won."""
    chance_same: int = 0
    """Of those, replays that played their original over move for move (`same_game`): all of
    them, and the variant has no chance for other dice to change."""
    skill: dict[str, Rate] = field(default_factory=dict)
    """The hard level's win rate in games of hard in one seat against easy in the others."""
    by_lineup: dict[tuple[str, ...], Counter[str]] = field(default_factory=dict)
    """How games ended under each lineup of one agent in every seat (greedy x4, mcts x4)."""

    @property
    def fair_share(self) -> float:
        return 1.0 / self.players

    @property
    def finished(self) -> int:
        """Games the rulebook ended: the ones win rates are taken over."""
        return self.endings[ENDED_BY_RULES]

    @property
    def capped(self) -> int:
        """Games a cap decided or stopped (the game's own option or the lab's): no rulebook result."""
        return self.games - self.finished

    @property
    def comeback_rate(self) -> float:
        return self.comebacks / self.comeback_chances if self.comeback_chances else 0.0

    @property
    def variant(self) -> VariantName:
        return VariantName(
            self.game, self.options, self.key or variant_key(self.game, self.options), self.label
        )

    @property
    def name(self) -> str:
        return self.variant.name

    @property
    def title(self) -> str:
        """The variant's name and what differs from the standard game, never its raw options."""
        return self.variant.title

    def add(self, row: GameRow) -> None:
        self.games += 1
        self.rows.append(row)
        self.endings[row.ended_by or STOPPED_BY_LAB] += 1
        self.finishes[finish_of(row)] += 1
        self.rounds.append(row.rounds)
        self.actions.append(row.actions)
        self.lead_changes.append(row.lead_changes)
        if row.decisions is not None:
            self.decisions.append(row.decisions)
        if row.branching is not None:
            self.branching.append(row.branching)
        if row.feel is not None:
            self.feel.append(row.feel)
        if len(set(row.lineup)) == 1:
            self.by_lineup.setdefault(tuple(row.lineup), Counter())[finish_of(row)] += 1
        if not row.ended_by_rules or row.returns is None:
            return
        if row.winner is None:
            self.draws += 1
        elif row.leader_at_half is not None:
            self.comeback_chances += 1
            self.comebacks += row.winner != row.leader_at_half
        for seat, (agent, share) in enumerate(zip(row.seats, row.returns, strict=True)):
            for rate in (self.by_agent.setdefault(agent, Rate()), self.by_seat.setdefault(seat, Rate())):
                rate.wins += share
                rate.games += 1


def _skill_lineup(game: str, players: int) -> tuple[str, ...] | None:
    """The lineup of the luck-against-skill games: hard in one seat, easy in the others."""
    try:
        named = levels(game)
        hard, easy = from_spec(named["hard"], game=game).spec, from_spec(named["easy"], game=game).spec
    except ChaosGamesError:
        return None
    return (hard,) + (easy,) * (players - 1)


def summarise(
    rows: Sequence[GameRow],
    labels: Mapping[str, str] | None = None,
    jobs: Mapping[str, tuple[int, list[str], int]] | None = None,
) -> list[Summary]:
    """One summary per variant, in the order first met.

    With `jobs` (`LabStore.jobs()`), rerolled replays are told apart: they are left out of the
    figures and paired with their originals for the chance share; games of hard in one seat
    against easy in the others give the skill figure, and count in the figures only where
    the variant has no other games."""
    labels = labels or {}
    groups: dict[str, Summary] = {}
    kinds: dict[str, list[GameRow]] = {}
    rerolls: list[tuple[GameRow, str]] = []
    skill_rows: dict[str, list[GameRow]] = {}
    by_job: dict[tuple[str, int], GameRow] = {}
    for row in rows:
        key = variant_key(row.game, row.options)
        if key not in groups:
            groups[key] = Summary(row.game, row.options, len(row.seats), key, labels.get(key))
            kinds[key] = []
        job = jobs.get(row.job) if jobs is not None else None
        if job is not None and is_reroll(row, job[0]):
            rerolls.append((row, job_key(row.game, row.options, row.lineup, job[0], job[2])))
            continue
        by_job[(row.job, row.idx)] = row
        if jobs is not None and tuple(row.lineup) == _skill_lineup(row.game, len(row.seats)):
            skill_rows.setdefault(key, []).append(row)
            continue
        kinds[key].append(row)
    for key, summary in groups.items():
        for row in kinds[key] or skill_rows.get(key, []):
            summary.add(row)
        for row in skill_rows.get(key, []):
            if row.ended_by_rules and row.returns is not None:
                rate = summary.skill.setdefault(row.lineup[0], Rate())
                rate.wins += sum(s for a, s in zip(row.seats, row.returns, strict=True) if a == row.lineup[0])
                rate.games += 1
    for replay, original_job in rerolls:
        original = by_job.get((original_job, replay.idx))
        if original is None or not (original.ended_by_rules and replay.ended_by_rules):
            continue
        summary = groups[variant_key(replay.game, replay.options)]
        summary.chance_pairs += 1
        summary.chance_changed += original.winner != replay.winner
        summary.chance_same += same_game(original) == same_game(replay)
    return [s for s in groups.values() if s.games]


def same_game(row: GameRow) -> tuple[object, ...]:
    """What a stored game shows of its play: two games alike in all of it (the digest of their
    first 40 actions, chance outcomes included, their length, result and seats) were played
    move for move alike, as far as the lab can tell without their records. A variant without
    chance, played by agents that do not draw on their seeds, plays one game over and over."""
    returns = tuple(row.returns) if row.returns is not None else None
    return (row.opening, row.actions, row.decisions, row.rounds, row.winner, returns, tuple(row.seats))


def distinct_games(rows: Sequence[GameRow]) -> list[GameRow]:
    """`rows` with each game played move for move alike kept once (the first); rows without
    an opening digest are all kept (they cannot be told apart). Alike games are still fair
    draws of what the players do (short games with dice repeat by chance): this tells only
    whether a variant's games were all one game (`claims.one_game_note`)."""
    seen: set[tuple[object, ...]] = set()
    out = []
    for row in rows:
        mark = same_game(row)
        if row.opening is not None and mark in seen:
            continue
        seen.add(mark)
        out.append(row)
    return out
