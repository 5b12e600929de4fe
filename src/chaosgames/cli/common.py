"""Pieces every command shares: the consoles, option parsing and the command-line's own errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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
