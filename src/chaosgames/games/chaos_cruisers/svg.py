"""The position as an SVG picture (a pure function of the state, like `chess.svg`):
course tiles with their 2x2 grids, gate pawns, obstacle coins in their owner's colour,
cruisers as dice showing their speed, and the race progress chart.

Clickable places (`data-place`, see `action_places`): every square as `x,y`, every tile as
`tile:x,y` (its lower-left square, as `lift` names it) and, while a tile is lifted in a
chaos round, every spot it may be laid on as `spot:x,y`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from chaosgames.core.game import Action
from chaosgames.games.chaos_cruisers.actions import COLOURS, Lay, Lift, Move, Obstacle, Reenter, Start
from chaosgames.games.chaos_cruisers.course import Tile, gate_title, tile_of, tile_squares
from chaosgames.games.chaos_cruisers.movement import trace_move

if TYPE_CHECKING:
    from chaosgames.games.chaos_cruisers.state import ChaosCruisersState

CELL = 28
MARGIN = 20
FILL = {"red": "#d62728", "black": "#222222", "yellow": "#e8c31a", "blue": "#1f5fbf"}
INK = {"red": "#ffffff", "black": "#ffffff", "yellow": "#000000", "blue": "#ffffff"}
GATE_SYMBOL = {"sun": "\u2600", "moon": "\u263e", "crown": "\u265b", "arms": "\u2694"}
PAWN = ("#8a6d3b", "#ffffff")
"""Fill and symbol colour of the first set's pawns; the second set is drawn light."""
SECOND_PAWN = ("#e8e0cc", "#5a4526")


def _place(square: tuple[int, int]) -> str:
    return f"{square[0]},{square[1]}"


def action_places(state: ChaosCruisersState, action: Action) -> tuple[str, ...]:
    """A square for a start, re-entry or obstacle; the tile to lift, the spot to lay it on;
    the square a move ends on (moves that go out of bounds are chosen from the list)."""
    if isinstance(action, Start | Reenter | Obstacle):
        return (_place(action.square),)
    if isinstance(action, Lift):
        return ("tile:" + _place(action.square),)
    if isinstance(action, Lay):
        return ("spot:" + _place(action.square),)
    if isinstance(action, Move):
        start = state.pos[state.deciding_cruiser()]
        if start is None:
            return ()
        trace = trace_move(start, action, state.course(), state.obstacles, state.occupied())
        if trace.outcome == "out" or not trace.entered:
            return ()
        return (_place(trace.entered[-1]),)
    return ()


def _lay_spots(state: ChaosCruisersState) -> list[Tile]:
    if state.lifted is None:
        return []
    return [tile_of(a.square) for a in state.legal_actions() if isinstance(a, Lay)]


def render_svg(state: ChaosCruisersState) -> str:
    tiles: set[Tile] = set(state.tiles)
    if state.lifted is not None:
        tiles.add(state.lifted)
    spots = _lay_spots(state)
    extent = tiles | set(spots)
    min_x = min(t[0] for t in extent) * 2
    max_x = max(t[0] for t in extent) * 2 + 1
    min_y = min(t[1] for t in extent) * 2
    max_y = max(t[1] for t in extent) * 2 + 1
    board_w = (max_x - min_x + 1) * CELL
    board_h = (max_y - min_y + 1) * CELL
    chart_x = MARGIN * 2 + board_w
    width = chart_x + 330
    height = max(board_h + MARGIN * 2 + 4, 60 + 18 * (len(state.game.chart) + 4))

    def sx(x: float) -> float:
        return MARGIN + (x - min_x) * CELL

    def sy(y: float) -> float:
        return MARGIN + (max_y - y) * CELL

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f'<rect width="{width}" height="{height}" fill="#f4f1e8"/>',
    ]
    out += _axes(min_x, max_x, min_y, max_y, sx, sy)
    gate_at = {t: g for g, t in state.game.gate_tile.items()}
    for tile in sorted(tiles):
        x0, y1 = sx(tile[0] * 2), sy(tile[1] * 2 + 1)
        lifted = tile == state.lifted
        fill = "#ffffff" if not lifted else "#dddddd"
        dash = ' stroke-dasharray="4 3"' if lifted else ""
        corner = _place(tile_squares(tile)[0])
        out.append(
            f'<rect x="{x0}" y="{y1}" width="{2 * CELL}" height="{2 * CELL}" fill="{fill}" '
            f'stroke="#555"{dash} stroke-width="2" data-place="tile:{corner}"/>'
        )
        out.append(f'<path d="M{x0 + CELL},{y1} v{2 * CELL} M{x0},{y1 + CELL} h{2 * CELL}" stroke="#aaa"/>')
        if not lifted:
            out += [
                f'<rect x="{sx(s[0])}" y="{sy(s[1])}" width="{CELL}" height="{CELL}" fill="none" '
                f'data-place="{_place(s)}"/>'
                for s in tile_squares(tile)
            ]
        gate = gate_at.get(tile)
        if gate is not None:
            out += _pawn(gate, x0 + CELL, y1 + CELL)
    for spot in spots:
        corner = _place(tile_squares(spot)[0])
        out.append(
            f'<rect x="{sx(spot[0] * 2) + 3}" y="{sy(spot[1] * 2 + 1) + 3}" width="{2 * CELL - 6}" '
            f'height="{2 * CELL - 6}" fill="#e6f0ff" stroke="#1f5fbf" stroke-dasharray="3 3" '
            f'data-place="spot:{corner}"><title>lay the tile here ({corner})</title></rect>'
        )
    for square, owner in sorted(state.obstacles.items()):
        cx, cy = sx(square[0]) + CELL / 2, sy(square[1]) + CELL / 2
        colour = COLOURS[owner]
        out.append(f'<circle cx="{cx}" cy="{cy}" r="{CELL * 0.38}" fill="{FILL[colour]}" stroke="#000"/>')
        out.append(
            f'<path d="M{cx - 6},{cy - 6} L{cx + 6},{cy + 6}" stroke="{INK[colour]}" stroke-width="2"/>'
        )
    for c, place in enumerate(state.pos):
        if place is None:
            continue
        square = place
        colour = COLOURS[c]
        x, y = sx(square[0]) + 3, sy(square[1]) + 3
        out.append(
            f'<rect x="{x}" y="{y}" width="{CELL - 6}" height="{CELL - 6}" rx="4" '
            f'fill="{FILL[colour]}" stroke="#000">'
            f"<title>{colour} cruiser, speed {state.speed[c]}</title></rect>"
        )
        out.append(
            f'<text x="{x + (CELL - 6) / 2}" y="{y + CELL / 2 + 2}" font-size="14" font-weight="bold" '
            f'text-anchor="middle" fill="{INK[colour]}">{state.speed[c]}</text>'
        )
    out += _chart(state, chart_x)
    out.append("</svg>")
    return "\n".join(out)


def _pawn(gate: str, cx: float, cy: float) -> list[str]:
    """A gate's pawn in the tile centre: its suit symbol; the second set of gates
    (variant 4) light with a small 2."""
    second = gate.endswith("2")
    fill, ink = SECOND_PAWN if second else PAWN
    kind = "gate second-set" if second else "gate"
    out = [
        f'<g class="{kind}"><title>{gate_title(gate)} gate</title>',
        f'<circle cx="{cx}" cy="{cy}" r="9" fill="{fill}" stroke="#000"/>',
        f'<text x="{cx}" y="{cy + 4}" font-size="11" text-anchor="middle" fill="{ink}">'
        f"{GATE_SYMBOL[gate.rstrip('2')]}</text>",
    ]
    if second:
        out.append(f'<text x="{cx + 8}" y="{cy + 10}" font-size="8" fill="#000">2</text>')
    out.append("</g>")
    return out


def _axes(
    min_x: int, max_x: int, min_y: int, max_y: int, sx: Callable[[float], float], sy: Callable[[float], float]
) -> list[str]:
    """Square coordinates along the bottom and the left, as the action notation uses them."""
    style = 'font-size="9" fill="#777" text-anchor="middle"'
    out = [
        f'<text x="{sx(x) + CELL / 2}" y="{sy(min_y) + CELL + 12}" {style}>{x}</text>'
        for x in range(min_x, max_x + 1)
    ]
    out += [
        f'<text x="{MARGIN / 2}" y="{sy(y) + CELL / 2 + 3}" {style}>{y}</text>'
        for y in range(min_y, max_y + 1)
    ]
    return out


def _chart(state: ChaosCruisersState, left: int) -> list[str]:
    """The race progress chart: one row per gate in order, one column per cruiser."""
    game = state.game
    out = [
        f'<text x="{left}" y="{MARGIN + 4}" font-size="13" font-weight="bold">'
        f"Race progress, round {state.round}</text>"
    ]
    top = MARGIN + 24
    col = 52
    for c in range(game.num_cruisers):
        colour = COLOURS[c]
        out.append(
            f'<text x="{left + 110 + c * col}" y="{top}" font-size="11" fill="{FILL[colour]}">'
            f"{escape(colour)}</text>"
        )
    seen: dict[str, int] = {}
    for row, gate in enumerate(game.chart):
        seen[gate] = seen.get(gate, 0) + 1
        y = top + 18 * (row + 1)
        out.append(f'<text x="{left}" y="{y}" font-size="11">{gate_title(gate)} Gate {seen[gate]}</text>')
        for c in range(game.num_cruisers):
            mark = "\u2713" if state.progress[c] > row else "\u00b7"
            out.append(f'<text x="{left + 122 + c * col}" y="{y}" font-size="12">{mark}</text>')
    return out
