"""The game as text: the position for a terminal (the board with 1-32 numbers, then the
key facts), and a sentence for each action (for menus)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from chaosgames.core.game import Action
from chaosgames.games.chaos_checkers.actions import ChaosMove, Defence, Draw, Piece, PotionUse, SetupDraw
from chaosgames.games.chaos_checkers.board import index_at
from chaosgames.games.chaos_checkers.colours import COLOURS
from chaosgames.games.chaos_checkers.moves import PlainMove
from chaosgames.games.chaos_checkers.phases import DRAW_POTION, DRAW_SHIELD, KEEP_SHIELD, PLACE, SETUP_PHASES
from chaosgames.games.chaos_checkers.powers import POWER, Power

if TYPE_CHECKING:
    from chaosgames.games.chaos_checkers.plain import PlainState
    from chaosgames.games.chaos_checkers.state import ChaosState

ABBREVIATION = {
    "red": "Rd",
    "orange": "Or",
    "yellow": "Ye",
    "green": "Gn",
    "blue": "Bu",
    "purple": "Pu",
    "lightblue": "Lb",
    "black": "Bk",
    "clear": "Cl",
    "white": "Wh",
    "pink": "Pk",
}


def _grid(cell: dict[int, str]) -> list[str]:
    """8 rows of 8 cells, 4 characters each; `cell` maps square index to its text."""
    return list(_grid_drawn(tuple(cell.get(index) for index in range(32))))


# A text view is made for every change the server shows: a board as before, once.
@functools.lru_cache(maxsize=1024)
def _grid_drawn(texts: tuple[str | None, ...]) -> tuple[str, ...]:
    cell = {index: text for index, text in enumerate(texts) if text is not None}
    lines = ["+" + "-" * 32 + "+"]
    for row in range(8):
        cells = []
        for col in range(8):
            index = index_at(row, col)
            cells.append("    " if index < 0 else cell.get(index, f"{index + 1:>3} ")[:4].ljust(4))
        lines.append("|" + "".join(cells) + "|")
    lines.append("+" + "-" * 32 + "+")
    return tuple(lines)


def render_plain(state: PlainState) -> str:
    board = state.board()
    cell = {i: f" {ch}  " for i, ch in enumerate(board) if ch != "."}
    names = ["Black (b, B kings; starts on 1-12)", "White (w, W kings; starts on 21-32)"]
    lines = _grid(cell)
    if state.outcome is not None:
        lines.append(_result(state.outcome, names))
    else:
        lines.append(f"Move {state.ply + 1}: {names[state.side]} to play.")
    return "\n".join(lines)


def _result(outcome: tuple[float, float], names: list[str]) -> str:
    return "Game over: " + ("draw" if outcome[0] == outcome[1] else f"{names[outcome.index(1.0)]} wins")


def _piece_line(index: int, state: ChaosState) -> str:
    piece = state.board[index]
    assert piece is not None
    return _piece_words(index, piece)


@functools.lru_cache(maxsize=4096)
def _piece_words(index: int, piece: Piece) -> str:
    shield = COLOURS[piece.shield] if piece.shield >= 0 else "none"
    potion = f"{COLOURS[piece.potion]} ({POWER[piece.potion]})" if piece.potion >= 0 else "none"
    kind = "king" if piece.king else "man"
    return f"  {index + 1:>2}: {COLOURS[piece.colour]} {kind}, shield {shield}, potion {potion}"


def render_chaos(state: ChaosState) -> str:
    names = state.game.player_names()
    cell = {}
    for i, piece in enumerate(state.board):
        if piece is not None:
            cell[i] = (
                ABBREVIATION[COLOURS[piece.colour]]
                + ("K" if piece.king else "")
                + (" " if piece.king else "  ")
            )
    lines = _grid(cell)
    for player in (0, 1):
        lines.append(f"{names[player]} (player {player + 1}):")
        lines.extend(
            _piece_line(i, state) for i, p in enumerate(state.board) if p is not None and p.owner == player
        )
        bag = ", ".join(f"{n} {COLOURS[c]}" for c, n in enumerate(state.bags[player]) if n) or "empty"
        gone = ", ".join(f"{n} {COLOURS[c]}" for c, n in enumerate(state.eliminated[player]) if n) or "none"
        lines.append(f"  shield bag: {bag}; eliminated: {gone}")
    pouch = ", ".join(f"{n} {COLOURS[c]}" for c, n in enumerate(state.pouch) if n) or "empty"
    lines.append(
        f"Potion pouch: {pouch}" + (f"; {state.removed} white out of the game" if state.removed else "")
    )
    if state.hand:
        lines.append("Drawn: " + ", ".join(COLOURS[c] for c in state.hand))
    if state.outcome is not None:
        lines.append(_result(state.outcome, names))
    elif state.phase in SETUP_PHASES:
        lines.append(f"Setup: {state.phase} draws.")
    else:
        who = state.current_player()
        acting = "chance" if who < 0 else names[who]
        extra = f" (extra turn of the Speedy piece on {state.extra + 1})" if state.extra >= 0 else ""
        lines.append(f"Move {state.moves_made + 1}{extra}: {acting} to act ({state.phase}).")
    return "\n".join(lines)


# -- words shared by the menus, the pictures' titles and the story ---------------------------


def colour_name(colour: int) -> str:
    """A colour as a player says it: 'light blue', not the notation's 'lightblue'."""
    return "light blue" if COLOURS[colour] == "lightblue" else COLOURS[colour]


def a_colour(colour: int) -> str:
    """The colour with its article: 'an orange', 'a light blue'."""
    name = colour_name(colour)
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name}"


def power_name(colour: int) -> str:
    """The power of a potion of `colour`: 'Speedy', 'Invulnerability'."""
    return POWER[colour].capitalize()


POWER_EFFECT: dict[Power, str] = {
    Power.AMBUSH: "captures by moving onto an opposing piece instead of jumping it; it is kept after use",
    Power.INVULNERABILITY: "when the piece would be captured, its owner may discard this potion instead "
    "and the piece is spared",
    Power.WILD: "swap it for a potion of your choice from the pouch",
    Power.LEAP: "a capture may jump over one or two squares in a straight line; it is kept after use",
    Power.SPEEDY: "this piece takes a second turn after this one",
    Power.GHOST: "this piece cannot capture or be captured; it jumps and is jumped without capturing",
    Power.REWIND: "discard the potion of an opposing piece",
    Power.TELEKINESIS: "move the potion of one of your pieces onto another of your pieces",
    Power.REVIVE: "bring an eliminated piece of yours back on an empty square of your home row",
    Power.SACRIFICE: "eliminate this piece and an opposing piece of your choice",
    Power.RECLAIM: "give one of your pieces a shield of your choice from your bag",
}
"""What each potion power does, in a few words (titles, legend, story)."""


def potion_words(colour: int) -> str:
    """'a green Rewind potion'."""
    return f"{a_colour(colour)} {power_name(colour)} potion"


def shield_effect(colour: int) -> str:
    """What a shield of `colour` does: 'red pieces cannot capture it'."""
    return f"{colour_name(colour)} pieces cannot capture it"


def count_words(n: int, thing: str) -> str:
    """'1 piece', '2 pieces'."""
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


_POTION_SENTENCE = {
    Power.SPEEDY: "Speedy: the piece on {s} takes a second turn after this one",
    Power.GHOST: "discard the Ghost potion of the piece on {s}",
    Power.WILD: "Wild: swap the potion on {s} for {c} one",
    Power.REWIND: "Rewind (potion on {s}): discard the potion on {t}",
    Power.SACRIFICE: "Sacrifice: eliminate your piece on {s} and the opposing piece on {t}",
    Power.TELEKINESIS: "Telekinesis (potion on {s}): move the potion on {t} to {o}",
    Power.REVIVE: "Revive (potion on {s}): bring back {c} piece on {t}",
    Power.RECLAIM: "Reclaim (potion on {s}): give the piece on {t} {c} shield",
}


def describe(action: Action) -> str:
    """A short sentence for a player choosing among actions."""
    if isinstance(action, PlainMove):
        return f"move {action}" if not action.captured else f"capture {action}"
    if isinstance(action, ChaosMove):
        captures = sum(1 for v in action.victims if v >= 0)
        if action.power is not None:
            return f"{action.power.capitalize()} capture {action} ({count_words(captures, 'piece')})"
        if captures:
            return f"capture {action} ({count_words(captures, 'piece')})"
        return f"jump {action} without capturing (Ghost)" if "~" in str(action) else f"move {action}"
    if isinstance(action, PotionUse):
        colour = a_colour(action.colour) if action.colour >= 0 else ""
        return _POTION_SENTENCE[action.power].format(
            s=action.square + 1, t=action.target + 1, o=action.other + 1, c=colour
        )
    if isinstance(action, Defence):
        if action.invulnerable:
            return f"use Invulnerability: the piece on {action.square + 1} is not captured"
        return f"keep the Invulnerability potion: the piece on {action.square + 1} is captured"
    if isinstance(action, Draw):
        verb = "draw" if action.kind in (DRAW_SHIELD, DRAW_POTION) else "keep"
        what = "shield" if action.kind in (DRAW_SHIELD, KEEP_SHIELD) else "potion"
        return f"{verb} {a_colour(action.colour)} {what}"
    if isinstance(action, SetupDraw):
        if action.kind is PLACE:
            return f"{a_colour(action.colour)} piece is set on {action.square + 1}"
        return f"{a_colour(action.colour)} {action.kind.value} for the piece on {action.square + 1}"
    return "decline the Speedy extra turn"
