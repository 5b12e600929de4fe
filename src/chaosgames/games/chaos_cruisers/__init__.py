"""Chaos Cruisers: a Changing Landscapes game for the piecepack by Paul Elliot (2003)."""

from chaosgames.games.chaos_cruisers.game import ChaosCruisersGame
from chaosgames.games.chaos_cruisers.state import ChaosCruisersState

__all__ = ["ChaosCruisersGame", "ChaosCruisersState"]
