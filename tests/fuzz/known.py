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


# -- Chaos Checkers --------------------------------------------------------------------------


def _plain_turn_as_a_float() -> tuple[chaosgames.Game, dict[str, Any]]:
    doc = corpus("chaos-checkers", None)
    return _with(doc, turn=float(doc["turn"]))


def _a_reward_for_a_shielded_piece() -> tuple[chaosgames.Game, dict[str, Any]]:
    doc = corpus("chaos-checkers", "draw-shield")
    shielded = [
        square + 1
        for square, piece in enumerate(doc["board"])
        if piece and piece["owner"] == doc["turn"] and piece["shield"] is not None
    ]
    doc["reward"]["square"] = next(s for s in shielded if s != doc["reward"]["square"])
    return harness.game_of(doc), doc


def _pieces_eliminated_during_setup() -> tuple[chaosgames.Game, dict[str, Any]]:
    doc = corpus("chaos-checkers", "place")
    doc["eliminated"][0] = {"red": 2}
    return harness.game_of(doc), doc


def _more_draws_than_the_bag_holds() -> tuple[chaosgames.Game, dict[str, Any]]:
    return _with(corpus("chaos-checkers", "draw-shield"), draws_left=1000)


KNOWN: list[Known] = [
    Known(
        "chaos-checkers",
        "plain checkers accepts turn 0.0",
        lambda f: _later(f, "TypeError") and "plain.py" in f.where,
        _plain_turn_as_a_float,
    ),
    Known(
        "chaos-checkers",
        "reward.square may name a piece that already has a shield",
        lambda f: _later(f, "InvalidStateError", "draw-shield", "keep-shield") and "shields" in f.error,
        _a_reward_for_a_shielded_piece,
    ),
    Known(
        "chaos-checkers",
        "setup documents may hold eliminated pieces",
        lambda f: _later(f, "InvalidStateError", "place", "shield", "potion"),
        _pieces_eliminated_during_setup,
        steps=30,
    ),
    Known(
        "chaos-checkers",
        "draws_left may exceed the bag, leaving a draw phase with no legal action",
        lambda f: f.what == "accepted document breaks the contract" and "at least one action" in f.error,
        _more_draws_than_the_bag_holds,
        steps=40,
    ),
]


# The reader of each of these games accepts positions whose next position it refuses
# itself (the cases above, and more of the same kind that long fuzz runs find): the
# per-game document checks are to make every check the rules rely on when reading.
KNOWN += [
    Known(
        name,
        "the reader accepts positions whose next position it refuses",
        lambda f: _later(f, "InvalidStateError"),
        reproducer,
        steps=10,
    )
    for name, reproducer in [
        ("chaos-checkers", _pieces_eliminated_during_setup),
    ]
]


def tolerated(name: str, finding: Finding) -> Known | None:
    """The known finding `finding` is an instance of, if any."""
    return next((k for k in KNOWN if k.game == name and k.matches(finding)), None)
