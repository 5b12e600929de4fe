"""The game as the rule modules see it (`MachinesRules`), apart from game.py, which
imports them: they name this class, so no module of the game names game.py back."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, TypeVar

from chaosgames.core.game import Game, State

S = TypeVar("S", bound=State[Any])
A = TypeVar("A", bound=Hashable)


class MachinesRules(Game[S, A]):
    """The game as its rule modules see it: the options in force and what the game worked
    out from them."""

    plus_one: bool
    """stress_overflow is "plus_one" (the revision): +1 to every stress die with more than 6
    stress, instead of rerolling blanks."""
    buy_off_swerve: bool
    """The revision's extra: 1 stress cancels a remaining swerve die."""
    max_turns: int
    """Turns after which the game is scored as if every round token was claimed (0: no cap)."""
