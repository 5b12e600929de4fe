"""The table as an SVG picture: six boards with their stagger, terrain, dark edges, ghosts
and cars (gear on the car, stress on a red badge); with the legend, a panel of lives,
round tokens and the race beside it.

Following `chaosgames.core.story`: every space carries `data-place` with its name (`7c`) and
a `<title>`; each board is a group `data-piece="board-7"` (its spaces inside it, so the page
can slide the track as it scrolls; `data-face` says which side is up), each car a group
`data-piece="car-red"` and each ghost a group `data-piece="ghost-<n>"`, n its space counted
from the first row the game began with (a ghost never moves: the id lasts until its board
leaves the table). A player clicks the space in front to move there, or the space to place a
crashed car or a ghost on (`action_places`)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, NamedTuple

from chaosgames.core.svg import Markup, element, kept, picture
from chaosgames.games.cardboard_machines import words
from chaosgames.games.cardboard_machines.actions import NO_GHOST, Kind, MachineAction
from chaosgames.games.cardboard_machines.boards import (
    LANES,
    SIDE_NAMES,
    SIDES,
    START_BOARD,
    TABLE_BOARDS,
    TABLE_ROWS,
)
from chaosgames.games.cardboard_machines.phases import OFF

if TYPE_CHECKING:
    from chaosgames.games.cardboard_machines.state import CardboardState

HALF = 22
"""Half a space, in user units: offsets shift boards by half a space."""
SPACE = 2 * HALF
FRAME_HALVES = 2 * LANES + 2
"""Lateral extent of a board frame in half spaces: offsets -1..+1 all fit inside."""
FRAME_WIDTH = FRAME_HALVES * HALF
TRACK_HEIGHT = TABLE_ROWS * SPACE
STRIP = 18
"""Room left of the boards for each board's label, written upwards (font LABEL_FONT)."""
PAD = 4
"""The margin of the board alone (legend=False)."""
MARGIN = 30
"""The margin of the picture with its legend panel."""
PANEL = 250
LABEL_FONT = 11
GEAR_FONT = 15
STRESS_FONT = 12
CAR_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#e6b800")
SPACE_NAME_FONT = 11
"""A space's name in its corner: 11.9 CSS px at 360 px wide."""
TERRAIN = "#7a5c3a"
ROAD = "#eae6dc"


class Frame(NamedTuple):
    """Where the track's top-left corner (the front board's frame) is drawn."""

    left: int
    top: int

    def x(self, lateral: int) -> int:
        """The left edge of a space whose lateral position is `lateral` half spaces."""
        return self.left + (lateral + 1) * HALF

    def y(self, table_row: int) -> int:
        """The top edge of table row `table_row` (0 the back row, drawn at the bottom)."""
        return self.top + (TABLE_ROWS - 1 - table_row) * SPACE


def action_places(st: CardboardState, action: MachineAction) -> tuple[str, ...]:
    """The space in front a move enters (in its lane), the space a crashed car or a ghost
    is put on; gears, dice and the rest are chosen from the list."""
    assert isinstance(action, MachineAction)
    kind, arg = action.kind, action.arg
    if kind in (Kind.PLACE, Kind.GHOST) and arg != NO_GHOST:
        return (action.argument(),)
    if kind is Kind.MOVE and st.pos[st.mover] != OFF:
        for direction, space in st.targets(st.pos[st.mover]):
            if direction == arg:
                return (st.name(space),)
    return ()


def render_svg(st: CardboardState, legend: bool = True) -> str:
    """The table; `legend=False`: the track alone, cropped to it (the web page draws the
    legend beside it), so that a space is as large as a phone allows."""
    margin = MARGIN if legend else PAD
    frame = Frame(margin + STRIP, margin)
    track_width = STRIP + FRAME_WIDTH
    width = 2 * margin + track_width + (PANEL if legend else 0)
    height = 2 * margin + TRACK_HEIGHT
    parts: list[Markup] = [element("rect", width=width, height=height, fill="#f4efe4")]
    if st.board_ids:
        parts.extend(_boards(st, frame))
        parts.extend(_ghosts(st, frame))
        parts.extend(_cars(st, frame))
    else:
        parts.append(
            element(
                "text",
                "The track is being laid.",
                x=frame.left + FRAME_WIDTH // 2,
                y=frame.top + TRACK_HEIGHT // 2,
                font_size=14,
                text_anchor="middle",
            )
        )
    if legend:
        parts.extend(_panel(st, 2 * margin + track_width))
    return picture(width, height, parts, font_family="sans-serif")


# -- the track -----------------------------------------------------------------------------


def _boards(st: CardboardState, frame: Frame) -> list[Markup]:
    return [_board(st, frame, b) for b in range(TABLE_BOARDS)]


def _board(st: CardboardState, frame: Frame, b: int) -> Markup:
    """Board `b` from the back: its frame, its label in the strip, its twelve spaces."""
    board, side = st.board_ids[b], st.sides[b]
    top = frame.y(2 * b + 1)
    spaces = tuple(_space(st, frame, 2 * (st.back + b) + r, col, b) for r in range(2) for col in range(LANES))
    return _board_drawn(words.board_title(st, b), board, side, frame, top, spaces)


# A board drawn as before (most of them, after a move) is not drawn again.
@functools.lru_cache(maxsize=1024)
def _board_drawn(
    title: str, board: int, side: int, frame: Frame, top: int, spaces: tuple[Markup, ...]
) -> Markup:
    face = SIDES[board][side]
    label_x = frame.left - STRIP // 2 + 4
    label_y = top + SPACE
    return element(
        "g",
        element("title", title),
        element(
            "rect",
            x=frame.left,
            y=top,
            width=FRAME_WIDTH,
            height=2 * SPACE,
            fill="#c9c9c9" if face.dark_edges else "#ffffff",
            stroke="#333333" if face.dark_edges else "#999999",
            stroke_width=4 if face.dark_edges else 1,
        ),
        element(
            "text",
            f"board {board} {SIDE_NAMES[side]}",
            x=label_x,
            y=label_y,
            font_size=LABEL_FONT,
            fill="#333",
            text_anchor="middle",
            transform=f"rotate(-90 {label_x} {label_y})",
        ),
        list(spaces),
        data_piece=f"board-{board}",
        data_face=SIDE_NAMES[side],
    )


def _space(st: CardboardState, frame: Frame, row: int, col: int, b: int) -> Markup:
    space = row * LANES + col
    board, side = st.board_ids[b], st.sides[b]
    if board == START_BOARD or space in st.pos or space in st.ghosts:
        return _space_anew(st, frame, row, col, b)
    # Nothing stands on it: its title says only where it is, drawn once a place.
    look = (space, st.back, board, side, frame)
    return kept(_BARE_SPACES, look, lambda: _space_anew(st, frame, row, col, b))


_BARE_SPACES: dict[tuple[object, ...], Markup] = {}


def _space_anew(st: CardboardState, frame: Frame, row: int, col: int, b: int) -> Markup:
    space = row * LANES + col
    face = SIDES[st.board_ids[b]][st.sides[b]]
    name = st.name(space)
    terrain = face.terrain[(row % 2) * LANES + col]
    x, y = frame.x(2 * col + face.offset) + 2, frame.y(st.table_row(space)) + 2
    return _space_drawn(x, y, name, bool(terrain), words.space_title(st, space))


# A picture is drawn for every change the server shows: a space drawn the same as before
# (most of them) is not drawn again.
@functools.lru_cache(maxsize=8192)
def _space_drawn(x: float, y: float, name: str, terrain: bool, title: str) -> Markup:
    rect = element(
        "rect",
        element("title", title),
        x=x,
        y=y,
        width=SPACE - 4,
        height=SPACE - 4,
        rx=4,
        fill=TERRAIN if terrain else ROAD,
        stroke="#888",
        data_place=name,
    )
    # The space's name, as the story says it ("moves right from 5c to 6d").
    label = element(
        "text",
        name,
        x=x + 3,
        y=y + 10,
        font_size=SPACE_NAME_FONT,
        fill="#eadfcd" if terrain else "#5f5f5f",
        pointer_events="none",
        class_="coord",
    )
    return Markup(rect + label)


def centre(st: CardboardState, frame: Frame, space: int) -> tuple[int, int]:
    row = space // LANES
    lateral = 2 * (space % LANES) + st.side_of_row(row).offset
    return frame.x(lateral) + HALF, frame.y(st.table_row(space)) + HALF


def _ghosts(st: CardboardState, frame: Frame) -> list[Markup]:
    parts = []
    for g in sorted(st.ghosts):
        cx, cy = centre(st, frame, g)
        parts.append(
            element(
                "g",
                element("title", words.ghost_title(st, g)),
                element(
                    "path",
                    d=f"M {cx - 10} {cy + 12} v -12 a 10 10 0 0 1 20 0 v 12 l -5 -4 l -5 4 l -5 -4 z",
                    fill="#fafafa",
                    stroke="#666",
                    opacity="0.9",
                ),
                element("circle", cx=cx - 4, cy=cy - 2, r=1.6, fill="#444"),
                element("circle", cx=cx + 4, cy=cy - 2, r=1.6, fill="#444"),
                data_piece=f"ghost-{g}",
            )
        )
    return parts


def _cars(st: CardboardState, frame: Frame) -> list[Markup]:
    parts = []
    names = st.game.player_names()
    for p, space in enumerate(st.pos):
        if space == OFF:
            continue
        cx, cy = centre(st, frame, space)
        mover = p == st.mover and st.result is None
        parts.append(
            element(
                "g",
                element("title", words.car_title(st, p)),
                element(
                    "circle",
                    cx=cx,
                    cy=cy,
                    r=15,
                    fill=CAR_COLOURS[p],
                    stroke="#000" if mover else "#222",
                    stroke_width=3 if mover else 1,
                ),
                _white_figure(st.gear[p], cx, cy + 5, GEAR_FONT),
                _stress_badge(st.stress[p], cx + 13, cy - 12),
                data_piece=f"car-{names[p]}",
            )
        )
    return parts


def _stress_badge(stress: int, x: int, y: int) -> Markup | None:
    """The car's stress on a dark red badge at its shoulder (none without stress)."""
    if not stress:
        return None
    return element(
        "g",
        element("circle", cx=x, cy=y, r=9, fill="#8b0000", stroke="#fff", stroke_width=1.5),
        _white_figure(stress, x, y + 4, STRESS_FONT),
    )


def _white_figure(figure: int, x: int, y: int, size: int) -> Markup:
    """A bold white number centred on `x` (its baseline at `y`), as the gear on a car and
    the stress on its badge are written."""
    return element(
        "text", figure, x=x, y=y, font_size=size, text_anchor="middle", fill="#fff", font_weight="bold"
    )


# -- the panel (legend=True) ---------------------------------------------------------------


def _panel(st: CardboardState, left: int) -> list[Markup]:
    names = st.game.player_names()
    parts = [element("text", "Cardboard Machines", x=left, y=MARGIN + 10, font_size=15, font_weight="bold")]
    y = MARGIN + 36
    for p, who in enumerate(names):
        parts.append(element("circle", cx=left + 8, cy=y - 4, r=7, fill=CAR_COLOURS[p]))
        parts.append(element("text", f"{who}: {words.car_state(st, p)}", x=left + 20, y=y, font_size=12))
        parts.append(
            element(
                "text",
                f"♥ {st.lives[p]} · round tokens {st.tokens[p]}",
                x=left + 20,
                y=y + 16,
                font_size=12,
                fill="#8b0000",
            )
        )
        y += 40
    parts.append(element("text", f"round tokens left: {st.tokens_left}", x=left, y=y, font_size=12))
    y += 20
    parts.append(element("text", f"lap {st.lap}, turn {st.turn + 1}", x=left, y=y, font_size=12))
    y += 20
    if st.result is not None:
        winners = ", ".join(names[p] for p, r in enumerate(st.result) if r > 0)
        parts.append(element("text", f"winner: {winners}", x=left, y=y, font_size=12))
    elif st.board_ids:
        parts.append(element("text", f"{names[words.acting(st)]} to act", x=left, y=y, font_size=12))
    y += 30
    for line in ("Cars drive up the page.", "On a car: its gear;", "on its red badge: its stress."):
        parts.append(element("text", line, x=left, y=y, font_size=11, fill="#555"))
        y += 15
    return parts
