"""The settings the research adapters accept (seats, seeds, step budgets ...) and their errors.

A bad setting is a chaosgames error like a bad game option (`InvalidOptionError`), and
also the built-in error Gymnasium, PettingZoo and OpenSpiel users expect: a ValueError
for a value out of bounds, a TypeError for a value of the wrong kind. Integers follow
the action indices' rule (`chaosgames.core.encoding.as_index`): Python and numpy
integers are accepted, bools and floats are not.
"""

from __future__ import annotations

import math
import operator
from numbers import Real
from typing import Any

from chaosgames.core.errors import ChaosGamesError, InvalidOptionError, quote


class SettingError(InvalidOptionError, ValueError):
    """A setting of a research adapter out of bounds: a seat past the last, no steps at all ..."""


class SettingTypeError(InvalidOptionError, TypeError):
    """A setting of the wrong kind: a seat given as text, a seed as a float, opponents as a number."""


class UnknownAgentError(ChaosGamesError, KeyError):
    """An agent name that is none of the environment's (`player_0`, `player_1`, ...).

    Also a KeyError, as a PettingZoo user looking an agent up in a dict expects."""

    def __str__(self) -> str:  # KeyError would quote the whole sentence
        return str(self.args[0]) if self.args else ""


class ResetNeededError(ChaosGamesError, RuntimeError):
    """An environment used before its first `reset()`: there is no game to step or observe yet."""


def whole_number(
    name: str, value: object, low: int | None, high: int | None = None, accepted: str = ""
) -> int:
    """`value` as an int in [low, high] (None: no bound); SettingTypeError or SettingError if not.

    `accepted` says in words what the setting takes, for the message (else the bounds do).
    """
    accepted = accepted or _bounds(low, high)
    number = _integer(value)
    if number is None:
        raise SettingTypeError(f"{name} must be {accepted}, not {quote(value)} ({type(value).__name__}).")
    if (low is not None and number < low) or (high is not None and number > high):
        raise SettingError(f"{name} must be {accepted}, not {quote(number)}.")
    return number


def optional_whole_number(name: str, value: object, low: int, accepted: str = "") -> int | None:
    """None, or `value` as an int of at least `low` (budgets where None means no limit)."""
    return None if value is None else whole_number(name, value, low, accepted=accepted)


def checked_seed(value: object, low: int | None = None) -> int | None:
    """A random seed: None or an integer (numpy's too), at least `low` if given."""
    return None if value is None else whole_number("seed", value, low)


RENDER_MODES = ("ansi", "rgb_array")


def checked_render_mode(value: object) -> str | None:
    """The environments' render modes: None, 'ansi' (the acting seat's view as text) or
    'rgb_array' (its picture as an RGB image)."""
    if value is not None and value not in RENDER_MODES:
        raise SettingError(f"render_mode must be None, 'ansi' or 'rgb_array', not {quote(value)}.")
    return value


def real_number(name: str, value: object) -> float:
    """`value` as a finite float (ints and numpy numbers too, not bools or text)."""
    if isinstance(value, bool) or not isinstance(value, Real):
        raise SettingTypeError(f"{name} must be a number, not {quote(value)} ({type(value).__name__}).")
    number = float(value)
    if not math.isfinite(number):
        raise SettingError(f"{name} must be a finite number, not {quote(value)}.")
    return number


def _bounds(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"an integer from {low} to {high}"
    if low is not None:
        return f"an integer of at least {low}"
    return "an integer"


def _integer(value: Any) -> int | None:
    # Bools are ints to Python, but seat=True or max_steps=False is a slip, not a number.
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None
