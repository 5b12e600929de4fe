"""Changing gear and moving: steps into the spaces in front, cars, ghosts, terrain, and the
track scrolling forward when a car drives off its front edge."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chaosgames.core.game import Action
from chaosgames.games.cardboard_machines import crashing, end_of_game, stress_test
from chaosgames.games.cardboard_machines.actions import SCROLL, STOP, Move
from chaosgames.games.cardboard_machines.boards import LANES, SIDES, START_BOARD, direction
from chaosgames.games.cardboard_machines.phases import GHOST_SUPPLY, MOVE, OVER, RETURN_STRESS

if TYPE_CHECKING:
    from chaosgames.games.cardboard_machines.state import CardboardState


# -- Changing gear -------------------------------------------------------------------------


def gear_change_stress(old: int, new: int) -> int:
    """A drop of more than 1 costs 1 stress; a rise costs 1 stress for every step above 1."""
    if new < old - 1:
        return 1
    if new > old + 1:
        return new - old - 1
    return 0


def change_gear(st: CardboardState, gear: int) -> None:
    p = st.mover
    st.add_stress(p, gear_change_stress(st.gear[p], gear))
    st.changed_gear = gear != st.gear[p]
    st.gear[p] = gear
    st.moves_left = gear
    st.phase = MOVE


# -- Moving --------------------------------------------------------------------------------


def can_end_from(st: CardboardState, space: int, points: int) -> bool:
    """Whether a car entering `space` with `points` left can still end on a space without
    another car ('cannot end their movement in the same space as another player')."""
    if st.car_at(space, st.mover) < 0:
        return True
    if points == 0:
        return False
    if space // LANES == st.front_row():
        return True  # the board added in front carries no car
    return any(can_end_from(st, t, points - 1) for _, t in st.targets(space))


def move_options(st: CardboardState) -> list[Action]:
    """Steps in front (left, ahead, right), or `scroll` from the front row, then `stop`."""
    p = st.mover
    here = st.pos[p]
    options: list[Action] = []
    if here // LANES == st.front_row():
        options.append(SCROLL)
    else:
        for lateral, space in st.targets(here):
            if can_end_from(st, space, st.moves_left - 1):
                options.append(Move("move", direction(lateral)))
    if not st.must_continue and st.car_at(here, p) < 0:
        options.append(STOP)
    return options


def enter(st: CardboardState, lateral: int, space: int) -> None:
    """The mover steps forward into `space`, paying what the seed's special spaces cost."""
    p = st.mover
    ahead = st.targets(st.pos[p])
    if barely_dodges(st, ahead, lateral):
        st.add_stress(p, 1)
    if space in st.ghosts:
        st.add_stress(p, 1)
    other = st.car_at(space, p)
    if other >= 0:
        st.add_stress(p, 1)
        st.add_stress(other, 1)
    st.pos[p] = space
    claim_round_token(st, p, space)


def barely_dodges(st: CardboardState, ahead: tuple[tuple[int, int], ...], lateral: int) -> bool:
    """The seed's four conditions: moving, three spaces in front, the one straight ahead is
    terrain, and the car goes on either side of it."""
    if len(ahead) != 3 or lateral == 0:
        return False
    return any(step == 0 and st.terrain_at(space) for step, space in ahead)


def step(st: CardboardState, name: str) -> None:
    lateral, space = next((s, t) for s, t in st.targets(st.pos[st.mover]) if direction(s) == name)
    enter(st, lateral, space)
    st.moves_left -= 1
    st.must_continue = False
    if st.phase != OVER and st.moves_left == 0:
        end_move(st)


def stop(st: CardboardState) -> None:
    """Moving fewer spaces costs 1 stress for every space not moved."""
    st.add_stress(st.mover, st.moves_left)
    st.moves_left = 0
    end_move(st)


def end_move(st: CardboardState) -> None:
    """Ending in terrain crashes; otherwise the stress test follows."""
    p = st.mover
    if st.terrain_at(st.pos[p]):
        crashing.crash_mover(st, st.pos[p])
        return
    if not st.changed_gear and not st.stressed and st.stress[p] > 0:
        st.phase = RETURN_STRESS
    else:
        stress_test.start_roll(st)


# -- Moving off the far edges of the board -------------------------------------------------


def drive_off_front(st: CardboardState) -> None:
    """`scroll`: costs no movement, and the car must then continue moving."""
    scroll(st)
    st.must_continue = True


def scroll(st: CardboardState) -> None:
    """Take the back board away, flip it and add it in front; cars on it crash; a dark-edged
    side lets the mover place a ghost."""
    n = st.game.num_players
    old_id, old_side = st.board_ids[0], st.sides[0]
    gone_below = (2 * st.back + 2) * LANES
    victims = [
        p for p in ((st.mover + i) % n for i in range(1, n)) if st.pos[p] != -1 and st.pos[p] < gone_below
    ]
    st.ghosts = {g for g in st.ghosts if g >= gone_below}
    st.back += 1
    st.board_ids = [*st.board_ids[1:], old_id]
    st.sides = [*st.sides[1:], 1 - old_side]
    if old_id == START_BOARD:
        st.lap += 1
        st.lap_claimed = False
    for p in victims:
        # The car's space left the table with its board: no ghost can stand in for it.
        crashing.crash(st, p, None)
        if st.phase == OVER:
            return
    if SIDES[old_id][1 - old_side].dark_edges and len(st.ghosts) < GHOST_SUPPLY and ghost_spaces(st):
        st.ghost_pending = True


def ghost_spaces(st: CardboardState) -> list[int]:
    """'any of the empty squares of the new board': no terrain, no car, no ghost."""
    first = (st.front_row() - 1) * LANES
    return [
        s
        for s in range(first, first + 2 * LANES)
        if not st.terrain_at(s) and s not in st.ghosts and st.car_at(s, -1) < 0
    ]


def place_ghost(st: CardboardState, space: int | None) -> None:
    st.ghost_pending = False
    if space is not None:
        st.ghosts.add(space)


# -- Round tokens (NOTES.md, item 3) --------------------------------------------------------


def claim_round_token(st: CardboardState, player: int, space: int) -> None:
    """Entering the row of board 0 that held her starting space, first in this lap."""
    row = space // LANES
    if (
        st.lap >= 1
        and not st.lap_claimed
        and st.tokens_left > 0
        and row % 2 == st.start_row[player]
        and st.board_of_row(row) == START_BOARD
    ):
        st.tokens[player] += 1
        st.tokens_left -= 1
        st.lap_claimed = True
        if st.tokens_left == 0:
            end_of_game.finish_by_score(st)


# -- Bonus movement of a malfunction ---------------------------------------------------------


def bonus_targets(st: CardboardState) -> list[tuple[int, int]]:
    """Spaces in front a one-space move may end on (never another car's)."""
    p = st.mover
    return [(s, t) for s, t in st.targets(st.pos[p]) if st.car_at(t, p) < 0]


def bonus_options(st: CardboardState) -> list[Action]:
    return [Move("move", direction(s)) for s, _ in bonus_targets(st)]


def bonus_step(st: CardboardState, name: str) -> None:
    lateral, space = next((s, t) for s, t in bonus_targets(st) if direction(s) == name)
    enter(st, lateral, space)
    if st.phase == OVER:
        return
    if st.terrain_at(space):
        crashing.crash_mover(st, space)
        return
    stress_test.after_bonus(st)
