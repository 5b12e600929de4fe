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

from enum import StrEnum
from typing import TYPE_CHECKING, Any, NamedTuple

from chaosgames.core.chance import weighted
from chaosgames.core.constants import CHANCE, TERMINAL
from chaosgames.core.game import Action, State
from chaosgames.games.chaos_checkers import potions as P
from chaosgames.games.chaos_checkers.actions import (
    DRAWS,
    PASS,
    SETUP_DRAWS,
    ChaosMove,
    Defence,
    Draw,
    Piece,
    PotionUse,
    SetupDraw,
)
from chaosgames.games.chaos_checkers.board import CROWN_ROW
from chaosgames.games.chaos_checkers.colours import TRIOS_PER_COLOUR
from chaosgames.games.chaos_checkers.movement import legal_moves
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
    from chaosgames.games.chaos_checkers.game import ChaosCheckersGame


class Phase(StrEnum):
    """What the game waits for; the value is the phase's name in state documents."""

    PLACE = "place"
    SHIELD = "shield"
    POTION = "potion"
    TURN = "turn"
    MOVE = "move"
    DEFEND = "defend"
    DRAW_SHIELD = "draw-shield"
    KEEP_SHIELD = "keep-shield"
    DRAW_POTION = "draw-potion"
    KEEP_POTION = "keep-potion"
    OVER = "over"


SETUP_PHASES = (Phase.PLACE, Phase.SHIELD, Phase.POTION)
PHASES = tuple(Phase)
DRAW_PHASES = (Phase.DRAW_SHIELD, Phase.DRAW_POTION)
KEEP_PHASES = (Phase.KEEP_SHIELD, Phase.KEEP_POTION)
REWARD_PHASES = (*DRAW_PHASES, *KEEP_PHASES)
_MOVER_DECIDES = frozenset((Phase.TURN, Phase.MOVE, Phase.KEEP_SHIELD, Phase.KEEP_POTION))


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


def _changed(pair: tuple[int, int], player: int, n: int) -> tuple[int, int]:
    """`pair` (one number per player) with `n` added to `player`'s."""
    return (pair[0] + n, pair[1]) if player == 0 else (pair[0], pair[1] + n)


def _add(counts: Counts, colour: int, n: int = 1) -> Counts:
    return (*counts[:colour], counts[colour] + n, *counts[colour + 1 :])


class ChaosState(State):
    """A position of Chaos Checkers; see the module docstring for the phases."""

    __slots__ = (
        "_odds",
        "bags",
        "board",
        "draws_left",
        "eliminated",
        "extra",
        "hand",
        "history",
        "moves_made",
        "on_board",
        "outcome",
        "pending",
        "phase",
        "pouch",
        "removed",
        "reward",
        "setup_index",
        "speedy",
        "turn",
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
    outcome: tuple[float, float] | None
    on_board: tuple[int, int]
    """How many pieces each player has on the board (kept up to date as pieces come and go)."""
    _odds: list[tuple[Action, float]] | None
    """The chance outcomes of this position, once asked for (until the next action)."""
    game: ChaosCheckersGame

    # -- construction ----------------------------------------------------------------

    @classmethod
    def initial(cls, game: ChaosCheckersGame) -> ChaosState:
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
        state.phase = Phase.PLACE
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
        state.on_board = (0, 0)
        state._odds = None
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
        new.on_board = self.on_board
        new._odds = self._odds  # never changed, only replaced: a clone may share it
        self._copy_caches_to(new)
        return new

    # -- the contract ----------------------------------------------------------------------

    def current_player(self) -> int:
        phase = self.phase
        if phase in _MOVER_DECIDES:
            return self.turn
        if phase == Phase.DEFEND:
            return 1 - self.turn
        if phase == Phase.OVER:
            return TERMINAL
        return CHANCE

    def returns(self) -> list[float]:
        return list(self.outcome) if self.outcome is not None else [0.0, 0.0]

    def ended_by(self) -> str | None:
        return ending(self.outcome, self.history, self.game.options["repetition"])

    def round_number(self) -> int:
        if self.phase in SETUP_PHASES:
            return 0
        return self.moves_made // 2 + 1

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        odds = self._odds
        if odds is None:
            odds = self._odds = self._chance_outcomes()
        return odds[:]

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        phase = self.phase
        if phase == Phase.PLACE:
            player, square = self._setup_slot()
            placed = [0] * 10
            for sq in SETUP_ORDER[player]:
                piece = self.board[sq]
                if piece is not None:
                    placed[piece.colour] += 1
            colours = self.game.colours[player]
            return weighted([(SetupDraw("place", square, c), PIECES_PER_COLOUR - placed[c]) for c in colours])
        if phase == Phase.SHIELD:
            player, square = self._setup_slot()
            bag = self.bags[player]
            draws = SETUP_DRAWS["shield"][square]
            return weighted([(draws[c], n) for c, n in enumerate(bag)])
        if phase == Phase.POTION:
            player, square = self._setup_slot()
            draws = SETUP_DRAWS["potion"][square]
            return weighted([(draws[c], n) for c, n in enumerate(self.pouch)])
        if phase == Phase.DRAW_SHIELD:
            bag = self.bags[self.turn]
            shields = DRAWS["draw-shield"]
            return weighted([(shields[c], n) for c, n in enumerate(bag)])
        if phase == Phase.DRAW_POTION:
            potions = DRAWS["draw-potion"]
            return weighted([(potions[c], n) for c, n in enumerate(self.pouch)])
        return []

    def _setup_slot(self) -> tuple[int, int]:
        """(player, square) of the setup draw at `setup_index`."""
        return setup_slot(self.phase, self.setup_index)

    def _lone(self) -> tuple[bool, bool]:
        """Whether each player is down to a last piece (it ignores all shields)."""
        n0, n1 = self.counts()
        return n0 == 1, n1 == 1

    def counts(self) -> tuple[int, int]:
        """How many pieces each player has on the board."""
        return self.on_board

    def _count_pieces(self) -> None:
        """Count the pieces on the board afresh (after the board was set as a whole)."""
        n0 = n1 = 0
        for piece in self.board:
            if piece is not None:
                if piece.owner == 0:
                    n0 += 1
                else:
                    n1 += 1
        self.on_board = (n0, n1)

    def _invalidate(self) -> None:
        super()._invalidate()
        self._odds = None
        self._count_pieces()

    def _moves(self, powers: bool) -> list[ChaosMove]:
        if self.extra >= 0:
            piece = self.board[self.extra]
            if piece is None or piece.owner != self.turn:
                return []
        return legal_moves(
            self.board, self.turn, self._lone(), self.game.options["forced_capture"], powers, self.extra
        )

    def _legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase == Phase.TURN:
            player = self.turn
            out: list[Action] = []
            out.extend(P.ghost_discards(self.board, player))
            out.extend(
                P.uses(
                    self.board,
                    player,
                    self.pouch,
                    self.bags[player],
                    self.eliminated[player],
                    self.counts(),
                )
            )
            out.extend(self._moves(True))
            if self.extra >= 0:
                out.append(PASS)
            return out
        if phase == Phase.MOVE:
            moves: list[Action] = list(self._moves(False))
            if self.extra >= 0:
                moves.append(PASS)
            return moves
        if phase == Phase.DEFEND:
            assert self.pending is not None
            square = self.pending.move.victims[self.pending.step]
            return [Defence("invulnerable", square), Defence("yield", square)]
        if phase in KEEP_PHASES:
            kept = DRAWS[phase]
            return [kept[c] for c in sorted(set(self.hand))]
        return []

    # -- applying actions --------------------------------------------------------------------

    def _apply_action(self, action: Action) -> None:
        self._odds = None
        if isinstance(action, ChaosMove):
            self._start_move(action)
        elif isinstance(action, PotionUse):
            self._use_potion(action)
        elif isinstance(action, SetupDraw):
            self._setup_draw(action)
        elif isinstance(action, Defence):
            self._defend(action.kind == "invulnerable")
        elif isinstance(action, Draw):
            self._draw(action)
        else:  # PASS: the Speedy piece declines its extra turn
            self._end_turn()
        self._after()

    def _after(self) -> None:
        """Settle the new position: a player to move with no legal action loses."""
        if self.phase in (Phase.TURN, Phase.MOVE) and self.outcome is None and not self._cached_legal():
            self._finish((1.0, 0.0) if self.turn == 1 else (0.0, 1.0))

    def _finish(self, outcome: tuple[float, float]) -> None:
        self.outcome = outcome
        self.phase = Phase.OVER
        self._legal = []
        self._index = None

    # setup ------------------------------------------------------------------------

    def _setup_draw(self, draw: SetupDraw) -> None:
        player = 0 if draw.square < 12 else 1
        if draw.kind == "place":
            self.board[draw.square] = Piece(player, draw.colour, False, -1, -1)
            self.on_board = _changed(self.on_board, player, 1)
        elif draw.kind == "shield":
            self.board[draw.square] = self.board[draw.square]._replace(shield=draw.colour)  # type: ignore[union-attr]
            self.bags = _take(self.bags, player, draw.colour)
        else:
            self.board[draw.square] = self.board[draw.square]._replace(potion=draw.colour)  # type: ignore[union-attr]
            self.pouch = _add(self.pouch, draw.colour, -1)
        self.setup_index += 1
        if self.setup_index == DRAWS_PER_PHASE:
            self.setup_index = 0
            following = SETUP_PHASES.index(self.phase) + 1
            self.phase = SETUP_PHASES[following] if following < len(SETUP_PHASES) else Phase.TURN

    # potions --------------------------------------------------------------------------

    def _discard_potion(self, square: int) -> None:
        piece = self.board[square]
        assert piece is not None
        if piece.potion >= 0:
            self.pouch = _add(self.pouch, piece.potion)
            self.board[square] = piece._replace(potion=-1)

    def _use_potion(self, use: PotionUse) -> None:
        s, t, power = use.square, use.target, use.power
        self.turn_quiet = False
        if power == "unghost":
            self._discard_potion(s)
            return  # discarding a Ghost is not the turn's potion: still at the turn's start
        self.used = s if power != "sacrifice" else -1  # a sacrificed piece is gone
        board = self.board
        if power == "revive":
            # The white potion leaves the game; the piece comes back bare, as a man.
            board[s] = board[s]._replace(potion=-1)  # type: ignore[union-attr]
            self.removed += 1
            self.eliminated = _take(self.eliminated, self.turn, use.colour)
            board[t] = Piece(self.turn, use.colour, False, -1, -1)
            self.on_board = _changed(self.on_board, self.turn, 1)
        elif power == "sacrifice":
            self._eliminate(s)
            self._eliminate(t)
        else:
            self._discard_potion(s)
            if power == "speedy":
                self.speedy = True
            elif power == "wild":
                self.pouch = _add(self.pouch, use.colour, -1)
                board[s] = board[s]._replace(potion=use.colour)  # type: ignore[union-attr]
            elif power == "rewind":
                self._discard_potion(t)
            elif power == "telekinesis":
                moved = board[t].potion  # type: ignore[union-attr]
                board[t] = board[t]._replace(potion=-1)  # type: ignore[union-attr]
                self._discard_potion(use.other)
                board[use.other] = board[use.other]._replace(potion=moved)  # type: ignore[union-attr]
            elif power == "reclaim":
                piece = board[t]
                assert piece is not None
                bag = self.bags[self.turn]
                if piece.shield >= 0:
                    bag = _add(bag, piece.shield)
                bag = _add(bag, use.colour, -1)
                self.bags = (bag, self.bags[1]) if self.turn == 0 else (self.bags[0], bag)
                board[t] = piece._replace(shield=use.colour)
        self.phase = Phase.MOVE

    def _eliminate(self, square: int) -> None:
        """Take a piece off the board: its shield to its bag, its potion to the pouch."""
        piece = self.board[square]
        assert piece is not None
        if piece.shield >= 0:
            self.bags = _give(self.bags, piece.owner, piece.shield)
        if piece.potion >= 0:
            self.pouch = _add(self.pouch, piece.potion)
        self.eliminated = _give(self.eliminated, piece.owner, piece.colour)
        self.on_board = _changed(self.on_board, piece.owner, -1)
        self.board[square] = None

    # moving ---------------------------------------------------------------------------

    def _start_move(self, move: ChaosMove) -> None:
        piece = self.board[move.path[0]]
        assert piece is not None
        if move.power or any(v >= 0 for v in move.victims) or not piece.king:
            self.turn_quiet = False
        elif self.turn_quiet and not self.history:
            self.history = (self._key(),)
        if move.power:
            self.used = move.path[0]  # Ambush or Leap: the moving piece's own potion
        self.pending = PendingMove(move, 0, move.path[0], 0)
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
                    self.phase = Phase.DEFEND
                    return
            self._step(captured=v >= 0)
        self._finish_move()

    def _step(self, captured: bool) -> None:
        assert self.pending is not None
        move, k, at, n = self.pending.move, self.pending.step, self.pending.at, self.pending.captures
        v = move.victims[k]
        dst = move.path[k + 1]
        done = len(move.victims)
        if captured:
            self._eliminate(v)
            n += 1
        elif v >= 0 and move.power == "ambush":
            # Invulnerability against an Ambush: the ambushing piece does not move.
            self.pending = PendingMove(move, done, at, n)
            return
        if self.board[dst] is not None:
            # A spared piece stands where the rest of the path would land: the move ends.
            self.pending = PendingMove(move, done, at, n)
            return
        self.board[dst] = self.board[at]
        self.board[at] = None
        if self.used == at:
            self.used = dst
        self.pending = PendingMove(move, k + 1, dst, n)

    def _defend(self, invulnerable: bool) -> None:
        assert self.pending is not None
        if invulnerable:
            # "remove the potion instead and discard it. This piece is not captured".
            self._discard_potion(self.pending.move.victims[self.pending.step])
        self.phase = Phase.MOVE
        self._step(captured=not invulnerable)
        self._run_move()

    def _finish_move(self) -> None:
        assert self.pending is not None
        at, n = self.pending.at, self.pending.captures
        self.pending = None
        piece = self.board[at]
        assert piece is not None
        crowned = not piece.king and bool(CROWN_ROW[piece.owner] >> at & 1)
        if crowned:
            piece = piece._replace(king=True)
            self.board[at] = piece
            self.turn_quiet = False
        if self.counts()[1 - self.turn] == 0:
            # "The first player to eliminate all opposing pieces wins": no rewards to draw.
            self.moves_made += 1
            self._finish((1.0, 0.0) if self.turn == 0 else (0.0, 1.0))
            return
        # "If you do not use a potion ability on the piece you are moving and capture ...,
        # discard this existing potion and replace it": a piece that used its own potion
        # this turn keeps what it now holds (Ambush or Leap, a Wild pick, a potion moved
        # onto it by its own Telekinesis); one left with none still receives a new one.
        kept = self.used == at and piece.potion >= 0
        self.reward = Reward(at, n, crowned, kept)
        if n:
            # "Discard your current shield ... replace it with a new random shield".
            if piece.shield >= 0:
                self.bags = _give(self.bags, piece.owner, piece.shield)
                self.board[at] = piece._replace(shield=-1)
            self._start_draws(Phase.DRAW_SHIELD, min(n, sum(self.bags[self.turn])))
        else:
            self._potion_reward()

    def _potion_reward(self) -> None:
        reward = self.reward
        at, n = reward.square, reward.captures
        if reward.crowned:
            # Crowning: a fresh potion replaces whatever the piece holds. Drawing the capture
            # reward first would be discarded at once, so it is skipped (same odds).
            self._discard_potion(at)
            self._start_draws(Phase.DRAW_POTION, min(1, sum(self.pouch)))
        elif n and not reward.kept_potion:
            # A capture without using the mover's potion on it: replace the potion.
            self._discard_potion(at)
            self._start_draws(Phase.DRAW_POTION, min(n, sum(self.pouch)))
        else:
            self._end_turn()

    def _start_draws(self, phase: Phase, count: int) -> None:
        self.hand = ()
        self.draws_left = count
        if count:
            self.phase = phase
        elif phase == Phase.DRAW_SHIELD:
            self._potion_reward()
        else:
            self._end_turn()

    def _draw(self, draw: Draw) -> None:
        kind, colour = draw.kind, draw.colour
        if kind == Phase.DRAW_SHIELD:
            self.bags = _take(self.bags, self.turn, colour)
            self._drawn(colour, Phase.KEEP_SHIELD)
        elif kind == Phase.DRAW_POTION:
            self.pouch = _add(self.pouch, colour, -1)
            self._drawn(colour, Phase.KEEP_POTION)
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

    def _keep(self, kind: str, colour: int) -> None:
        """Keep one drawn piece; the others go back to their bag."""
        at = self.reward.square
        piece = self.board[at]
        assert piece is not None
        rest = list(self.hand)
        rest.remove(colour)
        self.hand = ()
        if kind == Phase.KEEP_SHIELD:
            self.board[at] = piece._replace(shield=colour)
            for c in rest:
                self.bags = _give(self.bags, self.turn, c)
            self._potion_reward()
        else:
            self.board[at] = piece._replace(potion=colour)
            for c in rest:
                self.pouch = _add(self.pouch, c)
            self._end_turn()

    def _end_turn(self) -> None:
        player = self.turn
        self.moves_made += 1
        counts = self.counts()
        if counts[1 - player] == 0:
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
        self.phase = Phase.TURN
        quiet = self.turn_quiet
        self.turn_quiet = True
        if quiet:
            key = self._key()
            self.history = (*self.history, key)
            if drawn_by_repetition(self.history, self.game.options["repetition"]):
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

    def observation(self, player: int | None) -> dict[str, Any]:
        # Nothing is hidden: every piece is on the board or in a bag whose contents follow
        # from what is on the board (the rulebook has the draws made in the open).
        doc = self.to_json()
        del doc["game"], doc["options"]
        doc["to_move"] = self.current_player()
        doc["terminal"] = self.outcome is not None
        doc["returns"] = self.returns()
        if self.outcome is not None:
            doc["ended_by"] = self.ended_by()
        return doc

    def to_json(self) -> dict[str, Any]:
        return self.game.write_document(self)  # the Game holds the document module (no cycle)

    def __str__(self) -> str:
        return self.game.render_text(self)


def _give(pair: tuple[Counts, Counts], player: int, colour: int) -> tuple[Counts, Counts]:
    if player == 0:
        return (_add(pair[0], colour), pair[1])
    return (pair[0], _add(pair[1], colour))


def _take(pair: tuple[Counts, Counts], player: int, colour: int) -> tuple[Counts, Counts]:
    if player == 0:
        return (_add(pair[0], colour, -1), pair[1])
    return (pair[0], _add(pair[1], colour, -1))
