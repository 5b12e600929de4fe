"""Chaos Checkers: American checkers where every piece carries a shield and a potion."""

from chaosgames.games.chaos_checkers.game import ChaosCheckersGame
from chaosgames.games.chaos_checkers.pdn import PDN  # registers the PDN record format

__all__ = ["PDN", "ChaosCheckersGame"]
