"""The position as an SVG picture (a pure function of the state).

Every dark square and every piece carries `data-place` with its square number (1-32): a
player clicks the squares an action visits (`action_places`).
"""

from __future__ import annotations

from chaosgames.core.game import Action, State
from chaosgames.core.svg import Markup, element, picture, points
from chaosgames.games.chaos_checkers.actions import ChaosMove, Defence, PotionUse
from chaosgames.games.chaos_checkers.board import index_at, row_col
from chaosgames.games.chaos_checkers.colours import COLOURS, FILL
from chaosgames.games.chaos_checkers.moves import Move
from chaosgames.games.chaos_checkers.plain import PlainState
from chaosgames.games.chaos_checkers.state import ChaosState

CELL = 60
SIDE = 230
FONT = "sans-serif"


def _board_squares() -> list[Markup]:
    out = []
    for row in range(8):
        for col in range(8):
            index = index_at(row, col)
            out.append(
                element(
                    "rect",
                    x=col * CELL,
                    y=row * CELL,
                    width=CELL,
                    height=CELL,
                    fill="#f0d9b5" if index < 0 else "#8b5a2b",
                    data_place=index + 1 if index >= 0 else None,
                )
            )
    return out


def _square_numbers() -> list[Markup]:
    """The 1-32 numbers, drawn last so that pieces never hide them."""
    out = []
    for index in range(32):
        row, col = row_col(index)
        out.append(
            element(
                "text",
                index + 1,
                x=col * CELL + 3,
                y=row * CELL + 12,
                font_size=11,
                fill="#fff4dc",
                stroke="#3b2410",
                stroke_width=0.4,
                font_family=FONT,
            )
        )
    return out


def _crown(cx: float, cy: float) -> Markup:
    outline = [
        (cx - 10, cy + 5),
        (cx - 10, cy - 6),
        (cx - 5, cy),
        (cx, cy - 8),
        (cx + 5, cy),
        (cx + 10, cy - 6),
        (cx + 10, cy + 5),
    ]
    return element("polygon", points=points(outline), fill="#ffd700", stroke="#7a5c00")


def _disc(index: int, fill: str, king: bool, shield: str | None, potion: str | None) -> Markup:
    row, col = row_col(index)
    cx, cy = col * CELL + CELL / 2, row * CELL + CELL / 2
    out = []
    if shield is not None:
        out.append(element("circle", cx=cx, cy=cy, r=26, fill="none", stroke=shield, stroke_width=5))
    out.append(element("circle", cx=cx, cy=cy, r=20, fill=fill, stroke="#333", stroke_width=1.5))
    if potion is not None:
        out.append(element("circle", cx=cx + 11, cy=cy + 11, r=6, fill=potion, stroke="#333"))
    if king:
        out.append(_crown(cx, cy))
    return element("g", out, data_place=index + 1)


def action_places(action: Action) -> tuple[str, ...]:
    """The squares a move visits (the piece first); a potion's piece, then its targets;
    the defended piece. Draws, picks and `pass` are chosen from the list."""
    if isinstance(action, ChaosMove | Move):
        return tuple(str(i + 1) for i in action.path)
    if isinstance(action, PotionUse):
        return tuple(str(i + 1) for i in (action.square, action.target, action.other) if i >= 0)
    if isinstance(action, Defence):
        return (str(action.square + 1),)
    return ()


def render_svg(state: State) -> str:
    parts = _board_squares()
    width = 8 * CELL
    if isinstance(state, PlainState):
        for i, ch in enumerate(state.board()):
            if ch != ".":
                parts.append(_disc(i, "#202020" if ch in "bB" else "#f4f4f4", ch.isupper(), None, None))
    else:
        assert isinstance(state, ChaosState)
        width += SIDE
        for i, piece in enumerate(state.board):
            if piece is not None:
                parts.append(
                    _disc(
                        i,
                        FILL[COLOURS[piece.colour]],
                        piece.king,
                        FILL[COLOURS[piece.shield]] if piece.shield >= 0 else None,
                        FILL[COLOURS[piece.potion]] if piece.potion >= 0 else None,
                    )
                )
        parts.extend(_side_panel(state))
    parts.extend(_square_numbers())
    return picture(width, 8 * CELL, parts)


def _side_panel(state: ChaosState) -> list[Markup]:
    names = state.game.player_names()
    x0 = 8 * CELL + 10
    y = 20
    out = []

    def text(line: str) -> None:
        nonlocal y
        out.append(element("text", line, x=x0, y=y, font_size=13, font_family=FONT))
        y += 18

    def swatches(counts: tuple[int, ...]) -> None:
        nonlocal y
        x = x0
        for c, n in enumerate(counts):
            if n:
                fill = FILL[COLOURS[c]]
                out.append(element("rect", x=x, y=y - 11, width=14, height=14, fill=fill, stroke="#333"))
                out.append(element("text", n, x=x + 16, y=y, font_size=12, font_family=FONT))
                x += 34
                if x > x0 + SIDE - 40:
                    x = x0
                    y += 18
        y += 22

    for player in (0, 1):
        text(f"{names[player]}: shield bag")
        swatches(state.bags[player])
        text("eliminated")
        swatches(state.eliminated[player])
    text("potion pouch")
    swatches(state.pouch)
    who = state.current_player()
    text("to act: " + ("chance" if who == -1 else "nobody" if who < 0 else names[who]))
    return out
