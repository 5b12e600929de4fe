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

from chaosgames.core.errors import InvalidOptionError, quote


class SettingError(InvalidOptionError, ValueError):
    """A setting of a research adapter out of bounds: a seat past the last, no steps at all ..."""


class SettingTypeError(InvalidOptionError, TypeError):
    """A setting of the wrong kind: a seat given as text, a seed as a float, opponents as a number."""


def whole_number(name: str, value: object, low: int, high: int | None = None) -> int:
    """`value` as an int in [low, high] (high None: no bound); SettingTypeError or SettingError if not."""
    number = _integer(name, value)
    if number < low or (high is not None and number > high):
        bounds = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise SettingError(f"{name} must be {bounds}, not {quote(number)}.")
    return number


def optional_whole_number(name: str, value: object, low: int) -> int | None:
    """None, or `value` as an int of at least `low` (budgets where None means no limit)."""
    return None if value is None else whole_number(name, value, low)


def checked_seed(value: object, low: int | None = None) -> int | None:
    """A random seed: None or an integer (numpy's too), at least `low` if given."""
    if value is None:
        return None
    number = _integer("seed", value)
    if low is not None and number < low:
        raise SettingError(f"seed must be an integer of at least {low}, not {quote(number)}.")
    return number


def real_number(name: str, value: object) -> float:
    """`value` as a finite float (ints and numpy numbers too, not bools or text)."""
    if isinstance(value, bool) or not isinstance(value, Real):
        raise SettingTypeError(f"{name} must be a number, not {quote(value)} ({type(value).__name__}).")
    number = float(value)
    if not math.isfinite(number):
        raise SettingError(f"{name} must be a finite number, not {quote(value)}.")
    return number


def _integer(name: str, value: Any) -> int:
    # Bools are ints to Python, but seat=True or max_steps=False is a slip, not a number.
    if not isinstance(value, bool):
        try:
            return operator.index(value)
        except TypeError:
            pass
    raise SettingTypeError(f"{name} must be an integer, not {quote(value)} ({type(value).__name__}).")
