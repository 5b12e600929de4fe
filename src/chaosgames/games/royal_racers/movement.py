"""Turn step 2, movement: one orthogonal step onto a face-up card without a pawn.

Flags count only in order: a pawn touches its next flag by stepping onto it. The Flag
Variant forbids stepping onto an opponent's flag while the pawn's next flag can still be
reached by a path of face-up, pawn-free cards that avoids opponents' flags.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from chaosgames.core.game import shared_actions
from chaosgames.games.royal_racers.actions import MOVE, STAY, RacerAction
from chaosgames.games.royal_racers.board import NEIGHBOURS

if TYPE_CHECKING:
    from chaosgames.games.royal_racers.rules_in_force import RacersPosition


def other_pawns_mask(state: RacersPosition, player: int) -> int:
    mask = 0
    for i, sq in enumerate(state.pawns):
        if i != player and sq >= 0:
            mask |= 1 << sq
    return mask


def opponent_flags_mask(state: RacersPosition, player: int) -> int:
    flags = state.nflags
    mask = 0
    for slot, sq in enumerate(state.flag_sq):
        if sq >= 0 and slot // flags != player:
            mask |= 1 << sq
    return mask


def next_flag_square(state: RacersPosition, player: int) -> int:
    return state.flag_sq[player * state.nflags + state.progress[player]]


def reachable(start: int, target: int, blocked: int) -> bool:
    """Whether a path of one-space steps over unblocked squares leads from start to target."""
    if blocked >> target & 1:
        return False
    seen = (1 << start) | blocked
    queue = deque([start])
    while queue:
        sq = queue.popleft()
        if sq == target:
            return True
        for n in NEIGHBOURS[sq]:
            if not seen >> n & 1:
                seen |= 1 << n
                queue.append(n)
    return False


def move_destinations(state: RacersPosition, player: int) -> list[int]:
    """Squares the pawn may step to, in square order (a1, b1, ..., f6)."""
    here = state.pawns[player]
    blocked = state.down | other_pawns_mask(state, player)
    dests = [n for n in NEIGHBOURS[here] if not blocked >> n & 1]  # in square order
    if state.flag_variant and dests:
        opponents = opponent_flags_mask(state, player)
        target = next_flag_square(state, player)
        if (
            here != target
            and any(opponents >> d & 1 for d in dests)
            and reachable(here, target, blocked | opponents)
        ):
            dests = [d for d in dests if not opponents >> d & 1]
    return dests


def move_options(state: RacersPosition, player: int) -> list[RacerAction]:
    """`move:` actions; `stay` too when moving is optional. Empty: the move is forfeited.
    The list may be one of `MOVES_TO_FREE`'s, shared between states: never change it."""
    if state.flag_variant:
        options = [MOVE[sq] for sq in move_destinations(state, player)]
    else:
        # The plain rule, at every turn of every playout: one look-up per neighbour.
        # Every pawn blocks, the player's own too: it stands on none of its neighbours.
        pawns = state.pawns
        blocked = state.down
        for sq in pawns:
            if sq >= 0:
                blocked |= 1 << sq
        here = pawns[player]
        options = MOVES_TO_FREE[here][NEIGHBOUR_BITS[here] & ~blocked]
    if options and state.optional_move:
        return [*options, STAY]
    return options


NEIGHBOUR_BITS: tuple[int, ...] = tuple(sum(1 << n for n in neighbours) for neighbours in NEIGHBOURS)
"""Each square's neighbours as bits."""


def _moves_to_free(neighbours: tuple[int, ...]) -> dict[int, list[RacerAction]]:
    table: dict[int, list[RacerAction]] = {}
    for subset in range(1 << len(neighbours)):
        chosen = [n for i, n in enumerate(neighbours) if subset >> i & 1]
        table[sum(1 << n for n in chosen)] = shared_actions(MOVE[n] for n in chosen)
    return table


MOVES_TO_FREE: tuple[dict[int, list[RacerAction]], ...] = tuple(
    _moves_to_free(neighbours) for neighbours in NEIGHBOURS
)
"""Each square's steps by the bits of its free neighbours, in square order: one look-up
for the moves of every turn of every playout, handed out as they are (`shared_actions`:
the core finds the step played among them by identity, and nothing copies them)."""


def touch(state: RacersPosition, player: int) -> bool:
    """After a step: count the flag if it is the next one in order; True if it was the last."""
    if state.pawns[player] != next_flag_square(state, player):
        return False
    state.progress[player] += 1
    return state.progress[player] == state.nflags
