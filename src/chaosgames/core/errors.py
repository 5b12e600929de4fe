"""The one family of errors chaosgames raises at its users.

Every message is a sentence a player understands: what was wrong and what would be
accepted instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class ChaosGamesError(Exception):
    """Base class of every error chaosgames raises on purpose."""


class UnknownGameError(ChaosGamesError):
    """A game name that is not in the registry."""


class InvalidOptionError(ChaosGamesError):
    """An unknown game option, or a value the option does not accept."""


class IllegalActionError(ChaosGamesError):
    """An action that is not legal in the state it was applied to."""


class NotationError(ChaosGamesError):
    """Text that does not parse as an action of the game at all."""


class InvalidStateError(ChaosGamesError):
    """A state document that is malformed or describes an impossible position."""


class RecordError(ChaosGamesError):
    """A game record that cannot be read or does not replay."""


def describe_choices(choices: Sequence[Any], limit: int = 12) -> str:
    """'a, b or c' for a short list; a count and the first few for a long one."""
    names = [str(c) for c in choices]
    if not names:
        return "there are none"
    if len(names) == 1:
        return names[0]
    if len(names) <= limit:
        return ", ".join(names[:-1]) + " or " + names[-1]
    return f"one of {len(names)} (for example {', '.join(names[:limit])}, ...)"


def illegal_action(action: object, legal: Sequence[Any]) -> IllegalActionError:
    """The error for playing `action` where only `legal` is allowed."""
    if not legal:
        return IllegalActionError(f"'{action}' is not legal: nobody may act in this position.")
    return IllegalActionError(
        f"'{action}' is not a legal action here; legal actions are {describe_choices(legal)}."
    )
