"""Plain American checkers (`chaos=False`): the fast path, on 32-bit bitboards.

The state keeps the pieces of the player to move (`own`) and of the other player
(`opp`) as bitboards, plus the kings. Legal moves are generated once, right after each
move (they also tell whether the game is over) and kept as the cached legal list, so a
random playout does one generation per move. Captures are mandatory (`forced_capture`,
the standard rule): when any capture exists only captures are listed, each a whole
multi-jump; a man reaching the far row is crowned and its move ends there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chaosgames.core.constants import TERMINAL
from chaosgames.core.errors import InvalidStateError
from chaosgames.core.game import Action, State
from chaosgames.games.chaos_checkers.board import CROWN_ROW, START
from chaosgames.games.chaos_checkers.moves import JUMP_TABLE, SHIFTS, STEP_BY_DST, jump_move
from chaosgames.games.chaos_checkers.repetition import drawn_by_repetition, ending

if TYPE_CHECKING:
    from chaosgames.games.chaos_checkers.game import ChaosCheckersGame

# Unpacked shift tables: two (shift, mask) pairs per direction; down shifts are positive.
(_DL1, _DLM1), (_DL2, _DLM2) = SHIFTS[0]
(_DR1, _DRM1), (_DR2, _DRM2) = SHIFTS[1]
(_UL1, _ULM1), (_UL2, _ULM2) = ((-s, m) for s, m in SHIFTS[2])
(_UR1, _URM1), (_UR2, _URM2) = ((-s, m) for s, m in SHIFTS[3])
_MEN_JUMPS = (JUMP_TABLE[0], JUMP_TABLE[1])
_KING_JUMPS = JUMP_TABLE[2]


_MEMO_LIMIT = 1 << 15
_STEP_MEMOS: tuple[dict[int, tuple[Action, ...]], ...] = ({0: ()}, {0: ()}, {0: ()}, {0: ()})
"""Per direction, the steps onto each set of destination squares (a bitboard). Random games
reach few such sets (a few thousand per direction), so nearly every generation finds its
steps here; a memo that fills up is emptied (it only ever holds what the loop computes)."""
# Their look-ups, bound once (a memo is emptied in place, never replaced).
_DL_FOUND, _DR_FOUND, _UL_FOUND, _UR_FOUND = (memo.get for memo in _STEP_MEMOS)


def _byte_steps(direction: int, k: int) -> tuple[tuple[Action, ...], ...]:
    """[b]: the steps in `direction` onto the squares of byte `b` of a bitboard's byte `k`."""
    by_dst = STEP_BY_DST[direction]
    return tuple(
        tuple(by_dst[1 << (8 * k + i)] for i in range(8) if b >> i & 1 and 1 << (8 * k + i) in by_dst)
        for b in range(256)
    )


_BYTE_STEPS = tuple(tuple(_byte_steps(d, k) for k in range(4)) for d in range(4))
"""_BYTE_STEPS[direction][k][byte]: what _steps lists for the destinations in byte k."""


def _steps(direction: int, targets: int) -> tuple[Action, ...]:
    """The steps in `direction` onto the squares of `targets`, by destination (lowest first)."""
    b0, b1, b2, b3 = _BYTE_STEPS[direction]
    memo = _STEP_MEMOS[direction]
    if len(memo) >= _MEMO_LIMIT:
        memo.clear()
        memo[0] = ()
    found = memo[targets] = (
        b0[targets & 255] + b1[targets >> 8 & 255] + b2[targets >> 16 & 255] + b3[targets >> 24]
    )
    return found


def jumpers(down: int, up: int, opp: int, empty: int) -> int:
    """The pieces that can capture: those moving down (`down`) or up (`up`) with an opposing
    piece diagonally next to them and an empty square behind it. Whole bitboards are
    shifted one step at a time (the shift tables, inline: this runs every move); the
    landing squares shifted back twice are the pieces that jump there."""
    found = 0
    if down:
        over = (((down & _DLM1) << _DL1) | ((down & _DLM2) << _DL2)) & opp
        land = (((over & _DLM1) << _DL1) | ((over & _DLM2) << _DL2)) & empty
        if land:  # back up-right twice
            back = ((land & _URM1) >> _UR1) | ((land & _URM2) >> _UR2)
            found |= ((back & _URM1) >> _UR1) | ((back & _URM2) >> _UR2)
        over = (((down & _DRM1) << _DR1) | ((down & _DRM2) << _DR2)) & opp
        land = (((over & _DRM1) << _DR1) | ((over & _DRM2) << _DR2)) & empty
        if land:  # back up-left twice
            back = ((land & _ULM1) >> _UL1) | ((land & _ULM2) >> _UL2)
            found |= ((back & _ULM1) >> _UL1) | ((back & _ULM2) >> _UL2)
    if up:
        over = (((up & _ULM1) >> _UL1) | ((up & _ULM2) >> _UL2)) & opp
        land = (((over & _ULM1) >> _UL1) | ((over & _ULM2) >> _UL2)) & empty
        if land:  # back down-right twice
            back = ((land & _DRM1) << _DR1) | ((land & _DRM2) << _DR2)
            found |= ((back & _DRM1) << _DR1) | ((back & _DRM2) << _DR2)
        over = (((up & _URM1) >> _UR1) | ((up & _URM2) >> _UR2)) & opp
        land = (((over & _URM1) >> _UR1) | ((over & _URM2) >> _UR2)) & empty
        if land:  # back down-left twice
            back = ((land & _DLM1) << _DL1) | ((land & _DLM2) << _DL2)
            found |= ((back & _DLM1) << _DL1) | ((back & _DLM2) << _DL2)
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


def _jumps(
    i: int,
    table: tuple[tuple[tuple[int, int, int], ...], ...],
    opp: int,
    empty: int,
    path: tuple[int, ...],
    crown: int,
    out: list[Action],
) -> None:
    """Every complete multi-jump continuing `path` from square `i` (depth first)."""
    extended = False
    for over_bit, land, land_bit in table[i]:
        if over_bit & opp and land_bit & empty:
            extended = True
            longer = (*path, land)
            if land_bit & crown:
                out.append(jump_move(longer))  # crowned: the move ends on the far row
            else:
                _jumps(land, table, opp ^ over_bit, empty, longer, crown, out)
    if not extended and len(path) > 1:
        out.append(jump_move(path))


# generate() shifts whole bitboards with these numbers written out (SHIFTS, checked here):
# a literal is read faster than a name, and generate runs once per move of every playout.
assert SHIFTS == (
    ((3, 0xE0E0E0), (4, 0xF0F0F0F)),  # down-left
    ((4, 0xF0F0F0), (5, 0x7070707)),  # down-right
    ((-5, 0xE0E0E0E0), (-4, 0xF0F0F00)),  # up-left
    ((-4, 0xF0F0F0F0), (-3, 0x7070700)),  # up-right
), "the board's shift tables changed: update generate()"


def generate(own: int, opp: int, kings: int, side: int, forced: bool = True) -> list[Action]:
    """Legal moves of the player to move: captures if any exist, else steps.

    With `forced` False (option `forced_capture=false`) steps are listed after the
    captures even when a capture exists.

    Order: captures by starting square (lowest first), each in depth-first path order
    (down-left, down-right, up-left, up-right); steps by direction in that same order,
    then by destination square.

    What `jumpers` and the step memos do, inline: the squares one step from each piece
    (per direction) serve both the capture test (an opposing piece there, an empty
    square beyond) and the steps (empty there).
    """
    empty = 0xFFFFFFFF ^ own ^ opp
    if side == 0:
        down, up = own, own & kings
    else:
        down, up = own & kings, own
    able = dl = dr = ul = ur = 0
    if down:
        dl = ((down & 0xE0E0E0) << 3) | ((down & 0xF0F0F0F) << 4)
        dr = ((down & 0xF0F0F0) << 4) | ((down & 0x7070707) << 5)
        over = dl & opp
        if over:
            land = (((over & 0xE0E0E0) << 3) | ((over & 0xF0F0F0F) << 4)) & empty
            if land:  # back up-right twice
                back = ((land & 0xF0F0F0F0) >> 4) | ((land & 0x7070700) >> 3)
                able |= ((back & 0xF0F0F0F0) >> 4) | ((back & 0x7070700) >> 3)
        over = dr & opp
        if over:
            land = (((over & 0xF0F0F0) << 4) | ((over & 0x7070707) << 5)) & empty
            if land:  # back up-left twice
                back = ((land & 0xE0E0E0E0) >> 5) | ((land & 0xF0F0F00) >> 4)
                able |= ((back & 0xE0E0E0E0) >> 5) | ((back & 0xF0F0F00) >> 4)
    if up:
        ul = ((up & 0xE0E0E0E0) >> 5) | ((up & 0xF0F0F00) >> 4)
        ur = ((up & 0xF0F0F0F0) >> 4) | ((up & 0x7070700) >> 3)
        over = ul & opp
        if over:
            land = (((over & 0xE0E0E0E0) >> 5) | ((over & 0xF0F0F00) >> 4)) & empty
            if land:  # back down-right twice
                back = ((land & 0xF0F0F0) << 4) | ((land & 0x7070707) << 5)
                able |= ((back & 0xF0F0F0) << 4) | ((back & 0x7070707) << 5)
        over = ur & opp
        if over:
            land = (((over & 0xF0F0F0F0) >> 4) | ((over & 0x7070700) >> 3)) & empty
            if land:  # back down-left twice
                back = ((land & 0xE0E0E0) << 3) | ((land & 0xF0F0F0F) << 4)
                able |= ((back & 0xE0E0E0) << 3) | ((back & 0xF0F0F0F) << 4)
    out: list[Action] = []
    if able:
        crown = CROWN_ROW[side]
        men_table = _MEN_JUMPS[side]
        while able:
            low = able & -able
            able ^= low
            i = low.bit_length() - 1
            if kings & low:
                _jumps(i, _KING_JUMPS, opp, empty | low, (i,), 0, out)
            else:
                _jumps(i, men_table, opp, empty | low, (i,), crown, out)
        if forced:
            return out
    if down:
        t = dl & empty
        found = _DL_FOUND(t)
        out += found if found is not None else _steps(0, t)
        t = dr & empty
        found = _DR_FOUND(t)
        out += found if found is not None else _steps(1, t)
    if up:
        t = ul & empty
        found = _UL_FOUND(t)
        out += found if found is not None else _steps(2, t)
        t = ur & empty
        found = _UR_FOUND(t)
        out += found if found is not None else _steps(3, t)
    return out


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


class PlainState(State):
    """A position of plain American checkers."""

    __slots__ = (
        "forced",
        "history",
        "kings",
        "max_moves",
        "opp",
        "outcome",
        "own",
        "ply",
        "repetition",
        "side",
    )

    own: int
    opp: int
    kings: int
    side: int
    ply: int
    history: tuple[tuple[int, int, int, int], ...]
    outcome: tuple[float, float] | None
    max_moves: int
    forced: bool
    repetition: str
    game: ChaosCheckersGame

    @classmethod
    def initial(cls, game: ChaosCheckersGame) -> PlainState:
        return cls.from_position(game, START[0], START[1], 0, 0, 0, ())

    @classmethod
    def from_position(
        cls,
        game: ChaosCheckersGame,
        p0: int,
        p1: int,
        kings: int,
        side: int,
        ply: int,
        history: tuple[tuple[int, int, int, int], ...],
    ) -> PlainState:
        state = cls.__new__(cls)
        State.__init__(state, game)
        state.own, state.opp = (p0, p1) if side == 0 else (p1, p0)
        state.kings = kings
        state.side = side
        state.ply = ply
        state.history = history
        state.max_moves = game.options["max_moves"]
        state.forced = game.options["forced_capture"]
        state.repetition = game.options["repetition"]
        state._settle(bool(history) and drawn_by_repetition(history, state.repetition))
        return state

    def _settle(self, repeated: bool) -> None:
        """Generate the legal moves of the player to move and decide whether play ends."""
        legal = generate(self.own, self.opp, self.kings, self.side, self.forced)
        self._legal = legal
        if not legal:
            # No piece or no legal move: the player to move loses.
            self.outcome = (1.0, 0.0) if self.side == 1 else (0.0, 1.0)
        elif repeated or (self.max_moves and self.ply >= self.max_moves):
            self.outcome = (0.5, 0.5)
            self._legal = []
        else:
            self.outcome = None

    def current_player(self) -> int:
        return TERMINAL if self.outcome is not None else self.side

    # The public methods below do what State's do, with less work for this game's own
    # moves: plain checkers has no chance nodes, and the legal list is always made.

    def is_terminal(self) -> bool:
        return self.outcome is not None

    def is_chance_node(self) -> bool:
        return False

    def legal_actions(self) -> list[Action]:
        legal = self._legal
        return legal[:] if legal is not None else list(self._cached_legal())

    def apply_action(self, action: Action) -> None:
        legal = self._legal
        if legal is not None:
            # Moves are interned: the one played is normally the listed object itself, found
            # by identity (comparing moves field by field costs more). Anything else, an equal
            # copy included, gets the contract's checks (and its refusal).
            for move in legal:
                if move is action:
                    self._index = None
                    self._apply_action(action)
                    return
        State.apply_action(self, action)

    def _legal_actions(self) -> list[Action]:
        if self.outcome is not None:
            return []
        return generate(self.own, self.opp, self.kings, self.side, self.forced)

    def _apply_action(self, action: Action) -> None:
        _path: tuple[int, ...]
        captured: int
        src: int
        dst: int
        _path, captured, src, dst = action  # type: ignore[misc]
        # Clear, then set: a king's multi-jump may end on the square it started from.
        own = (self.own ^ src) | dst
        opp = self.opp
        kings = self.kings
        side = self.side
        history = self.history
        if kings & src:
            kings = (kings ^ src) | dst
            if captured:
                history = ()
            else:
                # A quiet king move is the only reversible move: remember positions.
                if not history:
                    history = ((self.own, opp, self.kings, side),)
                history = (*history, (opp, own, kings, side ^ 1))
        else:
            if dst & CROWN_ROW[side]:
                kings |= dst
            history = ()
        if captured:
            opp ^= captured
            kings &= ~captured
        self.own = opp
        self.opp = own
        self.kings = kings
        self.side = side ^ 1
        ply = self.ply = self.ply + 1
        self.history = history
        # What _settle does, inline (the hot path of every playout).
        legal = self._legal = generate(opp, own, kings, side ^ 1, self.forced)
        if not legal:
            # No piece or no legal move: the player to move (side ^ 1) loses.
            self.outcome = (1.0, 0.0) if side == 0 else (0.0, 1.0)
        elif (len(history) > _FIRST_REPEAT and drawn_by_repetition(history, self.repetition)) or (
            self.max_moves and ply >= self.max_moves
        ):
            self.outcome = (0.5, 0.5)
            self._legal = []

    def clone(self) -> PlainState:
        new = PlainState.__new__(PlainState)
        new.game = self.game
        new.own = self.own
        new.opp = self.opp
        new.kings = self.kings
        new.side = self.side
        new.ply = self.ply
        new.history = self.history
        new.outcome = self.outcome
        new.max_moves = self.max_moves
        new.forced = self.forced
        new.repetition = self.repetition
        new._legal = self._legal
        new._index = self._index
        return new

    def returns(self) -> list[float]:
        return list(self.outcome) if self.outcome is not None else [0.0, 0.0]

    def ended_by(self) -> str | None:
        return ending(self.outcome, self.history, self.repetition)

    # -- views -------------------------------------------------------------------------

    def pieces(self) -> tuple[int, int]:
        """(first player's pieces, second player's pieces) as bitboards."""
        return (self.own, self.opp) if self.side == 0 else (self.opp, self.own)

    def board(self) -> str:
        p0, p1 = self.pieces()
        return board_text(p0, p1, self.kings)

    def observation(self, player: int | None) -> dict[str, Any]:
        # Checkers hides nothing: every seat sees the whole position.
        doc = {
            "board": self.board(),
            "turn": self.side,
            "ply": self.ply,
            "terminal": self.outcome is not None,
            "returns": self.returns(),
        }
        if self.outcome is not None:
            doc["ended_by"] = self.ended_by()
        return doc

    def to_json(self) -> dict[str, Any]:
        return self.game.write_document(self)  # the Game holds the document module (no cycle)

    def round_number(self) -> int:
        return self.ply // 2 + 1

    def __str__(self) -> str:
        return self.game.render_text(self)
