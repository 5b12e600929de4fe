"""The game as its rule modules see it: the options in force and what the game worked out from them.

state.py, plain.py, document.py and encoding.py name `CheckersRules`, never game.py: the
game imports them, so naming the game back would make a circle (even one only the type
checker follows).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Hashable
from typing import Any, TypeVar

from chaosgames.core.game import Game, State

S = TypeVar("S", bound=State[Any])
"""The game's state type (Chaos Checkers' or plain checkers')."""
A = TypeVar("A", bound=Hashable)
"""The game's action type (actions.CheckersAction)."""


class CheckersRules(Game[S, A]):
    """The game as its rule modules see it: the options in force and what the game worked
    out from them."""

    colours: tuple[tuple[int, int, int], tuple[int, int, int]]
    """Each player's three piece colours (options `first_colours`, `second_colours`)."""

    @abstractmethod
    def write_document(self, state: S) -> dict[str, Any]:
        """`state.to_json()`: the state document of a state of this game."""
