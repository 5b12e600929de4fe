"""The position as an SVG picture: the card grid, face-down backs, flags, pawns and the die.

A pure function of the state. Face-down cards are drawn as card backs (their ranks are
hidden, as at the table) unless the memory_aid option is on or the picture reveals
everything (`reveal`, for the replay of a record); the card a wrong guess showed is drawn
face up with a red mark while that guess is the latest decision. Every square carries
`data-place` with its name, where a player clicks to start, place a flag, flip or move
(`action_places`). Movable things are `data-piece` groups (core.story's conventions): a
card is known by its square (`card-b4`, with `data-at`), never by its rank, so that a
face-down card's id tells nothing; a flag by its owner and face (`flag-moons-ace`); a pawn
by its owner (`pawn-suns`). Each has a `<title>` first: what it is and what it can do.
`legend=False` draws the board alone; the die and the race's progress are then in
`Game.legend`.
"""

from __future__ import annotations

import functools

from chaosgames.core.svg import NAMESPACE, Markup, drawing, element, kept, raw
from chaosgames.games.royal_racers import setup
from chaosgames.games.royal_racers.actions import DIE_FACES, SQUARE_KINDS, RacerAction
from chaosgames.games.royal_racers.board import COLUMNS, SIZE, SQUARE_NAMES, SUITS, card_label
from chaosgames.games.royal_racers.state import RoyalRacersState
from chaosgames.games.royal_racers.table import HIDDEN, Look, flag_touched, square_looks
from chaosgames.games.royal_racers.words import card_title, flag_title, pawn_title

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


def _card_outline(sq: int, title: str, **paint: str | int) -> Markup:
    px, py = _origin(sq)
    size = CELL - 6
    return element(
        "rect",
        element("title", title),
        x=px + 3,
        y=py + 3,
        width=size,
        height=size,
        rx=5,
        **paint,
        data_place=SQUARE_NAMES[sq],
    )


def _card(state: RoyalRacersState, sq: int, look: Look, reveal: bool) -> Markup:
    """One square (`look`: its `square_look`): a dashed outline before the deal, else the
    card (a group known by its square, whatever its face) with its face, its back, or its
    wrong-guess mark."""
    shown, down, wrong, *_ = look
    # The title says the look, the flag's name and, for a wrong guess, the roll.
    said = (state.roll if wrong else None, state.nflags, state.memory_aid, reveal)
    return kept(
        _CARDS, (sq, look, said), lambda: _card_drawn(sq, shown, down, wrong, card_title(state, sq, reveal))
    )


_CARDS: dict[tuple[object, ...], Markup] = {}


# A picture is drawn for every change the server shows: a card drawn the same as before
# (most of them) is not drawn again.
@functools.lru_cache(maxsize=8192)
def _card_drawn(sq: int, shown: int, down: bool, wrong: bool, title: str) -> Markup:
    if shown == -1:
        return _card_outline(sq, title, fill="none", stroke="#bbb", stroke_dasharray="4 3")
    if wrong:
        paint: dict[str, str | int] = {"fill": "#fff0f0", "stroke": "#c0392b", "stroke_width": 3}
    elif down:
        paint = {"fill": "url(#back)", "stroke": "#333"}
    else:
        paint = {"fill": "#fffdf6", "stroke": "#333"}
    parts = [element("title", title), _card_outline(sq, title, **paint)]
    px, py = _origin(sq)
    if shown != HIDDEN:
        ink = "#ddd" if down and not wrong else CARD_INK[shown % 4]
        parts.append(
            element("text", card_label(shown), x=px + 9, y=py + 22, font_size=16, font_family=FONT, fill=ink)
        )
    if wrong:
        parts.append(
            element(
                "text",
                "\u2717",
                x=px + CELL - 15,
                y=py + 24,
                font_size=20,
                font_weight="bold",
                text_anchor="middle",
                font_family=FONT,
                fill="#c0392b",
            )
        )
    name = SQUARE_NAMES[sq]
    return element("g", *parts, data_piece=f"card-{name}", data_at=name)


def _flag(state: RoyalRacersState, slot: int) -> list[Markup]:
    sq = state.flag_sq[slot]
    if sq < 0:
        return []
    # A flag's title says where it is, whose it is and whether it was touched.
    look = (slot, sq, state.nflags, flag_touched(state, slot))
    return [kept(_FLAGS, look, lambda: _flag_drawn(state, slot))]


_FLAGS: dict[tuple[object, ...], Markup] = {}


def _flag_drawn(state: RoyalRacersState, slot: int) -> Markup:
    sq = state.flag_sq[slot]
    owner, index = divmod(slot, state.nflags)
    px, py = _origin(sq)
    face = setup.flag_face(state.nflags, index)
    box = element(
        "rect",
        x=px + CELL - 29,
        y=py + CELL - 29,
        width=22,
        height=22,
        rx=3,
        fill=SUIT_COLOURS[owner],
        stroke="#222",
    )
    label = element(
        "text",
        FLAG_LABELS[face],
        x=px + CELL - 18,
        y=py + CELL - 13,
        font_size=14,
        text_anchor="middle",
        font_family=FONT,
        font_weight="bold",
        fill="#fff",
    )
    # A touched flag is faded: it counts no more in this race.
    faded = "0.4" if flag_touched(state, slot) else None
    piece = f"flag-{SUITS[owner]}-{DIE_FACES[face]}"
    return element(
        "g", element("title", flag_title(state, slot)), box, label, data_piece=piece, opacity=faded
    )


def _pawn(state: RoyalRacersState, player: int) -> list[Markup]:
    sq = state.pawns[player]
    if sq < 0:
        return []
    px, py = _origin(sq)
    disc = element(
        "circle",
        cx=px + 22,
        cy=py + CELL - 20,
        r=12,
        fill=SUIT_COLOURS[player],
        stroke="#000",
        stroke_width=2,
    )
    initial = element(
        "text",
        SUITS[player][0].upper(),
        x=px + 22,
        y=py + CELL - 15,
        font_size=14,
        font_weight="bold",
        text_anchor="middle",
        font_family=FONT,
        fill="#fff",
    )
    title = element("title", pawn_title(state, player))
    return [element("g", title, disc, initial, data_piece=f"pawn-{SUITS[player]}")]


def _die(state: RoyalRacersState, left: int, reveal: bool) -> list[Markup]:
    roll = state.roll if reveal else state.shown_roll()
    face = DIE_FACES[roll] if roll >= 0 else "-"
    label = DIE_LABELS[roll] if roll >= 0 else "-"
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


def _panel(state: RoyalRacersState, reveal: bool) -> list[Markup]:
    left = MARGIN * 2 + SIZE * CELL
    heading = f"Race {state.race + 1} of {state.races}, round {state.round + 1}"
    out = [
        element("text", heading, x=left, y=MARGIN + 14, font_size=15, font_family=FONT),
        *_die(state, left, reveal),
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


@functools.cache
def _coordinates() -> tuple[Markup, ...]:
    out = []
    for x in range(SIZE):
        out.append(
            element(
                "text",
                COLUMNS[x],
                x=MARGIN + x * CELL + CELL // 2,
                y=MARGIN + SIZE * CELL + 16,
                font_size=14,
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
                font_size=14,
                text_anchor="middle",
                font_family=FONT,
            )
        )
    return tuple(out)


def render_svg(state: RoyalRacersState, reveal: bool = False, legend: bool = True) -> str:
    """The table; `legend=False` is the board alone (the page draws `Game.legend` beside)."""
    board = MARGIN * 2 + SIZE * CELL
    width = board + MARGIN + PANEL if legend else board
    height = board + 10
    parts: list[Markup] = [CARD_BACK, element("rect", width=width, height=height, fill="#e9efe4")]
    parts += _coordinates()
    parts += [_card(state, sq, look, reveal) for sq, look in enumerate(square_looks(state, reveal))]
    for slot in range(len(state.flag_sq)):
        parts += _flag(state, slot)
    for p in range(state.n):
        parts += _pawn(state, p)
    if legend:
        parts += _panel(state, reveal)
    # One element per line: a square's card, a flag, a pawn each on its own.
    head = f'<svg xmlns="{NAMESPACE}" width="{width}" height="{height}" viewBox="0 0 {width} {height}">'
    return drawing([head, *parts, "</svg>"], "\n")
