"""What one seat knows of a game: its recollection, heard action by action.

A seat knows what the table shows it now (`state.observation(seat)`) and what it saw
earlier and still remembers. In a game that hides nothing the observation is everything.
In Royal Racers without the memory aid every card was dealt face up and every card
turned face down was seen going down, so a careful player knows where each face-down
card lies; the rulebook only forbids looking. What a seat remembers is therefore a
parameter, `memory`: how many of the things it saw (the face-down cards, in Royal Racers)
it still remembers, the most recently seen first, `ALL` (-1) for every one.

A `Recollection` hears every action as it is played (`hear`, before the action is
applied, as agents' `observe` is called) and then answers, for a state reached by those
actions and a memory:

- `document(state, memory)`: the information state, JSON-able: the observation with what
  the seat remembers added (two states the seat cannot tell apart give the same one);
- `key(state, memory)`: that document as compact canonical text, a dictionary key;
- `sample(state, rng, memory)`: a state the seat cannot tell from `state` (the same
  document), what it does not know drawn at random: the determinisation of
  information-set search. It reads only what the seat knows: the hidden rest of `state`
  is not looked at, so the draw is the same whatever it is;
- `complete(state, memory)`: whether the seat knows everything (then `sample` is a copy).

Games give theirs through `Game.recollection(seat)`; the default (this class) suits every
game that hides nothing. `follow` builds one from a record's actions.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from typing import Any, Generic, Protocol, Self, TypeVar

from chaosgames.core.actions import A
from chaosgames.core.errors import ChaosGamesError


class Position(Protocol):
    """What a recollection reads of a state (every `State` is one): what a seat sees, a
    copy, and playing an action on. (Named as a protocol, not as `State`: core's game
    names this module, so naming it back would be a circle.)"""

    def observation(self, player: int | None) -> dict[str, Any]: ...

    def clone(self) -> Self: ...

    def apply_action(self, action: Any) -> None: ...


S = TypeVar("S", bound=Position)
"""One game's state type."""


class Table(Protocol[S, A]):
    """What a recollection reads of a game (every `Game[S, A]` is one): a new position,
    and a seat's new recollection."""

    def new_initial_state(self) -> S: ...

    def recollection(self, seat: int) -> Recollection[S, A]: ...


ALL = -1
"""`memory` of a seat that remembers everything it saw (a careful player)."""


def check_memory(memory: int) -> int:
    """`memory` if it is ALL or a count of at least 0; ChaosGamesError otherwise."""
    if isinstance(memory, bool) or not isinstance(memory, int) or memory < ALL:
        raise ChaosGamesError(
            f"memory must be -1 (everything seen) or a count of at least 0, not {memory!r}."
        )
    return memory


class Recollection(Generic[S, A]):
    """What seat `seat` has seen of one game and may remember (see the module docstring).

    This base class is the recollection of a game that hides nothing: the observation is
    the whole information state and every sample is a copy.
    """

    def __init__(self, game: Table[S, A], seat: int) -> None:
        self.game = game
        self.seat = seat

    def hear(self, state: S, action: A) -> None:
        """`action` is about to be applied to `state`: note what the seat sees of it."""

    def copy(self) -> Self:
        """An independent copy (for a cloned game that goes on apart)."""
        return type(self).from_json(self.game, self.seat, self.to_json())

    def to_json(self) -> Any:
        """What the seat remembers, JSON-able (`from_json` reads it back)."""
        return None

    @classmethod
    def from_json(cls, game: Table[S, A], seat: int, doc: Any) -> Self:
        return cls(game, seat)

    def document(self, state: S, memory: int = ALL) -> dict[str, Any]:
        """The information state: `state.observation(seat)` with what the seat remembers."""
        return state.observation(self.seat)

    def key(self, state: S, memory: int = ALL) -> str:
        """`document` as canonical compact JSON: equal for states the seat cannot tell apart."""
        return json.dumps(self.document(state, memory), sort_keys=True, separators=(",", ":"))

    def complete(self, state: S, memory: int = ALL) -> bool:
        """Whether the seat knows all of `state` (then `sample` gives a copy)."""
        return True

    def sample(self, state: S, rng: random.Random, memory: int = ALL) -> S:
        """A state with the same `document` as `state`, what the seat does not know drawn
        with `rng` from what it could be (uniformly, where the game says nothing more)."""
        return state.clone()


def follow(
    game: Table[S, A], seat: int, actions: Iterable[A], state: S | None = None
) -> tuple[S, Recollection[S, A]]:
    """Play `actions` from the start (or on from `state`), heard by `seat`: the position
    reached and the seat's recollection of it. Each action is checked, as a record's."""
    position = game.new_initial_state() if state is None else state
    recollection = game.recollection(seat)
    for action in actions:
        recollection.hear(position, action)
        position.apply_action(action)
    return position, recollection
