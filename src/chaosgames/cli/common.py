"""Pieces every command shares: the consoles, option parsing and the command-line's own errors."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

import chaosgames.core.safejson as safejson
from chaosgames.core.errors import InvalidOptionError, quote

console = Console()
"""Where commands print what they were asked for."""
errors = Console(stderr=True)
"""Where the one-line error messages go."""

CAP_NOTE = "The game was ended by its length cap (an option, not a rule of the rulebook)."


class UsageError(Exception):
    """A command line that cannot be read as asked: shown as a sentence, exit status 2."""


def parse_options(pairs: list[str] | None) -> dict[str, Any]:
    """`--option key=value` pairs for a game, as the game's options take them.

    Values stay text (each option reads its own kind from it: "3", "true", a JSON
    document); `key=@file.json` reads the JSON document in the file instead. A pair
    without '=' is a UsageError; an unreadable file an InvalidOptionError.
    """
    options: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, text = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise UsageError(f"Options are given as key=value (e.g. --option players=3), not {quote(pair)}.")
        if key in options:
            raise UsageError(f"The option {quote(key)} is given twice.")
        text = text.strip()
        options[key] = _option_file(text[1:]) if text.startswith("@") else text
    return options


def _option_file(name: str) -> Any:
    return safejson.load_file(Path(name), what="option file", error=InvalidOptionError)


DESIGN = "design:"
"""An option value `design:NAME` names a design saved on a web server (its database)."""


def saved_designs(options: dict[str, Any], game: str, database: str | None) -> dict[str, Any]:
    """`options` with every `design:NAME` value replaced by the design of `game` saved under
    that name in the web server's `database` (docs/web.md, "Designs"); a UsageError when no
    database is given, an InvalidOptionError when it holds no such design."""
    named = {key: value[len(DESIGN) :] for key, value in options.items() if _is_design(value)}
    if not named:
        return options
    if database is None:
        raise UsageError(
            f"The option {next(iter(named))} names a saved design: give the web server's database "
            "with --database (a SQLite file or a database URL)."
        )
    # The web layer only when a design is named (it needs SQLAlchemy).
    from chaosgames.web.database import Database
    from chaosgames.web.designs import by_name

    store = Database(database)
    try:
        found = {key: by_name(store, game, name) for key, name in named.items()}
    finally:
        store.close()
    missing = [name for key, name in named.items() if found[key] is None]
    if missing:
        raise InvalidOptionError(
            f"The database {database} has no design of {game} called {quote(missing[0])}."
        )
    return {**options, **{key: design["value"] for key, design in found.items() if design is not None}}


def _is_design(value: Any) -> bool:
    return isinstance(value, str) and value.startswith(DESIGN)


DatabaseArg = Annotated[
    str | None,
    typer.Option(
        "--database",
        help="A web server's database (SQLite file or URL), for its saved designs: -o course=design:NAME.",
    ),
]
