"""A Royal Racers position and its turn sequence.

Phases: `deal` (chance: the shuffle, one card per square), `start` (each player picks a
centre square), `flags` (opponents place the flags), then turns of `roll` (chance: the
die), `flip` (the board morph) and `move`; `over` at the end. A campaign (`races` > 1)
goes back to `deal` after each race.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any

from chaosgames.core.chance import uniform
from chaosgames.core.constants import CHANCE, TERMINAL
from chaosgames.core.game import ENDED_BY_CAP, ENDED_BY_RULES, State, shared_actions
from chaosgames.games.royal_racers import board_morph, movement, setup
from chaosgames.games.royal_racers.actions import (
    DEAL,
    DEALING,
    MOVING,
    PLACE,
    PLACING,
    REVEALING,
    ROLL,
    ROLLING,
    START,
    STARTING,
    TURNING_DOWN,
    TURNING_UP,
    Flip,
    RacerAction,
)
from chaosgames.games.royal_racers.board import DEAL_ORDER, LOWEST_FIXED_RANK, QUADRANT_OF, RANK_OF, SQUARES
from chaosgames.games.royal_racers.rules_in_force import RacersRules


class Phase(IntEnum):
    """The phases in the order a race goes through them (compared by order when reading)."""

    DEAL = 0
    START = 1
    FLAGS = 2
    ROLL = 3
    FLIP = 4
    MOVE = 5
    OVER = 6


PHASE_NAMES = tuple(phase.name.lower() for phase in Phase)
"""The phases as state documents and observations name them: deal, start, ... over."""
DEAL_PHASE, START_PHASE, FLAGS_PHASE, ROLL_PHASE, FLIP_PHASE, MOVE_PHASE, OVER = Phase

ROLL_OUTCOMES: list[tuple[RacerAction, float]] = uniform(ROLL)
"""The die's six faces, equally likely (copied for each roll: callers own what they get)."""
ROLL_ACTIONS: list[RacerAction] = shared_actions(ROLL)

_SLOTS = (
    "n",
    "nflags",
    "races",
    "max_rounds",
    "flag_variant",
    "optional_move",
    "memory_aid",
    "phase",
    "race",
    "round",
    "turn",
    "past_rounds",
    "dealt",
    "placed",
    "cards",
    "where",
    "down",
    "always_up",
    "pawns",
    "flag_sq",
    "flag_at",
    "progress",
    "roll",
    "last_flip",
    "coins",
    "race_winners",
)


class RoyalRacersState(State[RacerAction]):
    """See the module docstring; fields are documented in docs/games/royal-racers.md."""

    __slots__ = _SLOTS

    game: RacersRules[Any, Any]
    n: int
    nflags: int
    races: int
    max_rounds: int
    flag_variant: bool
    optional_move: bool
    memory_aid: bool
    phase: Phase
    race: int
    round: int
    turn: int
    past_rounds: int
    dealt: int
    placed: int
    cards: list[int]
    where: list[int]
    down: int
    always_up: int
    """Squares whose cards are ranked 6-9, as bits: they "will always remain face-up"."""
    pawns: list[int]
    flag_sq: list[int]
    flag_at: list[int]
    progress: list[int]
    roll: int
    last_flip: Flip | None
    """This turn's flip while it is the latest decision: set by the flip, cleared by the
    next decision (the move) or the next roll. What everyone saw then (the card turned
    down, the card of a wrong guess) is shown no longer than that."""
    coins: list[list[int]]
    race_winners: list[int]

    def __init__(self, game: RacersRules[Any, Any]) -> None:
        super().__init__(game)
        options = game.options
        self.n = game.num_players
        self.nflags = options["flags"]
        self.races = options["races"]
        self.max_rounds = options["max_rounds"]
        self.flag_variant = options["flag_variant"]
        self.optional_move = options["optional_move"]
        self.memory_aid = options["memory_aid"]
        self.race = 0
        self.past_rounds = 0
        self.coins = []
        self.race_winners = []
        self._new_race()

    def _new_race(self) -> None:
        self.phase = DEAL_PHASE
        self.round = 0
        self.turn = 0
        self.dealt = 0
        self.placed = 0
        self.cards = [-1] * SQUARES
        self.where = [-1] * SQUARES
        self.down = 0
        self.always_up = 0
        self.pawns = [-1] * self.n
        self.flag_sq = [-1] * (self.n * self.nflags)
        self.flag_at = [-1] * SQUARES
        self.progress = [0] * self.n
        self.roll = -1
        self.last_flip = None

    # -- who acts ----------------------------------------------------------------------

    def starter(self) -> int:
        """Who starts the current round: the race's first player, one seat on per round."""
        return (setup.race_starter(self.race, self.n) + self.round) % self.n

    def mover(self) -> int:
        """The player whose turn it is (during roll, flip and move)."""
        # starter() + turn, written out: search asks this at every step.
        n = self.n
        return (self.race % n + self.round + self.turn) % n

    def placement(self) -> tuple[int, int, int]:
        """(placer, owner, flag index) of the flag being placed."""
        order = setup.placement_order(self.n, self.nflags, setup.race_starter(self.race, self.n))
        return order[self.placed]

    def current_player(self) -> int:
        # Comparisons by order (flip, move and over come last): search asks at every step.
        phase = self.phase
        if phase > ROLL_PHASE:
            if phase == OVER:
                return TERMINAL
            n = self.n
            return (self.race % n + self.round + self.turn) % n  # mover(), written out
        if phase == ROLL_PHASE:
            return CHANCE
        if phase == DEAL_PHASE:
            return CHANCE
        if phase == START_PHASE:
            chosen = sum(1 for p in self.pawns if p >= 0)
            return (setup.race_starter(self.race, self.n) + chosen) % self.n
        # placement()'s placer, worked out (is_terminal asks at every step of a search):
        # placement k places flag k // n, its placers starting one seat on per flag.
        n, k = self.n, self.placed
        return (self.race + k // n + k % n) % n

    def shown_roll(self) -> int:
        """The die as the table shows it (-1: none): the roll of the turn in progress, during
        its flip and its move. Once the turn is over its roll is no longer shown (unless the
        memory aid shows everything), or a card turned face down in it could be looked up."""
        if self.memory_aid or self.phase in (FLIP_PHASE, MOVE_PHASE):
            return self.roll
        return -1

    def rank_at(self, sq: int) -> int:
        return RANK_OF[self.cards[sq]]

    # -- what may happen ---------------------------------------------------------------

    def chance_outcomes(self) -> list[tuple[RacerAction, float]]:
        phase = self.phase
        if phase == ROLL_PHASE:
            return ROLL_OUTCOMES[:]
        if phase == DEAL_PHASE:
            return uniform([DEAL[card] for card in setup.remaining_cards(self.where)])
        return []

    def _legal_actions(self) -> list[RacerAction]:
        phase = self.phase
        if phase == MOVE_PHASE:
            return movement.move_options(self, self.mover())
        if phase == FLIP_PHASE:
            return board_morph.flip_options(self, self.roll)
        if phase == START_PHASE:
            return [START[sq] for sq in setup.free_centre_squares(self.pawns)]
        if phase == FLAGS_PHASE:
            return [PLACE[sq] for sq in self.placement_squares()]
        return []

    def placement_squares(self) -> list[int]:
        _, owner, index = self.placement()
        return setup.placement_squares(self.flag_quadrant(owner, index), self.flag_at)

    def flag_quadrant(self, owner: int, index: int) -> int:
        """Setup e): the quadrant of `owner`'s flag `index`, counted from his start's."""
        start_quadrant = QUADRANT_OF[self.flag_sq[owner * self.nflags + self.nflags - 1]]
        return setup.placement_quadrant(start_quadrant, index)

    # -- applying ----------------------------------------------------------------------

    def _apply_action(self, action: RacerAction) -> list[RacerAction] | None:
        """Play an action; the next legal actions when the rules worked them out (a
        roll's flips or moves, the next roll's faces), for the core's cache."""
        kind = action.kind
        # The kinds in the order a race meets them most often, compared by identity.
        if kind is MOVING:
            player = self.mover()
            self.last_flip = None  # a new decision: the flip's card is no longer shown
            self.pawns[player] = action.arg
            if movement.touch(self, player):
                self._race_over(player)
                return None
            return self._end_turn()
        if kind is ROLLING:
            return self._roll(action.arg)
        if kind is TURNING_DOWN or kind is TURNING_UP or kind is REVEALING:
            board_morph.apply_flip(self, action, self.mover())
            return self._to_movement()
        if kind is DEALING:
            self._deal(action.arg)
        elif kind is PLACING:
            self._place(action.arg)
        elif kind is STARTING:
            self._start(action.arg)
        else:
            self.last_flip = None
            return self._end_turn()  # stay
        return None

    def _deal(self, card: int) -> None:
        self.lay(DEAL_ORDER[self.dealt], card)
        self.dealt += 1
        if self.dealt == SQUARES:
            self.phase = START_PHASE

    def lay(self, sq: int, card: int) -> None:
        """Lay a card face up on a square (the deal, and a state document read back)."""
        self.cards[sq] = card
        self.where[card] = sq
        if RANK_OF[card] >= LOWEST_FIXED_RANK:
            self.always_up |= 1 << sq

    def _start(self, sq: int) -> None:
        # Setup d): the highest flag lies under the starting pawn.
        player = self.current_player()
        self.pawns[player] = sq
        self._put_flag(player, self.nflags - 1, sq)
        if all(p >= 0 for p in self.pawns):
            self.phase = FLAGS_PHASE

    def _place(self, sq: int) -> None:
        _, owner, index = self.placement()
        self._put_flag(owner, index, sq)
        self.placed += 1
        if self.placed == (self.nflags - 1) * self.n:
            self.phase = ROLL_PHASE

    def _put_flag(self, owner: int, index: int, sq: int) -> None:
        slot = owner * self.nflags + index
        self.flag_sq[slot] = sq
        self.flag_at[sq] = slot

    def _roll(self, face: int) -> list[RacerAction] | None:
        self.roll = face
        self.last_flip = None
        if face == 0:
            return self._to_movement()  # null: do nothing and go to step 2
        options = board_morph.flip_options(self, face)
        if options:
            self.phase = FLIP_PHASE
            return options  # already worked out: spare the cache a rerun
        return self._to_movement()

    def _to_movement(self) -> list[RacerAction] | None:
        n = self.n
        options = movement.move_options(self, (self.race % n + self.round + self.turn) % n)  # mover()
        if options:
            self.phase = MOVE_PHASE
            return options
        return self._end_turn()  # no legal move: the move is forfeited

    def _end_turn(self) -> list[RacerAction] | None:
        """The next player's turn; its roll's faces (shared: the cache is replaced, never
        changed), or None when the cap ended the race."""
        self.turn += 1
        if self.turn == self.n:
            self.turn = 0
            if self.max_rounds and self.round + 1 >= self.max_rounds:
                self._race_over(-1)  # the cap: most flags touched takes the race
                return None
            self.round += 1
        self.phase = ROLL_PHASE
        return ROLL_ACTIONS

    def _race_over(self, winner: int) -> None:
        # Campaign Variant: each player takes a coin showing the number of flags touched.
        self.coins.append(list(self.progress))
        self.race_winners.append(winner)
        self.past_rounds += self.round + 1
        if len(self.coins) < self.races:
            self.race += 1
            self._new_race()
        else:
            self.phase = OVER

    # -- results -----------------------------------------------------------------------

    def totals(self) -> list[int]:
        """Coins scored so far in the campaign (flags touched, summed over finished races)."""
        return [sum(race[i] for race in self.coins) for i in range(self.n)]

    def returns(self) -> list[float]:
        if self.phase != OVER:
            return [0.0] * self.n
        totals = self.totals()
        best = max(totals)
        leaders = [i for i, t in enumerate(totals) if t == best]
        return [1.0 / len(leaders) if i in leaders else 0.0 for i in range(self.n)]

    def ended_by(self) -> str | None:
        if self.phase != OVER:
            return None
        # A race stopped at max_rounds (winner -1) decided part of the campaign's result.
        return ENDED_BY_CAP if -1 in self.race_winners else ENDED_BY_RULES

    def round_number(self) -> int:
        if self.phase in (DEAL_PHASE, START_PHASE, FLAGS_PHASE, OVER):
            return self.past_rounds
        return self.past_rounds + self.round + 1

    # -- copies and documents ----------------------------------------------------------

    def clone(self) -> RoyalRacersState:
        new = object.__new__(RoyalRacersState)
        new.game = self.game
        self._copy_caches_to(new)
        new.n = self.n
        new.nflags = self.nflags
        new.races = self.races
        new.max_rounds = self.max_rounds
        new.flag_variant = self.flag_variant
        new.optional_move = self.optional_move
        new.memory_aid = self.memory_aid
        new.phase = self.phase
        new.race = self.race
        new.round = self.round
        new.turn = self.turn
        new.past_rounds = self.past_rounds
        new.dealt = self.dealt
        new.placed = self.placed
        new.cards = self.cards[:]
        new.where = self.where[:]
        new.down = self.down
        new.always_up = self.always_up
        new.pawns = self.pawns[:]
        new.flag_sq = self.flag_sq[:]
        new.flag_at = self.flag_at[:]
        new.progress = self.progress[:]
        new.roll = self.roll
        new.last_flip = self.last_flip
        new.coins = [race[:] for race in self.coins]
        new.race_winners = self.race_winners[:]
        return new

    # The documents and the text are written by document.py and text.py, which read this
    # module; the game (which imports them all) hands the state over, so nothing here
    # imports them back.

    def to_json(self) -> dict[str, Any]:
        return self.game.state_document(self)

    def _observation(self, player: int | None) -> dict[str, Any]:
        """What a player sees: face-down cards show no rank (unless memory_aid is on)."""
        return self.game.observation_document(self, player)

    def __str__(self) -> str:
        return self.game.render_text(self)
