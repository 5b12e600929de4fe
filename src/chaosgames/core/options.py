"""Declared, validated game options (and agent parameters, which are declared the same way).

A game lists its options as `Option` values; `validate_options` checks what a user gave
against them, fills in defaults and coerces the text a command line passes ("3",
"true", "0.5") to the declared kind, so the same option works from Python and from the CLI.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from chaosgames.core.errors import InvalidOptionError, describe_choices

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


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
        if self.choices is not None and value not in self.choices:
            raise InvalidOptionError(f"{me} cannot be {value!r}; choose {describe_choices(self.choices)}.")
        if self.minimum is not None and value < self.minimum:
            raise InvalidOptionError(f"{me} must be at least {self.minimum}, not {value}.")
        if self.maximum is not None and value > self.maximum:
            raise InvalidOptionError(f"{me} must be at most {self.maximum}, not {value}.")
        if self.check is not None:
            try:
                value = self.check(value)
            except ValueError as exc:
                raise InvalidOptionError(f"{me}: {exc}") from None
        return value

    def _to_kind(self, value: Any) -> Any:
        kind = self.kind
        if kind is bool:
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in _TRUE | _FALSE:
                return value.lower() in _TRUE
        elif kind is int:
            if isinstance(value, int) and not isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lstrip("-").isdigit():
                return int(value)
        elif kind is float:
            if isinstance(value, int | float) and not isinstance(value, bool):
                return float(value)
            if isinstance(value, str):
                try:
                    return float(value)
                except ValueError:
                    pass
        elif kind is str:
            if isinstance(value, str):
                return value
        elif kind is object:
            # Structured options (JSON documents or names) take strings as JSON when they parse.
            if isinstance(value, str):
                try:
                    return json.loads(value)
                except json.JSONDecodeError:
                    return value
            return value
        elif isinstance(value, kind):
            return value
        raise InvalidOptionError(f"{self.noun} '{self.name}' takes {_kind_name(kind)}, not {value!r}.")

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
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        raise InvalidOptionError(
            f"{game_name} has no option {describe_choices(unknown)}; "
            f"its options are {describe_choices(sorted(by_name))}."
        )
    result: dict[str, Any] = {}
    for name, option in by_name.items():
        result[name] = option.coerce(given[name]) if name in given else option.default
    return result
