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

import re
from typing import NamedTuple

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

GRAMMAR = re.compile(
    r"^(deal:([a2-9])[shdc]|roll:(null|ace|[1-5])|stay|(start|place|down|up|reveal|move):[a-f][1-6])$"
)

ACCEPTED = (
    "deal:<card> (e.g. deal:7h), start:<square>, place:<square>, roll:null|ace|2..5, "
    "down:<square>, up:<square>, reveal:<square>, move:<square> or stay; squares are a1..f6"
)


def well_formed(text: str) -> bool:
    """Whether `text` is in the notation's grammar (whether or not it is legal now)."""
    return GRAMMAR.match("".join(text.split()).casefold()) is not None
