"""What well-formed notation looks like, and a sentence for each action (for menus)."""

from __future__ import annotations

import re

from chaosgames.core.game import Action, State
from chaosgames.games.chaos_checkers.actions import ChaosMove, Defence, Draw, PotionUse, SetupDraw
from chaosgames.games.chaos_checkers.colours import COLOURS
from chaosgames.games.chaos_checkers.moves import Move

_SQ = r"(?:[1-9]|[12][0-9]|3[0-2])"
_COLOUR = "(?:" + "|".join(COLOURS) + ")"
_FORMS = [
    rf"(?:ambush:|leap:)?{_SQ}(?:[-x~]{_SQ})+",
    rf"(?:place|shield|potion):{_SQ}={_COLOUR}",
    rf"(?:draw|keep)-(?:shield|potion)={_COLOUR}",
    rf"(?:invulnerable|yield):{_SQ}",
    rf"(?:speedy|unghost)@{_SQ}",
    rf"wild@{_SQ}={_COLOUR}",
    rf"(?:rewind|sacrifice)@{_SQ}:{_SQ}",
    rf"telekinesis@{_SQ}:{_SQ}>{_SQ}",
    rf"(?:revive|reclaim)@{_SQ}:{_SQ}={_COLOUR}",
    r"pass",
]
_GRAMMAR = re.compile("|".join(f"(?:{f})" for f in _FORMS))


def well_formed(text: str) -> bool:
    """True when `text` has the shape of some action (legal here or not)."""
    return _GRAMMAR.fullmatch("".join(text.split()).lower()) is not None


_POTION_SENTENCE = {
    "speedy": "Speedy: the piece on {s} takes a second turn after this one",
    "unghost": "discard the Ghost potion of the piece on {s}",
    "wild": "Wild: swap the potion on {s} for a {c} one",
    "rewind": "Rewind (potion on {s}): discard the potion on {t}",
    "sacrifice": "Sacrifice: eliminate your piece on {s} and the opposing piece on {t}",
    "telekinesis": "Telekinesis (potion on {s}): move the potion on {t} to {o}",
    "revive": "Revive (potion on {s}): bring back a {c} piece on {t}",
    "reclaim": "Reclaim (potion on {s}): give the piece on {t} a {c} shield",
}


def describe(state: State, action: Action) -> str:
    """A short sentence for a player choosing among actions."""
    if isinstance(action, Move):
        return f"move {action}" if not action.captured else f"capture {action}"
    if isinstance(action, ChaosMove):
        captures = sum(1 for v in action.victims if v >= 0)
        if action.power:
            return f"{action.power.capitalize()} capture {action} ({captures} piece(s))"
        if captures:
            return f"capture {action} ({captures} piece(s))"
        return f"jump {action} without capturing (Ghost)" if "~" in str(action) else f"move {action}"
    if isinstance(action, PotionUse):
        colour = COLOURS[action.colour] if action.colour >= 0 else ""
        return _POTION_SENTENCE[action.power].format(
            s=action.square + 1, t=action.target + 1, o=action.other + 1, c=colour
        )
    if isinstance(action, Defence):
        if action.kind == "invulnerable":
            return f"use Invulnerability: the piece on {action.square + 1} is not captured"
        return f"keep the Invulnerability potion: the piece on {action.square + 1} is captured"
    if isinstance(action, Draw):
        verb, what = action.kind.split("-")
        return f"{verb} a {COLOURS[action.colour]} {what}"
    if isinstance(action, SetupDraw):
        return f"{action.kind} on {action.square + 1}: {COLOURS[action.colour]}"
    return "decline the Speedy extra turn"
