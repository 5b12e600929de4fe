"""The contract: games, states, actions, chance, records and errors. Imports no game.

Shared pieces for the games: `document` (state document schemas), `notation` (grammars
and the lookup of legal actions), `svg` (pictures with escaped text), `safejson` (reading
JSON from users and files), `chance`, `grid` and `options`.
"""

from chaosgames.core.chance import resolve_chance, sample_outcome, uniform, weighted
from chaosgames.core.constants import CHANCE, TERMINAL
from chaosgames.core.errors import (
    ChaosGamesError,
    IllegalActionError,
    InvalidOptionError,
    InvalidStateError,
    NotationError,
    RecordError,
    UnknownGameError,
    UnknownPlayerError,
)
from chaosgames.core.game import Action, Game, State
from chaosgames.core.notation import Form, Notation
from chaosgames.core.options import Option
from chaosgames.core.records import GameRecord
from chaosgames.core.registry import game_class, list_games, load_game, register

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "ChaosGamesError",
    "Form",
    "Game",
    "GameRecord",
    "IllegalActionError",
    "InvalidOptionError",
    "InvalidStateError",
    "Notation",
    "NotationError",
    "Option",
    "RecordError",
    "State",
    "UnknownGameError",
    "UnknownPlayerError",
    "game_class",
    "list_games",
    "load_game",
    "register",
    "resolve_chance",
    "sample_outcome",
    "uniform",
    "weighted",
]
