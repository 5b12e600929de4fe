"""Royal Racers (Robert Kouba, 2003) for the piecepack and a deck of cards.

Registry id `royal-racers`; players are named after their suits: suns, moons, crowns, arms.
"""

from chaosgames.games.royal_racers.game import SUITS, RoyalRacersGame
from chaosgames.games.royal_racers.state import RoyalRacersState

__all__ = ["SUITS", "RoyalRacersGame", "RoyalRacersState"]
