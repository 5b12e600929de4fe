"""Crashing: ghost, gear -3, stress to 1, a life lost, the car back on the third board."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chaosgames.games.cardboard_machines import end_of_game
from chaosgames.games.cardboard_machines.actions import PLACES, MachineAction
from chaosgames.games.cardboard_machines.boards import BOARD_SPACES, LANES
from chaosgames.games.cardboard_machines.phases import GHOST_SUPPLY, OFF, OVER, TURN_OVER

if TYPE_CHECKING:
    from chaosgames.games.cardboard_machines.table import Table

CRASH_GEAR_DROP = 3
RESTART_BOARD = 2
"""'the third board from the back' (0-based table index)."""


def crash(st: Table, player: int, ghost_at: int | None) -> None:
    """The rulebook's crash list, in order. `ghost_at` is None when the car's board left the table."""
    if ghost_at is not None and (ghost_at in st.ghosts or len(st.ghosts) < GHOST_SUPPLY):
        st.ghosts = st.ghosts | {ghost_at}  # a new set: clones share it (state.SHARED_LISTS)
    st.gear[player] = max(1, st.gear[player] - CRASH_GEAR_DROP)
    st.stress[player] = 1
    st.lives[player] -= 1
    st.pos[player] = OFF
    if st.lives[player] > 0:
        st.pending = [*st.pending, player]  # a new list: clones share it
    elif len(st.alive()) == 1:
        end_of_game.last_player_wins(st)


def crash_mover(st: Table, ghost_at: int) -> None:
    """The player taking her turn crashes: "Then continue with the next player" ends her
    turn once crashed cars are placed (unless the crash ended the game)."""
    crash(st, st.mover, ghost_at)
    if st.phase is not OVER:
        st.phase = TURN_OVER


def placement_spaces(st: Table) -> list[int]:
    """Edge spaces of the third board from the back: in each of its rows, the first space
    from the left wall and the first from the right wall that is neither terrain nor
    taken by a car (ghosts do not matter). Every board side of boards.json has at least
    4 spaces without terrain and at most 3 other cars are on the track, so some row always
    offers a space."""
    base = BOARD_SPACES * st.back
    terrain, pos = st.track.terrain, st.pos
    found: list[int] = []
    for row in (2 * RESTART_BOARD, 2 * RESTART_BOARD + 1):  # table rows of the third board
        lanes = range(row * LANES, (row + 1) * LANES)
        for t in lanes:  # from the left wall
            if not terrain[t] and base + t not in pos:
                found.append(base + t)
                break
        else:
            continue  # no free space in this row
        for t in reversed(lanes):  # from the right wall; the same space when it is the only one
            if not terrain[t] and base + t not in pos:
                if base + t != found[-1]:
                    found.append(base + t)
                break
    return found  # rows back to front, each left to right: in space order


def placement_options(st: Table) -> list[MachineAction]:
    base = BOARD_SPACES * st.back
    return [PLACES[s - base] for s in placement_spaces(st)]


def place(st: Table, space: int) -> None:
    """The crashed player (first waiting) puts her car on the edge space she chose."""
    player = st.pending[0]
    st.pending = st.pending[1:]  # a new list: clones share it
    st.pos[player] = space
