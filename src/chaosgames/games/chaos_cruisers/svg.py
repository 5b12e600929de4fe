"""The position as an SVG picture (a pure function of the state, like `chess.svg`):
course tiles with their 2x2 grids, gate pawns ringed in the colours of the cruisers that
head for them, obstacle coins in their owner's colour, cruisers as dice showing their
speed with a nose pointing the way to their next gate, and (with the legend) square
coordinates and the race progress chart.

Places (`data-place`, see `action_places` and story.py): every square as `x,y`, every tile
as `tile:x,y` (its lower-left square, as `lift` names it), every gate's pawn as
`gate:<name>` and, while a tile is lifted in a chaos round, every spot it may be laid on
as `spot:x,y`. Pieces (`data-piece`): `cruiser-<colour>`; `tile-x,y` and
`obstacle-<colour>-x,y`, known by their place (`data-at`), since the state keeps no other
identity for them. With `legend=False` the picture is the course alone, cropped to its
tiles with a margin of 3 units: square coordinates are in each square's title."""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING

from chaosgames.core.svg import Markup, element, kept, picture, points
from chaosgames.games.chaos_cruisers.actions import (
    COLOURS,
    CruisersAction,
    Lay,
    Lift,
    Move,
    Obstacle,
    Reenter,
    Start,
)
from chaosgames.games.chaos_cruisers.course import Tile, gate_title, tile_of, tile_squares
from chaosgames.games.chaos_cruisers.movement import trace_move
from chaosgames.games.chaos_cruisers.story import (
    colour_list,
    cruiser_summary,
    gate_words,
    heading,
    next_gate,
    place,
)

if TYPE_CHECKING:
    from chaosgames.games.chaos_cruisers.state import ChaosCruisersState

CELL = 28
MARGIN = 20
"""The margin around the course with the legend (room for the coordinates)."""
CROP = 3
"""The margin without: 16 squares then fit 390 CSS px at 24 px a square."""
FILL = {"red": "#d62728", "black": "#222222", "yellow": "#e8c31a", "blue": "#1f5fbf"}
INK = {"red": "#ffffff", "black": "#ffffff", "yellow": "#000000", "blue": "#ffffff"}
GATE_SYMBOL = {"sun": "\u2600", "moon": "\u263e", "crown": "\u265b", "arms": "\u2694"}
PAWN = ("#8a6d3b", "#ffffff")
"""Fill and symbol colour of the first set's pawns; the second set is drawn light."""
SECOND_PAWN = ("#e8e0cc", "#5a4526")
SPEED_FONT = 14
"""The speed on a cruiser: 12 CSS px on a 16-square course 390 px wide."""
PAWN_FONT = 13
PHONE = 390
"""CSS px across a phone, where the page shows the picture without the legend."""
SMALLEST_TEXT = 11.5
"""CSS px: text under 11 is hidden on a phone; a course that grew wider in chaos rounds gets
larger figures (up to what a die or a pawn holds) rather than figures too small to read."""


def gate_symbol(gate: str) -> str:
    """A gate's suit symbol; the second set's (variant 4) with a 2."""
    symbol = GATE_SYMBOL[gate.rstrip("2")]
    return symbol + "2" if gate.endswith("2") else symbol


def action_places(state: ChaosCruisersState, action: CruisersAction) -> tuple[str, ...]:
    """A square for a start, re-entry or obstacle; the tile to lift, the spot to lay it on;
    the square a move ends on (moves that go out of bounds are chosen from the list)."""
    if isinstance(action, Start | Reenter | Obstacle):
        return (place(action.square),)
    if isinstance(action, Lift):
        return ("tile:" + place(action.square),)
    if isinstance(action, Lay):
        return ("spot:" + place(action.square),)
    if isinstance(action, Move):
        start = state.pos[state.deciding_cruiser()]
        if start is None:
            return ()
        trace = trace_move(start, action, state.course(), state.obstacles, state.occupied())
        if trace.outcome == "out" or not trace.entered:
            return ()
        return (place(trace.entered[-1]),)
    return ()


def _lay_spots(state: ChaosCruisersState) -> list[Tile]:
    if state.lifted is None:
        return []
    return [tile_of(a.square) for a in state.legal_actions() if isinstance(a, Lay)]


class Frame:
    """Where squares go on the picture: x to the right, y up, `margin` around the squares
    from (min_x, min_y) to (max_x, max_y)."""

    def __init__(self, extent: set[Tile], margin: int) -> None:
        self.min_x = min(t[0] for t in extent) * 2
        self.max_x = max(t[0] for t in extent) * 2 + 1
        self.min_y = min(t[1] for t in extent) * 2
        self.max_y = max(t[1] for t in extent) * 2 + 1
        self.margin = margin
        self.width = (self.max_x - self.min_x + 1) * CELL
        self.height = (self.max_y - self.min_y + 1) * CELL
        self.speed_font = SPEED_FONT
        self.pawn_font = PAWN_FONT

    def fit_phone(self, width: float) -> None:
        """Figures at least SMALLEST_TEXT CSS px when `width` units span a phone."""
        smallest = math.ceil(SMALLEST_TEXT * width / PHONE)
        self.speed_font = min(20, max(SPEED_FONT, smallest))
        self.pawn_font = min(17, max(PAWN_FONT, smallest))

    def x(self, x: float) -> float:
        return self.margin + (x - self.min_x) * CELL

    def y(self, y: float) -> float:
        """The top edge of row y."""
        return self.margin + (self.max_y - y) * CELL


def render_svg(state: ChaosCruisersState, legend: bool = True) -> str:
    tiles: set[Tile] = set(state.tiles)
    if state.lifted is not None:
        tiles.add(state.lifted)
    spots = _lay_spots(state)
    frame = Frame(tiles | set(spots), MARGIN if legend else CROP)
    width = frame.width + 2 * frame.margin
    height = frame.height + 2 * frame.margin
    chart_x = width
    if legend:
        width += 330
        height = max(height + 4, 60 + 18 * (len(state.game.chart) + 4))
    else:
        frame.fit_phone(width)
    out = [element("rect", width=width, height=height, fill="#f4f1e8")]
    if legend:
        out += _axes(frame)
    out += _tiles(state, tiles, frame)
    out += [_spot(spot, frame) for spot in spots]
    out += [_pawn(state, gate, tile, frame) for gate, tile in state.game.gate_tile.items()]
    out += [_obstacle(square, owner, frame) for square, owner in sorted(state.obstacles.items())]
    out += [_cruiser(state, c, frame) for c in range(state.game.num_cruisers) if state.pos[c] is not None]
    if legend:
        out += _chart(state, chart_x)
    return picture(width, height, out, viewBox=f"0 0 {width} {height}", font_family="sans-serif")


def _tiles(state: ChaosCruisersState, tiles: set[Tile], frame: Frame) -> tuple[Markup, ...]:
    """The course's tiles, drawn anew only when a tile, an obstacle or the tiles with a
    cruiser on them changed (not for a change of speed, most of a game's decisions)."""
    cruised = frozenset(tile_of(p) for p in state.pos if p is not None)
    gates = tuple(state.game.gate_tile.items())
    look = (frozenset(tiles), state.lifted, frozenset(state.obstacles.items()), cruised, gates)
    where = (frame.margin, frame.min_x, frame.max_y)

    def drawn() -> tuple[Markup, ...]:
        gate_of = {tile: gate for gate, tile in gates}
        return tuple(_tile(state, tile, frame, tile in cruised, gate_of.get(tile)) for tile in sorted(tiles))

    return kept(_COURSES, (look, where), drawn)


_COURSES: dict[tuple[object, ...], tuple[Markup, ...]] = {}


def _tile(state: ChaosCruisersState, tile: Tile, frame: Frame, cruised: bool, gate: str | None) -> Markup:
    """A tile with its 2x2 grid, its squares clickable (dashed and grey while lifted);
    `cruised`: a cruiser is on it; `gate`: the gate whose tile it is, if any."""
    lifted = tile == state.lifted
    x0, y1 = frame.x(tile[0] * 2), frame.y(tile[1] * 2 + 1)
    owners = tuple(state.obstacles.get(s) for s in tile_squares(tile))
    # What the tile shows, its title and its squares' included: drawn once a look.
    look = (tile, x0, y1, frame.x(tile[0] * 2 + 1), frame.y(tile[1] * 2), lifted, cruised, gate, owners)
    return kept(_TILES, look, lambda: _tile_anew(state, tile, frame))


_TILES: dict[tuple[object, ...], Markup] = {}


def _tile_anew(state: ChaosCruisersState, tile: Tile, frame: Frame) -> Markup:
    lifted = tile == state.lifted
    x0, y1 = frame.x(tile[0] * 2), frame.y(tile[1] * 2 + 1)
    corner = place(tile_squares(tile)[0])
    squares = () if lifted else tuple(_square(state, s, frame) for s in tile_squares(tile))
    return _tile_drawn(x0, y1, corner, lifted, _tile_title(state, tile), squares)


# A tile drawn as before (most of them) is not drawn again.
@functools.lru_cache(maxsize=4096)
def _tile_drawn(
    x0: float, y1: float, corner: str, lifted: bool, title: str, squares: tuple[Markup, ...]
) -> Markup:
    return element(
        "g",
        element("title", title),
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
        ),
        element("path", d=f"M{x0 + CELL},{y1} v{2 * CELL} M{x0},{y1 + CELL} h{2 * CELL}", stroke="#aaa"),
        list(squares),
        data_piece=f"tile-{corner}",
        data_at=f"tile:{corner}",
        data_place=f"tile:{corner}",
    )


def _tile_title(state: ChaosCruisersState, tile: Tile) -> str:
    squares = tile_squares(tile)
    text = f"Tile {place(squares[0])} (squares {place(squares[0])} to {place(squares[3])})"
    gate = next((g for g, t in state.game.gate_tile.items() if t == tile), None)
    if tile == state.lifted:
        return text + ": lifted in the chaos round, to be laid elsewhere."
    if gate is not None:
        return text + f": the tile of {gate_words(gate)}; a gate's tile never moves and takes no obstacle."
    if any(p is not None and tile_of(p) == tile for p in state.pos):
        return text + ": a cruiser is on it, so it cannot be lifted or take an obstacle."
    return text + ": in a chaos round it may be lifted and laid elsewhere."


COORD_FONT = 8
"""The font size of a square's name in its corner."""


def _square(state: ChaosCruisersState, square: tuple[int, int], frame: Frame) -> Markup:
    text = f"Square {place(square)}"
    owner = state.obstacles.get(square)
    if owner is not None:
        text += f": {COLOURS[owner]}'s obstacle (entering it is out of bounds)"
    return _square_drawn(frame.x(square[0]), frame.y(square[1]), place(square), text)


# A picture is drawn for every change the server shows: a square drawn the same as before
# (most of them) is not drawn again.
@functools.lru_cache(maxsize=8192)
def _square_drawn(x: float, y: float, name: str, text: str) -> Markup:
    rect = element(
        "rect",
        element("title", text + "."),
        x=x,
        y=y,
        width=CELL,
        height=CELL,
        fill="none",
        data_place=name,
    )
    # The square's name, as the story says it ("moves 3 east from 4,0 to 7,0"); faint and
    # small, so a phone (where it would be under 11 px) leaves it out and keeps the title.
    label = element(
        "text",
        name,
        x=x + 2,
        y=y + 9,
        font_size=COORD_FONT,
        fill="#6b6b6b",
        pointer_events="none",
        class_="coord",
    )
    return Markup(rect + label)


def _spot(spot: Tile, frame: Frame) -> Markup:
    corner = place(tile_squares(spot)[0])
    return element(
        "rect",
        element("title", f"Lay the lifted tile here ({corner})."),
        x=frame.x(spot[0] * 2) + 3,
        y=frame.y(spot[1] * 2 + 1) + 3,
        width=2 * CELL - 6,
        height=2 * CELL - 6,
        fill="#e6f0ff",
        stroke="#1f5fbf",
        stroke_dasharray="3 3",
        data_place=f"spot:{corner}",
    )


def _obstacle(square: tuple[int, int], owner: int, frame: Frame) -> Markup:
    """An obstacle coin in its owner's colour, struck through."""
    colour = COLOURS[owner]
    cx, cy = frame.x(square[0]) + CELL / 2, frame.y(square[1]) + CELL / 2
    return element(
        "g",
        element(
            "title", f"{colour.capitalize()}'s obstacle on {place(square)}: entering it is out of bounds."
        ),
        element("circle", cx=cx, cy=cy, r=CELL * 0.38, fill=FILL[colour], stroke="#000"),
        element("path", d=f"M{cx - 6},{cy - 6} L{cx + 6},{cy + 6}", stroke=INK[colour], stroke_width=2),
        data_piece=f"obstacle-{colour}-{place(square)}",
        data_at=place(square),
    )


# The nose of a cruiser heading N, E, S, W: a wedge on that side of the die, as offsets
# from the die's centre (the die is CELL - 6 wide; the nose reaches 5.5 beyond its edge,
# short of the die on the next square).
_HALF = (CELL - 6) / 2
_TIP = _HALF + 5.5
_NOSES = (
    ((-8, -_HALF + 1), (8, -_HALF + 1), (0, -_TIP)),
    ((_HALF - 1, -8), (_HALF - 1, 8), (_TIP, 0)),
    ((-8, _HALF - 1), (8, _HALF - 1), (0, _TIP)),
    ((-_HALF + 1, -8), (-_HALF + 1, 8), (-_TIP, 0)),
)


def _cruiser(state: ChaosCruisersState, c: int, frame: Frame) -> Markup:
    """A cruiser: a die in its colour showing its speed, its nose towards its next gate."""
    square = state.pos[c]
    assert square is not None
    cx, cy = frame.x(square[0]) + CELL / 2, frame.y(square[1]) + CELL / 2
    look = (c, cx, cy, heading(state, c), state.speed[c], frame.speed_font, cruiser_summary(state, c))
    return kept(_CRUISERS, look, lambda: _cruiser_drawn(*look))


_CRUISERS: dict[tuple[object, ...], Markup] = {}


def _cruiser_drawn(
    c: int, cx: float, cy: float, direction: int | None, speed: int, speed_font: int, title: str
) -> Markup:
    colour = COLOURS[c]
    nose = None
    if direction is not None:
        nose = element(
            "polygon",
            points=points((cx + dx, cy + dy) for dx, dy in _NOSES[direction]),
            fill=FILL[colour],
            stroke="#000",
            stroke_linejoin="round",
        )
    return element(
        "g",
        element("title", title),
        nose,
        element(
            "rect",
            x=cx - _HALF,
            y=cy - _HALF,
            width=2 * _HALF,
            height=2 * _HALF,
            rx=4,
            fill=FILL[colour],
            stroke="#000",
        ),
        element(
            "text",
            speed,
            x=cx,
            y=cy + speed_font * 0.36,
            font_size=speed_font,
            font_weight="bold",
            text_anchor="middle",
            fill=INK[colour],
        ),
        data_piece=f"cruiser-{colour}",
        class_="cruiser",
    )


def _pawn(state: ChaosCruisersState, gate: str, tile: Tile, frame: Frame) -> Markup:
    """A gate's pawn in its tile's centre with its suit symbol (the second set of gates,
    variant 4, light with a small 2), ringed by a quarter in the colour of each cruiser
    whose next gate it is (red top right, then clockwise black, yellow, blue)."""
    cx, cy = frame.x(tile[0] * 2) + CELL, frame.y(tile[1] * 2 + 1) + CELL
    heading_here = tuple(c for c in range(state.game.num_cruisers) if next_gate(state, c) == gate)
    look = (gate, tile, cx, cy, frame.pawn_font, heading_here)
    return kept(_PAWNS, look, lambda: _pawn_drawn(*look))


_PAWNS: dict[tuple[object, ...], Markup] = {}


def _pawn_drawn(
    gate: str, tile: Tile, cx: float, cy: float, pawn_font: int, heading_here: tuple[int, ...]
) -> Markup:
    second = gate.endswith("2")
    fill, ink = SECOND_PAWN if second else PAWN
    radius = round(pawn_font * 0.77, 1)
    title = f"{_cap(gate_words(gate))}'s pawn on tile {place(tile_squares(tile)[0])}"
    if gate == "sun":
        title += ", the start and the finish"
    if heading_here:
        title += f": the next gate of {colour_list(heading_here)}"
    return element(
        "g",
        element("title", title + "."),
        [_ring_quarter(c, cx, cy, radius + 4) for c in heading_here],
        element("circle", cx=cx, cy=cy, r=radius, fill=fill, stroke="#000"),
        element(
            "text",
            GATE_SYMBOL[gate.rstrip("2")],
            x=cx,
            y=cy + round(pawn_font * 0.38, 1),
            font_size=pawn_font,
            text_anchor="middle",
            fill=ink,
        ),
        element("text", "2", x=cx + 8, y=cy + 10, font_size=8, fill="#000") if second else None,
        class_="gate second-set" if second else "gate",
        data_place=f"gate:{gate}",
    )


def _ring_quarter(cruiser: int, cx: float, cy: float, r: float) -> Markup:
    """A quarter ring around a pawn in a cruiser's colour (its own quarter)."""
    start = math.radians(-90 + 90 * cruiser + 6)
    end = math.radians(-90 + 90 * (cruiser + 1) - 6)
    x1, y1 = round(cx + r * math.cos(start), 2), round(cy + r * math.sin(start), 2)
    x2, y2 = round(cx + r * math.cos(end), 2), round(cy + r * math.sin(end), 2)
    colour = COLOURS[cruiser]
    return element(
        "path",
        d=f"M{x1},{y1} A{r},{r} 0 0 1 {x2},{y2}",
        fill="none",
        stroke=FILL[colour],
        stroke_width=5,
        stroke_linecap="round",
        class_=f"next-gate next-gate-{colour}",
    )


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _axes(frame: Frame) -> list[Markup]:
    """Square coordinates along the bottom and the left, as the action notation uses them."""
    style = {"font_size": 9, "fill": "#777", "text_anchor": "middle"}
    out = [
        element("text", x, x=frame.x(x) + CELL / 2, y=frame.y(frame.min_y) + CELL + 12, **style)
        for x in range(frame.min_x, frame.max_x + 1)
    ]
    out += [
        element("text", y, x=MARGIN / 2, y=frame.y(y) + CELL / 2 + 3, **style)
        for y in range(frame.min_y, frame.max_y + 1)
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
