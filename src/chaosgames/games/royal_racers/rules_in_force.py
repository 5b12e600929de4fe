"""The game and the position as the rule modules see them, named without importing
game.py or state.py (which import the rule modules): no circle, even for the type checker.

`RacersRules` is the game (`RoyalRacersGame` is one); `RacersPosition` is what the step
modules (board_morph, movement) read and write of a position (`RoyalRacersState` is one).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Hashable
from typing import Any, Protocol, TypeVar

from chaosgames.core.game import Game, State
from chaosgames.games.royal_racers.actions import Flip

S = TypeVar("S", bound=State[Any])
"""The game's state type (`RoyalRacersState`)."""
A = TypeVar("A", bound=Hashable)
"""The game's action type (`RacerAction`)."""


class RacersRules(Game[S, A]):
    """The game as its rule modules see it: the options in force and what the game worked
    out from them. Its options are read as `options[...]` (see `RoyalRacersGame`); the
    state documents are written by document.py, handed to the state through these."""

    @abstractmethod
    def state_document(self, state: S) -> dict[str, Any]:
        """`state.to_json()`: the whole state, face-down ranks included."""

    @abstractmethod
    def observation_document(self, state: S, player: int | None) -> dict[str, Any]:
        """`state.observation(player)`: face-down ranks hidden unless memory_aid is on."""


class RacersPosition(Protocol):
    """A position as the turn's steps (board_morph, movement) read and write it. Squares
    are numbered a1 = 0, b1 = 1 .. f6 = 35; square sets are bits; -1 is none."""

    cards: list[int]
    """The card on each square."""
    where: list[int]
    """The square of each card."""
    down: int
    """The face-down squares, as bits."""
    pawns: list[int]
    """Each player's pawn."""
    flag_sq: list[int]
    """The square of each flag slot (owner * flags + index)."""
    flag_at: list[int]
    """The flag slot on each square."""
    progress: list[int]
    """Flags each player has touched in this race."""
    nflags: int
    roll: int
    """The die of the turn (0 null, 1 ace .. 5)."""
    last_flip: Flip | None
    flag_variant: bool
    optional_move: bool
