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

from typing import TYPE_CHECKING, NamedTuple

from chaosgames.games.royal_racers.actions import DOWN, REVEAL, UP, RacerAction
from chaosgames.games.royal_racers.board import READING_RANK, SIZE, SQUARES

if TYPE_CHECKING:
    from chaosgames.games.royal_racers.state import RoyalRacersState


class Flip(NamedTuple):
    """The flip of this turn, remembered until the next roll: the card turned up is seen
    by everyone, even one that a wrong guess sends back face down."""

    kind: str
    """down, up or reveal (the kind of the flip action)."""
    square: int
    ok: bool
    """False for a wrong guess: the card stayed face down and the pawn was sent back."""


FLIP_KINDS = ("down", "up", "reveal")


def face_down_squares(down: int) -> list[int]:
    return [sq for sq in range(SQUARES) if down >> sq & 1]


def flip_options(state: RoyalRacersState, rank: int) -> list[RacerAction]:
    """The legal flips for a roll of `rank` (1-5): `down:` first, then `up:`/`reveal:`.

    Empty only when every card of the rank is under a pawn and no card is face down.
    """
    down = state.down
    pawns = state.pawns
    flag_at = state.flag_at
    unflagged: list[int] = []
    flagged: list[int] = []
    face_up = 0
    for card in range(4 * (rank - 1), 4 * rank):
        sq = state.where[card]
        if down >> sq & 1:
            continue
        face_up += 1
        if sq in pawns:
            continue  # a pawn may not be on the card you decide to flip
        (flagged if flag_at[sq] >= 0 else unflagged).append(sq)
    # A flagged card only goes face down when no unflagged one of that rank can.
    to_turn_down = sorted(unflagged or flagged)
    hidden_of_rank = 4 - face_up
    face_down = face_down_squares(down)
    if to_turn_down:
        options = [DOWN[sq] for sq in to_turn_down]
        if hidden_of_rank:
            options += [UP[sq] for sq in face_down]
        return options
    if hidden_of_rank:
        # "If all cards of that rank are face-down, you must try to turn one face-up."
        return [UP[sq] for sq in face_down]
    # "all cards of that rank are covered by pawns": any face-down card, rank unchecked.
    return [REVEAL[sq] for sq in face_down]


def apply_flip(state: RoyalRacersState, action: RacerAction, player: int) -> None:
    """Flip the card; a face-up attempt on a card of another rank sends the pawn back."""
    kind, sq = action
    ok = True
    if kind == "down":
        state.down |= 1 << sq
    elif kind == "reveal" or state.rank_at(sq) == state.roll:
        # `reveal` turns any card up; `up` only when the designated card has the rank.
        state.down &= ~(1 << sq)
    else:
        ok = False  # the card must remain face down
        send_back(state, player)
    state.last_flip = Flip(kind, sq, ok)


def send_back_target(state: RoyalRacersState, player: int) -> int:
    """The last flag the player touched, or the start if he has touched none."""
    flags = state.nflags
    touched = state.progress[player]
    index = touched - 1 if touched else flags - 1
    return state.flag_sq[player * flags + index]


def send_back(state: RoyalRacersState, player: int) -> None:
    """Wrong guess: the pawn goes back to the last flag touched (or the start).

    If that card is face down or another pawn stands on it, the pawn goes to the nearest
    face-up card without a pawn (fewest orthogonal steps, ties in reading order).
    """
    target = send_back_target(state, player)
    others = [p for i, p in enumerate(state.pawns) if i != player]
    down = state.down
    if not (down >> target & 1) and target not in others:
        state.pawns[player] = target
        return
    tx, ty = target % SIZE, target // SIZE
    best = -1
    best_key = (99, 99)
    for sq in range(SQUARES):
        if down >> sq & 1 or sq in others:
            continue
        key = (abs(sq % SIZE - tx) + abs(sq // SIZE - ty), READING_RANK[sq])
        if key < best_key:
            best, best_key = sq, key
    state.pawns[player] = best
