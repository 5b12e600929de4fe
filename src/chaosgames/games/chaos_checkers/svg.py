"""The position as an SVG picture (a pure function of the state).

Every dark square and every piece carries `data-place` with its square number (1-32): a
player clicks the squares an action visits (`action_places`).
"""

from __future__ import annotations

from chaosgames.core.game import Action, State
from chaosgames.games.chaos_checkers.actions import ChaosMove, Defence, PotionUse
from chaosgames.games.chaos_checkers.board import index_at, row_col
from chaosgames.games.chaos_checkers.colours import COLOURS, FILL
from chaosgames.games.chaos_checkers.moves import Move
from chaosgames.games.chaos_checkers.plain import PlainState

CELL = 60
SIDE = 230


def _board_squares() -> list[str]:
    out = []
    for row in range(8):
        for col in range(8):
            index = index_at(row, col)
            fill = "#f0d9b5" if index < 0 else "#8b5a2b"
            place = f' data-place="{index + 1}"' if index >= 0 else ""
            out.append(
                f'<rect x="{col * CELL}" y="{row * CELL}" width="{CELL}" height="{CELL}" '
                f'fill="{fill}"{place}/>'
            )
    return out


def _square_numbers() -> list[str]:
    """The 1-32 numbers, drawn last so that pieces never hide them."""
    out = []
    for index in range(32):
        row, col = row_col(index)
        out.append(
            f'<text x="{col * CELL + 3}" y="{row * CELL + 12}" font-size="11" fill="#fff4dc" '
            f'stroke="#3b2410" stroke-width="0.4" font-family="sans-serif">{index + 1}</text>'
        )
    return out


def _crown(cx: float, cy: float) -> str:
    return (
        f'<polygon points="{cx - 10},{cy + 5} {cx - 10},{cy - 6} {cx - 5},{cy} {cx},{cy - 8} '
        f'{cx + 5},{cy} {cx + 10},{cy - 6} {cx + 10},{cy + 5}" fill="#ffd700" stroke="#7a5c00"/>'
    )


def _disc(index: int, fill: str, king: bool, shield: str | None, potion: str | None) -> list[str]:
    row, col = row_col(index)
    cx, cy = col * CELL + CELL / 2, row * CELL + CELL / 2
    out = []
    if shield is not None:
        out.append(f'<circle cx="{cx}" cy="{cy}" r="26" fill="none" stroke="{shield}" stroke-width="5"/>')
    out.append(f'<circle cx="{cx}" cy="{cy}" r="20" fill="{fill}" stroke="#333" stroke-width="1.5"/>')
    if potion is not None:
        out.append(f'<circle cx="{cx + 11}" cy="{cy + 11}" r="6" fill="{potion}" stroke="#333"/>')
    if king:
        out.append(_crown(cx, cy))
    return [f'<g data-place="{index + 1}">', *out, "</g>"]


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
        board = state.board()
        for i, ch in enumerate(board):
            if ch != ".":
                fill = "#202020" if ch in "bB" else "#f4f4f4"
                parts.extend(_disc(i, fill, ch.isupper(), None, None))
    else:
        width += SIDE
        for i, piece in enumerate(state.board):  # type: ignore[attr-defined]
            if piece is not None:
                parts.extend(
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
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{8 * CELL}" '
        f'viewBox="0 0 {width} {8 * CELL}">' + "".join(parts) + "</svg>"
    )


def _side_panel(state: State) -> list[str]:
    names = state.game.player_names()
    x0 = 8 * CELL + 10
    y = 20
    out = []

    def text(line: str) -> None:
        nonlocal y
        out.append(f'<text x="{x0}" y="{y}" font-size="13" font-family="sans-serif">{line}</text>')
        y += 18

    def swatches(counts: tuple[int, ...]) -> None:
        nonlocal y
        x = x0
        for c, n in enumerate(counts):
            if n:
                fill = FILL[COLOURS[c]]
                out.append(f'<rect x="{x}" y="{y - 11}" width="14" height="14" fill="{fill}" stroke="#333"/>')
                out.append(f'<text x="{x + 16}" y="{y}" font-size="12" font-family="sans-serif">{n}</text>')
                x += 34
                if x > x0 + SIDE - 40:
                    x = x0
                    y += 18
        y += 22

    for player in (0, 1):
        text(f"{names[player]}: shield bag")
        swatches(state.bags[player])  # type: ignore[attr-defined]
        text("eliminated")
        swatches(state.eliminated[player])  # type: ignore[attr-defined]
    text("potion pouch")
    swatches(state.pouch)  # type: ignore[attr-defined]
    who = state.current_player()
    text("to act: " + ("chance" if who == -1 else "nobody" if who < 0 else names[who]))
    return out
