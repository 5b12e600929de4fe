"""Pieces and the actions of Chaos Checkers, each with its notation (`str`).

Every action is a frozen, slotted dataclass (actions of different types never compare
equal) whose `str` is its notation; `Game.parse_action` reads it back. Notation (squares
are 1-32):

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

from dataclasses import dataclass
from typing import NamedTuple, TypeAlias

from chaosgames.core.notation import Form, Notation
from chaosgames.games.chaos_checkers.colours import COLOURS
from chaosgames.games.chaos_checkers.moves import PlainMove
from chaosgames.games.chaos_checkers.phases import (
    DRAW_POTION,
    DRAW_SHIELD,
    KEEP_POTION,
    KEEP_SHIELD,
    PLACE,
    POTION,
    SHIELD,
    Phase,
)
from chaosgames.games.chaos_checkers.powers import Power


class Piece(NamedTuple):
    """A play piece (3-pip) with what sits on it; shield/potion -1 when it has none. Not an
    action: the board's squares hold these (read by unpacking, as a tuple's fields)."""

    owner: int
    colour: int
    king: bool
    shield: int
    potion: int


@dataclass(frozen=True, slots=True)
class SetupDraw:
    """A setup chance outcome: `place:12=red`, `shield:12=blue`, `potion:12=green`."""

    kind: Phase
    """The setup phase it is drawn in (PLACE: the piece's colour, SHIELD, POTION)."""
    square: int
    """The square (0-31) of the piece the draw is for."""
    colour: int
    """The colour drawn (a colour code)."""

    def __str__(self) -> str:
        return f"{self.kind.value}:{self.square + 1}={COLOURS[self.colour]}"


@dataclass(frozen=True, slots=True)
class Draw:
    """A reward drawn during play (chance, `draw-shield=blue`), or the capturing player's
    pick among the pieces drawn (`keep-potion=red`)."""

    kind: Phase
    """The phase it is made in: DRAW_SHIELD, DRAW_POTION, KEEP_SHIELD or KEEP_POTION."""
    colour: int
    """The colour drawn or kept (a colour code)."""

    def __str__(self) -> str:
        return f"{self.kind.value}={COLOURS[self.colour]}"


@dataclass(frozen=True, slots=True)
class Defence:
    """The defender's answer to a capture of a piece holding Invulnerability:
    `invulnerable:22` (use it) or `yield:22` (let the piece be captured)."""

    square: int
    """The square (0-31) of the piece about to be captured."""
    invulnerable: bool
    """Whether its owner discards the Invulnerability potion to spare it."""

    def __str__(self) -> str:
        return f"{'invulnerable' if self.invulnerable else 'yield'}:{self.square + 1}"


@dataclass(frozen=True, slots=True)
class ChaosMove:
    """A whole move: `11-15`, `22x15x29`, `14~23` (a jump capturing nothing), `ambush:14x18`."""

    power: Power | None
    """The moving piece's potion used with the move (AMBUSH or LEAP), or None."""
    path: tuple[int, ...]
    """The squares (0-31) the piece visits, its start first."""
    victims: tuple[int, ...]
    """`victims[k]`: the square captured by step k, or -1 (all -1: a step or a Ghost jump)."""

    def __str__(self) -> str:
        if any(v >= 0 for v in self.victims):
            sep = "x"
        elif abs(self.path[1] - self.path[0]) > 5:
            sep = "~"
        else:
            sep = "-"
        text = sep.join(str(i + 1) for i in self.path)
        return f"{self.power.value}:{text}" if self.power is not None else text


_UNGHOST = "unghost"
"""The notation's word for discarding a Ghost potion (the one use of a Ghost)."""


@dataclass(frozen=True, slots=True)
class PotionUse:
    """A potion declared before moving (`speedy@14`, `wild@14=green`, ...), or a Ghost potion
    discarded at the start of a turn (`unghost@14`)."""

    power: Power
    """The power of the potion used."""
    square: int
    """The square (0-31) of the piece holding the potion."""
    target: int = -1
    """The square it acts on (Rewind, Sacrifice, Telekinesis' potion, Revive, Reclaim), or -1."""
    other: int = -1
    """Telekinesis: the square of the piece the potion is moved onto; else -1."""
    colour: int = -1
    """The colour chosen (Wild's potion, Revive's piece, Reclaim's shield), or -1."""

    def __str__(self) -> str:
        power = self.power
        if power is Power.GHOST:
            return f"{_UNGHOST}@{self.square + 1}"
        head = f"{power.value}@{self.square + 1}"
        if power is Power.SPEEDY:
            return head
        if power is Power.WILD:
            return f"{head}={COLOURS[self.colour]}"
        if power is Power.REWIND or power is Power.SACRIFICE:
            return f"{head}:{self.target + 1}"
        if power is Power.TELEKINESIS:
            return f"{head}:{self.target + 1}>{self.other + 1}"
        # revive and reclaim: a square and a colour
        return f"{head}:{self.target + 1}={COLOURS[self.colour]}"


@dataclass(frozen=True, slots=True)
class Pass:
    """`pass`: the Speedy piece declines its extra turn."""

    def __str__(self) -> str:
        return "pass"


PASS = Pass()

ChaosAction: TypeAlias = SetupDraw | Draw | Defence | ChaosMove | PotionUse | Pass
"""Every action of Chaos Checkers with its potions, chance outcomes (draws) included."""
CheckersAction: TypeAlias = ChaosAction | PlainMove
"""Every action of the game: plain checkers (the `plain` option) plays whole moves."""

# Interned actions: the same draw, step or answer is always the same object (a frozen
# dataclass is slow to make, and the legality check is an identity hit).
SETUP_DRAWS: dict[Phase, tuple[tuple[SetupDraw, ...], ...]] = {
    kind: tuple(tuple(SetupDraw(kind, sq, c) for c in range(len(COLOURS))) for sq in range(32))
    for kind in (PLACE, SHIELD, POTION)
}
"""SETUP_DRAWS[phase][square][colour]."""
DRAWS: dict[Phase, tuple[Draw, ...]] = {
    kind: tuple(Draw(kind, c) for c in range(len(COLOURS)))
    for kind in (DRAW_SHIELD, DRAW_POTION, KEEP_SHIELD, KEEP_POTION)
}
"""DRAWS[phase][colour]."""
DEFENCES: tuple[tuple[Defence, Defence], ...] = tuple(
    (Defence(sq, True), Defence(sq, False)) for sq in range(32)
)
"""DEFENCES[square]: (use Invulnerability, yield), in the order they are listed."""
QUIET: dict[tuple[int, int], ChaosMove] = {}


def quiet_move(src: int, dst: int) -> ChaosMove:
    """The (interned) step or Ghost jump from `src` to `dst`."""
    move = QUIET.get((src, dst))
    if move is None:
        move = QUIET[(src, dst)] = ChaosMove(None, (src, dst), (-1,))
    return move


_POWERED: dict[tuple[Power, tuple[int, ...], tuple[int, ...]], ChaosMove] = {}


def powered_move(power: Power, path: tuple[int, ...], victims: tuple[int, ...]) -> ChaosMove:
    """The (interned) capture along `path` capturing `victims` with the moving piece's
    Ambush or Leap (`power`)."""
    key = (power, path, victims)
    move = _POWERED.get(key)
    if move is None:
        move = _POWERED[key] = ChaosMove(power, path, victims)
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
