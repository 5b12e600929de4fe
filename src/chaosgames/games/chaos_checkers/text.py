"""The position as text for a terminal: the board with 1-32 numbers, then the key facts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chaosgames.games.chaos_checkers.board import index_at
from chaosgames.games.chaos_checkers.colours import COLOURS
from chaosgames.games.chaos_checkers.potions import POWER

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
    lines = ["+" + "-" * 32 + "+"]
    for row in range(8):
        cells = []
        for col in range(8):
            index = index_at(row, col)
            cells.append("    " if index < 0 else cell.get(index, f"{index + 1:>3} ")[:4].ljust(4))
        lines.append("|" + "".join(cells) + "|")
    lines.append("+" + "-" * 32 + "+")
    return lines


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
    elif state.phase in ("place", "shield", "potion"):
        lines.append(f"Setup: {state.phase} draws.")
    else:
        who = state.current_player()
        acting = "chance" if who < 0 else names[who]
        extra = f" (extra turn of the Speedy piece on {state.extra + 1})" if state.extra >= 0 else ""
        lines.append(f"Move {state.moves_made + 1}{extra}: {acting} to act ({state.phase}).")
    return "\n".join(lines)
