"""Turn step 1, the board morph: roll the die and flip one card of the rank rolled.

Readings chosen (see docs/rules/royal-racers.md):
- On a roll of ace to five the player may flip a card of that rank either way: a face-up
  card face down, or a face-down card face up, designated from memory (`up:`). Designating
  is allowed at any face-down card, because which face-down card has which rank is hidden;
  it is offered whenever at least one card of that rank is face down (a count every player
  can make, since each rank has four cards).
- "no cards of that value without flags on them left face-up" counts only cards that could
  be flipped, i.e. not under a pawn.
- "all cards of that rank are covered by pawns" is the case where no card of that rank
  can be flipped either way: every card of the rank is face up under a pawn. Then any
  face-down card is turned face up, rank unchecked (`reveal:`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from chaosgames.games.royal_racers.actions import (
    DOWN,
    FLIP_KINDS,
    REVEAL,
    REVEALING,
    TURNING_DOWN,
    TURNING_UP,
    UP,
    Flip,
    Kind,
    RacerAction,
)
from chaosgames.games.royal_racers.board import RANK_OF, READING_RANK, SIZE, SQUARES

if TYPE_CHECKING:
    from chaosgames.games.royal_racers.rules_in_force import RacersPosition

CARDS_OF_RANK: tuple[tuple[int, ...], ...] = ((), *(tuple(range(4 * (r - 1), 4 * r)) for r in range(1, 10)))
"""The four cards of each rank (1-9)."""


def _nearest_first(target: int) -> tuple[int, ...]:
    tx, ty = target % SIZE, target // SIZE
    return tuple(
        sorted(range(SQUARES), key=lambda sq: (abs(sq % SIZE - tx) + abs(sq // SIZE - ty), READING_RANK[sq]))
    )


NEAREST_FIRST: tuple[tuple[int, ...], ...] = tuple(_nearest_first(sq) for sq in range(SQUARES))
"""Every square by its distance from a square (fewest orthogonal steps, ties in reading
order): where a pawn sent back goes when its card is taken."""


TURNED_DOWN, TURNED_UP, REVEALED = (
    tuple(Flip(kind, sq, True) for sq in range(SQUARES)) for kind in FLIP_KINDS
)
"""The flips that turned their card, by square (made once: a flip every turn)."""
WRONG_GUESSES: tuple[Flip, ...] = tuple(Flip(Kind.UP, sq, False) for sq in range(SQUARES))


_CHUNK = 9
"""Squares per designation table: four tables of 512 cover the 36 squares."""
_CHUNK_MASK = (1 << _CHUNK) - 1


def _by_chunk(actions: tuple[RacerAction, ...]) -> tuple[tuple[tuple[RacerAction, ...], ...], ...]:
    return tuple(
        tuple(tuple(actions[base + i] for i in range(_CHUNK) if bits >> i & 1) for bits in range(1 << _CHUNK))
        for base in range(0, SQUARES, _CHUNK)
    )


UP_BY_CHUNK = _by_chunk(UP)
REVEAL_BY_CHUNK = _by_chunk(REVEAL)
"""`up:` (or `reveal:`) actions at the face-down squares of each group of nine squares, by
those squares' bits of `down`: four look-ups list the actions of any set of face-down cards
in square order (random playouts meet a new set at almost every roll)."""


def designations(down: int, by_chunk: tuple[tuple[tuple[RacerAction, ...], ...], ...]) -> list[RacerAction]:
    """The `up:` or `reveal:` actions (see UP_BY_CHUNK) at the face-down cards, in square order."""
    first, second, third, fourth = by_chunk
    return [
        *first[down & _CHUNK_MASK],
        *second[down >> _CHUNK & _CHUNK_MASK],
        *third[down >> 2 * _CHUNK & _CHUNK_MASK],
        *fourth[down >> 3 * _CHUNK],
    ]


def flip_options(state: RacersPosition, rank: int) -> list[RacerAction]:
    """The legal flips for a roll of `rank` (1-5): `down:` first, then `up:`/`reveal:`.

    Empty only when every card of the rank is under a pawn and no card is face down.
    """
    down = state.down
    pawns = state.pawns
    flag_at = state.flag_at
    where = state.where
    unflagged: list[int] = []
    flagged: list[int] = []
    face_up = 0
    for card in CARDS_OF_RANK[rank]:
        sq = where[card]
        if down >> sq & 1:
            continue
        face_up += 1
        if sq in pawns:
            continue  # a pawn may not be on the card you decide to flip
        (flagged if flag_at[sq] >= 0 else unflagged).append(sq)
    # A flagged card only goes face down when no unflagged one of that rank can.
    to_turn_down = [DOWN[sq] for sq in sorted(unflagged or flagged)]
    if face_up < 4:  # a card of the rank is face down: any face-down card may be designated
        # "If all cards of that rank are face-down, you must try to turn one face-up."
        to_turn_down += designations(down, UP_BY_CHUNK)
        return to_turn_down
    if to_turn_down:
        return to_turn_down
    # "all cards of that rank are covered by pawns": any face-down card, rank unchecked.
    return designations(down, REVEAL_BY_CHUNK)


def wrong_guesses_alike(state: RacersPosition, legal: Sequence[RacerAction]) -> list[int]:
    """`Game.same_position` for Royal Racers: every wrong guess (an `up:` at a card of
    another rank than the roll) leaves the cards as they lie and sends the pawn back to
    the same square; only the card named is recorded (`last_flip`). Each is mapped to the
    first of them, every other action to itself."""
    alike = list(range(len(legal)))
    cards = state.cards
    roll = state.roll
    first = -1
    for index, action in enumerate(legal):
        if action.kind is TURNING_UP and RANK_OF[cards[action.arg]] != roll:
            if first < 0:
                first = index
            else:
                alike[index] = first
    return alike


def apply_flip(state: RacersPosition, action: RacerAction, player: int) -> None:
    """Flip the card; a face-up attempt on a card of another rank sends the pawn back."""
    kind, sq = action.kind, action.arg
    if kind is TURNING_DOWN:
        state.down |= 1 << sq
        state.last_flip = TURNED_DOWN[sq]
    elif kind is REVEALING or RANK_OF[state.cards[sq]] == state.roll:
        # `reveal` turns any card up; `up` only when the designated card has the rank.
        state.down &= ~(1 << sq)
        state.last_flip = (REVEALED if kind is REVEALING else TURNED_UP)[sq]
    else:
        send_back(state, player)  # the card must remain face down
        state.last_flip = WRONG_GUESSES[sq]


def send_back_target(state: RacersPosition, player: int) -> int:
    """The last flag the player touched, or the start if he has touched none."""
    flags = state.nflags
    touched = state.progress[player]
    index = touched - 1 if touched else flags - 1
    return state.flag_sq[player * flags + index]


def send_back(state: RacersPosition, player: int) -> None:
    """Wrong guess: the pawn goes back to the last flag touched (or the start).

    If that card is face down or another pawn stands on it, the pawn goes to the nearest
    face-up card without a pawn (fewest orthogonal steps, ties in reading order).
    """
    target = send_back_target(state, player)
    pawns = state.pawns
    taken = state.down  # face-down cards and the other pawns, as bits
    for other, sq in enumerate(pawns):
        if other != player and sq >= 0:
            taken |= 1 << sq
    if not taken >> target & 1:
        pawns[player] = target
        return
    for sq in NEAREST_FIRST[target]:
        if not taken >> sq & 1:
            pawns[player] = sq
            return
    pawns[player] = -1
