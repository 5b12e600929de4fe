"""The potion abilities (1-pip pyramids): which ones a player may declare before moving
(`uses`, `ghost_discards`) and what a declared one does (`use_potion`).

The colour of a potion names its power (seed, "Potion Abilities"):

| colour | power | declared as | fine print (see the ledger) |
| --- | --- | --- | --- |
| black | Ambush | `ambush:14x18` (a move) | kept after use |
| purple | Invulnerability | `invulnerable:22` (defender) | spent when used |
| yellow | Wild | `wild@14=green` | the new potion is usable from the next turn |
| orange | Leap | `leap:14x25` (a move) | kept after use |
| lightblue | Speedy | `speedy@14` | the piece on 14 takes a 2nd turn |
| clear | Ghost | passive; `unghost@14` | discarding it is not a use |
| green | Rewind | `rewind@14:22` | |
| blue | Telekinesis | `telekinesis@14:9>10` | |
| white | Revive | `revive@14:2=red` | the white potion leaves the game |
| red | Sacrifice | `sacrifice@14:22` | |
| pink | Reclaim | `reclaim@14:9=blue` | only with the `pink` option |
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from chaosgames.games.chaos_checkers.actions import ChaosAction, Piece, PotionUse
from chaosgames.games.chaos_checkers.board import HOME_ROW, squares_of
from chaosgames.games.chaos_checkers.chaos_position import (
    ChaosPosition,
    added,
    piece_of,
    taken,
    with_potion,
    with_shield,
)
from chaosgames.games.chaos_checkers.colours import CODE, COLOURS
from chaosgames.games.chaos_checkers.phases import MOVE
from chaosgames.games.chaos_checkers.powers import Power

RED, ORANGE, YELLOW, GREEN, BLUE = CODE["red"], CODE["orange"], CODE["yellow"], CODE["green"], CODE["blue"]
PURPLE, LIGHTBLUE, BLACK, CLEAR = CODE["purple"], CODE["lightblue"], CODE["black"], CODE["clear"]
WHITE, PINK = CODE["white"], CODE["pink"]

DECLARED = frozenset((LIGHTBLUE, YELLOW, GREEN, BLUE, WHITE, RED, PINK))
"""The potions declared before moving (the others are used with a move, by the defender,
or are passive)."""


# Interned uses (the same use is always the same object: no dataclass is made while the
# legal actions are listed, and the legality check is an identity hit).
_SQUARES = range(32)
SPEEDY = tuple(PotionUse(Power.SPEEDY, s) for s in _SQUARES)
UNGHOST = tuple(PotionUse(Power.GHOST, s) for s in _SQUARES)
WILD = tuple(tuple(PotionUse(Power.WILD, s, colour=c) for c in range(len(COLOURS))) for s in _SQUARES)
REWIND = tuple(tuple(PotionUse(Power.REWIND, s, t) for t in _SQUARES) for s in _SQUARES)
SACRIFICE = tuple(tuple(PotionUse(Power.SACRIFICE, s, t) for t in _SQUARES) for s in _SQUARES)
REVIVE = tuple(
    {
        h: tuple(PotionUse(Power.REVIVE, s, h, colour=c) for c in range(10))
        for h in (*HOME_ROW[0], *HOME_ROW[1])
    }
    for s in _SQUARES
)
_TELEKINESIS_USES: list[list[list[PotionUse | None]]] = [[[None] * 32 for _ in _SQUARES] for _ in _SQUARES]
"""[s][a][b]: Telekinesis from `s` moving the potion on `a` to b, made on first need (one at a
time: a player's pieces stand on few of the 32 squares, and a dataclass is slow to make)."""
_POTION = Piece._fields.index("potion")
"""`piece[_POTION]` is `piece.potion`, read by index: a NamedTuple's field by name costs
several times more, and `uses` reads the potion of every piece at every turn."""
_RECLAIM_USES: list[list[tuple[PotionUse, ...] | None]] = [[None] * 32 for _ in _SQUARES]


def _telekinesis(s: int, a: int, b: int) -> PotionUse:
    """Telekinesis from `s` moving the potion on `a` to `b`, made for `_TELEKINESIS_USES`."""
    use = _TELEKINESIS_USES[s][a][b] = PotionUse(Power.TELEKINESIS, s, a, b)
    return use


def _reclaim(s: int, t: int) -> tuple[PotionUse, ...]:
    """[c]: Reclaim from `s` giving the piece on `t` a shield of colour c (made on first need)."""
    found = _RECLAIM_USES[s][t]
    if found is None:
        found = _RECLAIM_USES[s][t] = tuple(PotionUse(Power.RECLAIM, s, t, colour=c) for c in range(10))
    return found


def uses(
    board: Sequence[Piece | None],
    player: int,
    pouch: Sequence[int],
    shield_bag: Sequence[int],
    eliminated: Sequence[int],
    counts: tuple[int, int],
    mine_bits: int,
    theirs_bits: int,
) -> list[ChaosAction]:
    """Every potion `player` may declare before moving, by square then power.

    `counts` is how many pieces each player has: a player's last piece cannot be
    eliminated by a potion (Sacrifice can neither target it nor be used on it).
    `mine_bits` and `theirs_bits` are the bitboards of the player's and the opposing
    pieces (they agree with `board`).
    """
    out: list[ChaosAction] = []  # the legal actions' list, potions first
    # The squares read through `pieces` are the players' (their bitboards): never empty.
    pieces = cast("Sequence[Piece]", board)
    mine = squares_of(mine_bits)
    theirs: tuple[int, ...] | None = None
    for s in mine:
        potion = pieces[s][_POTION]
        if potion not in DECLARED:
            continue
        if potion == LIGHTBLUE:
            out.append(SPEEDY[s])
        elif potion == YELLOW:
            # The yellow potion goes back first, so any colour left in the pouch may be chosen.
            wild = WILD[s]
            out.extend([wild[c] for c in range(len(pouch)) if pouch[c] or c == YELLOW])
        elif potion == GREEN:
            rewind = REWIND[s]
            if theirs is None:
                theirs = squares_of(theirs_bits)
            out.extend([rewind[t] for t in theirs if pieces[t][_POTION] >= 0])
        elif potion == BLUE:
            # One comprehension for every potion it may move (each costs a frame to start).
            rows = _TELEKINESIS_USES[s]
            out += [
                onto[b] or _telekinesis(s, a, b)
                for a in mine
                if a != s and pieces[a][_POTION] >= 0
                for onto in (rows[a],)
                for b in mine
                if b != a
            ]
        elif potion == WHITE:
            revive = REVIVE[s]
            for h in HOME_ROW[player]:
                if board[h] is None:
                    back = revive[h]
                    out.extend([back[c] for c in range(10) if eliminated[c]])
        elif potion == RED:
            if counts[player] > 1 and counts[1 - player] > 1:
                sacrifice = SACRIFICE[s]
                if theirs is None:
                    theirs = squares_of(theirs_bits)
                out.extend([sacrifice[t] for t in theirs])
        elif potion == PINK:
            for t in mine:
                old = pieces[t].shield
                shields = _reclaim(s, t)
                out.extend([shields[c] for c in range(10) if shield_bag[c] or c == old])
    return out


def ghost_discards(ghosts: int) -> list[PotionUse]:
    """`unghost@s` for each Ghost piece of `ghosts` (the player's; allowed at the start of a turn)."""
    return [UNGHOST[i] for i in squares_of(ghosts)]


_GHOST, _SPEEDY, _WILD, _REWIND = Power.GHOST, Power.SPEEDY, Power.WILD, Power.REWIND
_TELEKINESIS, _REVIVE, _SACRIFICE, _RECLAIM = Power.TELEKINESIS, Power.REVIVE, Power.SACRIFICE, Power.RECLAIM
"""The powers as module names: reading a member through the Enum class costs several times as much."""


def use_potion(state: ChaosPosition, use: PotionUse) -> None:
    """Play a potion declared before moving (or a Ghost discarded): then the player moves."""
    s, t, power = use.square, use.target, use.power
    state.turn_quiet = False
    if power is _GHOST:
        state._discard_potion(s)
        return  # discarding a Ghost is not the turn's potion: still at the turn's start
    state.used = s if power is not _SACRIFICE else -1  # a sacrificed piece is gone
    board = state.board
    if power is _REVIVE:
        # The white potion leaves the game; the piece comes back bare, as a man.
        state._put(s, with_potion(state._piece_on(s), -1))
        state.removed += 1
        state.eliminated = taken(state.eliminated, state.turn, use.colour)
        state._put(t, piece_of(state.turn, use.colour, False, -1, -1))
    elif power is _SACRIFICE:
        state._eliminate(s)
        state._eliminate(t)
    else:
        state._discard_potion(s)
        if power is _SPEEDY:
            state.speedy = True
        elif power is _WILD:
            state.pouch = added(state.pouch, use.colour, -1)
            state._put(s, with_potion(state._piece_on(s), use.colour))
        elif power is _REWIND:
            state._discard_potion(t)
        elif power is _TELEKINESIS:
            moved = state._piece_on(t).potion
            state._put(t, with_potion(state._piece_on(t), -1))
            state._discard_potion(use.other)
            state._put(use.other, with_potion(state._piece_on(use.other), moved))
        elif power is _RECLAIM:
            piece = board[t]
            assert piece is not None
            bag = state.bags[state.turn]
            if piece.shield >= 0:
                bag = added(bag, piece.shield)
            bag = added(bag, use.colour, -1)
            state.bags = (bag, state.bags[1]) if state.turn == 0 else (state.bags[0], bag)
            state._put(t, with_shield(piece, use.colour))
    state.phase = MOVE
