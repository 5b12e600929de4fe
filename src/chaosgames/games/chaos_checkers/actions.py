"""Pieces and the actions of Chaos Checkers, each with its notation (`str`).

Every action is a small NamedTuple whose first field names its kind, so actions of
different kinds never compare equal. Notation (squares are 1-32):

- setup chance outcomes: `place:12=red` (the piece set on square 12 is red),
  `shield:12=blue` (its shield), `potion:12=green` (its potion);
- moves: `11-15` (step), `22x15` / `15x22x29` (captures), `14~23` (a jump that captures
  nothing: by or over a Ghost), `ambush:14x18` and `leap:14x25` (captures with the
  moving piece's Ambush or Leap potion);
- potions declared before moving: `speedy@14`, `wild@14=green`, `rewind@14:22`,
  `telekinesis@14:9>10`, `revive@14:2=red`, `sacrifice@14:22`, `reclaim@14:9=blue`;
  `unghost@14` discards a Ghost potion at the beginning of a turn;
- the defender's answer to a capture of a piece holding Invulnerability:
  `invulnerable:22` (use it) or `yield:22` (let the piece be captured);
- rewards after a capture or crowning: chance `draw-shield=blue`, `draw-potion=red`,
  the capturing player's choice `keep-shield=blue`, `keep-potion=red`;
- `pass`: decline the extra turn of a Speedy piece.
"""

from __future__ import annotations

from typing import NamedTuple, TypeAlias

from chaosgames.core.notation import Form, Notation
from chaosgames.games.chaos_checkers.colours import COLOURS
from chaosgames.games.chaos_checkers.moves import Move


class Piece(NamedTuple):
    """A play piece (3-pip) with what sits on it; shield/potion -1 when it has none."""

    owner: int
    colour: int
    king: bool
    shield: int
    potion: int


class SetupDraw(NamedTuple):
    kind: str  # "place", "shield" or "potion"
    square: int
    colour: int

    def __str__(self) -> str:
        return f"{self.kind}:{self.square + 1}={COLOURS[self.colour]}"


class Draw(NamedTuple):
    """A chance draw during play, or the player's pick among drawn pieces."""

    kind: str  # "draw-shield", "draw-potion", "keep-shield", "keep-potion"
    colour: int

    def __str__(self) -> str:
        return f"{self.kind}={COLOURS[self.colour]}"


class Defence(NamedTuple):
    kind: str  # "invulnerable" or "yield"
    square: int

    def __str__(self) -> str:
        return f"{self.kind}:{self.square + 1}"


class ChaosMove(NamedTuple):
    """A whole move. `victims[k]` is the square captured by step k, or -1."""

    kind: str  # "move"
    power: str  # "", "ambush" or "leap": the moving piece's potion in use
    path: tuple[int, ...]
    victims: tuple[int, ...]

    def __str__(self) -> str:
        if any(v >= 0 for v in self.victims):
            sep = "x"
        elif abs(self.path[1] - self.path[0]) > 5:
            sep = "~"
        else:
            sep = "-"
        text = sep.join(str(i + 1) for i in self.path)
        return f"{self.power}:{text}" if self.power else text


class PotionUse(NamedTuple):
    """A potion declared before moving, with what it targets (-1 where unused)."""

    kind: str  # "potion"
    power: str
    square: int
    target: int
    other: int
    colour: int

    def __str__(self) -> str:
        head = f"{self.power}@{self.square + 1}"
        if self.power in ("speedy", "unghost"):
            return head
        if self.power == "wild":
            return f"{head}={COLOURS[self.colour]}"
        if self.power in ("rewind", "sacrifice"):
            return f"{head}:{self.target + 1}"
        if self.power == "telekinesis":
            return f"{head}:{self.target + 1}>{self.other + 1}"
        # revive and reclaim: a square and a colour
        return f"{head}:{self.target + 1}={COLOURS[self.colour]}"


class Pass(NamedTuple):
    kind: str  # "pass"

    def __str__(self) -> str:
        return "pass"


PASS = Pass("pass")

ChaosAction: TypeAlias = SetupDraw | Draw | Defence | ChaosMove | PotionUse | Pass
"""Every action of Chaos Checkers with its potions, chance outcomes (draws) included."""
CheckersAction: TypeAlias = ChaosAction | Move
"""Every action of the game: plain checkers (the `plain` option) plays whole moves."""

# Interned actions: the same draw or step is always the same object (cheap to make,
# and the legality check is an identity hit).
SETUP_DRAWS: dict[str, tuple[tuple[SetupDraw, ...], ...]] = {
    kind: tuple(tuple(SetupDraw(kind, sq, c) for c in range(len(COLOURS))) for sq in range(32))
    for kind in ("place", "shield", "potion")
}
DRAWS: dict[str, tuple[Draw, ...]] = {
    kind: tuple(Draw(kind, c) for c in range(len(COLOURS)))
    for kind in ("draw-shield", "draw-potion", "keep-shield", "keep-potion")
}
QUIET: dict[tuple[int, int], ChaosMove] = {}


def quiet_move(src: int, dst: int) -> ChaosMove:
    """The (interned) step or Ghost jump from `src` to `dst`."""
    move = QUIET.get((src, dst))
    if move is None:
        move = QUIET[(src, dst)] = ChaosMove("move", "", (src, dst), (-1,))
    return move


_SQ = r"(?:[1-9]|[12][0-9]|3[0-2])"
_COLOUR = "(?:" + "|".join(COLOURS) + ")"
NOTATION = Notation(
    Form("11-15 (squares 1-32 joined by - or x)", rf"{_SQ}(?:[-x~]{_SQ})+"),
    Form("ambush:14x18", rf"(?:ambush|leap):{_SQ}(?:[-x~]{_SQ})+"),
    Form("place:12=red", rf"(?:place|shield|potion):{_SQ}={_COLOUR}", chance=True),
    Form("draw-shield=blue", rf"draw-(?:shield|potion)={_COLOUR}", chance=True),
    Form("keep-shield=blue", rf"keep-(?:shield|potion)={_COLOUR}"),
    Form("invulnerable:22", rf"(?:invulnerable|yield):{_SQ}"),
    Form("speedy@14", rf"(?:speedy|unghost)@{_SQ}"),
    Form("wild@14=green", rf"wild@{_SQ}={_COLOUR}"),
    Form("rewind@14:22", rf"(?:rewind|sacrifice)@{_SQ}:{_SQ}"),
    Form("telekinesis@14:9>10", rf"telekinesis@{_SQ}:{_SQ}>{_SQ}"),
    Form("revive@14:2=red", rf"(?:revive|reclaim)@{_SQ}:{_SQ}={_COLOUR}"),
    Form("pass", r"pass"),
)
"""What well-formed notation looks like (see the module docstring for every form)."""
