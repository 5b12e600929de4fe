"""How a finished game ended, in the game's own words ("race won", "elimination" ...).

`State.ended_by()` tells a rulebook end from a cap; the rulebooks end their games in more
than one way (Cardboard Machines by the last car left or by the round tokens, Chaos
Checkers by a win or a draw by repetition). The lab reads that from the final state's
document, the public JSON every game writes, one small reader per rulebook.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from chaosgames.core import State
from chaosgames.sim.storage import ENDED_BY_CAP, ENDED_BY_RULES, STOPPED_BY_LAB

RULEBOOK_END = "rulebook end"
LENGTH_CAP = "length cap"
LAB_CAP = "lab's action cap"


def _cardboard_machines(doc: Mapping[str, Any]) -> str:
    # 'when there is only one player left, ... she is the winner'; else the last round
    # token was claimed and the game was scored.
    return "round tokens claimed" if doc.get("tokens_left") == 0 else "last car left (elimination)"


def _chaos_checkers(doc: Mapping[str, Any]) -> str:
    return "draw by repetition" if doc.get("outcome") == [0.5, 0.5] else "won"


def _royal_racers(doc: Mapping[str, Any]) -> str:
    races = doc.get("options", {}).get("races", 1)
    return "race won" if races == 1 else f"campaign of {races} races scored"


def _chaos_cruisers(doc: Mapping[str, Any]) -> str:
    return "race won"


READERS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "cardboard-machines": _cardboard_machines,
    "chaos-checkers": _chaos_checkers,
    "royal-racers": _royal_racers,
    "chaos-cruisers": _chaos_cruisers,
}


def describe_finish(state: State[Any], ending: str) -> str:
    """The finish of a game that ended as `ending` ("rules", "cap", "lab") in `state`."""
    if ending == ENDED_BY_CAP:
        return LENGTH_CAP
    if ending == STOPPED_BY_LAB:
        return LAB_CAP
    assert ending == ENDED_BY_RULES
    reader = READERS.get(state.game.name)
    return reader(state.to_json()) if reader is not None else RULEBOOK_END
