"""The position as an SVG picture (a pure function of the state and the viewer).

Places (`data-place`): every dark square by its standard number (`"14"`), clickable or
not, and the potion token on a piece (`"potion-14"`): a badge a player taps to spend that
potion, so that spending one is always a choice of its own (tapping one piece and then
another only changes which piece is picked). Pieces (`data-piece`, with `data-at`) are
known by their square, as `chaosgames.core.story` asks of things with no identity of their
own. Each square, piece and potion has a `<title>` that says what it is and does.

The board is turned for the viewer: a seat sees its own pieces at the bottom, a spectator
sees the first player at the bottom (as lichess shows white). Only the drawing turns: the
squares keep their standard numbers.

Sizes: the board alone (`legend=False`) is 480 units wide, shown about 360 CSS px wide on
a phone, so a unit is 0.75 px there: a square is 45 px, a potion badge 24 px (the least a
finger needs), and the 15-unit square numbers are 11.25 px (the least the page shows).
"""

from __future__ import annotations

import functools
from typing import Any

from chaosgames.core.game import Action, State
from chaosgames.core.svg import Markup, element, kept, picture, points
from chaosgames.games.chaos_checkers.actions import ChaosMove, Defence, Piece, PotionUse
from chaosgames.games.chaos_checkers.board import row_col
from chaosgames.games.chaos_checkers.colours import COLOURS, FILL
from chaosgames.games.chaos_checkers.moves import PlainMove
from chaosgames.games.chaos_checkers.plain import PlainState
from chaosgames.games.chaos_checkers.powers import POWER, Power
from chaosgames.games.chaos_checkers.state import ChaosState
from chaosgames.games.chaos_checkers.text import (
    POWER_EFFECT,
    a_colour,
    colour_name,
    potion_words,
    shield_effect,
)

CELL = 60
SIDE = 230
FONT = "sans-serif"
NUMBER_SIZE = 15
"""Square numbers: 11.25 CSS px on a phone (the page hides text under 11 px)."""
BADGE = 16
"""Radius of a potion badge: 32 units across, 24 CSS px on a phone (a finger's least)."""
BADGE_FONT = 16

POWER_SYMBOL: dict[Power, str] = {power: power.value[0].upper() for power in Power} | {
    Power.REVIVE: "V",
    Power.SACRIFICE: "X",
    Power.RECLAIM: "C",
}
"""The letter on a potion badge (its colour names the power; the letter helps those who
cannot tell colours apart): the power's initial, and where initials clash reVive, X for
Sacrifice and reClaim."""
_DARK_TEXT = frozenset(("orange", "yellow", "lightblue", "clear", "white", "pink"))
"""Fills light enough to carry a dark letter."""


def potion_place(square: int) -> str:
    """The place of the potion badge on the piece on square index `square`."""
    return f"potion-{square + 1}"


def turned(viewer: int | None) -> bool:
    """Whether the board is drawn turned round: the first player (who starts on 1-12 at
    the top of the standard diagram) and spectators see the first player at the bottom."""
    return viewer != 1


def _corner(index: int, turn: bool) -> tuple[int, int]:
    """The top-left corner of square index `index` as drawn."""
    row, col = row_col(index)
    if turn:
        row, col = 7 - row, 7 - col
    return col * CELL, row * CELL


# -- titles --------------------------------------------------------------------------------


def piece_words(state: ChaosState, index: int) -> str:
    """'blue/lightblue/purple's purple king with a red shield (red pieces cannot capture
    it) and a green Rewind potion (discard the potion of an opposing piece)'."""
    piece = state.board[index]
    assert piece is not None
    names = state.game.player_names()
    kind = "king" if piece.king else "piece"
    words = f"{names[piece.owner]}'s {colour_name(piece.colour)} {kind}"
    if piece.shield >= 0:
        words += f" with {a_colour(piece.shield)} shield ({shield_effect(piece.shield)})"
    else:
        words += " with no shield"
    if piece.potion >= 0:
        words += f" and {potion_words(piece.potion)} ({POWER_EFFECT[POWER[piece.potion]]})"
    else:
        words += " and no potion"
    if state.counts()[piece.owner] == 1:
        words += "; it is its player's last piece, so shields do not count for or against it"
    return words


def _square_title(state: State[Any], index: int) -> str:
    if isinstance(state, ChaosState):
        if state.board[index] is None:
            return f"Square {index + 1}: empty."
        return f"Square {index + 1}: {piece_words(state, index)}."
    assert isinstance(state, PlainState)
    ch = state.board()[index]
    if ch == ".":
        return f"Square {index + 1}: empty."
    owner = "Black" if ch in "bB" else "White"
    return f"Square {index + 1}: {owner}'s {'king' if ch.isupper() else 'man'}."


def _badge_title(piece: Piece, index: int, viewer: int | None) -> str:
    power = POWER[piece.potion]
    title = f"Potion on {index + 1}: {potion_words(piece.potion)}: {POWER_EFFECT[power]}."
    if piece.owner == viewer:
        title += " To use it, tap this potion, then what it acts on."
    return title


# -- drawing -------------------------------------------------------------------------------


def _square_titles(state: State[Any]) -> list[str]:
    """Each dark square's title. In chaos a piece's words are made once for what they say
    (the piece, whether it is its player's last, the players' names), not every picture."""
    if not isinstance(state, ChaosState):
        return [_square_title(state, index) for index in range(32)]
    names = tuple(state.game.player_names())
    counts = state.counts()
    return [
        kept(
            _TITLES,
            (index, piece, piece is not None and counts[piece.owner] == 1, names),
            functools.partial(_square_title, state, index),
        )
        for index, piece in enumerate(state.board)
    ]


_TITLES: dict[tuple[object, ...], str] = {}


def _board_squares(titles: list[str], turn: bool) -> list[Markup]:
    out = list(_light_squares())
    for index in range(32):
        out.append(_dark_square(index, turn, titles[index]))
    return out


# A picture is drawn for every change the server shows: what does not change between two
# positions (the light squares, a square whose title is the same) is drawn once, not again.
@functools.cache
def _light_squares() -> tuple[Markup, ...]:
    return tuple(
        element("rect", x=col * CELL, y=row * CELL, width=CELL, height=CELL, fill="#f0d9b5")
        for row in range(8)
        for col in range(8)
        if (row + col) % 2 == 0
    )


@functools.lru_cache(maxsize=4096)
def _dark_square(index: int, turn: bool, said: str) -> Markup:
    x, y = _corner(index, turn)
    title = element("title", said)
    return element("rect", title, x=x, y=y, width=CELL, height=CELL, fill="#8b5a2b", data_place=index + 1)


@functools.cache
def _square_numbers(turn: bool) -> tuple[Markup, ...]:
    """The 1-32 numbers, drawn last so that pieces never hide them (and let taps through)."""
    out = []
    for index in range(32):
        x, y = _corner(index, turn)
        out.append(
            element(
                "text",
                index + 1,
                x=x + 2,
                y=y + NUMBER_SIZE - 1,
                font_size=NUMBER_SIZE,
                font_weight="bold",
                fill="#fff4dc",
                stroke="#3b2410",
                stroke_width=0.6,
                font_family=FONT,
                pointer_events="none",
            )
        )
    return tuple(out)


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


def _badge(piece: Piece, index: int, x: int, y: int, viewer: int | None) -> Markup:
    """The potion token on a piece, in the square's lower right corner: a place of its own."""
    cx, cy = x + CELL - BADGE - 1, y + CELL - BADGE - 1
    name = COLOURS[piece.potion]
    return element(
        "g",
        element("title", _badge_title(piece, index, viewer)),
        element("circle", cx=cx, cy=cy, r=BADGE, fill=FILL[name], stroke="#222", stroke_width=2),
        element(
            "text",
            POWER_SYMBOL[POWER[piece.potion]],
            x=cx,
            y=cy + BADGE_FONT * 0.36,
            font_size=BADGE_FONT,
            font_weight="bold",
            text_anchor="middle",
            fill="#222" if name in _DARK_TEXT else "#fff",
            font_family=FONT,
        ),
        data_place=potion_place(index),
        class_="potion",
    )


def _disc(state: State[Any], index: int, turn: bool, viewer: int | None, title: str) -> Markup:
    piece: Piece | None
    if isinstance(state, ChaosState):
        piece = state.board[index]
        assert piece is not None
    else:
        assert isinstance(state, PlainState)
        ch = state.board()[index]
        piece = Piece(0 if ch in "bB" else 1, -1, ch.isupper(), -1, -1)
    plain = not isinstance(state, ChaosState)
    return _disc_drawn(index, turn, viewer, title, piece, plain)


# A piece drawn as before (most of them, after a move) is not drawn again.
@functools.lru_cache(maxsize=4096)
def _disc_drawn(index: int, turn: bool, viewer: int | None, title: str, piece: Piece, plain: bool) -> Markup:
    x, y = _corner(index, turn)
    cx, cy = x + CELL / 2, y + CELL / 2
    out = [element("title", title)]
    king = piece.king
    if plain:
        fill = "#202020" if piece.owner == 0 else "#f4f4f4"
    else:
        fill = FILL[COLOURS[piece.colour]]
        if piece.shield >= 0:
            ring = FILL[COLOURS[piece.shield]]
            out.append(element("circle", cx=cx, cy=cy, r=25, fill="none", stroke="#333", stroke_width=8))
            out.append(element("circle", cx=cx, cy=cy, r=25, fill="none", stroke=ring, stroke_width=5))
    out.append(element("circle", cx=cx, cy=cy, r=19, fill=fill, stroke="#333", stroke_width=1.5))
    if king:
        out.append(_crown(cx - 3, cy - 3))
    if not plain and piece.potion >= 0:
        out.append(_badge(piece, index, x, y, viewer))
    return element("g", out, data_piece=index + 1, data_at=index + 1, data_place=index + 1)


def action_places(action: Action) -> tuple[str, ...]:
    """The places that select `action`, in the order a player taps them.

    A move: the squares it visits, the piece first. Anything that spends or uses a potion
    (a declared potion, an Ambush or Leap capture, Invulnerability) starts on that potion's
    badge, then its targets: so no action starts on one own piece and goes on to another
    (that is a change of mind, which must only change the selection). Letting a piece be
    captured (`yield`), draws, picks and `pass` are chosen from the list.
    """
    if isinstance(action, PlainMove):
        return tuple(str(i + 1) for i in action.path)
    if isinstance(action, ChaosMove):
        if action.power is not None:
            return (potion_place(action.path[0]), *(str(i + 1) for i in action.path[1:]))
        return tuple(str(i + 1) for i in action.path)
    if isinstance(action, PotionUse):
        targets = (str(i + 1) for i in (action.target, action.other) if i >= 0)
        return (potion_place(action.square), *targets)
    if isinstance(action, Defence) and action.invulnerable:
        return (potion_place(action.square),)
    return ()


def render_svg(state: State[Any], viewer: int | None = None, legend: bool = True) -> str:
    turn = turned(viewer)
    titles = _square_titles(state)
    parts = _board_squares(titles, turn)
    width = 8 * CELL
    if isinstance(state, PlainState):
        occupied = [i for i, ch in enumerate(state.board()) if ch != "."]
    else:
        assert isinstance(state, ChaosState)
        occupied = [i for i, piece in enumerate(state.board) if piece is not None]
    parts.extend(_disc(state, i, turn, viewer, titles[i]) for i in occupied)
    parts.extend(_square_numbers(turn))
    if legend and isinstance(state, ChaosState):
        width += SIDE
        parts.extend(_side_panel(state))
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
