"""The position as an SVG picture: the card grid, face-down backs, flags, pawns and the die.

A pure function of the state. Face-down cards are drawn as card backs (their ranks are
hidden, as at the table) unless the memory_aid option is on or the picture reveals
everything (`reveal`, for the replay of a record). Each card carries `data-place` with its
square, where a player clicks to start, place a flag, flip or move (`action_places`).
"""

from __future__ import annotations

from chaosgames.core.svg import NAMESPACE, Markup, element, raw
from chaosgames.games.royal_racers import setup
from chaosgames.games.royal_racers.actions import DIE_FACES, SQUARE_KINDS, RacerAction
from chaosgames.games.royal_racers.board import COLUMNS, SIZE, SQUARE_NAMES, SUITS, card_label
from chaosgames.games.royal_racers.state import RoyalRacersState

CELL = 64
MARGIN = 24
PANEL = 190
SUIT_COLOURS = ("#d4731f", "#3b5ba5", "#2e8b3e", "#8a2f8f")
"""Piecepack suits: suns, moons, crowns, arms."""
CARD_INK = ("#111", "#c0392b", "#c0392b", "#111")
DIE_LABELS = ("null", "A", "2", "3", "4", "5")
FLAG_LABELS = ("0", "A", "2", "3", "4", "5")
CARD_BACK = raw(
    '<defs><pattern id="back" width="8" height="8" patternUnits="userSpaceOnUse">'
    '<rect width="8" height="8" fill="#4a3c8c"/><path d="M0 8L8 0" stroke="#8d7fd0" stroke-width="2"/>'
    "</pattern></defs>"
)
"""The pattern drawn on the back of a face-down card."""
FONT = "sans-serif"


def _origin(sq: int) -> tuple[int, int]:
    x, y = sq % SIZE, sq // SIZE
    return MARGIN + x * CELL, MARGIN + (SIZE - 1 - y) * CELL


def action_places(action: RacerAction) -> tuple[str, ...]:
    """The card a player clicks for an action on a square; deals, rolls and `stay` have none."""
    return (SQUARE_NAMES[action.arg],) if action.kind in SQUARE_KINDS else ()


def _card_outline(sq: int, *children: Markup, **paint: str) -> Markup:
    px, py = _origin(sq)
    size = CELL - 6
    return element(
        "rect",
        *children,
        x=px + 3,
        y=py + 3,
        width=size,
        height=size,
        rx=5,
        **paint,
        data_place=SQUARE_NAMES[sq],
    )


def _card(state: RoyalRacersState, sq: int, reveal: bool) -> list[Markup]:
    card = state.cards[sq]
    if card < 0:
        return [_card_outline(sq, fill="none", stroke="#bbb", stroke_dasharray="4 3")]
    face_down = bool(state.down >> sq & 1)
    if not face_down:
        out = [_card_outline(sq, fill="#fffdf6", stroke="#333")]
    else:
        title = element("title", f"{SQUARE_NAMES[sq]}: face down")
        out = [_card_outline(sq, title, fill="url(#back)", stroke="#333")]
        if not (state.memory_aid or reveal):
            return out
    px, py = _origin(sq)
    ink = "#ddd" if face_down else CARD_INK[card % 4]
    out.append(
        element("text", card_label(card), x=px + 9, y=py + 22, font_size=16, font_family=FONT, fill=ink)
    )
    return out


def _flag(state: RoyalRacersState, sq: int) -> list[Markup]:
    slot = state.flag_at[sq]
    if slot < 0:
        return []
    owner, index = divmod(slot, state.nflags)
    px, py = _origin(sq)
    face = setup.flag_face(state.nflags, index)
    title = element("title", f"{SUITS[owner]} flag {face}")
    return [
        element(
            "rect",
            title,
            x=px + CELL - 29,
            y=py + CELL - 29,
            width=22,
            height=22,
            rx=3,
            fill=SUIT_COLOURS[owner],
            stroke="#222",
        ),
        element(
            "text",
            FLAG_LABELS[face],
            x=px + CELL - 18,
            y=py + CELL - 13,
            font_size=13,
            text_anchor="middle",
            font_family=FONT,
            font_weight="bold",
            fill="#fff",
        ),
    ]


def _pawn(state: RoyalRacersState, player: int) -> list[Markup]:
    sq = state.pawns[player]
    if sq < 0:
        return []
    px, py = _origin(sq)
    title = element("title", f"{SUITS[player]} pawn")
    return [
        element(
            "circle",
            title,
            cx=px + 22,
            cy=py + CELL - 20,
            r=12,
            fill=SUIT_COLOURS[player],
            stroke="#000",
            stroke_width=2,
        )
    ]


def _die(state: RoyalRacersState, left: int) -> list[Markup]:
    face = DIE_FACES[state.roll] if state.roll >= 0 else "-"
    label = DIE_LABELS[state.roll] if state.roll >= 0 else "-"
    return [
        element("rect", x=left, y=MARGIN + 30, width=48, height=48, rx=8, fill="#fff", stroke="#222"),
        element(
            "text",
            label,
            element("title", f"die: {face}"),
            x=left + 24,
            y=MARGIN + 61,
            font_size=14 if label == "null" else 22,
            text_anchor="middle",
            font_family=FONT,
        ),
    ]


def _panel(state: RoyalRacersState) -> list[Markup]:
    left = MARGIN * 2 + SIZE * CELL
    heading = f"Race {state.race + 1} of {state.races}, round {state.round + 1}"
    out = [
        element("text", heading, x=left, y=MARGIN + 14, font_size=15, font_family=FONT),
        *_die(state, left),
    ]
    y = MARGIN + 104
    totals = state.totals()
    for p in range(state.n):
        out.append(element("circle", cx=left + 8, cy=y - 5, r=7, fill=SUIT_COLOURS[p], stroke="#000"))
        coins = f", {totals[p]} coins" if state.races > 1 else ""
        line = f"{SUITS[p]}: {state.progress[p]}/{state.nflags} flags{coins}"
        out.append(element("text", line, x=left + 22, y=y, font_size=13, font_family=FONT))
        y += 22
    return out


def _coordinates() -> list[Markup]:
    out = []
    for x in range(SIZE):
        out.append(
            element(
                "text",
                COLUMNS[x],
                x=MARGIN + x * CELL + CELL // 2,
                y=MARGIN + SIZE * CELL + 16,
                font_size=12,
                text_anchor="middle",
                font_family=FONT,
            )
        )
    for y in range(SIZE):
        out.append(
            element(
                "text",
                y + 1,
                x=MARGIN // 2,
                y=MARGIN + (SIZE - 1 - y) * CELL + CELL // 2 + 4,
                font_size=12,
                text_anchor="middle",
                font_family=FONT,
            )
        )
    return out


def render_svg(state: RoyalRacersState, reveal: bool = False) -> str:
    width = MARGIN * 3 + SIZE * CELL + PANEL
    height = MARGIN * 2 + SIZE * CELL + 10
    parts: list[Markup] = [CARD_BACK, element("rect", width=width, height=height, fill="#e9efe4")]
    parts += _coordinates()
    for sq in range(SIZE * SIZE):
        parts += _card(state, sq, reveal)
        parts += _flag(state, sq)
    for p in range(state.n):
        parts += _pawn(state, p)
    parts += _panel(state)
    # One element per line (the picture stays byte for byte what it was before core.svg).
    head = f'<svg xmlns="{NAMESPACE}" width="{width}" height="{height}" viewBox="0 0 {width} {height}">'
    return "\n".join([head, *parts, "</svg>"])
