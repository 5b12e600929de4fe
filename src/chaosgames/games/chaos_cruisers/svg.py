"""The position as an SVG picture (a pure function of the state, like `chess.svg`):
course tiles with their 2x2 grids, gate pawns, obstacle coins in their owner's colour,
cruisers as dice showing their speed, and the race progress chart.

Clickable places (`data-place`, see `action_places`): every square as `x,y`, every tile as
`tile:x,y` (its lower-left square, as `lift` names it) and, while a tile is lifted in a
chaos round, every spot it may be laid on as `spot:x,y`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from chaosgames.core.game import Action
from chaosgames.core.svg import Markup, element, picture
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

    out = [element("rect", width=width, height=height, fill="#f4f1e8")]
    out += _axes(min_x, max_x, min_y, max_y, sx, sy)
    gate_at = {t: g for g, t in state.game.gate_tile.items()}
    for tile in sorted(tiles):
        out += _tile(tile, sx(tile[0] * 2), sy(tile[1] * 2 + 1), tile == state.lifted, sx, sy)
        gate = gate_at.get(tile)
        if gate is not None:
            out.append(_pawn(gate, sx(tile[0] * 2) + CELL, sy(tile[1] * 2 + 1) + CELL))
    for spot in spots:
        corner = _place(tile_squares(spot)[0])
        out.append(
            element(
                "rect",
                element("title", f"lay the tile here ({corner})"),
                x=sx(spot[0] * 2) + 3,
                y=sy(spot[1] * 2 + 1) + 3,
                width=2 * CELL - 6,
                height=2 * CELL - 6,
                fill="#e6f0ff",
                stroke="#1f5fbf",
                stroke_dasharray="3 3",
                data_place=f"spot:{corner}",
            )
        )
    for square, owner in sorted(state.obstacles.items()):
        out += _obstacle(COLOURS[owner], sx(square[0]) + CELL / 2, sy(square[1]) + CELL / 2)
    for c, place in enumerate(state.pos):
        if place is not None:
            out += _cruiser(COLOURS[c], state.speed[c], sx(place[0]) + 3, sy(place[1]) + 3)
    out += _chart(state, chart_x)
    return picture(width, height, out, viewBox=f"0 0 {width} {height}", font_family="sans-serif")


def _tile(
    tile: Tile, x0: float, y1: float, lifted: bool, sx: Callable[[float], float], sy: Callable[[float], float]
) -> list[Markup]:
    """A tile with its 2x2 grid (dashed and grey while lifted); its squares clickable."""
    out = [
        element(
            "rect",
            x=x0,
            y=y1,
            width=2 * CELL,
            height=2 * CELL,
            fill="#dddddd" if lifted else "#ffffff",
            stroke="#555",
            stroke_dasharray="4 3" if lifted else None,
            stroke_width=2,
            data_place=f"tile:{_place(tile_squares(tile)[0])}",
        ),
        element("path", d=f"M{x0 + CELL},{y1} v{2 * CELL} M{x0},{y1 + CELL} h{2 * CELL}", stroke="#aaa"),
    ]
    if not lifted:
        out += [
            element(
                "rect", x=sx(s[0]), y=sy(s[1]), width=CELL, height=CELL, fill="none", data_place=_place(s)
            )
            for s in tile_squares(tile)
        ]
    return out


def _obstacle(colour: str, cx: float, cy: float) -> list[Markup]:
    """An obstacle coin in its owner's colour, struck through."""
    return [
        element("circle", cx=cx, cy=cy, r=CELL * 0.38, fill=FILL[colour], stroke="#000"),
        element("path", d=f"M{cx - 6},{cy - 6} L{cx + 6},{cy + 6}", stroke=INK[colour], stroke_width=2),
    ]


def _cruiser(colour: str, speed: int, x: float, y: float) -> list[Markup]:
    """A cruiser: a die in its colour showing its speed."""
    return [
        element(
            "rect",
            element("title", f"{colour} cruiser, speed {speed}"),
            x=x,
            y=y,
            width=CELL - 6,
            height=CELL - 6,
            rx=4,
            fill=FILL[colour],
            stroke="#000",
        ),
        element(
            "text",
            speed,
            x=x + (CELL - 6) / 2,
            y=y + CELL / 2 + 2,
            font_size=14,
            font_weight="bold",
            text_anchor="middle",
            fill=INK[colour],
        ),
    ]


def _pawn(gate: str, cx: float, cy: float) -> Markup:
    """A gate's pawn in the tile centre: its suit symbol; the second set of gates
    (variant 4) light with a small 2."""
    second = gate.endswith("2")
    fill, ink = SECOND_PAWN if second else PAWN
    return element(
        "g",
        element("title", f"{gate_title(gate)} gate"),
        element("circle", cx=cx, cy=cy, r=9, fill=fill, stroke="#000"),
        element(
            "text",
            GATE_SYMBOL[gate.rstrip("2")],
            x=cx,
            y=cy + 4,
            font_size=11,
            text_anchor="middle",
            fill=ink,
        ),
        element("text", "2", x=cx + 8, y=cy + 10, font_size=8, fill="#000") if second else None,
        class_="gate second-set" if second else "gate",
    )


def _axes(
    min_x: int, max_x: int, min_y: int, max_y: int, sx: Callable[[float], float], sy: Callable[[float], float]
) -> list[Markup]:
    """Square coordinates along the bottom and the left, as the action notation uses them."""
    style = {"font_size": 9, "fill": "#777", "text_anchor": "middle"}
    out = [
        element("text", x, x=sx(x) + CELL / 2, y=sy(min_y) + CELL + 12, **style)
        for x in range(min_x, max_x + 1)
    ]
    out += [
        element("text", y, x=MARGIN / 2, y=sy(y) + CELL / 2 + 3, **style) for y in range(min_y, max_y + 1)
    ]
    return out


def _chart(state: ChaosCruisersState, left: int) -> list[Markup]:
    """The race progress chart: one row per gate in order, one column per cruiser."""
    game = state.game
    out = [
        element(
            "text",
            f"Race progress, round {state.round}",
            x=left,
            y=MARGIN + 4,
            font_size=13,
            font_weight="bold",
        )
    ]
    top = MARGIN + 24
    col = 52
    for c in range(game.num_cruisers):
        colour = COLOURS[c]
        out.append(element("text", colour, x=left + 110 + c * col, y=top, font_size=11, fill=FILL[colour]))
    seen: dict[str, int] = {}
    for row, gate in enumerate(game.chart):
        seen[gate] = seen.get(gate, 0) + 1
        y = top + 18 * (row + 1)
        out.append(element("text", f"{gate_title(gate)} Gate {seen[gate]}", x=left, y=y, font_size=11))
        for c in range(game.num_cruisers):
            mark = "\u2713" if state.progress[c] > row else "\u00b7"
            out.append(element("text", mark, x=left + 122 + c * col, y=y, font_size=12))
    return out
