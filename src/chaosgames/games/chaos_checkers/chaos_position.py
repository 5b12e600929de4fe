"""A position of Chaos Checkers as the rule modules change it.

The rules that play an action live in the modules named after the rulebook's sections
(setup.py, potions.py, movement.py, rewards.py), as functions of a `ChaosPosition`; this
holds what they share: the fields of a position, the board kept in step with its
bitboards, the pieces and counts they are made of, and the end of a turn. state.py
makes it a `State` of the contract (`ChaosState`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from chaosgames.games.chaos_checkers.actions import ChaosAction, ChaosMove, Piece
from chaosgames.games.chaos_checkers.colours import COLOURS, TEN, Counts
from chaosgames.games.chaos_checkers.phases import OVER, TURN, Phase
from chaosgames.games.chaos_checkers.position import CheckersState
from chaosgames.games.chaos_checkers.powers import COLOUR_OF, Power
from chaosgames.games.chaos_checkers.repetition import drawn_by_repetition

CLEAR_GHOST = COLOUR_OF[Power.GHOST]
PURPLE_INVULNERABLE = COLOUR_OF[Power.INVULNERABILITY]
POWERS = (COLOUR_OF[Power.AMBUSH], COLOUR_OF[Power.LEAP])
"""The potions used with a move (Ambush, Leap): `powered` holds their pieces."""


class PendingMove(NamedTuple):
    """A move under way: it waits while the owner of a piece it would capture next
    decides whether to use that piece's Invulnerability."""

    move: ChaosMove
    step: int
    """The next step of `move` to make (index into `move.victims`)."""
    at: int
    """Square of the moving piece now."""
    captures: int
    """Pieces captured so far."""


class Reward(NamedTuple):
    """What a finished move earns the piece that made it (rulebook "Shields", "Potions")."""

    square: int
    """Square of the moved piece (-1 before the first move)."""
    captures: int
    crowned: bool
    kept_potion: bool
    """It used its own potion this turn and still holds one: no new potion for captures."""


NO_REWARD = Reward(-1, 0, False, False)


def from_bag(draws: tuple[ChaosAction, ...], counts: Counts) -> list[tuple[ChaosAction, float]]:
    """A draw from a bag holding `counts` (by colour): `weighted` over it, inline (the same
    outcomes and the same floats; made at every chance node)."""
    total = sum(counts)
    # `draws` has one outcome per colour, pink included: a shield bag's counts stop before it.
    return [(draw, n / total) for draw, n in zip(draws, counts, strict=False) if n]


PIECES = tuple(
    tuple(
        tuple(
            tuple(
                tuple(Piece(owner, colour, king, shield, potion) for potion in range(-1, len(COLOURS)))
                for shield in range(-1, TEN)
            )
            for king in (False, True)
        )
        for colour in range(TEN)
    )
    for owner in (0, 1)
)
"""PIECES[owner][colour][king][shield + 1][potion + 1]: every piece there can be, made once
(a NamedTuple is made by Python code: setup and rewards change pieces at nearly every
action, and a look-up costs a fraction of that)."""


def piece_of(owner: int, colour: int, king: bool, shield: int, potion: int) -> Piece:
    """The Piece with these fields (shield, potion -1: none), from `PIECES`."""
    return PIECES[owner][colour][king][shield + 1][potion + 1]


def with_shield(piece: Piece, shield: int) -> Piece:
    """`piece` with another shield (-1: none); the board takes it through `_put`."""
    owner, colour, king, _, potion = piece
    return PIECES[owner][colour][king][shield + 1][potion + 1]


def with_potion(piece: Piece, potion: int) -> Piece:
    """`piece` with another potion (-1: none); the board takes it through `_put`."""
    owner, colour, king, shield, _ = piece
    return PIECES[owner][colour][king][shield + 1][potion + 1]


def added(counts: Counts, colour: int, n: int = 1) -> Counts:
    """`counts` with `n` more of `colour` (`n` below 0: fewer)."""
    more = list(counts)  # two copies made in C: fewer objects than slicing around `colour`
    more[colour] += n
    return tuple(more)


def given(pair: tuple[Counts, Counts], player: int, colour: int) -> tuple[Counts, Counts]:
    """`pair` (a bag or pile per player) with one more of `colour` in `player`'s."""
    if player == 0:
        return (added(pair[0], colour), pair[1])
    return (pair[0], added(pair[1], colour))


def taken(pair: tuple[Counts, Counts], player: int, colour: int) -> tuple[Counts, Counts]:
    """`pair` (a bag or pile per player) with one fewer of `colour` in `player`'s."""
    if player == 0:
        return (added(pair[0], colour, -1), pair[1])
    return (pair[0], added(pair[1], colour, -1))


class ChaosPosition(CheckersState[ChaosAction]):
    """A position of Chaos Checkers: its fields, and what the rules do to its board."""

    __slots__ = (
        "_odds",
        "bags",
        "board",
        "draws_left",
        "eliminated",
        "extra",
        "ghosts",
        "hand",
        "history",
        "kings",
        "moves_made",
        "pending",
        "phase",
        "pieces0",
        "pieces1",
        "pouch",
        "powered",
        "removed",
        "reward",
        "setup_index",
        "shielded",
        "speedy",
        "turn",
        "turn_moves",
        "turn_quiet",
        "used",
    )

    board: list[Piece | None]
    bags: tuple[Counts, Counts]
    """Each player's shield bag (counts by colour): the opponent's 2-pips."""
    pouch: Counts
    """The shared potion pouch (counts by colour, pink last)."""
    eliminated: tuple[Counts, Counts]
    """Each player's pieces off the board, by colour (Revive brings one back)."""
    removed: int
    """White potions removed from the game by Revive."""
    phase: Phase
    setup_index: int
    turn: int
    moves_made: int
    extra: int
    """Square of the Speedy piece taking its extra turn now, or -1."""
    used: int
    """Square of the piece whose own potion was used this turn (followed as it moves), or -1."""
    speedy: bool
    """Whether that potion was Speedy (the piece then takes an extra turn)."""
    pending: PendingMove | None
    reward: Reward
    """What the last move earns, while its shield and potion draws are made."""
    hand: tuple[int, ...]
    draws_left: int
    history: tuple[tuple[Any, ...], ...]
    turn_quiet: bool
    pieces0: int
    pieces1: int
    """Bitboards of each player's pieces (kept in step with `board` by `_put`)."""
    kings: int
    """Bitboard of the kings."""
    ghosts: int
    """Bitboard of the pieces holding a Ghost (clear) potion."""
    powered: int
    """Bitboard of the pieces holding an Ambush (black) or a Leap (orange) potion."""
    shielded: list[int]
    """Per shield colour, the bitboard of the pieces carrying a shield of that colour."""
    _odds: list[tuple[ChaosAction, float]] | None
    """The chance outcomes of this position, once asked for (until the next action)."""
    turn_moves: tuple[tuple[int, ...], list[ChaosMove]] | None
    """The moves listed at the start of this turn, with what they were worked out from
    (`_move_inputs`): after a declared potion that changed none of it (no piece moved, so
    the colours stand where they stood), the move phase lists the same moves less the
    Ambush and Leap ones (no second potion in a turn). Forgotten when a turn starts."""

    def counts(self) -> tuple[int, int]:
        """How many pieces each player has on the board."""
        return self.pieces0.bit_count(), self.pieces1.bit_count()

    def _lone(self) -> tuple[bool, bool]:
        """Whether each player is down to a last piece (it ignores all shields)."""
        n0, n1 = self.counts()
        return n0 == 1, n1 == 1

    def _mine(self) -> tuple[int, int]:
        """(bitboard of the pieces of the player to move, of the other player's)."""
        return (self.pieces0, self.pieces1) if self.turn == 0 else (self.pieces1, self.pieces0)

    def _read_board(self) -> None:
        """Make the bitboards afresh from `board` (after the board was set as a whole)."""
        self.pieces0 = self.pieces1 = self.kings = self.ghosts = self.powered = 0
        self.shielded = [0] * TEN
        self.turn_moves = None
        board = self.board
        for square in range(32):
            piece = board[square]
            board[square] = None
            self._put(square, piece)

    def _piece_on(self, square: int) -> Piece:
        """The piece on `square`, which the rules know is not empty."""
        piece = self.board[square]
        if piece is None:
            raise AssertionError(f"square {square + 1} is empty")
        return piece

    def _put(self, square: int, piece: Piece | None) -> None:
        """Set `square` to `piece` (None: empty), the bitboards with it: every change of
        the board goes through here (or `_move_piece`)."""
        # The fields read by unpacking: a NamedTuple's field by name costs several times more.
        bit = 1 << square
        old = self.board[square]
        if old is not None:
            owner, _, _, shield, _ = old
            if owner:
                self.pieces1 ^= bit
            else:
                self.pieces0 ^= bit
            self.kings &= ~bit
            self.ghosts &= ~bit
            self.powered &= ~bit
            if shield >= 0:
                self.shielded[shield] ^= bit
        if piece is not None:
            owner, _, king, shield, potion = piece
            if owner:
                self.pieces1 |= bit
            else:
                self.pieces0 |= bit
            if king:
                self.kings |= bit
            if potion == CLEAR_GHOST:
                self.ghosts |= bit
            elif potion in POWERS:
                self.powered |= bit
            if shield >= 0:
                self.shielded[shield] |= bit
        self.board[square] = piece

    def _move_piece(self, src: int, dst: int) -> None:
        """Move the piece on `src` to the empty square `dst` (`_put` twice, in one go)."""
        board = self.board
        piece = board[src]
        assert piece is not None
        owner, _, king, shield, potion = piece
        both = 1 << src | 1 << dst
        if owner:
            self.pieces1 ^= both
        else:
            self.pieces0 ^= both
        if king:
            self.kings ^= both
        if potion == CLEAR_GHOST:
            self.ghosts ^= both
        elif potion in POWERS:
            self.powered ^= both
        if shield >= 0:
            self.shielded[shield] ^= both
        board[dst] = piece
        board[src] = None

    def _discard_potion(self, square: int) -> None:
        piece = self.board[square]
        assert piece is not None
        if piece.potion >= 0:
            self.pouch = added(self.pouch, piece.potion)
            self._put(square, with_potion(piece, -1))

    def _eliminate(self, square: int) -> None:
        """Take a piece off the board: its shield to its bag, its potion to the pouch."""
        piece = self.board[square]
        assert piece is not None
        if piece.shield >= 0:
            self.bags = given(self.bags, piece.owner, piece.shield)
        if piece.potion >= 0:
            self.pouch = added(self.pouch, piece.potion)
        self.eliminated = given(self.eliminated, piece.owner, piece.colour)
        self._put(square, None)

    def _finish(self, outcome: tuple[float, float]) -> None:
        self.outcome = outcome
        self.phase = OVER

    def _end_turn(self) -> None:
        player = self.turn
        self.moves_made += 1
        if not (self.pieces1 if player == 0 else self.pieces0):
            self._finish((1.0, 0.0) if player == 0 else (0.0, 1.0))
            return
        if self.speedy:
            # "This piece may take a 2nd turn immediately after completing the current turn."
            self.extra = self.used
        else:
            self.extra = -1
            self.turn = 1 - player
        self.speedy = False
        self.used = -1
        self.phase = TURN
        self.turn_moves = None  # a new turn: only its own listing is looked at
        quiet = self.turn_quiet
        self.turn_quiet = True
        if quiet:
            key = self._key()
            history = self.history = (*self.history, key)
            # Both draw rules ask for a position three times or more: two entries (the
            # commonest, after a first quiet king move) are not looked at.
            if len(history) > 2 and drawn_by_repetition(history, self.game.options["repetition"]):
                self._finish((0.5, 0.5))
                return
        else:
            self.history = ()
        cap = self.game.options["max_moves"]
        if cap and self.moves_made >= cap:
            self._finish((0.5, 0.5))

    def _key(self) -> tuple[Any, ...]:
        return (self.turn, self.extra, *self.board)
