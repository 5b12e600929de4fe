"""The contract: games, states, actions, chance, records and errors. Imports no game."""

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
)
from chaosgames.core.game import Action, Game, State
from chaosgames.core.options import Option
from chaosgames.core.records import GameRecord
from chaosgames.core.registry import game_class, list_games, load_game, register

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "ChaosGamesError",
    "Game",
    "GameRecord",
    "IllegalActionError",
    "InvalidOptionError",
    "InvalidStateError",
    "NotationError",
    "Option",
    "RecordError",
    "State",
    "UnknownGameError",
    "game_class",
    "list_games",
    "load_game",
    "register",
    "resolve_chance",
    "sample_outcome",
    "uniform",
    "weighted",
]
