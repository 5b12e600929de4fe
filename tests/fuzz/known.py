"""Findings of the fuzz suite: the ones fixed, kept as regressions, and any still open.

Each is a state document a game accepted although the rules could not carry on from it.
`reproducer` builds a minimal document showing it. `FIXED` lists the findings the per-game
restructure of issue 12 fixed: test_fuzz.py runs each reproducer and requires a clean outcome
(refused with a ChaosGamesError, or played on with every contract check holding). `KNOWN`
lists findings still open: `matches` recognises one among fuzz results so the general fuzz
tests stay green while it is open, and its reproducer runs with xfail(strict=True), so the
fix turns it red and the entry moves to `FIXED`.
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
    reproducer: Callable[[], tuple[chaosgames.Game[Any, Any], dict[str, Any]]]
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


def _with(doc: dict[str, Any], **changes: Any) -> tuple[chaosgames.Game[Any, Any], dict[str, Any]]:
    doc.update(changes)
    return harness.game_of(doc), doc


# -- Cardboard Machines ---------------------------------------------------------------------


def _setup_with_a_lap_claimed() -> tuple[chaosgames.Game[Any, Any], dict[str, Any]]:
    return _with(corpus("cardboard-machines", "boards"), lap_claimed=True)


def _the_last_car_alive_crashes() -> tuple[chaosgames.Game[Any, Any], dict[str, Any]]:
    doc = corpus("cardboard-machines", "roll", players=2)
    other = 1 - doc["mover"]
    doc["cars"][other].update(lives=0, pos=-1)
    doc["pending"] = []
    return harness.game_of(doc), doc


def _returning_stress_without_stress() -> tuple[chaosgames.Game[Any, Any], dict[str, Any]]:
    doc = corpus("cardboard-machines", "return")
    doc["cars"][doc["mover"]]["stress"] = 0
    return harness.game_of(doc), doc


def _a_bonus_move_off_the_front() -> tuple[chaosgames.Game[Any, Any], dict[str, Any]]:
    doc = corpus("cardboard-machines", "bonus", players=2)
    doc["cars"][doc["mover"]]["pos"] = 67
    return harness.game_of(doc), doc


# -- Chaos Checkers --------------------------------------------------------------------------


def _plain_turn_as_a_float() -> tuple[chaosgames.Game[Any, Any], dict[str, Any]]:
    doc = corpus("chaos-checkers", None)
    return _with(doc, turn=float(doc["turn"]))


def _a_reward_for_a_shielded_piece() -> tuple[chaosgames.Game[Any, Any], dict[str, Any]]:
    doc = corpus("chaos-checkers", "draw-shield")
    shielded = [
        square + 1
        for square, piece in enumerate(doc["board"])
        if piece and piece["owner"] == doc["turn"] and piece["shield"] is not None
    ]
    doc["reward"]["square"] = next(s for s in shielded if s != doc["reward"]["square"])
    return harness.game_of(doc), doc


def _pieces_eliminated_during_setup() -> tuple[chaosgames.Game[Any, Any], dict[str, Any]]:
    doc = corpus("chaos-checkers", "place")
    doc["eliminated"][0] = {"red": 2}
    return harness.game_of(doc), doc


def _more_draws_than_the_bag_holds() -> tuple[chaosgames.Game[Any, Any], dict[str, Any]]:
    return _with(corpus("chaos-checkers", "draw-shield"), draws_left=1000)


# -- Chaos Cruisers --------------------------------------------------------------------------


def _a_fresh_obstacle_pass() -> tuple[chaosgames.Game[Any, Any], dict[str, Any]]:
    return _with(corpus("chaos-cruisers", "obstacles"), obstacle_pass=0)


def _a_racing_cruiser_off_the_course_while_another_reenters() -> tuple[
    chaosgames.Game[Any, Any], dict[str, Any]
]:
    doc = corpus("chaos-cruisers", "reenter")
    racing = next(c for c in doc["cruisers"] if c["square"] is not None and c["colour"] != doc["reentering"])
    racing["square"] = None
    return harness.game_of(doc), doc


FIXED: list[Known] = [
    Known(
        "cardboard-machines",
        "setup documents are accepted with mid-game fields unchecked",
        lambda f: (
            _later(f, "InvalidStateError", "first", "boards") or _later(f, "IndexError", "first", "boards")
        ),
        _setup_with_a_lap_claimed,
        steps=10,
    ),
    Known(
        "cardboard-machines",
        "the last car alive crashing hangs the end of the game",
        lambda f: f.what == "accepted document hangs",
        _the_last_car_alive_crashes,
        steps=40,
        seconds=1.0,
    ),
    Known(
        "cardboard-machines",
        "the return phase is accepted with no stress to return",
        lambda f: _later(f, "InvalidStateError: stress must be"),
        _returning_stress_without_stress,
        steps=2,
        seed=1,
    ),
    Known(
        "cardboard-machines",
        "a car may stand where its bonus move runs off the table (IndexError)",
        lambda f: _later(f, "IndexError", "bonus", "move", "resolve", "roll", "gear", "return"),
        _a_bonus_move_off_the_front,
    ),
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
    Known(
        "chaos-cruisers",
        "obstacle_pass is not checked against the obstacles placed",
        lambda f: _later(f, "InvalidStateError", "obstacles") and "obstacles in hand" in f.error,
        _a_fresh_obstacle_pass,
        steps=10,
    ),
    Known(
        "chaos-cruisers",
        "a racing cruiser may be off the course while another reenters",
        lambda f: _later(f, "InvalidStateError", "reenter") and "racing but not on the course" in f.error,
        _a_racing_cruiser_off_the_course_while_another_reenters,
        steps=10,
    ),
]


def _a_cruiser_off_the_course_while_the_order_is_drawn() -> tuple[chaosgames.Game[Any, Any], dict[str, Any]]:
    doc = corpus("chaos-cruisers", "order")
    next(c for c in doc["cruisers"] if c["square"] is not None)["square"] = None
    return harness.game_of(doc), doc


# The reader of each of these games accepted positions whose next position it refused
# itself (the cases above, and more of the same kind that long fuzz runs found): each
# game's document.py now makes every check the rules rely on when reading.
FIXED += [
    Known(
        name,
        "the reader accepts positions whose next position it refuses",
        lambda f: _later(f, "InvalidStateError"),
        reproducer,
        steps=10,
    )
    for name, reproducer in [
        ("cardboard-machines", _setup_with_a_lap_claimed),
        ("chaos-checkers", _pieces_eliminated_during_setup),
        ("chaos-cruisers", _a_cruiser_off_the_course_while_the_order_is_drawn),
    ]
]


# Open findings (none at present): add an entry here when a fuzz run finds one.
KNOWN: list[Known] = []


def tolerated(name: str, finding: Finding) -> Known | None:
    """The known finding `finding` is an instance of, if any."""
    return next((k for k in KNOWN if k.game == name and k.matches(finding)), None)
