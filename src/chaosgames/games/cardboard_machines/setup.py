"""Setup: the starting player, the track of six boards, the cars on the starting spaces."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chaosgames.games.cardboard_machines.boards import (
    BOARD_IDS,
    LANES,
    START_BOARD,
    START_SPACES,
    TABLE_BOARDS,
    WHITE,
    laid_boards,
)
from chaosgames.games.cardboard_machines.phases import BOARDS, GEAR

if TYPE_CHECKING:
    from chaosgames.games.cardboard_machines.table import Table

DRAWN_BOARDS = 5
"""One board behind the starting board and four in front; the other three stay in the box."""
START_INDEX = 1
"""The starting board is the second board from the back."""


def choose_first(st: Table, player: int) -> None:
    """'Choose a starting player' (a uniform chance node)."""
    st.first = player
    given = st.game.options["boards"]
    if given is None:
        st.phase = BOARDS
    else:
        ids, sides = laid_boards(given)
        lay_track(st, [ids[0], *ids[2:]], sides)


def draw_board(st: Table, board: int) -> None:
    """Shuffle the other boards: each draw takes the next place, behind first, then front."""
    st.drawn = [*st.drawn, board]  # a new list: clones share it (state.SHARED_LISTS)
    if len(st.drawn) == DRAWN_BOARDS:
        lay_track(st, st.drawn)


def lay_track(st: Table, drawn: list[int], sides: list[int] | None = None) -> None:
    """Board 0 white as the start, drawn[0] behind it, drawn[1:] in front, all white side up
    (or, for a track the boards option lays, the sides it names)."""
    st.board_ids = [drawn[0], START_BOARD, *drawn[1:]]
    st.sides = list(sides) if sides is not None else [WHITE] * len(st.board_ids)
    st.unused = [b for b in BOARD_IDS if b not in st.board_ids]
    st.back = 0
    st.retrack()
    place_cars(st)
    st.mover = st.first
    st.phase = GEAR


def place_cars(st: Table) -> None:
    """From the starting player clockwise, cars go on starting spaces 1, 2, 3, 4."""
    n = st.game.num_players
    start_row = [0] * n  # a new list: clones share it (state.SHARED_LISTS)
    for i in range(n):
        player = (st.first + i) % n
        col, row = START_SPACES[i + 1]
        st.pos[player] = (2 * START_INDEX + row) * LANES + col
        start_row[player] = row
    st.start_row = start_row


def times_scrolled_away(place: int, back: int) -> int:
    """How often the board laid at `place` (0 = back) has left the back of the table after
    `back` scrolls: the boards keep their cyclic order, so it leaves on scrolls place+1,
    place+7, ... (each time flipped; board 0's departures are the laps)."""
    return (back - place + TABLE_BOARDS - 1) // TABLE_BOARDS
