"""Schemas for JSON documents (state documents, records) that read like the document.

A game describes its state document once, with the shape and range of every field;
`read` checks a document against it and names the field at fault:

    from chaosgames.core.document import Bool, Choice, Document, Int, List, Nullable, Object

    CAR = Object({"pos": Int(-1, 71), "gear": Int(1, 6), "lives": Int(0, 3), "ghost": Bool()})
    SCHEMA = Document({"phase": Choice(PHASES), "cars": List(CAR, length=4), "winner": Nullable(Int(0, 3))})
    fields = SCHEMA.read(doc, prefix="Impossible Cardboard Machines position: ")
    # InvalidStateError: Impossible Cardboard Machines position: cars[2].lives must be
    # between 0 and 3, not 7.

Types are exact, as in JSON: a boolean is not a whole number, nor is `0.0`. Objects
refuse keys they do not list (so a typo in a hand-edited document is caught), except
those a `Document` leaves to `Game.state_from_json` ("game" and "options"). `read`
returns the checked values (`Tuple` gives tuples, `Choice` with a mapping gives the
mapped value, `Map` converts); what the rules need beyond shape and range (two pieces
on one square, a phase that needs a piece to move) stays in the game's own reader,
which can raise the same error with `Spec.fail(path, message)`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any, Generic, TypeVar

from chaosgames.core.errors import ChaosGamesError, InvalidStateError, describe_choices, shorten

T = TypeVar("T")
N = TypeVar("N", int, float)
Key = str | int


class Invalid(Exception):
    """A value that does not fit its spec: `message` completes '<path> ...'."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
        self.path: list[Key] = []  # innermost first, filled in as the error climbs out


def show(value: Any, limit: int = 40) -> str:
    """A value as a JSON document would spell it (`true`, `null`, `"red"`), kept short."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = type(value).__name__
    return shorten(text, limit)


def render_path(path: Sequence[Key]) -> str:
    """['cars', 2, 'lives'] -> 'cars[2].lives' (an empty path is the whole document)."""
    text = ""
    for key in path:
        text += f"[{key}]" if isinstance(key, int) else (f".{key}" if text else str(key))
    return text or "the document"


class Spec(Generic[T]):
    """What one value of a document must be. Subclasses implement `check`."""

    def check(self, value: Any) -> T:
        """The value (converted where the spec says so), or Invalid."""
        raise NotImplementedError

    def read(self, value: Any, *, prefix: str = "", error: type[ChaosGamesError] = InvalidStateError) -> T:
        """The checked value, or `error` ('{prefix}cars[2].lives must be ..., not 7.')."""
        try:
            return self.check(value)
        except Invalid as exc:
            raise self.fail(exc.path[::-1], exc.message, prefix=prefix, error=error) from None

    @staticmethod
    def fail(
        path: Sequence[Key],
        message: str,
        *,
        prefix: str = "",
        error: type[ChaosGamesError] = InvalidStateError,
    ) -> ChaosGamesError:
        """The error for a field, for checks a game makes after `read`:
        `raise Spec.fail(["cars", 2, "pos"], "cannot stand in terrain", prefix=...)`."""
        return error(f"{prefix}{render_path(path)} {message}.")


def _range_text(minimum: float | None, maximum: float | None) -> str:
    if minimum is not None and maximum is not None:
        return f"between {minimum:g} and {maximum:g}" if minimum != maximum else f"{minimum:g}"
    if minimum is not None:
        return f"at least {minimum:g}"
    return f"at most {maximum:g}"


class _Bounded(Spec[N]):
    """A number optionally between `minimum` and `maximum`: the bounds Int and Number share."""

    __slots__ = ("maximum", "minimum")

    def __init__(self, minimum: N | None = None, maximum: N | None = None) -> None:
        self.minimum: N | None = minimum
        self.maximum: N | None = maximum

    def _within_bounds(self, value: N) -> None:
        """Invalid, naming the bounds, when `value` lies outside them."""
        if (self.minimum is not None and value < self.minimum) or (
            self.maximum is not None and value > self.maximum
        ):
            raise Invalid(f"must be {_range_text(self.minimum, self.maximum)}, not {show(value)}")


class Int(_Bounded[int]):
    """A whole number (not a boolean, not 0.0), optionally between `minimum` and `maximum`."""

    __slots__ = ()

    def check(self, value: Any) -> int:
        if type(value) is not int:
            raise Invalid(f"must be a whole number, not {show(value)}")
        self._within_bounds(value)
        return value


_FLOAT_RANGE = 10**300


class Number(_Bounded[float]):
    """A finite number, whole or not (not a boolean); read as a float."""

    __slots__ = ()

    def check(self, value: Any) -> float:
        kind = type(value)
        if kind is int:
            if not -_FLOAT_RANGE < value < _FLOAT_RANGE:
                raise Invalid(f"must be a number of at most 300 digits, not {show(value)}")
        elif kind is not float or not math.isfinite(value):
            raise Invalid(f"must be a number, not {show(value)}")
        self._within_bounds(value)
        return float(value)


class Bool(Spec[bool]):
    """true or false (not 0 or 1)."""

    def check(self, value: Any) -> bool:
        if type(value) is not bool:
            raise Invalid(f"must be true or false, not {show(value)}")
        return value


class Str(Spec[str]):
    """Text of at most `max_length` characters."""

    __slots__ = ("max_length",)

    def __init__(self, max_length: int = 10_000) -> None:
        self.max_length = max_length

    def check(self, value: Any) -> str:
        if type(value) is not str:
            raise Invalid(f"must be text, not {show(value)}")
        if len(value) > self.max_length:
            raise Invalid(f"must be at most {self.max_length} characters long, not {len(value)}")
        return value


class Choice(Spec[Any]):
    """One of the given values (compared with their JSON type: 0 is not false nor 0.0).

    Given a mapping, the value must be one of its keys and reads as what it maps to:
    `Choice({"red": 0, "blue": 1})` reads "blue" as 1.
    """

    __slots__ = ("_by_kind", "_names")

    def __init__(self, choices: Iterable[Any] | Mapping[Any, Any]) -> None:
        pairs = list(choices.items()) if isinstance(choices, Mapping) else [(c, c) for c in choices]
        self._by_kind = {(type(key), key): result for key, result in pairs}
        self._names = [show(key) for key, _ in pairs]

    def check(self, value: Any) -> Any:
        try:
            return self._by_kind[(type(value), value)]
        except (KeyError, TypeError):  # TypeError: a list or object, which is no choice
            pass
        if len(self._names) == 1:
            raise Invalid(f"must be {self._names[0]}, not {show(value)}")
        raise Invalid(f"must be {describe_choices(self._names)}, not {show(value)}")


class Nullable(Spec[T | None]):
    """null, or what `spec` accepts."""

    __slots__ = ("spec",)

    def __init__(self, spec: Spec[T]) -> None:
        self.spec = spec

    def check(self, value: Any) -> T | None:
        return None if value is None else self.spec.check(value)


class Default(Spec[T]):
    """A field an Object may leave out; then it reads as `value`."""

    __slots__ = ("spec", "value")

    def __init__(self, spec: Spec[T], value: T) -> None:
        self.spec = spec
        self.value = value

    def check(self, value: Any) -> T:
        return self.spec.check(value)


def _entries(count: int) -> str:
    return f"{count} entr{'y' if count == 1 else 'ies'}"


class List(Spec[list[T]]):
    """A list whose every entry fits `item`; `length` is one length or a collection of them."""

    __slots__ = ("item", "length", "max_length", "unique")

    def __init__(
        self,
        item: Spec[T],
        *,
        length: int | Collection[int] | None = None,
        max_length: int | None = None,
        unique: bool = False,
    ) -> None:
        self.item = item
        self.length = length
        self.max_length = max_length
        self.unique = unique

    def check(self, value: Any) -> list[T]:
        if type(value) is not list:
            raise Invalid(f"must be a list, not {show(value)}")
        _check_length(value, self.length, self.max_length)
        item = self.item
        out = []
        for index, entry in enumerate(value):
            try:
                out.append(item.check(entry))
            except Invalid as exc:
                exc.path.append(index)
                raise
        if self.unique:
            _check_unique(value)
        return out


def _check_length(value: list[Any], length: int | Collection[int] | None, most: int | None) -> None:
    if length is not None:
        if isinstance(length, int):
            if len(value) != length:
                raise Invalid(f"must list exactly {_entries(length)}, not {len(value)}")
        elif len(value) not in length:
            counts = describe_choices(sorted(length))
            raise Invalid(f"must list {counts} entries, not {len(value)}")
    if most is not None and len(value) > most:
        raise Invalid(f"must list at most {_entries(most)}, not {len(value)}")


def _check_unique(value: list[Any]) -> None:
    seen: set[str] = set()
    for entry in value:
        key = json.dumps(entry, sort_keys=True)
        if key in seen:
            raise Invalid(f"must not list {show(entry)} twice")
        seen.add(key)


class Tuple(Spec[tuple[Any, ...]]):
    """A list of fixed length whose entries fit `items` in turn (a pair [x, y], say)."""

    __slots__ = ("items",)

    def __init__(self, *items: Spec[Any]) -> None:
        self.items = items

    def check(self, value: Any) -> tuple[Any, ...]:
        if type(value) is not list or len(value) != len(self.items):
            raise Invalid(f"must be a list of {_entries(len(self.items))}, not {show(value)}")
        out = []
        for index, (spec, entry) in enumerate(zip(self.items, value, strict=True)):
            try:
                out.append(spec.check(entry))
            except Invalid as exc:
                exc.path.append(index)
                raise
        return tuple(out)


class Object(Spec[dict[str, Any]]):
    """A JSON object with exactly these fields (`Default` ones may be left out).

    `strict=False` ignores keys it does not list (for files that later versions may
    extend, such as records); `ignore` names keys that are read elsewhere.
    """

    __slots__ = ("fields", "ignore", "strict")

    def __init__(
        self, fields: Mapping[str, Spec[Any]], *, strict: bool = True, ignore: Collection[str] = ()
    ) -> None:
        self.fields = dict(fields)
        self.strict = strict
        self.ignore = frozenset(ignore)

    def check(self, value: Any) -> dict[str, Any]:
        if type(value) is not dict:
            raise Invalid(f"must be an object, not {show(value)}")
        out: dict[str, Any] = {}
        present = 0
        for key, spec in self.fields.items():
            if key in value:
                present += 1
                try:
                    out[key] = spec.check(value[key])
                except Invalid as exc:
                    exc.path.append(key)
                    raise
            elif isinstance(spec, Default):
                out[key] = spec.value
            else:
                raise Invalid(f"needs the field {show(key)}")
        if self.strict and len(value) > present:
            unknown = [k for k in value if k not in self.fields and k not in self.ignore]
            if unknown:
                raise Invalid(
                    f"has no field {describe_choices([show(k) for k in unknown])}; "
                    f"its fields are {describe_choices([show(k) for k in self.fields], limit=40)}"
                )
        return out


class Document(Object):
    """A state document: an Object whose "game" and "options" `Game.state_from_json` checks."""

    def __init__(self, fields: Mapping[str, Spec[Any]], *, strict: bool = True) -> None:
        super().__init__(fields, strict=strict, ignore=("game", "options"))


class Dict(Spec[dict[Any, T]]):
    """A JSON object used as a mapping: every key fits `keys` (checked as text, read as
    the spec converts it) and every value fits `values`."""

    __slots__ = ("keys", "max_items", "values")

    def __init__(self, keys: Spec[Any], values: Spec[T], *, max_items: int | None = None) -> None:
        self.keys = keys
        self.values = values
        self.max_items = max_items

    def check(self, value: Any) -> dict[Any, T]:
        if type(value) is not dict:
            raise Invalid(f"must be an object, not {show(value)}")
        if self.max_items is not None and len(value) > self.max_items:
            raise Invalid(f"must have at most {self.max_items} keys, not {len(value)}")
        out = {}
        for key, entry in value.items():
            try:
                out[self.keys.check(key)] = self.values.check(entry)
            except Invalid as exc:
                exc.path.append(key)
                raise
        return out


class Anything(Spec[Any]):
    """Any JSON value, as it is."""

    def check(self, value: Any) -> Any:
        return value


class Check(Spec[T]):
    """What `spec` accepts and `test` approves; otherwise `message` ('must ...')."""

    __slots__ = ("message", "spec", "test")

    def __init__(self, spec: Spec[T], test: Callable[[T], bool], message: str) -> None:
        self.spec = spec
        self.test = test
        self.message = message

    def check(self, value: Any) -> T:
        checked = self.spec.check(value)
        if not self.test(checked):
            raise Invalid(f"{self.message}, not {show(value)}")
        return checked


U = TypeVar("U")


class Map(Spec[U]):
    """What `spec` accepts, converted by `convert` (which must not fail on such values)."""

    __slots__ = ("convert", "spec")

    def __init__(self, spec: Spec[T], convert: Callable[[T], U]) -> None:
        self.spec = spec
        self.convert = convert

    def check(self, value: Any) -> U:
        return self.convert(self.spec.check(value))


__all__ = [
    "Anything",
    "Bool",
    "Check",
    "Choice",
    "Default",
    "Dict",
    "Document",
    "Int",
    "Invalid",
    "List",
    "Map",
    "Nullable",
    "Number",
    "Object",
    "Spec",
    "Str",
    "Tuple",
    "render_path",
    "show",
]
