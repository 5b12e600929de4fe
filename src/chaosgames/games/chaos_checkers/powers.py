"""The potion powers (rulebook "Potion Abilities"): the colour of a potion names its power.

A potion on a piece is kept as its colour code (the board's pieces are numbers, fast to
compare); an action that uses a potion names its `Power`.
"""

from __future__ import annotations

from enum import StrEnum

from chaosgames.games.chaos_checkers.colours import CODE


class Power(StrEnum):
    """A potion power, in the rulebook's order (pink last); the value is its name in
    notation, state documents and the rules' headings."""

    AMBUSH = "ambush"
    INVULNERABILITY = "invulnerability"
    WILD = "wild"
    LEAP = "leap"
    SPEEDY = "speedy"
    GHOST = "ghost"
    REWIND = "rewind"
    TELEKINESIS = "telekinesis"
    REVIVE = "revive"
    SACRIFICE = "sacrifice"
    RECLAIM = "reclaim"


COLOUR_OF: dict[Power, int] = {
    Power.AMBUSH: CODE["black"],
    Power.INVULNERABILITY: CODE["purple"],
    Power.WILD: CODE["yellow"],
    Power.LEAP: CODE["orange"],
    Power.SPEEDY: CODE["lightblue"],
    Power.GHOST: CODE["clear"],
    Power.REWIND: CODE["green"],
    Power.TELEKINESIS: CODE["blue"],
    Power.REVIVE: CODE["white"],
    Power.SACRIFICE: CODE["red"],
    Power.RECLAIM: CODE["pink"],
}
"""The colour of the potions of each power."""
POWER: dict[int, Power] = {
    colour: power for power, colour in sorted(COLOUR_OF.items(), key=lambda pair: pair[1])
}
"""The power of a potion of each colour (by colour code)."""
