"""The one family of errors chaosgames raises at its users, and how messages quote input.

Every message is a sentence a player understands: what was wrong and what would be
accepted instead. Input quoted in a message goes through `shorten` or `quote`, so a
message never echoes a megabyte of notation and building it never fails.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class ChaosGamesError(Exception):
    """Base class of every error chaosgames raises on purpose."""


class UnknownGameError(ChaosGamesError):
    """A game name that is not in the registry."""


class InvalidOptionError(ChaosGamesError):
    """An unknown game option, or a value the option does not accept.

    `places` names the places of the game's picture the message is about (a course
    designer's editor marks them), when the option's check said (see `PlacedValueError`)."""

    def __init__(self, message: str, places: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.places: tuple[str, ...] = tuple(places)


class PlacedValueError(ValueError):
    """An option check's refusal that names where it points: places of the game's picture
    (`data-place` names, such as a course's 'tile:4,0' or 'gate:moon')."""

    def __init__(self, message: str, places: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.places: tuple[str, ...] = tuple(places)


class IllegalActionError(ChaosGamesError):
    """An action that is not legal in the state it was applied to."""


class NotationError(ChaosGamesError):
    """Text that does not parse as an action of the game at all."""


class InvalidStateError(ChaosGamesError):
    """A state document that is malformed or describes an impossible position."""


class RecordError(ChaosGamesError):
    """A game record that cannot be read or does not replay."""


class UnknownPlayerError(ChaosGamesError):
    """A player (seat) that is not one of the game's: not None and not 0 .. players - 1."""


MESSAGE_LIMIT = 60
"""Characters of user input a message quotes at most."""


def shorten(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """`text` cut in the middle ('abc…xyz') when longer than `limit` characters.

    Lone surrogates (undecodable bytes of a command line) become '?', so the message
    can always be printed.
    """
    if len(text) > limit:
        keep = max(limit - 1, 2)
        text = text[: keep - keep // 3] + "…" + text[len(text) - keep // 3 :]
    if not text.isascii():
        text = text.encode("utf-8", "replace").decode("utf-8")
    return text


def quote(value: object, limit: int = MESSAGE_LIMIT) -> str:
    """`repr(value)` for a message: short, and never an error of its own.

    Huge numbers, deep lists and objects whose repr fails are described instead.
    """
    if isinstance(value, int) and value.bit_length() > 200:
        return f"a number of about {int(value.bit_length() * 0.30103)} digits"
    try:
        text = repr(value)
    except Exception:
        return f"a {type(value).__name__}"
    return shorten(text, limit)


def _notation(action: object, limit: int) -> str | None:
    """The action's own text (its notation), or None when it has none or str() fails."""
    try:
        if isinstance(action, str) or type(action).__str__ is not object.__str__:
            return shorten(str(action), limit)
    except Exception:
        pass
    return None


def action_text(action: object, limit: int = MESSAGE_LIMIT) -> str:
    """An action as a message shows it: its notation, or its repr when it has none."""
    text = _notation(action, limit)
    return text if text is not None else quote(action, limit)


def describe_exception(exc: BaseException) -> str:
    """'KeyError: 'x'' for a message about an unexpected failure, short and never failing."""
    try:
        text = str(exc)
    except Exception:
        text = ""
    return f"{type(exc).__name__}: {shorten(text)}" if text else type(exc).__name__


def describe_choices(choices: Sequence[Any], limit: int = 12) -> str:
    """'a, b or c' for a short list; a count and the first few for a long one."""
    names = [action_text(c) for c in choices[:limit]] if len(choices) > limit else None
    if names is None:
        names = [action_text(c) for c in choices]
        if not names:
            return "there are none"
        if len(names) == 1:
            return names[0]
        return ", ".join(names[:-1]) + " or " + names[-1]
    return f"one of {len(choices)} (for example {', '.join(names)}, ...)"


def illegal_action(action: object, legal: Sequence[Any]) -> IllegalActionError:
    """The error for playing `action` where only `legal` is allowed."""
    text = _notation(action, MESSAGE_LIMIT)
    shown = f"'{text}'" if text is not None else quote(action)
    if not legal:
        return IllegalActionError(f"{shown} is not legal: nobody may act in this position.")
    return IllegalActionError(
        f"{shown} is not a legal action here; legal actions are {describe_choices(legal)}."
    )
