"""chaosgames: four tabletop games whose boards, pieces and powers keep changing.

    import chaosgames
    game = chaosgames.load_game("chaos-cruisers", players=4)
    state = game.new_initial_state()

See docs/contract.md for the contract every game honours.
"""

from chaosgames.core import (
    CHANCE,
    TERMINAL,
    Action,
    ChaosGamesError,
    Game,
    GameRecord,
    IllegalActionError,
    InvalidOptionError,
    InvalidStateError,
    NotationError,
    Option,
    RecordError,
    State,
    UnknownGameError,
    UnknownPlayerError,
    list_games,
    load_game,
    resolve_chance,
    sample_outcome,
)

__version__ = "0.1.0"

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
    "UnknownPlayerError",
    "__version__",
    "list_games",
    "load_game",
    "resolve_chance",
    "sample_outcome",
]
