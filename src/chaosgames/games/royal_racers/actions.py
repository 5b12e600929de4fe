"""Actions and their notation.

Every action, chance outcomes included, is a `RacerAction(kind, arg)` whose text is
`kind:arg`:

- `deal:7h` (chance) the next card of the shuffled deck is laid on the next grid square;
- `start:c4` a player chooses a centre square for his pawn;
- `place:b5` the placing player puts the flag being placed on that card;
- `roll:null`, `roll:ace`, `roll:2` .. `roll:5` (chance) the piecepack die;
- `down:b5` flip a face-up card face down;
- `up:b5` flip a face-down card face up, designated from memory (the rank is checked);
- `reveal:b5` turn any face-down card face up (only when every card of the rank rolled
  is covered by a pawn);
- `move:c5` step the pawn one space orthogonally; `stay` keep it (optional_move only).
"""

from __future__ import annotations

from typing import NamedTuple

from chaosgames.core.notation import Form, Notation, compact
from chaosgames.games.royal_racers.board import CARD_NAMES, NUM_CARDS, SQUARE_NAMES, SQUARES

DIE_FACES = ("null", "ace", "2", "3", "4", "5")
"""The piecepack die: six faces, null and ace through five."""

SQUARE_KINDS = ("start", "place", "down", "up", "reveal", "move")


class RacerAction(NamedTuple):
    """One action: its kind and a number (a square, a card or a die face)."""

    kind: str
    arg: int

    def __str__(self) -> str:
        kind = self.kind
        if kind == "deal":
            return f"deal:{CARD_NAMES[self.arg]}"
        if kind == "roll":
            return f"roll:{DIE_FACES[self.arg]}"
        if kind == "stay":
            return "stay"
        return f"{kind}:{SQUARE_NAMES[self.arg]}"


DEAL = tuple(RacerAction("deal", c) for c in range(NUM_CARDS))
ROLL = tuple(RacerAction("roll", face) for face in range(6))
STAY = RacerAction("stay", 0)
BY_SQUARE: dict[str, tuple[RacerAction, ...]] = {
    kind: tuple(RacerAction(kind, sq) for sq in range(SQUARES)) for kind in SQUARE_KINDS
}
START = BY_SQUARE["start"]
PLACE = BY_SQUARE["place"]
DOWN = BY_SQUARE["down"]
UP = BY_SQUARE["up"]
REVEAL = BY_SQUARE["reveal"]
MOVE = BY_SQUARE["move"]

ALIASES = {"roll:0": "roll:null", "roll:1": "roll:ace", "roll:a": "roll:ace"}
"""Die faces may also be written as numbers, and the ace as `a`."""


def normalise(text: str) -> str:
    """Spaces removed, lower case, die aliases: ' Roll: 1' -> 'roll:ace'."""
    key = compact(text)
    return ALIASES.get(key, key)


SQUARE_PATTERN = "[a-f][1-6]"
NOTATION = Notation(
    Form("deal:<card> (e.g. deal:7h)", "deal:[a2-9][shdc]", chance=True),
    Form("start:<square>", f"start:{SQUARE_PATTERN}"),
    Form("place:<square>", f"place:{SQUARE_PATTERN}"),
    Form("roll:null|ace|2..5", "roll:(null|ace|[1-5])", chance=True),
    Form("down:<square>", f"down:{SQUARE_PATTERN}"),
    Form("up:<square>", f"up:{SQUARE_PATTERN}"),
    Form("reveal:<square>", f"reveal:{SQUARE_PATTERN}"),
    Form("move:<square>", f"move:{SQUARE_PATTERN}"),
    Form("stay", "stay"),
    normalise=normalise,
)
"""Squares are a1..f6; text is read without spaces, in any case. Deals and rolls are
chance's: a player who types nonsense is shown only the forms of his own actions."""
