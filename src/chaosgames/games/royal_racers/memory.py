"""What a player has seen of the cards and may remember (reading 18 of the ledger).

The cards are dealt face up and the ranks 6-9 always stay up, so every card that lies face
down was seen by everyone as it went down (`down:`), or as a wrong guess turned it up for
a moment (`up:` of another rank). A careful player remembers each of them; the rulebook
only forbids looking ("You must choose ... from memory"). So a seat's recollection keeps,
for every face-down card, when it was last seen and which card it is; with `memory` = k
the seat remembers the k face-down cards it saw last and has forgotten the others (it
still knows which cards they are as a set: every card not face up). A card turned face up
is on the table again and needs no memory; a new race's deal starts afresh.

Sampling a state the seat cannot tell apart lays the forgotten cards on the forgotten
squares in a random order: what lies face up, the remembered cards and the card the latest
flip showed stay; nothing else of the state's hidden cards is read.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from chaosgames.core.errors import InvalidStateError
from chaosgames.core.information import ALL, Recollection, check_memory
from chaosgames.games.royal_racers.actions import DEALING, REVEALING, TURNING_DOWN, TURNING_UP, RacerAction
from chaosgames.games.royal_racers.board import CARD_NAMES, NUM_CARDS, RANK_OF, SQUARE_NAMES, SQUARES

if TYPE_CHECKING:
    from chaosgames.games.royal_racers.rules_in_force import RacersRules
    from chaosgames.games.royal_racers.state import RoyalRacersState


class RacersRecollection(Recollection["RoyalRacersState", RacerAction]):
    """A seat's memory of the face-down cards (see the module docstring)."""

    game: RacersRules[RoyalRacersState, RacerAction]

    def __init__(self, game: RacersRules[RoyalRacersState, RacerAction], seat: int) -> None:
        super().__init__(game, seat)
        self.clock = 0
        """Sightings so far: the order in which cards were seen going (or lying) face down."""
        self.seen: dict[int, tuple[int, int]] = {}
        """Square -> (sighting, card) of every face-down card the seat saw."""

    def hear(self, state: RoyalRacersState, action: RacerAction) -> None:
        racers = state
        kind, square = action.kind, action.arg
        if kind is DEALING:
            if racers.dealt == 0:
                self.seen.clear()  # a new race: a new layout
        elif kind is TURNING_DOWN:
            self._saw(square, racers.cards[square])  # face up until now: everyone saw it
        elif kind is TURNING_UP and RANK_OF[racers.cards[square]] != racers.roll:
            self._saw(square, racers.cards[square])  # a wrong guess shows the card, then it goes back
        elif kind is TURNING_UP or kind is REVEALING:
            self.seen.pop(square, None)  # face up again

    def _saw(self, square: int, card: int) -> None:
        self.clock += 1
        self.seen[square] = (self.clock, card)

    def copy(self) -> RacersRecollection:
        twin = RacersRecollection(self.game, self.seat)
        twin.clock = self.clock
        twin.seen = dict(self.seen)
        return twin

    def to_json(self) -> Any:
        return {
            "clock": self.clock,
            "seen": {SQUARE_NAMES[sq]: [t, CARD_NAMES[c]] for sq, (t, c) in self.seen.items()},
        }

    @classmethod
    def from_json(cls, game: Any, seat: int, doc: Any) -> RacersRecollection:
        recollection = cls(game, seat)
        try:
            recollection.clock = int(doc["clock"])
            squares = {name: sq for sq, name in enumerate(SQUARE_NAMES)}
            cards = {name: c for c, name in enumerate(CARD_NAMES)}
            recollection.seen = {squares[sq]: (int(t), cards[c]) for sq, (t, c) in doc["seen"].items()}
        except (KeyError, TypeError, ValueError):
            raise InvalidStateError(
                "A Royal Racers recollection is {'clock': n, 'seen': {square: [n, card]}}."
            ) from None
        return recollection

    # -- what the seat knows ---------------------------------------------------------------

    def remembered(self, state: RoyalRacersState, memory: int = ALL) -> dict[int, int]:
        """Square -> card of the face-down cards the seat still remembers: with `memory` k
        the k seen last."""
        check_memory(memory)
        racers = state
        down = racers.down
        lying = [(t, sq, card) for sq, (t, card) in self.seen.items() if down >> sq & 1]
        lying.sort(reverse=True)
        kept = lying if memory == ALL else lying[:memory]
        return {sq: card for _, sq, card in kept}

    def _known(self, state: RoyalRacersState, memory: int) -> dict[int, int]:
        """The face-down cards whose place the seat knows: remembered, or shown by the
        latest flip (the observation names its card for as long as it is shown)."""
        known = self.remembered(state, memory)
        flip = state.last_flip
        if flip is not None and state.down >> flip.square & 1:
            known[flip.square] = state.cards[flip.square]
        return known

    def document(self, state: RoyalRacersState, memory: int = ALL) -> dict[str, Any]:
        doc = state.observation(self.seat)
        remembered = self.remembered(state, memory)
        for sq, card in remembered.items():
            doc["cards"][sq] = CARD_NAMES[card]
        doc["remembered"] = [SQUARE_NAMES[sq] for sq in sorted(remembered)]
        return doc

    def complete(self, state: RoyalRacersState, memory: int = ALL) -> bool:
        racers = state
        if racers.memory_aid:
            return True
        return len(self._known(racers, memory)) == bin(racers.down).count("1")

    def sample(self, state: RoyalRacersState, rng: random.Random, memory: int = ALL) -> RoyalRacersState:
        racers = state
        world = racers.clone()
        if racers.memory_aid:
            return world
        known = self._known(racers, memory)
        forgotten = [sq for sq in range(SQUARES) if racers.down >> sq & 1 and sq not in known]
        if not forgotten:
            return world
        # The forgotten cards as the seat can count them: every card neither face up nor known.
        showing = {racers.cards[sq] for sq in range(SQUARES) if not racers.down >> sq & 1}
        cards = sorted(set(range(NUM_CARDS)) - showing - set(known.values()))
        if len(cards) != len(forgotten):
            raise InvalidStateError("This recollection does not belong to this Royal Racers position.")
        rng.shuffle(cards)
        for sq, card in (*known.items(), *zip(forgotten, cards, strict=True)):
            world.cards[sq] = card
            world.where[card] = sq
        world._invalidate()
        return world
