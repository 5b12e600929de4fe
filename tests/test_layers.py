"""The layers' rules, read from the import graph (see `test_import_cycles`): the command line
sees a game only through the contract (the registry, records and their formats), never a
game package's modules; the engine (core and games) imports nothing of the layers above it."""

from __future__ import annotations

from tests.test_import_cycles import PACKAGE, graph

GAMES = f"{PACKAGE}.games."
ABOVE_THE_ENGINE = ("agents", "sim", "web", "rl", "cli")


def _reaching(source: str, target: str) -> list[str]:
    """Edges `module -> imported` from modules under `source` to modules under `target`."""
    return sorted(
        f"{module} -> {imported}"
        for module, imports in graph().items()
        if module.startswith(source)
        for imported in imports
        if imported.startswith(target)
    )


def test_the_command_line_reaches_games_only_through_the_contract() -> None:
    assert _reaching(f"{PACKAGE}.cli", GAMES) == []


def test_the_engine_imports_no_layer_above_it() -> None:
    found = []
    for layer in ABOVE_THE_ENGINE:
        found += _reaching(f"{PACKAGE}.core", f"{PACKAGE}.{layer}")
        found += _reaching(GAMES, f"{PACKAGE}.{layer}")
    assert found == []
