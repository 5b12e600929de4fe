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


_DESIGNATIONS: dict[int, tuple[tuple[RacerAction, ...], tuple[RacerAction, ...]]] = {}
"""`up:` and `reveal:` actions at the face-down cards, by the set of face-down cards:
search meets the same few sets again and again. Cleared when it grows large."""
_DESIGNATIONS_KEPT = 50_000


def _designations(down: int) -> tuple[tuple[RacerAction, ...], tuple[RacerAction, ...]]:
    found = _DESIGNATIONS.get(down)
    if found is None:
        if len(_DESIGNATIONS) >= _DESIGNATIONS_KEPT:
            _DESIGNATIONS.clear()
        face_down = face_down_squares(down)
        found = _DESIGNATIONS[down] = (
            tuple(UP[sq] for sq in face_down),
            tuple(REVEAL[sq] for sq in face_down),
        )
    return found


def flip_options(state: RoyalRacersState, rank: int) -> list[RacerAction]:
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
    ups, reveals = _designations(down)
    if face_up < 4:  # a card of the rank is face down: any face-down card may be designated
        # "If all cards of that rank are face-down, you must try to turn one face-up."
        return [*to_turn_down, *ups]
    if to_turn_down:
        return to_turn_down
    # "all cards of that rank are covered by pawns": any face-down card, rank unchecked.
    return list(reveals)


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
    for sq in NEAREST_FIRST[target]:
        if not (down >> sq & 1 or sq in others):
            state.pawns[player] = sq
            return
    state.pawns[player] = -1
