"""The position as an SVG picture: the card grid, face-down backs, flags, pawns and the die.

A pure function of the state. Face-down cards are drawn as card backs (their ranks are
hidden, as at the table) unless the memory_aid option is on or the picture reveals
everything (`reveal`, for the replay of a record). Each card carries `data-place` with its
square, where a player clicks to start, place a flag, flip or move (`action_places`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from chaosgames.games.royal_racers import setup
from chaosgames.games.royal_racers.actions import DIE_FACES, SQUARE_KINDS, RacerAction
from chaosgames.games.royal_racers.board import (
    CARD_SUIT_SYMBOLS,
    COLUMNS,
    RANK_NAMES,
    RANK_OF,
    SIZE,
    SQUARE_NAMES,
    SUITS,
)

if TYPE_CHECKING:
    from chaosgames.games.royal_racers.state import RoyalRacersState

CELL = 64
MARGIN = 24
PANEL = 190
SUIT_COLOURS = ("#d4731f", "#3b5ba5", "#2e8b3e", "#8a2f8f")
"""Piecepack suits: suns, moons, crowns, arms."""
CARD_INK = ("#111", "#c0392b", "#c0392b", "#111")
DIE_LABELS = ("null", "A", "2", "3", "4", "5")
FLAG_LABELS = ("0", "A", "2", "3", "4", "5")


def _origin(sq: int) -> tuple[int, int]:
    x, y = sq % SIZE, sq // SIZE
    return MARGIN + x * CELL, MARGIN + (SIZE - 1 - y) * CELL


def action_places(action: RacerAction) -> tuple[str, ...]:
    """The card a player clicks for an action on a square; deals, rolls and `stay` have none."""
    return (SQUARE_NAMES[action.arg],) if action.kind in SQUARE_KINDS else ()


def _card(state: RoyalRacersState, sq: int, reveal: bool) -> list[str]:
    px, py = _origin(sq)
    card = state.cards[sq]
    out = []
    place = f'data-place="{SQUARE_NAMES[sq]}"'
    if card < 0:
        out.append(
            f'<rect x="{px + 3}" y="{py + 3}" width="{CELL - 6}" height="{CELL - 6}" rx="5" '
            f'fill="none" stroke="#bbb" stroke-dasharray="4 3" {place}/>'
        )
        return out
    face_down = bool(state.down >> sq & 1)
    if face_down:
        out.append(
            f'<rect x="{px + 3}" y="{py + 3}" width="{CELL - 6}" height="{CELL - 6}" rx="5" '
            f'fill="url(#back)" stroke="#333" {place}><title>{SQUARE_NAMES[sq]}: face down</title></rect>'
        )
        if not (state.memory_aid or reveal):
            return out
    else:
        out.append(
            f'<rect x="{px + 3}" y="{py + 3}" width="{CELL - 6}" height="{CELL - 6}" rx="5" '
            f'fill="#fffdf6" stroke="#333" {place}/>'
        )
    label = f"{RANK_NAMES[RANK_OF[card]]}{CARD_SUIT_SYMBOLS[card % 4]}"
    ink = "#ddd" if face_down else CARD_INK[card % 4]
    out.append(
        f'<text x="{px + 9}" y="{py + 22}" font-size="16" font-family="sans-serif" '
        f'fill="{ink}">{escape(label)}</text>'
    )
    return out


def _flag(state: RoyalRacersState, sq: int) -> list[str]:
    slot = state.flag_at[sq]
    if slot < 0:
        return []
    owner, index = divmod(slot, state.nflags)
    px, py = _origin(sq)
    face = setup.flag_face(state.nflags, index)
    colour = SUIT_COLOURS[owner]
    return [
        f'<rect x="{px + CELL - 29}" y="{py + CELL - 29}" width="22" height="22" rx="3" '
        f'fill="{colour}" stroke="#222"><title>{SUITS[owner]} flag {face}</title></rect>',
        f'<text x="{px + CELL - 18}" y="{py + CELL - 13}" font-size="13" text-anchor="middle" '
        f'font-family="sans-serif" font-weight="bold" fill="#fff">{FLAG_LABELS[face]}</text>',
    ]


def _pawn(state: RoyalRacersState, player: int) -> list[str]:
    sq = state.pawns[player]
    if sq < 0:
        return []
    px, py = _origin(sq)
    colour = SUIT_COLOURS[player]
    return [
        f'<circle cx="{px + 22}" cy="{py + CELL - 20}" r="12" fill="{colour}" stroke="#000" '
        f'stroke-width="2"><title>{SUITS[player]} pawn</title></circle>'
    ]


def _panel(state: RoyalRacersState) -> list[str]:
    left = MARGIN * 2 + SIZE * CELL
    out = [
        f'<text x="{left}" y="{MARGIN + 14}" font-size="15" font-family="sans-serif">'
        f"Race {state.race + 1} of {state.races}, round {state.round + 1}</text>"
    ]
    out.append(
        f'<rect x="{left}" y="{MARGIN + 30}" width="48" height="48" rx="8" fill="#fff" stroke="#222"/>'
    )
    face = DIE_FACES[state.roll] if state.roll >= 0 else "-"
    label = DIE_LABELS[state.roll] if state.roll >= 0 else "-"
    out.append(
        f'<text x="{left + 24}" y="{MARGIN + 61}" font-size="{14 if label == "null" else 22}" '
        f'text-anchor="middle" font-family="sans-serif">{label}<title>die: {face}</title></text>'
    )
    y = MARGIN + 104
    totals = state.totals()
    for p in range(state.n):
        out.append(f'<circle cx="{left + 8}" cy="{y - 5}" r="7" fill="{SUIT_COLOURS[p]}" stroke="#000"/>')
        coins = f", {totals[p]} coins" if state.races > 1 else ""
        out.append(
            f'<text x="{left + 22}" y="{y}" font-size="13" font-family="sans-serif">'
            f"{SUITS[p]}: {state.progress[p]}/{state.nflags} flags{coins}</text>"
        )
        y += 22
    return out


def render_svg(state: RoyalRacersState, reveal: bool = False) -> str:
    width = MARGIN * 3 + SIZE * CELL + PANEL
    height = MARGIN * 2 + SIZE * CELL + 10
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">',
        '<defs><pattern id="back" width="8" height="8" patternUnits="userSpaceOnUse">'
        '<rect width="8" height="8" fill="#4a3c8c"/><path d="M0 8L8 0" stroke="#8d7fd0" stroke-width="2"/>'
        "</pattern></defs>",
        f'<rect width="{width}" height="{height}" fill="#e9efe4"/>',
    ]
    for x in range(SIZE):
        parts.append(
            f'<text x="{MARGIN + x * CELL + CELL // 2}" y="{MARGIN + SIZE * CELL + 16}" font-size="12" '
            f'text-anchor="middle" font-family="sans-serif">{COLUMNS[x]}</text>'
        )
    for y in range(SIZE):
        parts.append(
            f'<text x="{MARGIN // 2}" y="{MARGIN + (SIZE - 1 - y) * CELL + CELL // 2 + 4}" '
            f'font-size="12" text-anchor="middle" font-family="sans-serif">{y + 1}</text>'
        )
    for sq in range(SIZE * SIZE):
        parts += _card(state, sq, reveal)
        parts += _flag(state, sq)
    for p in range(state.n):
        parts += _pawn(state, p)
    parts += _panel(state)
    parts.append("</svg>")
    return "\n".join(parts)
