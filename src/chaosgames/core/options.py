"""Declared, validated game options (and agent parameters, which are declared the same way).

A game lists its options as `Option` values; `validate_options` checks what a user gave
against them, fills in defaults and coerces the text a command line passes ("3",
"true", "0.5") to the declared kind, so the same option works from Python and from the CLI.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import chaosgames.core.safejson as safejson
from chaosgames.core.errors import (
    ChaosGamesError,
    InvalidOptionError,
    PlacedValueError,
    describe_choices,
    quote,
    shorten,
)

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}
MAX_DIGITS = 18
"""Whole-number options have at most this many digits (anything a game counts fits)."""
_WHOLE = re.compile(rf"\s*-?[0-9]{{1,{MAX_DIGITS}}}\s*")
_DECIMAL = re.compile(r"\s*[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]{1,3})?\s*")
_BIGGEST = 10**MAX_DIGITS


@dataclass(frozen=True, slots=True)
class Option:
    """One game option: its name, kind, default and what values it accepts."""

    name: str
    kind: type
    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None
    # Extra check for structured values (a course document, say): returns the normalised
    # value or raises ValueError whose text is shown to the user.
    check: Callable[[Any], Any] | None = None
    noun: str = "Option"
    """What messages call it: 'Option' for a game; agents say 'parameter'."""

    def coerce(self, value: Any) -> Any:
        """The value in this option's kind, or InvalidOptionError saying what is accepted."""
        value = self._to_kind(value)
        me = f"{self.noun} '{self.name}'"
        if self.choices is not None and not any(type(c) is type(value) and c == value for c in self.choices):
            raise InvalidOptionError(
                f"{me} cannot be {quote(value)}; choose {describe_choices(self.choices)}."
            )
        if self.minimum is not None and value < self.minimum:
            raise InvalidOptionError(f"{me} must be at least {self.minimum}, not {quote(value)}.")
        if self.maximum is not None and value > self.maximum:
            raise InvalidOptionError(f"{me} must be at most {self.maximum}, not {quote(value)}.")
        if self.check is not None:
            try:
                value = self.check(value)
            except InvalidOptionError:
                raise
            except ChaosGamesError as exc:
                raise InvalidOptionError(f"{me}: {exc}") from None
            except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
                # ValueError carries the check's sentence; the others mean a value of a shape
                # the check did not expect.
                text = str(exc) if isinstance(exc, ValueError) else f"not a value it accepts ({quote(value)})"
                places = exc.places if isinstance(exc, PlacedValueError) else ()
                raise InvalidOptionError(f"{me}: {shorten(text, 300)}", places) from None
        return value

    def _to_kind(self, value: Any) -> Any:
        kind = self.kind
        if kind is bool:
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
                return value.strip().lower() in _TRUE
        elif kind is int:
            if isinstance(value, int) and not isinstance(value, bool):
                if -_BIGGEST < value < _BIGGEST:
                    return value
                raise InvalidOptionError(
                    f"{self.noun} '{self.name}' takes a whole number of at most {MAX_DIGITS} digits, "
                    f"not {quote(value)}."
                )
            if isinstance(value, str) and _WHOLE.fullmatch(value):
                return int(value)
        elif kind is float:
            if isinstance(value, int) and not isinstance(value, bool) and -_BIGGEST < value < _BIGGEST:
                return float(value)
            if isinstance(value, float) and math.isfinite(value):
                return value
            if isinstance(value, str) and len(value) <= 40 and _DECIMAL.fullmatch(value):
                number = float(value)
                if math.isfinite(number):
                    return number
        elif kind is str:
            if isinstance(value, str):
                return value
        elif kind is object:
            return self._structured(value)
        elif isinstance(value, kind):
            return value
        raise InvalidOptionError(f"{self.noun} '{self.name}' takes {_kind_name(kind)}, not {quote(value)}.")

    def _structured(self, value: Any) -> Any:
        """A JSON value for a structured option (a course document, a list of boards).

        Text is read as JSON when it is JSON (and refused when it is JSON that is too
        large, too deep or holds NaN), else kept as text (a preset's name, say)."""
        what = f"value of {self.noun.lower()} '{self.name}'"
        if isinstance(value, str):
            try:
                return safejson.parse(value)
            except safejson.JsonRefused as exc:
                if exc.syntax:
                    return value
                raise InvalidOptionError(f"The {what} {exc.reason}.") from None
        safejson.check(value, what=what, error=InvalidOptionError)
        return value

    def describe(self) -> str:
        """One line for help texts."""
        accepted = f" ({describe_choices(self.choices)})" if self.choices else ""
        return f"{self.name}={json.dumps(self.default)}{accepted}: {self.doc}"


def _kind_name(kind: type) -> str:
    return {bool: "true or false", int: "a whole number", float: "a number", str: "a word"}.get(
        kind, kind.__name__
    )


def validate_options(game_name: str, spec: Iterable[Option], given: Mapping[str, Any]) -> dict[str, Any]:
    """Defaults filled in, every given value checked; unknown names are refused."""
    by_name = {o.name: o for o in spec}
    unknown = sorted((str(name) for name in given if name not in by_name), key=str)
    if unknown:
        raise InvalidOptionError(
            f"{game_name} has no option {describe_choices([shorten(n, 40) for n in unknown])}; "
            f"its options are {describe_choices(sorted(by_name))}."
        )
    result: dict[str, Any] = {}
    for name, option in by_name.items():
        result[name] = option.coerce(given[name]) if name in given else option.default
    return result
