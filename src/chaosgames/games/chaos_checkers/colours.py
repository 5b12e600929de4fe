"""The pyramid colours of the rulebook: ten (Rainbow and Xeno sets) plus the optional pink.

A colour plays three parts: the colour of a player's pieces (3-pip pyramids), of a
shield (2-pip) and of a potion (1-pip), whose colour names its power.
"""

from __future__ import annotations

COLOURS: tuple[str, ...] = (
    "red",
    "orange",
    "yellow",
    "green",
    "blue",
    "purple",
    "lightblue",
    "black",
    "clear",
    "white",
    "pink",
)
"""Index = colour code used in states. The first ten are the game's colours; pink (10)
exists only as potions, with the `pink` option."""

TEN = 10
Counts = tuple[int, ...]
"""How many pyramids of each colour (indexed by colour code) a bag, pouch or pile holds."""
CODE: dict[str, int] = {name: i for i, name in enumerate(COLOURS)}
TRIOS_PER_COLOUR = 5
"""Five trios of each colour: five pieces, five shields and five potions per colour."""

FILL: dict[str, str] = {
    "red": "#d62728",
    "orange": "#ff8c1a",
    "yellow": "#f2d21b",
    "green": "#2ca02c",
    "blue": "#1f4fd6",
    "purple": "#8e3fbf",
    "lightblue": "#7ec8f0",
    "black": "#222222",
    "clear": "#e8eef2",
    "white": "#ffffff",
    "pink": "#ff7fbf",
}
"""SVG fill of each colour."""


def parse_colour_set(text: str) -> tuple[int, int, int]:
    """Three distinct colour codes from 'red,orange,yellow'; ValueError saying what is accepted."""
    names = [n.strip().lower() for n in str(text).split(",")]
    codes = []
    for name in names:
        if name not in CODE or CODE[name] >= TEN:
            raise ValueError(f"{name!r} is not a piece colour; choose three of {', '.join(COLOURS[:TEN])}.")
        codes.append(CODE[name])
    if len(codes) != 3 or len(set(codes)) != 3:
        raise ValueError("give exactly three different colours, comma separated (e.g. 'red,orange,yellow').")
    return codes[0], codes[1], codes[2]


def normalise_colour_set(text: str) -> str:
    """The option value in canonical form ('red,orange,yellow')."""
    return ",".join(COLOURS[c] for c in parse_colour_set(text))
