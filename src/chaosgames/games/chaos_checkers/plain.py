"""Plain American checkers (`chaos=False`): the fast path, on 32-bit bitboards.

The state keeps the pieces of the player to move (`own`) and of the other player
(`opp`) as bitboards, plus the kings. Legal moves are generated once, right after each
move (they also tell whether the game is over) and kept as the cached legal list, so a
random playout does one generation per move. Captures are mandatory (`forced_capture`,
the standard rule): when any capture exists only captures are listed, each a whole
multi-jump; a man reaching the far row is crowned and its move ends there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

from chaosgames.core.constants import TERMINAL
from chaosgames.core.errors import InvalidStateError
from chaosgames.core.game import State
from chaosgames.games.chaos_checkers.board import CROWN_ROW, NEIGHBOUR, RAY2, START
from chaosgames.games.chaos_checkers.moves import SHIFTS, STEP, PlainMove, jump_move
from chaosgames.games.chaos_checkers.position import CheckersState
from chaosgames.games.chaos_checkers.repetition import drawn_by_repetition, ending

if TYPE_CHECKING:
    from chaosgames.games.chaos_checkers.rules_in_force import CheckersRules

_MEMO_LIMIT = 1 << 16
_STEP_MEMOS: tuple[dict[int, tuple[PlainMove, ...]], ...] = ({}, {}, {}, {})
"""Per direction, the steps onto each set of destination squares (a padded bitboard), made
on first need (`_remember`). Random games reach few such sets (tens of thousands per direction),
so nearly every generation finds its steps here, read by subscript (cheaper than a call of
`get`). A memo that fills up is emptied: it only holds what the chunk tables give again."""
_DL_STEPS, _DR_STEPS, _UL_STEPS, _UR_STEPS = _STEP_MEMOS


def _remember(direction: int, targets: int) -> tuple[PlainMove, ...]:
    """The steps in `direction` onto the squares of `targets` (lowest first), remembered."""
    memo = _STEP_MEMOS[direction]
    if len(memo) >= _MEMO_LIMIT:
        memo.clear()
    c0, c1, c2, c3 = _CHUNK_STEPS[direction]
    found = memo[targets] = (
        c0[targets & 511] + c1[targets >> 9 & 511] + c2[targets >> 18 & 511] + c3[targets >> 27]
    )
    return found


# jumpers() shifts whole 32-bit bitboards with these numbers written out (SHIFTS, checked
# here): a literal is read faster than a name, and it runs at every chaos listing.
assert SHIFTS == (
    ((3, 0xE0E0E0), (4, 0xF0F0F0F)),  # down-left
    ((4, 0xF0F0F0), (5, 0x7070707)),  # down-right
    ((-5, 0xE0E0E0E0), (-4, 0xF0F0F00)),  # up-left
    ((-4, 0xF0F0F0F0), (-3, 0x7070700)),  # up-right
), "the board's shift tables changed: update jumpers()"


def jumpers(down: int, up: int, opp: int, empty: int) -> int:
    """The pieces that can capture (32-bit bitboards): those moving down (`down`) or up
    (`up`) with an opposing piece diagonally next to them and an empty square behind it.
    Whole bitboards are shifted one step at a time; the landing squares shifted back twice
    are the pieces that jump there. A direction with no opposing piece next to any mover
    stops at once."""
    found = 0
    if down:
        over = ((down & 0xE0E0E0) << 3 | (down & 0xF0F0F0F) << 4) & opp
        if over:
            land = ((over & 0xE0E0E0) << 3 | (over & 0xF0F0F0F) << 4) & empty
            if land:  # back up-right twice
                back = (land & 0xF0F0F0F0) >> 4 | (land & 0x7070700) >> 3
                found = (back & 0xF0F0F0F0) >> 4 | (back & 0x7070700) >> 3
        over = ((down & 0xF0F0F0) << 4 | (down & 0x7070707) << 5) & opp
        if over:
            land = ((over & 0xF0F0F0) << 4 | (over & 0x7070707) << 5) & empty
            if land:  # back up-left twice
                back = (land & 0xE0E0E0E0) >> 5 | (land & 0xF0F0F00) >> 4
                found |= (back & 0xE0E0E0E0) >> 5 | (back & 0xF0F0F00) >> 4
    if up:
        over = ((up & 0xE0E0E0E0) >> 5 | (up & 0xF0F0F00) >> 4) & opp
        if over:
            land = ((over & 0xE0E0E0E0) >> 5 | (over & 0xF0F0F00) >> 4) & empty
            if land:  # back down-right twice
                back = (land & 0xF0F0F0) << 4 | (land & 0x7070707) << 5
                found |= (back & 0xF0F0F0) << 4 | (back & 0x7070707) << 5
        over = ((up & 0xF0F0F0F0) >> 4 | (up & 0x7070700) >> 3) & opp
        if over:
            land = ((over & 0xF0F0F0F0) >> 4 | (over & 0x7070700) >> 3) & empty
            if land:  # back down-left twice
                back = (land & 0xE0E0E0) << 3 | (land & 0xF0F0F0F) << 4
                found |= (back & 0xE0E0E0) << 3 | (back & 0xF0F0F0F) << 4
    return found


def steps_exist(down: int, up: int, empty: int) -> bool:
    """Whether a piece moving down (`down`) or up (`up`) has an empty square next to it.

    The two diagonals' shifts by 4 go together (their masks joined: 0xF0F0F0F | 0xF0F0F0
    down, 0xF0F0F00 | 0xF0F0F0F0 up; the numbers are SHIFTS', asserted below): this runs
    after every move of a chaos game."""
    if down and ((down & 0xE0E0E0) << 3 | (down & 0xFFFFFFF) << 4 | (down & 0x7070707) << 5) & empty:
        return True
    return bool(up and ((up & 0xE0E0E0E0) >> 5 | (up & 0xFFFFFFF0) >> 4 | (up & 0x7070700) >> 3) & empty)


def around(bits: int) -> int:
    """The squares diagonally next to those of `bits` (shifts by 4 joined as in steps_exist)."""
    return (
        (bits & 0xE0E0E0) << 3
        | (bits & 0xFFFFFFF) << 4
        | (bits & 0x7070707) << 5
        | (bits & 0xE0E0E0E0) >> 5
        | (bits & 0xFFFFFFF0) >> 4
        | (bits & 0x7070700) >> 3
    )


# -- the padded layout of the plain engine ---------------------------------------------------
#
# PlainState keeps its bitboards in a 35-bit layout with a spare ("ghost") bit after every
# two rows: square s is bit s + s // 8. There every diagonal step is the same shift on
# every row (down-left +4, down-right +5, up-left -5, up-right -4), and a step off the
# board's side lands on a ghost bit, which is never a piece nor empty. So a direction's
# squares are one shift away with no mask: about half the big-int operations of the
# 32-bit layout (where rows alternate +3/+4 and +4/+5 and every shift needs its mask).
# The public views (pieces(), kings, documents) stay 32-bit; moves keep their 32-bit fields.


def _pos(square: int) -> int:
    """Bit position of `square` in the padded layout."""
    return square + square // 8


def spread(bits: int) -> int:
    """A 32-bit bitboard in the padded layout."""
    return (bits & 0xFF) | (bits & 0xFF00) << 1 | (bits & 0xFF0000) << 2 | (bits & 0xFF000000) << 3


def gather(bits: int) -> int:
    """A padded bitboard back in the 32-bit layout."""
    return (bits & 0xFF) | (bits >> 1 & 0xFF00) | (bits >> 2 & 0xFF0000) | (bits >> 3 & 0xFF000000)


_ON_BOARD = spread(0xFFFFFFFF)
_CROWNS = (spread(CROWN_ROW[0]), spread(CROWN_ROW[1]))
_SHIFT = (4, 5, -5, -4)
"""Bit shift of one step per direction (down-left, down-right, up-left, up-right)."""
assert all(
    _pos(NEIGHBOUR[s][d]) - _pos(s) == _SHIFT[d] for s in range(32) for d in range(4) if NEIGHBOUR[s][d] >= 0
), "the padded layout's steps are not one shift per direction"
assert all(
    _pos(s) + _SHIFT[d] < 0 or not (1 << _pos(s) + _SHIFT[d]) & _ON_BOARD
    for s in range(32)
    for d in range(4)
    if NEIGHBOUR[s][d] < 0
), "a step off the board lands on a square of the padded layout (or not off its top)"

_SQUARE_AT = tuple(p - p // 9 for p in range(35))
"""The square of each bit position of the padded layout (ghost bits: any; never asked)."""

_STEP_AT: tuple[dict[int, PlainMove], ...] = tuple(
    {1 << _pos(NEIGHBOUR[s][d]): STEP[(s, NEIGHBOUR[s][d])] for s in range(32) if NEIGHBOUR[s][d] >= 0}
    for d in range(4)
)
"""_STEP_AT[direction][padded bit of the destination]: the step in that direction there."""

_Change: TypeAlias = tuple[int, int, int, int]
_CHANGES: dict[int, _Change] = {}
"""What each interned move changes, by the move's id (interned moves live for good, so ids
are never reused): (own pieces flipped, starting bit, bit crowned or 0, captured), padded."""


def _change(move: PlainMove) -> _Change:
    """What `move` changes on the padded bitboards (see `_CHANGES`)."""
    src, dst = spread(move.src), spread(move.dst)
    return (src ^ dst, src, dst & (_CROWNS[0] | _CROWNS[1]), spread(move.captured))


def _intern(move: PlainMove) -> PlainMove:
    _CHANGES[id(move)] = _change(move)
    return move


for _step in STEP.values():
    _intern(_step)

_FOUND_JUMPS: dict[tuple[int, ...], PlainMove] = {}
"""The capture moves met so far, by path (each is jump_move's interned one)."""


def _jumps(
    p: int,
    table: tuple[tuple[_Jump, ...], ...],
    opp: int,
    empty: int,
    path: tuple[int, ...],
    crown: int,
    out: list[PlainMove],
) -> bool:
    """Add every complete multi-jump continuing `path` from bit position `p` (depth first);
    whether there was any (if not, `path` is the whole move: the caller adds it)."""
    extended = False
    for over_bit, land, land_bit, square, _ in table[p]:
        if over_bit & opp and land_bit & empty:
            extended = True
            longer = (*path, square)
            # Crowned: the move ends on the far row.
            if land_bit & crown or not _jumps(land, table, opp ^ over_bit, empty, longer, crown, out):
                out.append(_FOUND_JUMPS.get(longer) or _found_jump(longer))
    return extended


def _found_jump(path: tuple[int, ...]) -> PlainMove:
    """jump_move(path), remembered here with what it changes."""
    move = _FOUND_JUMPS.get(path)
    if move is None:
        move = _FOUND_JUMPS[path] = _intern(jump_move(path))
    return move


_Jump: TypeAlias = tuple[int, int, int, int, PlainMove]


def _jumps_from(p: int, directions: tuple[int, ...]) -> tuple[_Jump, ...]:
    """The jumps from bit position `p` in `directions` (none from a ghost bit): see _JUMPS_AT."""
    s = p - p // 9
    if p % 9 == 8 or s >= 32:
        return ()
    return tuple(
        (
            1 << _pos(NEIGHBOUR[s][d]),
            _pos(RAY2[s][d]),
            1 << _pos(RAY2[s][d]),
            RAY2[s][d],
            _found_jump((s, RAY2[s][d])),
        )
        for d in directions
        if RAY2[s][d] >= 0
    )


_JUMPS_AT = tuple(tuple(_jumps_from(p, dirs) for p in range(35)) for dirs in ((0, 1), (2, 3), (0, 1, 2, 3)))
"""_JUMPS_AT[kind][bit position]: (bit jumped, landing position, landing bit, landing square,
the move of that one jump) per direction in order; kind 0 = men of player 0 (down), 1 = men
of player 1 (up), 2 = kings."""
_MEN_JUMPS = (_JUMPS_AT[0], _JUMPS_AT[1])
_KING_JUMPS = _JUMPS_AT[2]


def _chunk_steps(direction: int, k: int) -> tuple[tuple[PlainMove, ...], ...]:
    """[c]: the steps in `direction` onto the squares of chunk value `c` (bits 9k to 9k + 8)."""
    by_dst = _STEP_AT[direction]
    return tuple(
        tuple(by_dst[1 << (9 * k + i)] for i in range(9) if c >> i & 1 and 1 << (9 * k + i) in by_dst)
        for c in range(512)
    )


_CHUNK_STEPS = tuple(tuple(_chunk_steps(d, k) for k in range(4)) for d in range(4))
"""_CHUNK_STEPS[direction][k][c]: what _steps lists for the destinations in the k-th 9 bits."""


def generate(own: int, opp: int, kings: int, side: int, forced: bool = True) -> list[PlainMove]:
    """Legal moves of the player to move (padded bitboards): captures if any exist, else steps.

    With `forced` False (option `forced_capture=false`) steps are listed after the
    captures even when a capture exists.

    Order: captures by starting square (lowest first), each in depth-first path order
    (down-left, down-right, up-left, up-right); steps by direction in that same order,
    then by destination square.

    The squares one step from each piece (per direction, one shift) serve both the
    capture test (an opposing piece there, an empty square beyond) and the steps.
    """
    empty = _ON_BOARD ^ own ^ opp
    if side == 0:
        down, up = own, own & kings
    else:
        down, up = own & kings, own
    able = 0
    if down:
        dl = down << 4
        dr = down << 5
        over = dl & opp
        if over:
            able = (over << 4 & empty) >> 8
        over = dr & opp
        if over:
            able |= (over << 5 & empty) >> 10
    if up:
        ul = up >> 5
        ur = up >> 4
        over = ul & opp
        if over:
            able |= (over >> 5 & empty) << 10
        over = ur & opp
        if over:
            able |= (over >> 4 & empty) << 8
    out: list[PlainMove] = []
    if able:
        men_table = _MEN_JUMPS[side]
        men_crown = _CROWNS[side]
        while able:
            low = able & -able
            able ^= low
            p = low.bit_length() - 1
            table, crown = (_KING_JUMPS, 0) if kings & low else (men_table, men_crown)
            free = empty | low  # a king's multi-jump may pass its starting square again
            # The first jump here, the rest in _jumps: most captures are a single jump,
            # whose move the table holds.
            for over_bit, land, land_bit, square, single in table[p]:
                if (
                    over_bit & opp
                    and land_bit & free
                    and (
                        land_bit & crown  # crowned: the move ends on the far row
                        or not _jumps(land, table, opp ^ over_bit, free, (_SQUARE_AT[p], square), crown, out)
                    )
                ):
                    out.append(single)
        if forced:
            return out
    # Each memo read by subscript; a set of destinations not met yet raises KeyError (free
    # in Python 3.11 while nothing is raised): remembered, then the moves listed again.
    try:
        if down:
            out += _DL_STEPS[dl & empty]
            out += _DR_STEPS[dr & empty]
        if up:
            out += _UL_STEPS[ul & empty]
            out += _UR_STEPS[ur & empty]
    except KeyError:
        _remember_steps(down, up, empty)
        return generate(own, opp, kings, side, forced)
    return out


def _remember_steps(down: int, up: int, empty: int) -> None:
    """Put in each direction's memo the set of destinations of `generate`'s steps (padded
    bitboards) it lacks; a memo emptied by `_remember` then holds its own at least."""
    for direction, movers in enumerate((down, down, up, up)):
        if movers:
            shift = _SHIFT[direction]
            targets = (movers << shift if shift > 0 else movers >> -shift) & empty
            if targets not in _STEP_MEMOS[direction]:
                _remember(direction, targets)


def board_text(p0: int, p1: int, kings: int) -> str:
    """32 characters, square 1 first: b/B first player's man/king, w/W second's, '.' empty."""
    chars = []
    for i in range(32):
        bit = 1 << i
        if p0 & bit:
            chars.append("B" if kings & bit else "b")
        elif p1 & bit:
            chars.append("W" if kings & bit else "w")
        else:
            chars.append(".")
    return "".join(chars)


def parse_board_text(text: str) -> tuple[int, int, int]:
    """(p0, p1, kings) from `board_text` output; InvalidStateError if malformed."""
    if not isinstance(text, str) or len(text) != 32 or set(text) - set("bBwW."):
        raise InvalidStateError("The board must be 32 characters, one of b, B, w, W or '.' per square.")
    p0 = p1 = kings = 0
    for i, ch in enumerate(text):
        bit = 1 << i
        if ch in "bB":
            p0 |= bit
        elif ch in "wW":
            p1 |= bit
        if ch in "BW":
            kings |= bit
    return p0, p1, kings


_FIRST_REPEAT = 2
"""Both draw rules ask for a position three times or more, so a history of two entries
(the commonest: the first quiet king move) is not looked at."""


class PlainState(CheckersState[PlainMove]):
    """A position of plain American checkers.

    `own`, `opp` (the pieces of the player to move and of the other) and `crowned` (the
    kings) are bitboards in the padded layout above, as are the positions of `positions`;
    `pieces()`, `kings` and `history` give them in the 32-bit layout of the board module."""

    __slots__ = (
        "crowned",
        "forced",
        "max_moves",
        "opp",
        "own",
        "ply",
        "positions",
        "repetition",
        "side",
    )

    own: int
    opp: int
    crowned: int
    side: int
    ply: int
    positions: tuple[tuple[int, int, int, int], ...]
    """The repetition history (see repetition.py): (own, opp, crowned, side) per turn."""
    max_moves: int
    forced: bool
    repetition: str

    @classmethod
    def initial(cls, game: CheckersRules[Any, Any]) -> PlainState:
        return cls.from_position(game, START[0], START[1], 0, 0, 0, ())

    @classmethod
    def from_position(
        cls,
        game: CheckersRules[Any, Any],
        p0: int,
        p1: int,
        kings: int,
        side: int,
        ply: int,
        history: tuple[tuple[int, int, int, int], ...],
    ) -> PlainState:
        """The position with these 32-bit bitboards; `history` as the `history` property's."""
        state = cls.__new__(cls)
        State.__init__(state, game)
        state.own, state.opp = (spread(p0), spread(p1)) if side == 0 else (spread(p1), spread(p0))
        state.crowned = spread(kings)
        state.side = side
        state.ply = ply
        state.positions = tuple((spread(own), spread(opp), spread(k), s) for own, opp, k, s in history)
        state.max_moves = game.options["max_moves"]
        state.forced = game.options["forced_capture"]
        state.repetition = game.options["repetition"]
        state._settle(bool(history) and drawn_by_repetition(state.positions, state.repetition))
        return state

    @property
    def kings(self) -> int:
        """The kings, a 32-bit bitboard."""
        return gather(self.crowned)

    @property
    def history(self) -> tuple[tuple[int, int, int, int], ...]:
        """The repetition history: (own pieces, other pieces, kings, side) per turn, 32-bit."""
        return tuple((gather(own), gather(opp), gather(k), s) for own, opp, k, s in self.positions)

    def _settle(self, repeated: bool) -> None:
        """Generate the legal moves of the player to move and decide whether play ends."""
        legal = generate(self.own, self.opp, self.crowned, self.side, self.forced)
        if not legal:
            # No piece or no legal move: the player to move loses.
            self.outcome = (1.0, 0.0) if self.side == 1 else (0.0, 1.0)
        elif repeated or (self.max_moves and self.ply >= self.max_moves):
            self.outcome = (0.5, 0.5)
        else:
            self.outcome = None

    def current_player(self) -> int:
        return TERMINAL if self.outcome is not None else self.side

    def _legal_actions(self) -> list[PlainMove]:
        if self.outcome is not None:
            return []
        return generate(self.own, self.opp, self.crowned, self.side, self.forced)

    def _apply_action(self, action: PlainMove) -> list[PlainMove]:
        """Play a move; the next player's moves, which the end of the game is decided
        from (the hot path of every playout: _settle, inline), for the core's cache."""
        change = _CHANGES.get(id(action))
        if change is None:  # an equal copy of an interned move (the contract accepted it)
            change = _change(action)
        flip, src, crown, captured = change
        # `flip` clears the start and sets the end: nothing when a king's multi-jump ends
        # on the square it started from.
        opp = self.opp
        own = self.own ^ flip
        kings = self.crowned
        side = self.side
        positions: tuple[tuple[int, int, int, int], ...]
        if kings & src:
            kings ^= flip
            if captured:
                positions = ()
            else:
                # A quiet king move is the only reversible move: remember positions.
                positions = self.positions or ((self.own, opp, self.crowned, side),)
                positions = (*positions, (opp, own, kings, side ^ 1))
        else:
            kings |= crown
            positions = ()
        if captured:
            opp ^= captured
            kings &= _ON_BOARD ^ captured
        self.own = opp
        self.opp = own
        self.crowned = kings
        self.side = side ^ 1
        ply = self.ply = self.ply + 1
        self.positions = positions
        legal = generate(opp, own, kings, side ^ 1, self.forced)
        if not legal:
            # No piece or no legal move: the player to move (side ^ 1) loses.
            self.outcome = (1.0, 0.0) if side == 0 else (0.0, 1.0)
        elif (len(positions) > _FIRST_REPEAT and drawn_by_repetition(positions, self.repetition)) or (
            self.max_moves and ply >= self.max_moves
        ):
            self.outcome = (0.5, 0.5)
            return []
        return legal

    def clone(self) -> PlainState:
        new = PlainState.__new__(PlainState)
        new.game = self.game
        new.own = self.own
        new.opp = self.opp
        new.crowned = self.crowned
        new.side = self.side
        new.ply = self.ply
        new.positions = self.positions
        new.outcome = self.outcome
        new.max_moves = self.max_moves
        new.forced = self.forced
        new.repetition = self.repetition
        self._copy_caches_to(new)
        return new

    def ended_by(self) -> str | None:
        return ending(self.outcome, self.positions, self.repetition)

    # -- views -------------------------------------------------------------------------

    def pieces(self) -> tuple[int, int]:
        """(first player's pieces, second player's pieces) as 32-bit bitboards."""
        own, opp = gather(self.own), gather(self.opp)
        return (own, opp) if self.side == 0 else (opp, own)

    def board(self) -> str:
        p0, p1 = self.pieces()
        return board_text(p0, p1, self.kings)

    def _observation(self, player: int | None) -> dict[str, Any]:
        # Checkers hides nothing: every seat sees the whole position.
        return self._with_result({"board": self.board(), "turn": self.side, "ply": self.ply})

    def round_number(self) -> int:
        return self.ply // 2 + 1
