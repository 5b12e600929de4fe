"""Changing gear and moving: steps into the spaces in front, cars, ghosts, terrain, and the
track scrolling forward when a car drives off its front edge."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chaosgames.core.game import shared_actions
from chaosgames.games.cardboard_machines import crashing, end_of_game
from chaosgames.games.cardboard_machines.actions import GHOST_NONE, GHOSTS, SCROLL, STEPS, STOP, MachineAction
from chaosgames.games.cardboard_machines.boards import (
    BOARD_SPACES,
    LANES,
    ROW_AHEAD,
    SIDES,
    START_BOARD,
    TABLE_ROWS,
)
from chaosgames.games.cardboard_machines.phases import GHOST_SUPPLY, MOVE, OFF, OVER

if TYPE_CHECKING:
    from chaosgames.games.cardboard_machines.table import Table

FRONT_ROW = (TABLE_ROWS - 1) * LANES
"""The first table space of the front row."""
STEP_OPTIONS = {
    directions: shared_actions(STEPS[d] for d in directions)
    for table in ROW_AHEAD.values()
    for pairs in table
    for directions in [tuple(d for d, _ in pairs)]
}
"""The steps in front, by the directions there are spaces in (shared lists, as the core
takes them: never changed)."""
STEP_OR_STOP_OPTIONS = {
    directions: shared_actions([*steps, STOP]) for directions, steps in STEP_OPTIONS.items()
}
"""The same steps, then `stop`."""
SCROLL_OPTIONS = shared_actions([SCROLL])
SCROLL_OR_STOP_OPTIONS = shared_actions([SCROLL, STOP])


# -- Changing gear -------------------------------------------------------------------------


def gear_change_stress(old: int, new: int) -> int:
    """A drop of more than 1 costs 1 stress; a rise costs 1 stress for every step above 1."""
    if new < old - 1:
        return 1
    if new > old + 1:
        return new - old - 1
    return 0


GEAR_CHANGE_STRESS = tuple(tuple(gear_change_stress(old, new) for new in range(7)) for old in range(7))
"""gear_change_stress(old, new) as GEAR_CHANGE_STRESS[old][new] (a gear change every turn)."""


def change_gear(st: Table, gear: int) -> None:
    p = st.mover
    old = st.gear[p]
    cost = GEAR_CHANGE_STRESS[old][gear]
    if cost:
        st.add_stress(p, cost)
    st.changed_gear = gear != old
    st.gear[p] = gear
    st.moves_left = gear
    st.phase = MOVE


# -- Moving --------------------------------------------------------------------------------


def can_end_from(st: Table, space: int, points: int) -> bool:
    """Whether a car entering `space` with `points` left can still end on a space without
    another car ('cannot end their movement in the same space as another player')."""
    if space not in st.pos or st.car_at(space, st.mover) < 0:
        return True
    if points == 0:
        return False
    if space // LANES == st.front_row():
        return True  # the board added in front carries no car
    return any(can_end_from(st, t, points - 1) for _, t in st.targets(space))


def move_options(st: Table) -> list[MachineAction]:
    """Steps in front (left, ahead, right), or `scroll` from the front row, then `stop`."""
    pos = st.pos
    here = pos[st.mover]
    t = here - BOARD_SPACES * st.back
    may_stop = not st.must_continue and pos.count(here) == 1  # not resting on another car
    if t >= FRONT_ROW:
        return SCROLL_OR_STOP_OPTIONS if may_stop else SCROLL_OPTIONS
    front = here - here % LANES + LANES  # the first space of the row in front
    for car in pos:
        if front <= car < front + LANES:
            # A car in front: a step there needs a free space to end on after it.
            points = st.moves_left - 1
            options = [
                STEPS[d]
                for d, delta in st.track.ahead[t]
                if here + delta not in pos or can_end_from(st, here + delta, points)
            ]
            if may_stop:
                options.append(STOP)
            return options
    return (STEP_OR_STOP_OPTIONS if may_stop else STEP_OPTIONS)[st.track.directions[t]]


def enter(st: Table, direction: int, space: int) -> None:
    """The mover steps forward into `space`, paying what the rulebook's special spaces cost."""
    p = st.mover
    if direction and st.track.dodge[st.pos[p] - BOARD_SPACES * st.back]:
        # Barely dodging: three spaces in front, terrain straight ahead, going beside it.
        st.add_stress(p, 1)
    if space in st.ghosts:
        st.add_stress(p, 1)
    if space in st.pos:
        other = st.car_at(space, p)
        st.add_stress(p, 1)
        st.add_stress(other, 1)
    st.pos[p] = space
    if st.lap and not st.lap_claimed:
        claim_round_token(st, p, space)


def step(st: Table, direction: int) -> None:
    """One space forward, into the space in front in `direction` (-1 left, 0 ahead, 1
    right); the move ends when no points are left (the caller ends it)."""
    here = st.pos[st.mover]
    for d, delta in st.track.ahead[here - BOARD_SPACES * st.back]:
        if d == direction:
            enter(st, direction, here + delta)
            break
    else:
        raise ValueError(f"no space in front in direction {direction}")
    st.moves_left -= 1
    st.must_continue = False


def stop(st: Table) -> None:
    """Moving fewer spaces costs 1 stress for every space not moved."""
    st.add_stress(st.mover, st.moves_left)
    st.moves_left = 0


# -- Moving off the far edges of the board -------------------------------------------------


def drive_off_front(st: Table) -> None:
    """`scroll`: costs no movement, and the car must then continue moving."""
    scroll(st)
    st.must_continue = True


def scroll(st: Table) -> None:
    """Take the back board away, flip it and add it in front; cars on it crash; a dark-edged
    side lets the mover place a ghost."""
    n = st.game.num_players
    old_id, old_side = st.board_ids[0], st.sides[0]
    gone_below = (2 * st.back + 2) * LANES
    victims = [
        p for p in ((st.mover + i) % n for i in range(1, n)) if st.pos[p] != OFF and st.pos[p] < gone_below
    ]
    st.ghosts = {g for g in st.ghosts if g >= gone_below}
    st.back += 1
    st.board_ids = [*st.board_ids[1:], old_id]
    st.sides = [*st.sides[1:], 1 - old_side]
    st.retrack()
    if old_id == START_BOARD:
        st.lap += 1
        st.lap_claimed = False
    for p in victims:
        # The car's space left the table with its board: no ghost can stand in for it.
        crashing.crash(st, p, None)
        if st.phase is OVER:
            return
    if SIDES[old_id][1 - old_side].dark_edges and len(st.ghosts) < GHOST_SUPPLY and ghost_spaces(st):
        st.ghost_pending = True


def ghost_spaces(st: Table) -> list[int]:
    """'any of the empty squares of the new board': no terrain, no car, no ghost."""
    base = BOARD_SPACES * st.back
    terrain, ghosts, pos = st.track.terrain, st.ghosts, st.pos
    first = (TABLE_ROWS - 2) * LANES  # the table space where the front board begins
    return [
        base + t
        for t in range(first, first + 2 * LANES)
        if not terrain[t] and base + t not in ghosts and base + t not in pos
    ]


def ghost_options(st: Table) -> list[MachineAction]:
    base = BOARD_SPACES * st.back
    return [*(GHOSTS[s - base] for s in ghost_spaces(st)), GHOST_NONE]


def place_ghost(st: Table, space: int | None) -> None:
    st.ghost_pending = False
    if space is not None:
        st.ghosts = st.ghosts | {space}  # a new set: clones share it (state.SHARED_LISTS)


# -- Round tokens (NOTES.md, item 3) --------------------------------------------------------


def claim_round_token(st: Table, player: int, space: int) -> None:
    """Entering the row of board 0 that held her starting space, first in this lap."""
    if (
        st.lap >= 1
        and not st.lap_claimed
        and st.tokens_left > 0
        and space // LANES - 2 * st.back == st.track.start_rows[st.start_row[player]]
    ):
        st.tokens[player] += 1
        st.tokens_left -= 1
        st.lap_claimed = True
        if st.tokens_left == 0:
            end_of_game.finish_by_score(st)
