"""Pieces every command shares: option parsing and user-facing errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from chaosgames.core.errors import InvalidOptionError

CAP_NOTE = "The game was ended by its length cap (an option, not a rule of the rulebook)."


class UsageError(Exception):
    """Bad command-line input: shown as a sentence, exit status 2."""


def parse_options(pairs: list[str] | None) -> dict[str, Any]:
    """`key=value` pairs; values are JSON when they parse, `@file.json` reads a file."""
    options: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, text = pair.partition("=")
        if not sep or not key.strip():
            raise InvalidOptionError(f"Options are given as key=value, not {pair!r}.")
        options[key.strip()] = _option_value(text.strip())
    return options


def _option_value(text: str) -> Any:
    if text.startswith("@"):
        path = Path(text[1:])
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise InvalidOptionError(f"Cannot read the option file {str(path)!r}: {exc.strerror}.") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text
