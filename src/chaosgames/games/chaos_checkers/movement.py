"""Moving and capturing with shields and potions (the chaos rules of movement).

Checkers underneath: men step and capture diagonally forward, kings both ways, a capture
continues while it can (a whole multi-jump is one move) and a man reaching the far row is
crowned, which ends its move. On top:

- Shields: a piece whose shield has the colour of the moving piece cannot be jumped or
  captured by it. A player's last piece ignores all shields: its shield does not protect
  it and opposing shields do not stop it.
- Ghost (clear potion): a Ghost piece cannot capture and cannot be captured, but may
  jump and be jumped; such a jump captures nothing and is a move of one jump on its own
  (`14~23`), never part of a multi-jump and never forced.
- Ambush (black potion, used on the moving piece): captures by moving onto an adjacent
  opposing piece instead of jumping it; such captures chain like a multi-jump.
- Leap (orange potion, used on the moving piece): besides ordinary jumps, a capture may
  jump two squares in a straight line, of which exactly one holds the captured opposing
  piece and the other is empty, landing on the square after them.
"""

from __future__ import annotations

from collections.abc import Sequence

from chaosgames.games.chaos_checkers.actions import ChaosMove, Piece, quiet_move
from chaosgames.games.chaos_checkers.board import ALL_DIRECTIONS, CROWN_ROW, FORWARD, NEIGHBOUR, RAY2, RAY3
from chaosgames.games.chaos_checkers.potions import BLACK as BLACK_AMBUSH
from chaosgames.games.chaos_checkers.potions import CLEAR as CLEAR_GHOST
from chaosgames.games.chaos_checkers.potions import ORANGE as ORANGE_LEAP

Board = Sequence[Piece | None]

CANNOT, CAPTURE, PASS_OVER = 0, 1, 2


def jump_kind(mover: Piece, victim: Piece, lone: tuple[bool, bool]) -> int:
    """Whether `mover` may jump `victim`: CANNOT, CAPTURE or PASS_OVER (a Ghost is involved)."""
    if victim.owner == mover.owner:
        return CANNOT
    if victim.shield == mover.colour and not lone[mover.owner] and not lone[victim.owner]:
        return CANNOT
    if mover.potion == CLEAR_GHOST or victim.potion == CLEAR_GHOST:
        return PASS_OVER
    return CAPTURE


def directions(piece: Piece) -> tuple[int, ...]:
    return ALL_DIRECTIONS if piece.king else FORWARD[piece.owner]


def _crowns(piece: Piece, square: int) -> bool:
    return not piece.king and bool(CROWN_ROW[piece.owner] >> square & 1)


class _Search:
    """Depth-first search of whole capture moves of one piece."""

    def __init__(self, board: Board, start: int, lone: tuple[bool, bool], power: str) -> None:
        self.board = board
        self.start = start
        self.piece: Piece = board[start]  # type: ignore[assignment]
        self.lone = lone
        self.power = power
        self.dirs = directions(self.piece)
        self.out: list[ChaosMove] = []

    def free(self, square: int, removed: tuple[int, ...]) -> bool:
        return square == self.start or square in removed or self.board[square] is None

    def victim(self, square: int, removed: tuple[int, ...]) -> bool:
        """True when the piece on `square` (still on the board) can be captured."""
        if square in removed:
            return False
        other = self.board[square]
        return other is not None and jump_kind(self.piece, other, self.lone) == CAPTURE

    def steps(self, at: int, removed: tuple[int, ...]) -> list[tuple[int, int, bool]]:
        """(landing square, captured square, is a leap) of each capture step from `at`."""
        found = []
        for d in self.dirs:
            a1 = NEIGHBOUR[at][d]
            if a1 < 0:
                continue
            if self.power == "ambush":
                if self.victim(a1, removed):
                    found.append((a1, a1, False))
                continue
            a2 = RAY2[at][d]
            if a2 < 0:
                continue
            if self.victim(a1, removed) and self.free(a2, removed):
                found.append((a2, a1, False))
            if self.power == "leap":
                a3 = RAY3[at][d]
                if a3 < 0 or not self.free(a3, removed):
                    continue
                if self.victim(a1, removed) and self.free(a2, removed):
                    found.append((a3, a1, True))
                elif self.free(a1, removed) and self.victim(a2, removed):
                    found.append((a3, a2, True))
        return found

    def run(self, at: int, path: tuple[int, ...], victims: tuple[int, ...], leaps: int) -> None:
        steps = self.steps(at, victims)
        for land, captured, is_leap in steps:
            longer = (*path, land)
            taken = (*victims, captured)
            if _crowns(self.piece, land):
                self._emit(longer, taken, leaps + is_leap)
            else:
                self.run(land, longer, taken, leaps + is_leap)
        if not steps and victims:
            self._emit(path, victims, leaps)

    def _emit(self, path: tuple[int, ...], victims: tuple[int, ...], leaps: int) -> None:
        # A Leap move made only of ordinary jumps is the ordinary capture: list it once.
        if self.power != "leap" or leaps:
            self.out.append(ChaosMove("move", self.power, path, victims))


Reach = tuple[tuple[tuple[int, int, ChaosMove, ChaosMove], ...], ...]


def _reach(dirs: tuple[int, ...]) -> Reach:
    return tuple(tuple(_ways(s, d) for d in dirs if NEIGHBOUR[s][d] >= 0) for s in range(32))


def _ways(square: int, direction: int) -> tuple[int, int, ChaosMove, ChaosMove]:
    a1, a2 = NEIGHBOUR[square][direction], RAY2[square][direction]
    step = quiet_move(square, a1)
    # Where the square beyond is off the board there is no jump: the step stands in its place.
    return a1, a2, step, quiet_move(square, a2) if a2 >= 0 else step


REACH = (_reach(FORWARD[0]), _reach(FORWARD[1]), _reach(ALL_DIRECTIONS))
"""REACH[kind][square], kind 0/1 a man of player 0/1 and 2 a king: for each direction it
moves in (in order), the neighbouring square, the square beyond (-1 off the board), the
step onto the neighbour and the jump beyond it (the interned moves)."""


def _reach_of(piece: Piece) -> Reach:
    return REACH[2] if piece.king else REACH[piece.owner]


def _may_jump(board: Board, square: int, piece: Piece) -> bool:
    """Whether an opposing piece stands next to `piece` with an empty square behind it."""
    owner = piece.owner
    for a1, a2, _, _ in _reach_of(piece)[square]:
        if a2 >= 0 and board[a2] is None:
            other = board[a1]
            if other is not None and other.owner != owner:
                return True
    return False


def captures(board: Board, square: int, lone: tuple[bool, bool], power: str = "") -> list[ChaosMove]:
    """Whole capture moves of the piece on `square`, with `power` "" / "ambush" / "leap"."""
    piece = board[square]
    if piece is None or piece.potion == CLEAR_GHOST:
        return []  # a Ghost may not capture
    if not power and not _may_jump(board, square, piece):
        return []  # the common case: no opposing piece with an empty square behind it
    search = _Search(board, square, lone, power)
    search.run(square, (square,), (), 0)
    return search.out


def quiet_moves(board: Board, square: int, lone: tuple[bool, bool]) -> list[ChaosMove]:
    """Steps to an empty neighbour and Ghost jumps (jumps that capture nothing)."""
    piece = board[square]
    assert piece is not None
    out = []
    for a1, a2, step, jump in _reach_of(piece)[square]:
        other = board[a1]
        if other is None:
            out.append(step)
        elif a2 >= 0 and board[a2] is None and jump_kind(piece, other, lone) == PASS_OVER:
            out.append(jump)
    return out


def legal_moves(
    board: Board,
    player: int,
    lone: tuple[bool, bool],
    forced: bool,
    powers: bool,
    only: int = -1,
) -> list[ChaosMove]:
    """Moves of `player` (of the piece on `only` when >= 0).

    Order: ordinary captures by square; then (unless a capture is forced) steps and Ghost
    jumps by square; then, when `powers` (no potion used yet this turn), Ambush and Leap
    captures by square. Ordinary captures force a capture when `forced`; potion captures
    never force one (a player is never obliged to use a potion) but are captures, so
    they stay allowed when one is forced.
    """
    squares = (
        [only] if only >= 0 else [i for i in range(32) if (p := board[i]) is not None and p.owner == player]
    )
    moves: list[ChaosMove] = []
    for i in squares:
        piece = board[i]
        # captures(board, i, lone), with its cheap test first: most pieces cannot jump.
        if piece is not None and piece.potion != CLEAR_GHOST and _may_jump(board, i, piece):
            search = _Search(board, i, lone, "")
            search.run(i, (i,), (), 0)
            moves.extend(search.out)
    if not (forced and moves):
        for i in squares:
            moves.extend(quiet_moves(board, i, lone))
    if powers:
        for i in squares:
            potion = board[i].potion  # type: ignore[union-attr]
            if potion == BLACK_AMBUSH:
                moves.extend(captures(board, i, lone, "ambush"))
            elif potion == ORANGE_LEAP:
                moves.extend(captures(board, i, lone, "leap"))
    return moves
