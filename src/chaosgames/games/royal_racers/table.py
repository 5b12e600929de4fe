"""What everyone at the table sees of a position, as the picture, the text and the story
read it: each square's look, and the card a wrong guess showed.

Every seat and every spectator sees the same table. A face-down card shows its back (its
rank too with the memory aid on); a card turned up by a wrong guess is shown face up with
a "wrong" mark for as long as that guess is the latest decision (`state.last_flip`), then
it is a card back again like any other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from chaosgames.games.royal_racers.state import RoyalRacersState

HIDDEN = -2
"""A square's card in `square_look` when it lies face down and its rank is not shown."""

Look = tuple[int, bool, bool, int, bool, int]
"""(card shown or HIDDEN or -1, face down, wrong-guess mark, flag slot or -1, that flag
touched, pawn's seat or -1)."""


def wrong_guess_square(state: RoyalRacersState) -> int:
    """The square whose card a wrong guess has just shown to everyone (-1: none)."""
    flip = state.last_flip
    return flip.square if flip is not None and not flip.ok else -1


def square_look(state: RoyalRacersState, sq: int, reveal: bool = False) -> Look:
    """Everything the picture draws at a square: the same look, the same drawing."""
    pawn = state.pawns.index(sq) if sq in state.pawns else -1
    return _look(state, sq, wrong_guess_square(state), state.memory_aid or reveal, pawn)


def square_looks(state: RoyalRacersState, reveal: bool = False) -> list[Look]:
    """`square_look` of every square, read in one pass (a picture draws them all)."""
    wrong = wrong_guess_square(state)
    aid = state.memory_aid or reveal
    pawns: dict[int, int] = {}
    for p, at in enumerate(state.pawns):
        pawns.setdefault(at, p)  # the first pawn on a square, as `list.index` finds it
    return [_look(state, sq, wrong, aid, pawns.get(sq, -1)) for sq in range(len(state.cards))]


def _look(state: RoyalRacersState, sq: int, wrong_square: int, aid: bool, pawn: int) -> Look:
    """A square's look, given the wrong guess's square, whether ranks face down are shown
    (the memory aid, or a replay's reveal) and the pawn on it."""
    card = state.cards[sq]
    down = bool(state.down >> sq & 1)
    wrong = sq == wrong_square
    shown = card if card < 0 or not down or wrong or aid else HIDDEN
    slot = state.flag_at[sq]
    touched = slot >= 0 and flag_touched(state, slot)
    return (shown, down, wrong, slot, touched, pawn)


def flag_touched(state: RoyalRacersState, slot: int) -> bool:
    """Whether the flag in `slot` (owner * flags + index) has been touched in this race."""
    return state.progress[slot // state.nflags] > slot % state.nflags
