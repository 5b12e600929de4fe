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

`legal_moves` lists the moves; `start_move` plays one step by step, stopping where the
piece it would capture next holds Invulnerability (its owner answers: `defend`).
"""

from __future__ import annotations

from collections.abc import Sequence

from chaosgames.games.chaos_checkers.actions import ChaosMove, Piece, powered_move, quiet_move
from chaosgames.games.chaos_checkers.board import (
    ALL_DIRECTIONS,
    CROWN_ROW,
    FORWARD,
    FULL,
    NEIGHBOUR,
    RAY2,
    RAY3,
    squares_of,
)
from chaosgames.games.chaos_checkers.chaos_position import PURPLE_INVULNERABLE, ChaosPosition, PendingMove
from chaosgames.games.chaos_checkers.phases import DEFEND, MOVE
from chaosgames.games.chaos_checkers.plain import around, jumpers
from chaosgames.games.chaos_checkers.powers import COLOUR_OF, Power
from chaosgames.games.chaos_checkers.rewards import finish_move

Board = Sequence[Piece | None]

AMBUSH, LEAP = Power.AMBUSH, Power.LEAP
BLACK_AMBUSH, CLEAR_GHOST = COLOUR_OF[AMBUSH], COLOUR_OF[Power.GHOST]
"""The colours of the Ambush and Ghost potions (pieces hold a potion as its colour)."""

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


def _steps_by_neighbours(
    reach: tuple[tuple[int, int, ChaosMove, ChaosMove], ...],
) -> dict[int, tuple[ChaosMove, ...]]:
    """For each way the neighbours in `reach` can be occupied (a bitboard of those squares),
    the steps onto the empty ones, in the order of `reach`."""
    near = 0
    for a1, _, _, _ in reach:
        near |= 1 << a1
    table = {}
    occupied = near
    while True:
        table[occupied] = tuple(step for a1, _, step, _ in reach if not occupied >> a1 & 1)
        if not occupied:
            return table
        occupied = (occupied - 1) & near


NEAR: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(1 << a1 for a1, _, _, _ in REACH[kind][s]) for s in range(32)) for kind in range(3)
)
"""NEAR[kind][square]: the bitboard of the squares a piece of that kind may step onto."""
STEPS: tuple[tuple[dict[int, tuple[ChaosMove, ...]], ...], ...] = tuple(
    tuple(_steps_by_neighbours(REACH[kind][s]) for s in range(32)) for kind in range(3)
)
"""STEPS[kind][square][occupied & NEAR[kind][square]]: the piece's steps, as quiet_moves
lists them when no Ghost is involved."""
STEP_TABLES = tuple(
    tuple(((NEAR[player][s], STEPS[player][s]), (NEAR[2][s], STEPS[2][s])) for s in range(32))
    for player in (0, 1)
)
"""STEP_TABLES[player][square][is a king]: (NEAR, STEPS) of that player's man or king there."""
MEN_NEAR, MEN_STEPS = NEAR[:2], STEPS[:2]
"""NEAR and STEPS of each player's men (kind = player)."""


def _capture(path: tuple[int, ...], victims: tuple[int, ...]) -> ChaosMove:
    """The (interned) ordinary capture along `path` (its victims follow from the path)."""
    move = _CAPTURES.get(path)
    if move is None:
        move = _CAPTURES[path] = ChaosMove(None, path, victims)
    return move


_CAPTURES: dict[tuple[int, ...], ChaosMove] = {}

# The captures of one piece are searched depth first on bitboards. `capturable` holds the
# opposing pieces the mover may capture and has not captured yet on this move (jump_kind's
# CAPTURE: no Ghost, no shield of the mover's colour unless a player is down to a last
# piece); `free` the squares it may land on: the empty ones, its starting square and the
# squares of the pieces it has jumped. Each step is listed by direction, in the order the
# piece moves (REACH), and followed before the next; a man reaching the far row (`crown`)
# ends its move there.

JUMPS: tuple[tuple[tuple[tuple[int, int, int, int], ...], ...], ...] = tuple(
    tuple(tuple((1 << a1, a1, a2, 1 << a2) for a1, a2, _, _ in REACH[kind][s] if a2 >= 0) for s in range(32))
    for kind in range(3)
)
"""JUMPS[kind][square]: (bit jumped, square jumped, landing square, landing bit) per direction
with a landing square on the board."""

AMBUSHES: tuple[tuple[tuple[tuple[int, int, int, int], ...], ...], ...] = tuple(
    tuple(tuple((1 << a1, a1, a1, 1 << a1) for a1, _, _, _ in REACH[kind][s]) for s in range(32))
    for kind in range(3)
)
"""AMBUSHES[kind][square]: the same for Ambush captures, which land on the captured piece."""


def _rays(kind: int, square: int) -> tuple[tuple[int, int, int, int, int, int], ...]:
    rays = []
    for d in ALL_DIRECTIONS if kind == 2 else FORWARD[kind]:
        a1, a2, a3 = NEIGHBOUR[square][d], RAY2[square][d], RAY3[square][d]
        if a1 >= 0 and a2 >= 0:
            rays.append((1 << a1, a1, 1 << a2, a2, 1 << a3 if a3 >= 0 else 0, a3))
    return tuple(rays)


LEAPS = tuple(tuple(_rays(kind, s) for s in range(32)) for kind in range(3))
"""LEAPS[kind][square]: (bit, square) one, two and three steps away (bit 0 off the board) per
direction with the second square on the board."""
LEAP_VICTIMS = tuple(
    tuple(sum(b1 | b2 for b1, _, b2, _, _, _ in LEAPS[kind][s]) for s in range(32)) for kind in range(3)
)
"""LEAP_VICTIMS[kind][square]: where the first capture of a Leap from there may be (one or
two steps away): without a capturable piece there, the search finds nothing."""


def _jumps(
    at: int,
    table: tuple[tuple[tuple[int, int, int, int], ...], ...],
    capturable: int,
    free: int,
    path: tuple[int, ...],
    victims: tuple[int, ...],
    crown: int,
    out: list[ChaosMove],
) -> None:
    """Every whole ordinary capture continuing `path` from `at` (JUMPS tables)."""
    extended = False
    for over_bit, over, land, land_bit in table[at]:
        if over_bit & capturable and land_bit & free:
            extended = True
            longer = (*path, land)
            taken = (*victims, over)
            if land_bit & crown:
                out.append(_capture(longer, taken))
            else:
                _jumps(land, table, capturable ^ over_bit, free | over_bit, longer, taken, crown, out)
    if not extended and victims:
        out.append(_capture(path, victims))


def _ambushes(
    at: int,
    table: tuple[tuple[tuple[int, int, int, int], ...], ...],
    capturable: int,
    path: tuple[int, ...],
    crown: int,
    out: list[ChaosMove],
) -> None:
    """Every whole Ambush capture continuing `path` from `at` (AMBUSHES tables): the piece
    moves onto each piece it captures, so the captured squares are the path after its start."""
    extended = False
    for bit, square, _, _ in table[at]:
        if bit & capturable:
            extended = True
            longer = (*path, square)
            if bit & crown:
                out.append(powered_move(AMBUSH, longer, longer[1:]))
            else:
                _ambushes(square, table, capturable ^ bit, longer, crown, out)
    if not extended and len(path) > 1:
        out.append(powered_move(AMBUSH, path, path[1:]))


def _leaps(
    at: int,
    table: tuple[tuple[tuple[int, int, int, int, int, int], ...], ...],
    capturable: int,
    free: int,
    path: tuple[int, ...],
    victims: tuple[int, ...],
    leaps: int,
    crown: int,
    out: list[ChaosMove],
) -> None:
    """Every whole Leap capture continuing `path` from `at` (LEAPS tables): ordinary jumps,
    and jumps over two squares (one holding the captured piece, the other free) landing on
    the third. A move of ordinary jumps only is the ordinary capture: it is not listed."""
    steps = []
    for b1, a1, b2, a2, b3, a3 in table[at]:
        jump = b1 & capturable and b2 & free
        if jump:
            steps.append((a2, b2, a1, b1, 0))
        if b3 & free:
            if jump:
                steps.append((a3, b3, a1, b1, 1))
            elif b1 & free and b2 & capturable:
                steps.append((a3, b3, a2, b2, 1))
    for land, land_bit, over, over_bit, leap in steps:
        longer = (*path, land)
        taken = (*victims, over)
        if land_bit & crown:
            if leaps + leap:
                out.append(powered_move(LEAP, longer, taken))
        else:
            _leaps(
                land, table, capturable ^ over_bit, free | over_bit, longer, taken, leaps + leap, crown, out
            )
    if not steps and victims and leaps:
        out.append(powered_move(LEAP, path, victims))


def legal_moves(
    board: Board,
    player: int,
    lone: tuple[bool, bool],
    forced: bool,
    powers: bool,
    movers: int,
    mine: int,
    theirs: int,
    kings: int,
    ghosts: int,
    powered: int,
    shielded: Sequence[int],
) -> list[ChaosMove]:
    """Moves of `player`'s pieces on the squares of `movers` (a bitboard).

    `mine`, `theirs`, `kings`, `ghosts` and `powered` are the bitboards of the player's
    pieces, of the opposing pieces, of all kings, of all pieces holding a Ghost potion and
    of all holding an Ambush or a Leap potion; `shielded[c]` that of the pieces carrying
    a shield of colour c. They agree with `board`.

    Order: ordinary captures by square; then (unless a capture is forced) steps and Ghost
    jumps by square; then, when `powers` (no potion used yet this turn), Ambush and Leap
    captures by square. Ordinary captures force a capture when `forced`; potion captures
    never force one (a player is never obliged to use a potion) but are captures, so
    they stay allowed when one is forced.
    """
    occupied = mine | theirs
    free = FULL ^ occupied
    capturable = theirs & ~ghosts  # a Ghost is never captured
    shields = not (lone[0] or lone[1])  # a last piece ignores shields, its own and the others'
    moves: list[ChaosMove] = []
    # Only pieces with an opposing piece next to them and an empty square behind it can
    # capture (a Ghost never does): the bitboard test finds them, the search runs for those.
    capturers = movers & ~ghosts
    if player == 0:
        able = jumpers(capturers, capturers & kings, theirs, free)
    else:
        able = jumpers(capturers & kings, capturers, theirs, free)
    if able:
        for i in squares_of(able):
            piece = board[i]
            assert piece is not None  # a capturer: one of the mover's pieces
            _, colour, king, _, _ = piece
            kind, crown = (2, 0) if king else (player, CROWN_ROW[player])
            victims = capturable & ~shielded[colour] if shields else capturable
            _jumps(i, JUMPS[kind], victims, free | 1 << i, (i,), (), crown, moves)
    if not (forced and moves):
        # A Ghost jump (it captures nothing) goes over an opposing piece, the mover or that
        # piece holding a Ghost: only the pieces that may make one (a Ghost next to an
        # opposing piece, a piece next to an opposing Ghost) are asked one by one; for the
        # others the steps are one look-up (and with no kings either, a man's).
        ghostly = movers & (ghosts & around(theirs) | around(theirs & ghosts)) if ghosts else 0
        if not movers & (kings | ghostly):
            near, steps = MEN_NEAR[player], MEN_STEPS[player]
            moves += [step for i in squares_of(movers) for step in steps[i][occupied & near[i]]]
        else:
            tables = STEP_TABLES[player]
            moves += [
                step
                for i in squares_of(movers)
                for near, steps in (tables[i][kings >> i & 1],)
                for step in (quiet_moves(board, i, lone) if ghostly >> i & 1 else steps[occupied & near])
            ]
    if powers and movers & powered:
        for i in squares_of(movers & powered):
            piece = board[i]
            assert piece is not None  # one of the mover's pieces
            _, colour, king, _, potion = piece
            kind, crown = (2, 0) if king else (player, CROWN_ROW[player])
            victims = capturable & ~shielded[colour] if shields else capturable
            # Most of the time nothing is in reach: the search is not started.
            if potion == BLACK_AMBUSH:
                if victims & NEAR[kind][i]:
                    _ambushes(i, AMBUSHES[kind], victims, (i,), crown, moves)
            elif victims & LEAP_VICTIMS[kind][i]:
                _leaps(i, LEAPS[kind], victims, free | 1 << i, (i,), (), 0, crown, moves)
    return moves


# -- playing a move ---------------------------------------------------------------------------


def start_move(state: ChaosPosition, move: ChaosMove) -> None:
    """Play a move: step by step, waiting where a piece about to be captured holds
    Invulnerability (its owner decides: `defend`), then its rewards."""
    power, path, victims = move.power, move.path, move.victims
    src = path[0]
    piece = state.board[src]
    assert piece is not None
    # A move captures at every step or at none (`victims` all -1: a step, a Ghost jump).
    captures = victims[0] >= 0
    if power is not None or captures or not piece.king:
        state.turn_quiet = False
    elif state.turn_quiet and not state.history:
        state.history = (state._key(),)
    if power is not None:
        state.used = src  # Ambush or Leap: the moving piece's own potion
    elif not captures:
        # Nothing to capture, so nobody to wait for: the piece goes straight there.
        dst = path[1]
        state._move_piece(src, dst)
        if state.used == src:
            state.used = dst
        finish_move(state, dst, 0)
        return
    state.pending = PendingMove(move, 0, src, 0)
    _run_move(state)


def _run_move(state: ChaosPosition) -> None:
    """Make the pending move's steps until it ends or waits for a defender."""
    while True:
        assert state.pending is not None
        move, k = state.pending.move, state.pending.step
        if k >= len(move.victims):
            break
        v = move.victims[k]
        if v >= 0:
            victim = state.board[v]
            if victim is not None and victim.potion == PURPLE_INVULNERABLE:
                state.phase = DEFEND
                return
        _step(state, captured=v >= 0)
    finish_move(state, state.pending.at, state.pending.captures)


def _step(state: ChaosPosition, captured: bool) -> None:
    """Make the pending move's next step, capturing its victim or not."""
    assert state.pending is not None
    move, k, at, n = state.pending.move, state.pending.step, state.pending.at, state.pending.captures
    v = move.victims[k]
    dst = move.path[k + 1]
    done = len(move.victims)
    if captured:
        state._eliminate(v)
        n += 1
    elif v >= 0 and move.power is AMBUSH:
        # Invulnerability against an Ambush: the ambushing piece does not move.
        state.pending = PendingMove(move, done, at, n)
        return
    if state.board[dst] is not None:
        # A spared piece stands where the rest of the path would land: the move ends.
        state.pending = PendingMove(move, done, at, n)
        return
    state._move_piece(at, dst)
    if state.used == at:
        state.used = dst
    state.pending = PendingMove(move, k + 1, dst, n)


def defend(state: ChaosPosition, invulnerable: bool) -> None:
    """The defender's answer: spend the Invulnerability potion (`invulnerable`) or not."""
    assert state.pending is not None
    if invulnerable:
        # "remove the potion instead and discard it. This piece is not captured".
        state._discard_potion(state.pending.move.victims[state.pending.step])
    state.phase = MOVE
    _step(state, captured=not invulnerable)
    _run_move(state)
