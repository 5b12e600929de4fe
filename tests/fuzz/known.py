"""Findings of the fuzz suite that are known and left to the per-game restructure.

Each is a state document a game accepts although the rules cannot carry on from it (see
/work/plan/findings/<game>.md in the push that found them). `matches` recognises the
finding among fuzz results, so the general fuzz tests stay green while it is open;
`reproducer` builds a minimal document showing it, which test_fuzz.py runs with
xfail(strict=True). When a game is fixed, its reproducer passes, the strict xfail turns
red, and the entry below is removed: from then on the fuzz tests guard that case too.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import chaosgames
from tests.fuzz import harness
from tests.fuzz.harness import Finding


@dataclass(frozen=True)
class Known:
    game: str
    title: str
    matches: Callable[[Finding], bool]
    reproducer: Callable[[], tuple[chaosgames.Game, dict[str, Any]]]
    steps: int = 4
    seed: int = 0
    seconds: float = harness.DEADLINE


def corpus(name: str, phase: str | None, players: int | None = None) -> dict[str, Any]:
    """A copy of the first corpus document of `name` in `phase` (with `players`)."""
    for doc in harness.states(name):
        if doc.get("phase") == phase and (players is None or doc["options"]["players"] == players):
            return copy.deepcopy(doc)
    raise LookupError(f"the corpus has no {name} document in phase {phase!r}")


def _later(finding: Finding, error: str, *phases: str | None) -> bool:
    """An accepted document whose later step fails with `error` (in one of `phases`)."""
    return (
        finding.what == "accepted document breaks a later step"
        and finding.error.startswith(error)
        and (not phases or finding.phase in phases)
    )


def _with(doc: dict[str, Any], **changes: Any) -> tuple[chaosgames.Game, dict[str, Any]]:
    doc.update(changes)
    return harness.game_of(doc), doc


KNOWN: list[Known] = []
"""Every finding of the fuzz suite so far is fixed; a new one is listed here with its
reproducer only while its game's fix is under way."""


def tolerated(name: str, finding: Finding) -> Known | None:
    """The known finding `finding` is an instance of, if any."""
    return next((k for k in KNOWN if k.game == name and k.matches(finding)), None)
