"""The table as an SVG picture: six boards with their stagger, terrain, dark edges, ghosts,
cars (gear on the car, stress beside it) and a panel of lives and round tokens.

Every space carries `data-place` with its name (`7c`): a player clicks the space in front
to move there, or the space to place a crashed car or a ghost on (`action_places`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chaosgames.core.game import Action
from chaosgames.core.svg import Markup, element, picture
from chaosgames.games.cardboard_machines.actions import NO_GHOST, Kind, Move, space_name
from chaosgames.games.cardboard_machines.boards import LANES, SIDE_NAMES, SIDES, TABLE_BOARDS, TABLE_ROWS
from chaosgames.games.cardboard_machines.phases import OFF

if TYPE_CHECKING:
    from chaosgames.games.cardboard_machines.state import CardboardState

HALF = 22
"""Half a space, in pixels: offsets shift boards by half a space."""
SPACE = 2 * HALF
MARGIN = 30
FRAME_HALVES = 2 * LANES + 2
"""Lateral extent of a board frame in half spaces: offsets -1..+1 all fit inside."""
LABELS = 70
"""Room right of the boards for each board's id, side and offset."""
PANEL = 230
CAR_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#e6b800")


def _x(lateral: int) -> int:
    return MARGIN + (lateral + 1) * HALF


def _y(table_row: int) -> int:
    return MARGIN + (TABLE_ROWS - 1 - table_row) * SPACE


def action_places(st: CardboardState, action: Action) -> tuple[str, ...]:
    """The space in front a move enters (in its lane), the space a crashed car or a ghost
    is put on; gears, dice and the rest are chosen from the list."""
    assert isinstance(action, Move)
    kind, arg = action
    if kind in (Kind.PLACE, Kind.GHOST) and arg != NO_GHOST:
        return (space_name(arg),)
    if kind is Kind.MOVE and st.pos[st.mover] != OFF:
        for direction, space in st.targets(st.pos[st.mover]):
            if direction == arg:
                return (st.name(space),)
    return ()


def render_svg(st: CardboardState) -> str:
    width = MARGIN * 2 + FRAME_HALVES * HALF + LABELS + PANEL
    height = MARGIN * 2 + TABLE_ROWS * SPACE
    parts: list[Markup] = [element("rect", width=width, height=height, fill="#f4efe4")]
    if st.board_ids:
        parts.extend(_boards(st))
        parts.extend(_ghosts(st))
        parts.extend(_cars(st))
    parts.extend(_panel(st, MARGIN * 2 + FRAME_HALVES * HALF + LABELS))
    return picture(width, height, parts, font_family="sans-serif")


def _boards(st: CardboardState) -> list[Markup]:
    parts = []
    frame_w = FRAME_HALVES * HALF
    for b in range(TABLE_BOARDS):
        board, side = st.board_ids[b], st.sides[b]
        face = SIDES[board][side]
        top = _y(2 * b + 1)
        parts.append(
            element(
                "rect",
                x=MARGIN,
                y=top,
                width=frame_w,
                height=2 * SPACE,
                fill="#c9c9c9" if face.dark_edges else "#ffffff",
                stroke="#333333" if face.dark_edges else "#999999",
                stroke_width=4 if face.dark_edges else 1,
            )
        )
        label_x = MARGIN + frame_w + 6
        parts.append(
            element("text", f"board {board}", x=label_x, y=top + SPACE - 3, font_size=11, fill="#333")
        )
        parts.append(
            element(
                "text",
                f"{SIDE_NAMES[side]} {face.offset:+d}",
                x=label_x,
                y=top + SPACE + 11,
                font_size=10,
                fill="#555",
            )
        )
        for r in range(2):
            row = 2 * (st.back + b) + r
            for col in range(LANES):
                name = st.name(row * LANES + col)
                parts.append(
                    element(
                        "rect",
                        element("title", name),
                        x=_x(2 * col + face.offset) + 2,
                        y=_y(2 * b + r) + 2,
                        width=SPACE - 4,
                        height=SPACE - 4,
                        rx=4,
                        fill="#7a5c3a" if face.terrain[r * LANES + col] else "#eae6dc",
                        stroke="#888",
                        data_place=name,
                    )
                )
    parts.append(
        element(
            "path",
            element("title", "driving direction"),
            d=f"M {MARGIN - 15} {MARGIN + 40} l 8 -14 l 8 14 z",
            fill="#555",
        )
    )
    return parts


def _centre(st: CardboardState, space: int) -> tuple[int, int]:
    row = space // LANES
    lateral = 2 * (space % LANES) + st.side_of_row(row).offset
    return _x(lateral) + HALF, _y(st.table_row(space)) + HALF


def _ghosts(st: CardboardState) -> list[Markup]:
    parts = []
    for g in sorted(st.ghosts):
        cx, cy = _centre(st, g)
        parts.append(
            element(
                "path",
                element("title", f"ghost on {st.name(g)}"),
                d=f"M {cx - 10} {cy + 12} v -12 a 10 10 0 0 1 20 0 v 12 l -5 -4 l -5 4 l -5 -4 z",
                fill="#fafafa",
                stroke="#666",
                opacity="0.9",
            )
        )
    return parts


def _cars(st: CardboardState) -> list[Markup]:
    parts = []
    names = st.game.player_names()
    for p, space in enumerate(st.pos):
        if space == OFF:
            continue
        cx, cy = _centre(st, space)
        mover = p == st.mover and st.result is None
        parts.append(
            element(
                "circle",
                element("title", f"{names[p]}: gear {st.gear[p]}, stress {st.stress[p]}"),
                cx=cx,
                cy=cy,
                r=14,
                fill=CAR_COLOURS[p],
                stroke="#000" if mover else "#222",
                stroke_width=3 if mover else None,
            )
        )
        parts.append(
            element(
                "text",
                st.gear[p],
                x=cx,
                y=cy + 5,
                font_size=14,
                text_anchor="middle",
                fill="#fff",
                font_weight="bold",
            )
        )
        if st.stress[p]:
            parts.append(
                element(
                    "text", st.stress[p], x=cx + 12, y=cy - 9, font_size=10, fill="#b00", font_weight="bold"
                )
            )
    return parts


def _panel(st: CardboardState, left: int) -> list[Markup]:
    names = st.game.player_names()
    parts = [element("text", "Cardboard Machines", x=left, y=MARGIN + 10, font_size=15, font_weight="bold")]
    y = MARGIN + 36
    for p, who in enumerate(names):
        state = "out" if st.lives[p] == 0 else f"gear {st.gear[p]}, stress {st.stress[p]}"
        if st.lives[p] and st.pos[p] == OFF and st.board_ids:
            state += " (crashed)"
        parts.append(element("circle", cx=left + 8, cy=y - 4, r=7, fill=CAR_COLOURS[p]))
        parts.append(element("text", f"{who}: {state}", x=left + 20, y=y, font_size=12))
        parts.extend(
            element("circle", cx=left + 26 + 14 * i, cy=y + 12, r=5, fill="#c00") for i in range(st.lives[p])
        )
        parts.extend(
            element("rect", x=left + 80 + 14 * i, y=y + 7, width=10, height=10, fill="#d4a017")
            for i in range(st.tokens[p])
        )
        y += 40
    parts.append(element("text", f"round tokens left: {st.tokens_left}", x=left, y=y, font_size=12))
    parts.extend(
        element("rect", x=left + 14 * i, y=y + 6, width=10, height=10, fill="#d4a017")
        for i in range(st.tokens_left)
    )
    y += 34
    parts.append(element("text", f"lap {st.lap}, turn {st.turn + 1}", x=left, y=y, font_size=12))
    if st.result is not None:
        winners = ", ".join(names[p] for p, r in enumerate(st.result) if r > 0)
        parts.append(element("text", f"winner: {winners}", x=left, y=y + 18, font_size=12))
    elif st.board_ids:
        parts.append(element("text", f"{names[st.mover]} to act", x=left, y=y + 18, font_size=12))
    return parts
