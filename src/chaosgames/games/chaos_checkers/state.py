"""A game of Chaos Checkers with shields and potions (`chaos=True`).

The game runs through phases:

- setup, all chance: `place` (the random arrangement of each player's twelve pieces,
  one square at a time), `shield` (each piece draws a shield from the bag of the
  opponent's 2-pips) and `potion` (the players take turns drawing from the shared pouch);
- `turn`: the player may discard Ghost potions, declare one potion, or move (an Ambush or
  Leap move declares that potion with the move); `move`: a potion was declared, now move;
- `defend`: the move would capture a piece holding Invulnerability; its owner decides;
- `draw-shield`/`keep-shield`, `draw-potion`/`keep-potion`: rewards of a capture and of
  crowning (chance draws, then the capturing player keeps one when several differ);
- `over`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple, cast

from chaosgames.core.chance import weighted
from chaosgames.core.constants import CHANCE, TERMINAL
from chaosgames.core.game import State
from chaosgames.games.chaos_checkers import potions as P
from chaosgames.games.chaos_checkers.actions import (
    DEFENCES,
    DRAWS,
    PASS,
    SETUP_DRAWS,
    ChaosAction,
    ChaosMove,
    Defence,
    Draw,
    Piece,
    PotionUse,
    SetupDraw,
)
from chaosgames.games.chaos_checkers.board import CROWN_ROW, FULL
from chaosgames.games.chaos_checkers.colours import COLOURS, TEN, TRIOS_PER_COLOUR
from chaosgames.games.chaos_checkers.movement import legal_moves
from chaosgames.games.chaos_checkers.phases import (
    DEFEND,
    DRAW_PHASES,
    DRAW_POTION,
    DRAW_SHIELD,
    KEEP_PHASES,
    KEEP_POTION,
    KEEP_SHIELD,
    MOVE,
    OVER,
    PLACE,
    POTION,
    SETUP_PHASES,
    SHIELD,
    TURN,
    Phase,
)
from chaosgames.games.chaos_checkers.plain import steps_exist
from chaosgames.games.chaos_checkers.position import CheckersState
from chaosgames.games.chaos_checkers.powers import Power
from chaosgames.games.chaos_checkers.repetition import drawn_by_repetition, ending
from chaosgames.games.chaos_checkers.setup import (
    DRAWS_PER_PHASE,
    PIECES_PER_COLOUR,
    SETUP_ORDER,
    Counts,
    setup_slot,
    shield_bag,
)

if TYPE_CHECKING:
    from chaosgames.games.chaos_checkers.rules_in_force import CheckersRules


_CHANCE_PHASES = frozenset((*SETUP_PHASES, *DRAW_PHASES))
_MOVER_DECIDES = frozenset((TURN, MOVE, KEEP_SHIELD, KEEP_POTION))
_PLAYING = frozenset((TURN, MOVE))
"""The phases where a player with no legal action loses."""
_POWERS = (P.BLACK, P.ORANGE)
"""The potions used with a move (Ambush, Leap): `powered` holds their pieces."""
"""The action types of this game. Actions of different types never compare equal (their
first fields differ), so an action equal to a legal one of these types is of its type."""


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
_SLOTS = {phase: tuple(setup_slot(phase, k) for k in range(DRAWS_PER_PHASE)) for phase in SETUP_PHASES}
"""setup_slot(phase, k), made once."""
_UNREWARDED = tuple(tuple(Reward(square, 0, False, kept) for square in range(32)) for kept in (False, True))
"""[kept potion][square]: the Reward of a move that neither captured nor crowned."""


_PLACE_DRAWS, _SHIELD_DRAWS, _POTION_DRAWS = SETUP_DRAWS[PLACE], SETUP_DRAWS[SHIELD], SETUP_DRAWS[POTION]
_DRAWN_SHIELDS, _DRAWN_POTIONS = DRAWS[DRAW_SHIELD], DRAWS[DRAW_POTION]
AMBUSH, SPEEDY, GHOST, WILD, REWIND = Power.AMBUSH, Power.SPEEDY, Power.GHOST, Power.WILD, Power.REWIND
TELEKINESIS, REVIVE, SACRIFICE, RECLAIM = Power.TELEKINESIS, Power.REVIVE, Power.SACRIFICE, Power.RECLAIM
"""The powers as module names (compared by identity where an action is played)."""


_PLACE_ODDS: dict[tuple[Any, ...], list[tuple[ChaosAction, float]]] = {}
"""The odds of a setup placement by (square, the player's colours, how many of each are
placed): a few thousand at most, met again in every game. The lists are shared, never
changed (`chance_outcomes` hands out copies)."""
_SHIELD_ODDS: dict[tuple[int, Counts], list[tuple[ChaosAction, float]]] = {}
"""The odds of a setup shield draw by (square, shield bag); a bag holds the opponent's
three colours before play, five of each: at most 216 bags a colour set."""


def _from_bag(draws: tuple[ChaosAction, ...], counts: Counts) -> list[tuple[ChaosAction, float]]:
    """A draw from a bag holding `counts` (by colour): `weighted` over it, inline (the same
    outcomes and the same floats; made at every chance node)."""
    total = sum(counts)
    # `draws` has one outcome per colour, pink included: a shield bag's counts stop before it.
    return [(draw, n / total) for draw, n in zip(draws, counts, strict=False) if n]


_PIECES = tuple(
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
"""_PIECES[owner][colour][king][shield + 1][potion + 1]: every piece there can be, made once
(a NamedTuple is made by Python code: setup and rewards change pieces at nearly every
action, and a look-up costs a fraction of that)."""


def _piece(owner: int, colour: int, king: bool, shield: int, potion: int) -> Piece:
    """The Piece with these fields (shield, potion -1: none), from `_PIECES`."""
    return _PIECES[owner][colour][king][shield + 1][potion + 1]


def _with_shield(piece: Piece, shield: int) -> Piece:
    """`piece` with another shield (-1: none); the board takes it through `_put`."""
    owner, colour, king, _, potion = piece
    return _PIECES[owner][colour][king][shield + 1][potion + 1]


def _with_potion(piece: Piece, potion: int) -> Piece:
    """`piece` with another potion (-1: none); the board takes it through `_put`."""
    owner, colour, king, shield, _ = piece
    return _PIECES[owner][colour][king][shield + 1][potion + 1]


def _add(counts: Counts, colour: int, n: int = 1) -> Counts:
    added = list(counts)  # two copies made in C: fewer objects than slicing around `colour`
    added[colour] += n
    return tuple(added)


class ChaosState(CheckersState[ChaosAction]):
    """A position of Chaos Checkers; see the module docstring for the phases."""

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

    # -- construction ----------------------------------------------------------------

    @classmethod
    def initial(cls, game: CheckersRules[Any]) -> ChaosState:
        state = cls.__new__(cls)
        State.__init__(state, game)
        first, second = game.colours
        state.board = [None] * 32
        # Each player draws shields from the bag of the opponent's fifteen 2-pips.
        state.bags = (shield_bag(second), shield_bag(first))
        pouch = [TRIOS_PER_COLOUR] * 10 + [TRIOS_PER_COLOUR if game.options["pink"] else 0]
        state.pouch = tuple(pouch)
        state.eliminated = ((0,) * 10, (0,) * 10)
        state.removed = 0
        state.phase = PLACE
        state.setup_index = 0
        state.turn = 0
        state.moves_made = 0
        state.extra = -1
        state.used = -1
        state.speedy = False
        state.pending = None
        state.reward = NO_REWARD
        state.hand = ()
        state.draws_left = 0
        state.history = ()
        state.turn_quiet = True
        state.outcome = None
        state.pieces0 = state.pieces1 = state.kings = state.ghosts = state.powered = 0
        state.shielded = [0] * TEN
        state._odds = None
        state.turn_moves = None
        return state

    def clone(self) -> ChaosState:
        new = ChaosState.__new__(ChaosState)
        new.game = self.game
        new.board = self.board.copy()
        new.bags = self.bags
        new.pouch = self.pouch
        new.eliminated = self.eliminated
        new.removed = self.removed
        new.phase = self.phase
        new.setup_index = self.setup_index
        new.turn = self.turn
        new.moves_made = self.moves_made
        new.extra = self.extra
        new.used = self.used
        new.speedy = self.speedy
        new.pending = self.pending
        new.reward = self.reward
        new.hand = self.hand
        new.draws_left = self.draws_left
        new.history = self.history
        new.turn_quiet = self.turn_quiet
        new.outcome = self.outcome
        new.pieces0 = self.pieces0
        new.pieces1 = self.pieces1
        new.kings = self.kings
        new.ghosts = self.ghosts
        new.powered = self.powered
        new.shielded = self.shielded.copy()
        new._odds = self._odds  # never changed, only replaced: a clone may share it
        new.turn_moves = self.turn_moves  # likewise
        self._copy_caches_to(new)
        return new

    # -- the contract ----------------------------------------------------------------------

    def current_player(self) -> int:
        phase = self.phase
        if phase in _MOVER_DECIDES:
            return self.turn
        if phase == DEFEND:
            return 1 - self.turn
        if phase == OVER:
            return TERMINAL
        return CHANCE

    def ended_by(self) -> str | None:
        return ending(self.outcome, self.history, self.game.options["repetition"])

    def round_number(self) -> int:
        if self.phase in SETUP_PHASES:
            return 0
        return self.moves_made // 2 + 1

    def chance_outcomes(self) -> list[tuple[ChaosAction, float]]:
        odds = self._odds
        if odds is None:
            odds = self._odds = self._chance_outcomes()
        return odds[:]

    def _chance_outcomes(self) -> list[tuple[ChaosAction, float]]:
        phase = self.phase
        if phase == PLACE:
            player, square = self._setup_slot()
            board = self.board
            placed = [piece.colour for sq in SETUP_ORDER[player] if (piece := board[sq]) is not None]
            colours = self.game.colours[player]
            key = (square, colours, *[placed.count(c) for c in colours])
            odds = _PLACE_ODDS.get(key)
            if odds is None:
                draws = _PLACE_DRAWS[square]
                odds = _PLACE_ODDS[key] = weighted(
                    [(draws[c], PIECES_PER_COLOUR - placed.count(c)) for c in colours]
                )
            return odds
        if phase == SHIELD:
            player, square = self._setup_slot()
            bag = self.bags[player]
            odds = _SHIELD_ODDS.get((square, bag))
            if odds is None:
                odds = _SHIELD_ODDS[(square, bag)] = _from_bag(_SHIELD_DRAWS[square], bag)
            return odds
        if phase == POTION:
            player, square = self._setup_slot()
            return _from_bag(_POTION_DRAWS[square], self.pouch)
        if phase == DRAW_SHIELD:
            return _from_bag(_DRAWN_SHIELDS, self.bags[self.turn])
        if phase == DRAW_POTION:
            return _from_bag(_DRAWN_POTIONS, self.pouch)
        return []

    def _setup_slot(self) -> tuple[int, int]:
        """(player, square) of the setup draw at `setup_index`."""
        return _SLOTS[self.phase][self.setup_index]

    def _lone(self) -> tuple[bool, bool]:
        """Whether each player is down to a last piece (it ignores all shields)."""
        n0, n1 = self.counts()
        return n0 == 1, n1 == 1

    def counts(self) -> tuple[int, int]:
        """How many pieces each player has on the board."""
        return self.pieces0.bit_count(), self.pieces1.bit_count()

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
            if potion == P.CLEAR:
                self.ghosts |= bit
            elif potion in _POWERS:
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
        if potion == P.CLEAR:
            self.ghosts ^= both
        elif potion in _POWERS:
            self.powered ^= both
        if shield >= 0:
            self.shielded[shield] ^= both
        board[dst] = piece
        board[src] = None

    def _mine(self) -> tuple[int, int]:
        """(bitboard of the pieces of the player to move, of the other player's)."""
        return (self.pieces0, self.pieces1) if self.turn == 0 else (self.pieces1, self.pieces0)

    def _invalidate(self) -> None:
        super()._invalidate()
        self._odds = None
        self._read_board()

    def _moves(self, powers: bool, mine: int, theirs: int, counts: tuple[int, int]) -> list[ChaosMove]:
        """A new list of the legal moves (steps and captures) of the player to move, whose
        pieces are `mine` (the other's `theirs`); `counts` is `counts()`."""
        movers = mine
        if self.extra >= 0:
            movers &= 1 << self.extra  # the Speedy piece's extra turn: that piece alone
            if not movers:
                return []
        return legal_moves(
            self.board,
            self.turn,
            (counts[0] == 1, counts[1] == 1),  # _lone()
            self.game.options["forced_capture"],
            powers,
            movers,
            mine,
            theirs,
            self.kings,
            self.ghosts,
            self.powered,
            self.shielded,
        )

    def _move_inputs(self) -> tuple[int, ...]:
        """What `_moves` works out the moves from, besides the board's potions other than
        the Ghosts (they only matter to Ambush and Leap) and the colours of the pieces
        (they stay on their squares): the player, the Speedy piece, the bitboards."""
        return (self.turn, self.extra, self.pieces0, self.pieces1, self.kings, self.ghosts, *self.shielded)

    def _legal_actions(self) -> list[ChaosAction]:
        phase = self.phase
        mine, theirs = self._mine()
        counts = (self.pieces0.bit_count(), self.pieces1.bit_count())  # counts()
        if phase == TURN:
            player = self.turn
            out = P.uses(
                self.board,
                player,
                self.pouch,
                self.bags[player],
                self.eliminated[player],
                counts,
                mine,
                theirs,
            )
            if self.ghosts & mine:
                out = [*P.ghost_discards(self.ghosts & mine), *out]
            found = self._moves(True, mine, theirs, counts)
            self.turn_moves = (self._move_inputs(), found)
            out += found
            if self.extra >= 0:
                out.append(PASS)
            return out
        if phase == MOVE:
            remembered = self.turn_moves
            moves: list[ChaosAction]
            if remembered is not None and remembered[0] == self._move_inputs():
                moves = [move for move in remembered[1] if move.power is None]  # no Ambush or Leap now
            else:
                moves = cast("list[ChaosAction]", self._moves(False, mine, theirs, counts))
            if self.extra >= 0:
                moves.append(PASS)
            return moves
        if phase == DEFEND:
            assert self.pending is not None
            square = self.pending.move.victims[self.pending.step]
            return [*DEFENCES[square]]
        if phase in KEEP_PHASES:
            kept = DRAWS[phase]
            return [kept[c] for c in sorted(set(self.hand))]
        return []

    # -- applying actions --------------------------------------------------------------------

    def _apply_action(self, action: ChaosAction) -> list[ChaosAction] | None:
        """Play an action; at a draw that follows, its outcomes' actions for the core's
        cache (the outcomes are worked out now and kept: every search and playout asks
        for them at a chance node)."""
        self._odds = None  # this game's own cache of the chance outcomes (see chance_outcomes)
        if isinstance(action, ChaosMove):
            self._start_move(action)
        elif isinstance(action, SetupDraw):
            self._setup_draw(action)
        elif isinstance(action, Draw):
            self._draw(action)
        elif isinstance(action, PotionUse):
            self._use_potion(action)
        elif isinstance(action, Defence):
            self._defend(action.invulnerable)
        else:  # PASS: the Speedy piece declines its extra turn
            self._end_turn()
        self._after()
        if self.phase in _CHANCE_PHASES:
            odds = self._odds = self._chance_outcomes()
            return [outcome for outcome, _ in odds]
        return None

    def _after(self) -> None:
        """Settle the new position: a player to move with no legal action loses."""
        if self.phase in _PLAYING and self.outcome is None and not self._may_act():
            self._finish((1.0, 0.0) if self.turn == 1 else (0.0, 1.0))

    def _may_act(self) -> bool:
        """Whether the player to move (turn or move phase) has a legal action. Nearly always
        some piece can step, which says so without listing the actions (search makes many
        positions whose actions it never asks for)."""
        if self.extra >= 0:
            return True  # the Speedy piece may always decline its extra turn
        if self.turn == 0:
            down, up = self.pieces0, self.pieces0 & self.kings
        else:
            down, up = self.pieces1 & self.kings, self.pieces1
        # Every step onto an empty square is legal (a forced capture means a capture exists).
        if steps_exist(down, up, FULL ^ self.pieces0 ^ self.pieces1):
            return True
        return bool(self._cached_legal())

    def _finish(self, outcome: tuple[float, float]) -> None:
        self.outcome = outcome
        self.phase = OVER

    # setup ------------------------------------------------------------------------

    def _setup_draw(self, draw: SetupDraw) -> None:
        kind, square, colour = draw.kind, draw.square, draw.colour
        player = 0 if square < 12 else 1
        if kind is PLACE:
            self._put(square, _piece(player, colour, False, -1, -1))
        elif kind is SHIELD:
            self._setup_shield(square, colour)
            self.bags = _take(self.bags, player, colour)
        else:
            self._setup_potion(square, colour)
            self.pouch = _add(self.pouch, colour, -1)
        self.setup_index += 1
        if self.setup_index == DRAWS_PER_PHASE:
            self.setup_index = 0
            following = SETUP_PHASES.index(self.phase) + 1
            self.phase = SETUP_PHASES[following] if following < len(SETUP_PHASES) else TURN

    def _setup_shield(self, square: int, colour: int) -> None:
        """The setup gives the piece on `square` its shield: `_put`, with less to do (the
        setup draws one shield a piece, so it had none: only one shield bitboard changes)."""
        owner, hue, king, _, potion = self._piece_on(square)
        self.board[square] = _PIECES[owner][hue][king][colour + 1][potion + 1]
        self.shielded[colour] |= 1 << square

    def _setup_potion(self, square: int, colour: int) -> None:
        """The setup gives the piece on `square` its potion: `_put`, with less to do (the
        setup draws one potion a piece, so it had none: only the Ghost or Ambush/Leap
        bitboard may change)."""
        owner, hue, king, shield, _ = self._piece_on(square)
        self.board[square] = _PIECES[owner][hue][king][shield + 1][colour + 1]
        if colour == P.CLEAR:
            self.ghosts |= 1 << square
        elif colour in _POWERS:
            self.powered |= 1 << square

    # potions --------------------------------------------------------------------------

    def _discard_potion(self, square: int) -> None:
        piece = self.board[square]
        assert piece is not None
        if piece.potion >= 0:
            self.pouch = _add(self.pouch, piece.potion)
            self._put(square, _with_potion(piece, -1))

    def _use_potion(self, use: PotionUse) -> None:
        s, t, power = use.square, use.target, use.power
        self.turn_quiet = False
        if power is GHOST:
            self._discard_potion(s)
            return  # discarding a Ghost is not the turn's potion: still at the turn's start
        self.used = s if power is not SACRIFICE else -1  # a sacrificed piece is gone
        board = self.board
        if power is REVIVE:
            # The white potion leaves the game; the piece comes back bare, as a man.
            self._put(s, _with_potion(self._piece_on(s), -1))
            self.removed += 1
            self.eliminated = _take(self.eliminated, self.turn, use.colour)
            self._put(t, _piece(self.turn, use.colour, False, -1, -1))
        elif power is SACRIFICE:
            self._eliminate(s)
            self._eliminate(t)
        else:
            self._discard_potion(s)
            if power is SPEEDY:
                self.speedy = True
            elif power is WILD:
                self.pouch = _add(self.pouch, use.colour, -1)
                self._put(s, _with_potion(self._piece_on(s), use.colour))
            elif power is REWIND:
                self._discard_potion(t)
            elif power is TELEKINESIS:
                moved = self._piece_on(t).potion
                self._put(t, _with_potion(self._piece_on(t), -1))
                self._discard_potion(use.other)
                self._put(use.other, _with_potion(self._piece_on(use.other), moved))
            elif power is RECLAIM:
                piece = board[t]
                assert piece is not None
                bag = self.bags[self.turn]
                if piece.shield >= 0:
                    bag = _add(bag, piece.shield)
                bag = _add(bag, use.colour, -1)
                self.bags = (bag, self.bags[1]) if self.turn == 0 else (self.bags[0], bag)
                self._put(t, _with_shield(piece, use.colour))
        self.phase = MOVE

    def _eliminate(self, square: int) -> None:
        """Take a piece off the board: its shield to its bag, its potion to the pouch."""
        piece = self.board[square]
        assert piece is not None
        if piece.shield >= 0:
            self.bags = _give(self.bags, piece.owner, piece.shield)
        if piece.potion >= 0:
            self.pouch = _add(self.pouch, piece.potion)
        self.eliminated = _give(self.eliminated, piece.owner, piece.colour)
        self._put(square, None)

    # moving ---------------------------------------------------------------------------

    def _start_move(self, move: ChaosMove) -> None:
        power, path, victims = move.power, move.path, move.victims
        src = path[0]
        piece = self.board[src]
        assert piece is not None
        # A move captures at every step or at none (`victims` all -1: a step, a Ghost jump).
        captures = victims[0] >= 0
        if power is not None or captures or not piece.king:
            self.turn_quiet = False
        elif self.turn_quiet and not self.history:
            self.history = (self._key(),)
        if power is not None:
            self.used = src  # Ambush or Leap: the moving piece's own potion
        elif not captures:
            # Nothing to capture, so nobody to wait for: the piece goes straight there.
            dst = path[1]
            self._move_piece(src, dst)
            if self.used == src:
                self.used = dst
            self._finish_move(dst, 0)
            return
        self.pending = PendingMove(move, 0, src, 0)
        self._run_move()

    def _run_move(self) -> None:
        while True:
            assert self.pending is not None
            move, k = self.pending.move, self.pending.step
            if k >= len(move.victims):
                break
            v = move.victims[k]
            if v >= 0:
                victim = self.board[v]
                if victim is not None and victim.potion == P.PURPLE:
                    self.phase = DEFEND
                    return
            self._step(captured=v >= 0)
        self._finish_move(self.pending.at, self.pending.captures)

    def _step(self, captured: bool) -> None:
        assert self.pending is not None
        move, k, at, n = self.pending.move, self.pending.step, self.pending.at, self.pending.captures
        v = move.victims[k]
        dst = move.path[k + 1]
        done = len(move.victims)
        if captured:
            self._eliminate(v)
            n += 1
        elif v >= 0 and move.power is AMBUSH:
            # Invulnerability against an Ambush: the ambushing piece does not move.
            self.pending = PendingMove(move, done, at, n)
            return
        if self.board[dst] is not None:
            # A spared piece stands where the rest of the path would land: the move ends.
            self.pending = PendingMove(move, done, at, n)
            return
        self._move_piece(at, dst)
        if self.used == at:
            self.used = dst
        self.pending = PendingMove(move, k + 1, dst, n)

    def _defend(self, invulnerable: bool) -> None:
        assert self.pending is not None
        if invulnerable:
            # "remove the potion instead and discard it. This piece is not captured".
            self._discard_potion(self.pending.move.victims[self.pending.step])
        self.phase = MOVE
        self._step(captured=not invulnerable)
        self._run_move()

    def _finish_move(self, at: int, n: int) -> None:
        """The move ended on `at` after `n` captures: crowning, the end of the game or the rewards."""
        self.pending = None
        piece = self.board[at]
        assert piece is not None
        owner, colour, king, shield, potion = piece
        crowned = not king and bool(CROWN_ROW[owner] >> at & 1)
        if crowned:
            piece = _piece(owner, colour, True, shield, potion)
            self._put(at, piece)
            self.turn_quiet = False
        if not (self.pieces1 if self.turn == 0 else self.pieces0):
            # "The first player to eliminate all opposing pieces wins": no rewards to draw.
            self.moves_made += 1
            self._finish((1.0, 0.0) if self.turn == 0 else (0.0, 1.0))
            return
        # "If you do not use a potion ability on the piece you are moving and capture ...,
        # discard this existing potion and replace it": a piece that used its own potion
        # this turn keeps what it now holds (Ambush or Leap, a Wild pick, a potion moved
        # onto it by its own Telekinesis); one left with none still receives a new one.
        kept = self.used == at and potion >= 0
        if not (n or crowned):
            self.reward = _UNREWARDED[kept][at]
            self._end_turn()  # what _potion_reward does for a move that earns nothing
            return
        self.reward = Reward(at, n, crowned, kept)
        if n:
            # "Discard your current shield ... replace it with a new random shield".
            if shield >= 0:
                self.bags = _give(self.bags, owner, shield)
                self._put(at, _with_shield(piece, -1))
            self._start_draws(DRAW_SHIELD, min(n, sum(self.bags[self.turn])))
        else:
            self._potion_reward()

    def _potion_reward(self) -> None:
        reward = self.reward
        at, n = reward.square, reward.captures
        if reward.crowned:
            # Crowning: a fresh potion replaces whatever the piece holds. Drawing the capture
            # reward first would be discarded at once, so it is skipped (same odds).
            self._discard_potion(at)
            self._start_draws(DRAW_POTION, min(1, sum(self.pouch)))
        elif n and not reward.kept_potion:
            # A capture without using the mover's potion on it: replace the potion.
            self._discard_potion(at)
            self._start_draws(DRAW_POTION, min(n, sum(self.pouch)))
        else:
            self._end_turn()

    def _start_draws(self, phase: Phase, count: int) -> None:
        self.hand = ()
        self.draws_left = count
        if count:
            self.phase = phase
        elif phase == DRAW_SHIELD:
            self._potion_reward()
        else:
            self._end_turn()

    def _draw(self, draw: Draw) -> None:
        kind, colour = draw.kind, draw.colour
        if kind is DRAW_SHIELD:
            self.bags = _take(self.bags, self.turn, colour)
            self._drawn(colour, KEEP_SHIELD)
        elif kind is DRAW_POTION:
            self.pouch = _add(self.pouch, colour, -1)
            self._drawn(colour, KEEP_POTION)
        else:
            self._keep(kind, colour)

    def _drawn(self, colour: int, keep_phase: Phase) -> None:
        self.hand = (*self.hand, colour)
        self.draws_left -= 1
        if self.draws_left:
            return
        if len(set(self.hand)) == 1:
            self._keep(keep_phase, self.hand[0])
        else:
            self.phase = keep_phase

    def _keep(self, kind: Phase, colour: int) -> None:
        """Keep one drawn piece; the others go back to their bag."""
        at = self.reward.square
        piece = self.board[at]
        assert piece is not None
        rest = list(self.hand)
        rest.remove(colour)
        self.hand = ()
        if kind is KEEP_SHIELD:
            self._put(at, _with_shield(piece, colour))
            for c in rest:
                self.bags = _give(self.bags, self.turn, c)
            self._potion_reward()
        else:
            self._put(at, _with_potion(piece, colour))
            for c in rest:
                self.pouch = _add(self.pouch, c)
            self._end_turn()

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

    # -- views -----------------------------------------------------------------------------

    def _observation(self, player: int | None) -> dict[str, Any]:
        # Nothing is hidden: every piece is on the board or in a bag whose contents follow
        # from what is on the board (the rulebook has the draws made in the open).
        doc = self.to_json()
        del doc["game"], doc["options"]
        doc["to_move"] = self.current_player()
        return self._with_result(doc)


def _give(pair: tuple[Counts, Counts], player: int, colour: int) -> tuple[Counts, Counts]:
    if player == 0:
        return (_add(pair[0], colour), pair[1])
    return (pair[0], _add(pair[1], colour))


def _take(pair: tuple[Counts, Counts], player: int, colour: int) -> tuple[Counts, Counts]:
    if player == 0:
        return (_add(pair[0], colour, -1), pair[1])
    return (pair[0], _add(pair[1], colour, -1))
