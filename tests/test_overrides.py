"""No game overrides a public method of `State`: a game implements the abstract hooks and
may replace the defaults `State.HOOKS` names; the rest (the legality check, the cache of
legal actions, the fast paths, observation) is the contract's own, the same for every game.

The game packages are walked as `test_import_cycles` walks the source: every module of
every game package is imported and every subclass of `State` it defines is read.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from typing import Any

import pytest

import chaosgames.games
from chaosgames.core.game import State
from tests.test_import_cycles import GAME_PACKAGES


def sealed() -> set[str]:
    """The public methods of State a game may not replace."""
    return {
        name
        for name, value in vars(State).items()
        if not name.startswith("_")
        and callable(value)
        and not getattr(value, "__isabstractmethod__", False)
        and name not in State.HOOKS
    }


def states_of(package: str) -> list[type[State[Any]]]:
    """Every subclass of State defined in the modules of a game package."""
    root = importlib.import_module(f"{chaosgames.games.__name__}.{package}")
    found: list[type[State[Any]]] = []
    for info in pkgutil.walk_packages(root.__path__, f"{root.__name__}."):
        module = importlib.import_module(info.name)
        for _, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, State) and value.__module__ == module.__name__ and value not in found:
                found.append(value)
    return found


def overrides(cls: type) -> list[str]:
    """`Class.method` for each sealed method defined anywhere between `cls` and State."""
    names = sealed()
    return [
        f"{klass.__qualname__}.{name}"
        for klass in cls.__mro__
        if klass is not State and issubclass(klass, State)
        for name in vars(klass)
        if name in names
    ]


@pytest.mark.parametrize("package", GAME_PACKAGES)
def test_no_game_overrides_a_public_method_of_state(package: str) -> None:
    states = states_of(package)
    assert states, f"no State subclass found in {package}"
    found = sorted({name for cls in states for name in overrides(cls)})
    assert found == [], "public State methods overridden: " + ", ".join(found)


def test_the_sealed_methods_are_the_contracts_own() -> None:
    # What a game could otherwise rewrite for speed, and the hooks left to it.
    assert {"apply_action", "apply_unchecked", "legal_actions", "is_terminal", "observation"} <= sealed()
    assert sealed().isdisjoint({"current_player", "clone", "returns", "to_json", "chance_outcomes"})


def test_an_override_is_found() -> None:
    class Shortcut(State[Any]):
        def legal_actions(self) -> list[object]:  # type: ignore[misc]
            return []

    assert overrides(Shortcut) == ["test_an_override_is_found.<locals>.Shortcut.legal_actions"]
