"""Chaos Checkers: American checkers where every piece carries a shield and a potion."""

from chaosgames.games.chaos_checkers.game import ChaosCheckersGame

__all__ = ["ChaosCheckersGame"]
