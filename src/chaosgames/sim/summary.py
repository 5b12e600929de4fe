"""The figures of a lab database: per configuration, and two option sets compared.

Games are grouped by configuration (game and options). Only games the rulebook ended
count in win rates, draws and comebacks: a game that a length cap decided (the game's own
cap option, or the lab's action cap) is counted apart, by how it ended.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from chaosgames.core.errors import quote, shorten
from chaosgames.sim.stats import Comparison, two_means, two_proportions, wilson
from chaosgames.sim.storage import ENDED_BY_CAP, ENDED_BY_RULES, STOPPED_BY_LAB, GameRow, LabError

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


@dataclass
class Summary:
    """The figures of one configuration (a game with one set of options)."""

    game: str
    options: dict[str, Any]
    players: int
    games: int = 0
    endings: Counter[str] = field(default_factory=Counter)
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
    def title(self) -> str:
        return f"{self.game} {json.dumps(self.options, sort_keys=True)}"

    def add(self, row: GameRow) -> None:
        self.games += 1
        self.endings[row.ended_by or STOPPED_BY_LAB] += 1
        self.rounds.append(row.rounds)
        self.actions.append(row.actions)
        self.lead_changes.append(row.lead_changes)
        if row.decisions is not None:
            self.decisions.append(row.decisions)
        if row.branching is not None:
            self.branching.append(row.branching)
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


def summarise(rows: Sequence[GameRow]) -> list[Summary]:
    """One summary per configuration, in the order first met."""
    groups: dict[str, Summary] = {}
    for row in rows:
        key = json.dumps([row.game, row.options], sort_keys=True)
        summary = groups.get(key)
        if summary is None:
            summary = groups[key] = Summary(row.game, row.options, len(row.seats))
        summary.add(row)
    return list(groups.values())


# -- comparisons ---------------------------------------------------------------------------


def parse_selection(text: str) -> dict[str, str]:
    """'players=3,goal=20' -> {'players': '3', 'goal': '20'}."""
    selection: dict[str, str] = {}
    for item in text.split(","):
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise LabError(
                f"Cannot read {quote(item.strip())} in --compare {quote(text)}: write option=value, "
                "several separated by commas (e.g. --compare players=3 --compare players=4)."
            )
        selection[key.strip()] = value.strip()
    return selection


def _matches(options: Mapping[str, Any], selection: Mapping[str, str]) -> bool:
    for key, wanted in selection.items():
        value = options.get(key)
        text = value if isinstance(value, str) else json.dumps(value)
        if text.casefold() != wanted.casefold():
            return False
    return True


@dataclass
class CompareLine:
    metric: str
    comparison: Comparison
    percent: bool


@dataclass
class CompareResult:
    labels: tuple[str, str]
    sizes: tuple[int, int]
    lines: list[CompareLine]


def compare(rows: Sequence[GameRow], selections: Sequence[Mapping[str, str]]) -> CompareResult:
    """Two option selections side by side; each difference tested at the 5% level."""
    if len(selections) != 2:
        raise LabError(
            "--compare takes exactly two option sets, e.g. --compare players=3 --compare players=4."
        )
    known = {key for row in rows for key in row.options}
    for selection in selections:
        unknown = sorted(set(selection) - known)
        if unknown:
            raise LabError(
                f"No stored game has option {shorten(', '.join(unknown))}; "
                f"the options are {shorten(', '.join(sorted(known)))}."
            )
    chosen = [[r for r in rows if _matches(r.options, s)] for s in selections]
    labels = tuple(",".join(f"{k}={v}" for k, v in s.items()) for s in selections)
    for label, group in zip(labels, chosen, strict=True):
        if not group:
            raise LabError(f"No stored game matches {shorten(label)}.")
        if len({r.game for r in group}) > 1:
            raise LabError(f"Games of several kinds match {shorten(label)}; add --game to pick one.")
    a, b = (_pooled(group) for group in chosen)
    lines: list[CompareLine] = []
    for agent in sorted(set(a.by_agent) | set(b.by_agent)):
        ra, rb = a.by_agent.get(agent, Rate()), b.by_agent.get(agent, Rate())
        lines.append(
            CompareLine(f"win rate of {agent}", two_proportions(ra.wins, ra.games, rb.wins, rb.games), True)
        )
    for seat in sorted(set(a.by_seat) | set(b.by_seat)):
        ra, rb = a.by_seat.get(seat, Rate()), b.by_seat.get(seat, Rate())
        label = f"win rate of seat {seat + 1}"
        lines.append(CompareLine(label, two_proportions(ra.wins, ra.games, rb.wins, rb.games), True))
    lines.append(CompareLine("draws", two_proportions(a.draws, a.finished, b.draws, b.finished), True))
    lines.append(CompareLine("capped games", two_proportions(a.capped, a.games, b.capped, b.games), True))
    lines.append(
        CompareLine(
            "comebacks",
            two_proportions(a.comebacks, a.comeback_chances, b.comebacks, b.comeback_chances),
            True,
        )
    )
    lines.append(CompareLine("rounds per game", two_means(a.rounds, b.rounds), False))
    lines.append(CompareLine("actions per game", two_means(a.actions, b.actions), False))
    lines.append(CompareLine("lead changes", two_means(a.lead_changes, b.lead_changes), False))
    return CompareResult((labels[0], labels[1]), (a.games, b.games), lines)


def _pooled(rows: Sequence[GameRow]) -> Summary:
    summary = Summary(rows[0].game, {}, len(rows[0].seats))
    for row in rows:
        summary.add(row)
    return summary
