"""The table as an SVG picture: six boards with their stagger, terrain, dark edges, ghosts,
cars (gear on the car, stress beside it) and a panel of lives and round tokens.

Every space carries `data-place` with its name (`7c`): a player clicks the space in front
to move there, or the space to place a crashed car or a ghost on (`action_places`)."""

from __future__ import annotations

from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from chaosgames.core.game import Action
from chaosgames.games.cardboard_machines.actions import Move
from chaosgames.games.cardboard_machines.boards import (
    LANES,
    SIDE_NAMES,
    SIDES,
    TABLE_BOARDS,
    TABLE_ROWS,
    direction,
)
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
    if action.kind in ("place", "ghost") and action.arg != "none":
        return (action.arg,)
    if action.kind == "move" and st.pos[st.mover] != OFF:
        for lateral, space in st.targets(st.pos[st.mover]):
            if direction(lateral) == action.arg:
                return (st.name(space),)
    return ()


def render_svg(st: CardboardState) -> str:
    width = MARGIN * 2 + FRAME_HALVES * HALF + LABELS + PANEL
    height = MARGIN * 2 + TABLE_ROWS * SPACE
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f'<rect width="{width}" height="{height}" fill="#f4efe4"/>',
    ]
    if st.board_ids:
        out.extend(_boards(st))
        out.extend(_ghosts(st))
        out.extend(_cars(st))
    out.extend(_panel(st, MARGIN * 2 + FRAME_HALVES * HALF + LABELS))
    out.append("</svg>")
    return "\n".join(out)


def _boards(st: CardboardState) -> list[str]:
    parts = []
    frame_w = FRAME_HALVES * HALF
    for b in range(TABLE_BOARDS):
        board, side = st.board_ids[b], st.sides[b]
        face = SIDES[board][side]
        top = _y(2 * b + 1)
        fill = "#c9c9c9" if face.dark_edges else "#ffffff"
        edge = "#333333" if face.dark_edges else "#999999"
        parts.append(
            f'<rect x="{MARGIN}" y="{top}" width="{frame_w}" height="{2 * SPACE}" fill="{fill}" '
            f'stroke="{edge}" stroke-width="{4 if face.dark_edges else 1}"/>'
        )
        label_x = MARGIN + frame_w + 6
        parts.append(
            f'<text x="{label_x}" y="{top + SPACE - 3}" font-size="11" fill="#333">board {board}</text>'
            f'<text x="{label_x}" y="{top + SPACE + 11}" font-size="10" fill="#555">'
            f"{SIDE_NAMES[side]} {face.offset:+d}</text>"
        )
        for r in range(2):
            row = 2 * (st.back + b) + r
            for col in range(LANES):
                space = row * LANES + col
                x = _x(2 * col + face.offset)
                y = _y(2 * b + r)
                colour = "#7a5c3a" if face.terrain[r * LANES + col] else "#eae6dc"
                parts.append(
                    f'<rect x="{x + 2}" y="{y + 2}" width="{SPACE - 4}" height="{SPACE - 4}" rx="4" '
                    f'fill="{colour}" stroke="#888" data-place="{st.name(space)}">'
                    f"<title>{st.name(space)}</title></rect>"
                )
    parts.append(
        f'<path d="M {MARGIN - 15} {MARGIN + 40} l 8 -14 l 8 14 z" fill="#555">'
        "<title>driving direction</title></path>"
    )
    return parts


def _centre(st: CardboardState, space: int) -> tuple[int, int]:
    row = space // LANES
    t = st.table_row(space)
    lateral = 2 * (space % LANES) + st.side_of_row(row).offset
    return _x(lateral) + HALF, _y(t) + HALF


def _ghosts(st: CardboardState) -> list[str]:
    parts = []
    for g in sorted(st.ghosts):
        cx, cy = _centre(st, g)
        parts.append(
            f'<path d="M {cx - 10} {cy + 12} v -12 a 10 10 0 0 1 20 0 v 12 l -5 -4 l -5 4 l -5 -4 z" '
            f'fill="#fafafa" stroke="#666" opacity="0.9"><title>ghost on {st.name(g)}</title></path>'
        )
    return parts


def _cars(st: CardboardState) -> list[str]:
    parts = []
    names = st.game.player_names()
    for p, space in enumerate(st.pos):
        if space == OFF:
            continue
        cx, cy = _centre(st, space)
        colour = CAR_COLOURS[p]
        ring = ' stroke="#000" stroke-width="3"' if p == st.mover and st.result is None else ' stroke="#222"'
        parts.append(
            f'<circle cx="{cx}" cy="{cy}" r="14" fill="{colour}"{ring}>'
            f"<title>{escape(names[p])}: gear {st.gear[p]}, stress {st.stress[p]}</title></circle>"
        )
        parts.append(
            f'<text x="{cx}" y="{cy + 5}" font-size="14" text-anchor="middle" fill="#fff" '
            f'font-weight="bold">{st.gear[p]}</text>'
        )
        if st.stress[p]:
            parts.append(
                f'<text x="{cx + 12}" y="{cy - 9}" font-size="10" fill="#b00" font-weight="bold">'
                f"{st.stress[p]}</text>"
            )
    return parts


def _panel(st: CardboardState, left: int) -> list[str]:
    names = st.game.player_names()
    parts = [
        f'<text x="{left}" y="{MARGIN + 10}" font-size="15" font-weight="bold">Cardboard Machines</text>'
    ]
    y = MARGIN + 36
    for p, who in enumerate(names):
        state = "out" if st.lives[p] == 0 else f"gear {st.gear[p]}, stress {st.stress[p]}"
        if st.lives[p] and st.pos[p] == OFF and st.board_ids:
            state += " (crashed)"
        parts.append(f'<circle cx="{left + 8}" cy="{y - 4}" r="7" fill="{CAR_COLOURS[p]}"/>')
        parts.append(f'<text x="{left + 20}" y="{y}" font-size="12">{escape(who)}: {state}</text>')
        hearts = "".join(
            f'<circle cx="{left + 26 + 14 * i}" cy="{y + 12}" r="5" fill="#c00"/>' for i in range(st.lives[p])
        )
        tokens = "".join(
            f'<rect x="{left + 80 + 14 * i}" y="{y + 7}" width="10" height="10" fill="#d4a017"/>'
            for i in range(st.tokens[p])
        )
        parts.append(hearts + tokens)
        y += 40
    parts.append(f'<text x="{left}" y="{y}" font-size="12">round tokens left: {st.tokens_left}</text>')
    for i in range(st.tokens_left):
        parts.append(f'<rect x="{left + 14 * i}" y="{y + 6}" width="10" height="10" fill="#d4a017"/>')
    y += 34
    parts.append(f'<text x="{left}" y="{y}" font-size="12">lap {st.lap}, turn {st.turn + 1}</text>')
    if st.result is not None:
        winners = ", ".join(names[p] for p, r in enumerate(st.result) if r > 0)
        parts.append(f'<text x="{left}" y="{y + 18}" font-size="12">winner: {escape(winners)}</text>')
    elif st.board_ids:
        parts.append(f'<text x="{left}" y="{y + 18}" font-size="12">{escape(names[st.mover])} to act</text>')
    return parts
