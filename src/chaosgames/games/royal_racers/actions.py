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

The rules hand out the actions of the tables below (`DEAL`, `ROLL`, `MOVE` ...), made once:
an action is played by identity, never built anew in a search.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from chaosgames.core.notation import Form, Notation, compact
from chaosgames.games.royal_racers.board import CARD_NAMES, NUM_CARDS, SQUARE_NAMES, SQUARES

DIE_FACES = ("null", "ace", "2", "3", "4", "5")
"""The piecepack die: six faces, null and ace through five."""


class Kind(Enum):
    """What an action does; its value is the word its notation starts with."""

    DEAL = "deal"
    START = "start"
    PLACE = "place"
    ROLL = "roll"
    DOWN = "down"
    UP = "up"
    REVEAL = "reveal"
    MOVE = "move"
    STAY = "stay"


DEALING, STARTING, PLACING, ROLLING, TURNING_DOWN, TURNING_UP, REVEALING, MOVING, STAYING = Kind
"""The kinds by plain names, for the rules' hot paths: a module's name is read several
times faster than an enum's member (`Kind.MOVE` goes through the enum's class)."""

SQUARE_KINDS = (Kind.START, Kind.PLACE, Kind.DOWN, Kind.UP, Kind.REVEAL, Kind.MOVE)
"""The kinds whose `arg` is a square, in the order of the encoding's action indices."""
FLIP_KINDS = (Kind.DOWN, Kind.UP, Kind.REVEAL)
"""The kinds of step 1, the board morph."""

ARG_NAMES: dict[Kind, tuple[str, ...]] = {
    Kind.DEAL: CARD_NAMES,
    Kind.ROLL: DIE_FACES,
    Kind.STAY: ("",),
    **{kind: SQUARE_NAMES for kind in SQUARE_KINDS},
}
"""How the notation writes an action's `arg`, by its kind (`stay` has none)."""


@dataclass(frozen=True, slots=True)
class RacerAction:
    """One action of Royal Racers (see the module docstring); `str()` is its notation."""

    kind: Kind
    """What the action does: deal, start, place, roll, down, up, reveal, move or stay."""
    arg: int
    """What it does it to: a square (a1 = 0, b1 = 1 .. f6 = 35) for the kinds of
    `SQUARE_KINDS`, a card (`board.CARD_NAMES`) for a deal, a die face (0 null, 1 ace
    .. 5) for a roll, 0 for `stay`."""

    def arg_name(self) -> str:
        """`arg` as the notation writes it: `c5`, `7h`, `ace` ('' for `stay`)."""
        return ARG_NAMES[self.kind][self.arg]

    def __str__(self) -> str:
        if self.kind is STAYING:
            return "stay"
        return f"{self.kind.value}:{self.arg_name()}"


DEAL = tuple(RacerAction(Kind.DEAL, c) for c in range(NUM_CARDS))
ROLL = tuple(RacerAction(Kind.ROLL, face) for face in range(6))
STAY = RacerAction(Kind.STAY, 0)
BY_SQUARE: dict[Kind, tuple[RacerAction, ...]] = {
    kind: tuple(RacerAction(kind, sq) for sq in range(SQUARES)) for kind in SQUARE_KINDS
}
START = BY_SQUARE[Kind.START]
PLACE = BY_SQUARE[Kind.PLACE]
DOWN = BY_SQUARE[Kind.DOWN]
UP = BY_SQUARE[Kind.UP]
REVEAL = BY_SQUARE[Kind.REVEAL]
MOVE = BY_SQUARE[Kind.MOVE]


class Flip(NamedTuple):
    """What the flip of this turn did, remembered until the next decision or roll (the move
    that follows it, or the next roll after a forfeited move): the card turned is seen by
    everyone for that long, even one that a wrong guess leaves face down, and no longer."""

    kind: Kind
    """down, up or reveal (the kind of the flip action)."""
    square: int
    ok: bool
    """False for a wrong guess: the card stayed face down and the pawn was sent back."""


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
