"""Cardboard Machines: a lighthearted race on a track of double-sided boards that scrolls."""

from chaosgames.games.cardboard_machines.game import CardboardMachines

__all__ = ["CardboardMachines"]
