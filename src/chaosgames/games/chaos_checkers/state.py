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

from typing import TYPE_CHECKING, Any, cast

from chaosgames.core.constants import CHANCE, TERMINAL
from chaosgames.core.game import State
from chaosgames.games.chaos_checkers import potions as P
from chaosgames.games.chaos_checkers.actions import (
    DEFENCES,
    DRAWS,
    PASS,
    ChaosAction,
    ChaosMove,
    Defence,
    Draw,
    PotionUse,
    SetupDraw,
)
from chaosgames.games.chaos_checkers.board import FULL
from chaosgames.games.chaos_checkers.chaos_position import NO_REWARD, ChaosPosition, from_bag
from chaosgames.games.chaos_checkers.colours import TEN, TRIOS_PER_COLOUR
from chaosgames.games.chaos_checkers.movement import defend, legal_moves, start_move
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
    SETUP_PHASES,
    TURN,
)
from chaosgames.games.chaos_checkers.plain import steps_exist
from chaosgames.games.chaos_checkers.potions import use_potion
from chaosgames.games.chaos_checkers.repetition import ending
from chaosgames.games.chaos_checkers.rewards import take_draw
from chaosgames.games.chaos_checkers.setup import Odds, setup_draw, setup_odds, shield_bag, with_outcomes

if TYPE_CHECKING:
    from chaosgames.games.chaos_checkers.rules_in_force import CheckersRules


_CHANCE_PHASES = frozenset((*SETUP_PHASES, *DRAW_PHASES))
_MOVER_DECIDES = frozenset((TURN, MOVE, KEEP_SHIELD, KEEP_POTION))
_PLAYING = frozenset((TURN, MOVE))
"""The phases where a player with no legal action loses."""
_DRAWN_SHIELDS, _DRAWN_POTIONS = DRAWS[DRAW_SHIELD], DRAWS[DRAW_POTION]


class ChaosState(ChaosPosition):
    """A position of Chaos Checkers; see the module docstring for the phases. The rules
    that play each action are in the modules named after the rulebook's sections."""

    # -- construction ----------------------------------------------------------------

    @classmethod
    def initial(cls, game: CheckersRules[Any, Any]) -> ChaosState:
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
            odds = self._odds = self._draw_odds()[0]
        return odds[:]

    def _draw_odds(self) -> Odds:
        """The odds of the draw this position waits for, with its outcomes alone (the
        core's legal actions): a setup draw's or a reward's; none at a player's decision."""
        phase = self.phase
        if phase in SETUP_PHASES:
            return setup_odds(self)
        if phase == DRAW_SHIELD:
            return with_outcomes(from_bag(_DRAWN_SHIELDS, self.bags[self.turn]))
        if phase == DRAW_POTION:
            return with_outcomes(from_bag(_DRAWN_POTIONS, self.pouch))
        return [], []

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
            start_move(self, action)
        elif isinstance(action, SetupDraw):
            setup_draw(self, action)
        elif isinstance(action, Draw):
            take_draw(self, action)
        elif isinstance(action, PotionUse):
            use_potion(self, action)
        elif isinstance(action, Defence):
            defend(self, action.invulnerable)
        else:  # PASS: the Speedy piece declines its extra turn
            self._end_turn()
        if self.phase in _CHANCE_PHASES:  # a draw follows (no player to settle: see _after)
            self._odds, outcomes = self._draw_odds()
            return outcomes
        self._after()
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

    # -- views -----------------------------------------------------------------------------

    def _observation(self, player: int | None) -> dict[str, Any]:
        # Nothing is hidden: every piece is on the board or in a bag whose contents follow
        # from what is on the board (the rulebook has the draws made in the open).
        doc = self.to_json()
        del doc["game"], doc["options"]
        doc["to_move"] = self.current_player()
        return self._with_result(doc)
