"""The one registry of games.

Each game package under `chaosgames.games` registers its Game class when imported
(`@register`). `list_games()` imports every subpackage it finds, so no list of games is
kept by hand anywhere.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any, TypeVar

from chaosgames.core.errors import (
    ChaosGamesError,
    InvalidOptionError,
    UnknownGameError,
    describe_choices,
    describe_exception,
    quote,
)
from chaosgames.core.game import Game

G = TypeVar("G", bound=type[Game[Any, Any]])

_GAMES: dict[str, type[Game[Any, Any]]] = {}
_discovered = False


def register(cls: G) -> G:
    """Class decorator: make a Game class loadable by its `name`."""
    _GAMES[cls.name] = cls
    return cls


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    import chaosgames.games as games_pkg

    for module in pkgutil.iter_modules(games_pkg.__path__):
        if module.ispkg:
            importlib.import_module(f"{games_pkg.__name__}.{module.name}")
    _discovered = True


def list_games() -> list[str]:
    """Registry ids of every game, sorted."""
    _discover()
    return sorted(_GAMES)


def game_class(name: str) -> type[Game[Any, Any]]:
    """The Game class registered as `name`; UnknownGameError names the known ones."""
    _discover()
    found = _GAMES.get(name) if isinstance(name, str) else None
    if found is None:
        known = f"choose {describe_choices(sorted(_GAMES))}" if _GAMES else "no games are installed"
        if not isinstance(name, str):
            raise UnknownGameError(f"A game is named by text, not by {quote(name)}; {known}.")
        raise UnknownGameError(f"There is no game called {quote(name)}; {known}.")
    return found


def load_game(name: str, /, **options: Any) -> Game[Any, Any]:
    """A game with validated options, e.g. `load_game("chaos-cruisers", players=4)`.

    An unknown name raises UnknownGameError; an unknown option or a value it does not
    accept raises InvalidOptionError. `name` is positional, so that an option called
    `name` is refused as an unknown option rather than breaking the call.
    """
    cls = game_class(name)
    try:
        return cls(**options)
    except ChaosGamesError:
        raise
    except Exception as exc:  # the promise: bad options are an InvalidOptionError, never a crash
        raise InvalidOptionError(
            f"{cls.title} cannot be set up with these options ({describe_exception(exc)})."
        ) from None
