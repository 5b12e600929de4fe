"""Reading JSON that a user, a file or another program hands us, without surprises.

Everything chaosgames reads as JSON (state documents, game records, option files and
structured option values) goes through here. Input is refused, with a sentence, when it
is larger than `MAX_BYTES`, nested deeper than `MAX_DEPTH` (checked before the parser
recurses), holds a number longer than `MAX_DIGITS` characters, NaN or Infinity (which
JSON does not have), or bytes that are not UTF-8. Values built in Python rather than
parsed (a dict given to `state_from_json`) are checked the same way by `check`.

    doc = safejson.loads(text, what="state document", error=InvalidStateError)
    doc = safejson.load_file(path, what="record", error=RecordError)
    safejson.check(doc, what="state document", error=InvalidStateError)
"""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path
from typing import Any

from chaosgames.core.errors import ChaosGamesError, quote, shorten

MAX_BYTES = 16 * 1024 * 1024
"""The largest document read (a record of 100,000 actions is about 1 MB)."""
MAX_DEPTH = 64
"""The deepest nesting of objects and lists (game documents need fewer than 10 levels)."""
MAX_DIGITS = 100
"""The longest number, in characters (Python refuses integers over 4,300 digits; long
numbers also cost quadratic time to convert)."""

_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_PAIR = re.compile(r"\[\]|\{\}")


class JsonRefused(ValueError):
    """Why a text is not accepted as JSON. `syntax` is true when it is simply not JSON."""

    def __init__(self, reason: str, *, syntax: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.syntax = syntax


def _constant(name: str) -> Any:
    raise JsonRefused(f"holds {name}, which JSON does not allow (only finite numbers)")


def _integer(text: str) -> int:
    if len(text) > MAX_DIGITS:
        raise JsonRefused(f"holds a number of {len(text)} digits (at most {MAX_DIGITS} are read)")
    return int(text)


def _float(text: str) -> float:
    if len(text) > MAX_DIGITS:
        raise JsonRefused(f"holds a number of {len(text)} characters (at most {MAX_DIGITS} are read)")
    value = float(text)
    if not math.isfinite(value):
        raise JsonRefused(f"holds the number {shorten(text)}, too large to be finite")
    return value


def _check_nesting(text: str) -> None:
    """Refuse text nested deeper than MAX_DEPTH before the parser recurses into it.

    Strings are dropped, then the innermost bracket pairs are removed, one level per
    round: a document of depth d is empty after d rounds.
    """
    if "[" not in text and "{" not in text:
        return
    brackets = _NOT_BRACKETS.sub("", _STRINGS.sub("", text))
    for _ in range(MAX_DEPTH):
        if not brackets:
            return
        shorter = _PAIR.sub("", brackets)
        if shorter == brackets:
            # Unmatched brackets: when few, the parser cannot recurse far and says where
            # the text goes wrong; when many, refuse before it tries.
            if len(brackets) <= MAX_DEPTH:
                return
            raise JsonRefused("is not valid JSON (its brackets do not match)", syntax=True)
        brackets = shorter
    if brackets:
        raise JsonRefused(f"is nested more than {MAX_DEPTH} levels deep")


def decode(data: bytes | bytearray | str) -> str:
    """Text from bytes that must be UTF-8 (a UTF-8 byte order mark is allowed)."""
    if isinstance(data, str):
        return data
    raw = bytes(data)
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")) or (len(raw) >= 2 and (raw[0] == 0 or raw[1] == 0)):
        raise JsonRefused("is UTF-16 or UTF-32 text; save it as UTF-8")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise JsonRefused(
            f"is not UTF-8 text (byte 0x{raw[exc.start]:02x} at position {exc.start})"
        ) from None


def parse(data: str | bytes | bytearray, *, max_bytes: int = MAX_BYTES) -> Any:
    """The JSON value of `data`, or JsonRefused saying why it is not accepted."""
    if len(data) > max_bytes:
        raise JsonRefused(f"is larger than {max_bytes // 1024} KiB")
    text = decode(data)
    _check_nesting(text)
    try:
        return json.loads(text, parse_int=_integer, parse_float=_float, parse_constant=_constant)
    except JsonRefused:
        raise
    except json.JSONDecodeError as exc:
        where = f"{exc.msg} at line {exc.lineno} column {exc.colno}"
        raise JsonRefused(f"is not valid JSON ({where})", syntax=True) from None
    except RecursionError:
        raise JsonRefused(f"is nested more than {MAX_DEPTH} levels deep") from None
    except (ValueError, TypeError) as exc:
        raise JsonRefused(f"is not valid JSON ({shorten(str(exc))})", syntax=True) from None


def _fail(error: type[ChaosGamesError], what: str, reason: str) -> ChaosGamesError:
    return error(f"The {what} {reason}.")


def loads(data: str | bytes | bytearray, *, what: str, error: type[ChaosGamesError]) -> Any:
    """`parse` for users: the value, or `error` ('The {what} is not valid JSON (...).')."""
    try:
        return parse(data)
    except JsonRefused as exc:
        raise _fail(error, what, exc.reason) from None


def read_text(path: str | os.PathLike[str], *, what: str, error: type[ChaosGamesError]) -> str:
    """The text of a file (UTF-8, at most MAX_BYTES), or `error` saying why it cannot be read."""
    if not isinstance(path, str | os.PathLike):
        raise error(f"A {what} is named by a file path, not by {quote(path)}.")
    name = quote(str(path))
    try:
        with Path(path).open("rb") as file:
            raw = file.read(MAX_BYTES + 1)
    except OSError as exc:
        raise error(f"Cannot read the {what} {name}: {exc.strerror or exc}.") from None
    except ValueError as exc:  # e.g. a NUL character in the path
        raise error(f"Cannot read the {what} {name}: {shorten(str(exc))}.") from None
    if len(raw) > MAX_BYTES:
        raise error(f"The {what} {name} is larger than {MAX_BYTES // 1024} KiB.")
    try:
        return decode(raw)
    except JsonRefused as exc:
        raise error(f"The {what} {name} {exc.reason}.") from None


def load_file(path: str | os.PathLike[str], *, what: str, error: type[ChaosGamesError]) -> Any:
    """The JSON value in a file, or `error` saying why it cannot be read."""
    text = read_text(path, what=what, error=error)
    try:
        return parse(text)
    except JsonRefused as exc:
        raise error(f"The {what} {quote(str(path))} {exc.reason}.") from None


def check(value: Any, *, what: str, error: type[ChaosGamesError], max_items: int = 1_000_000) -> None:
    """Refuse a Python value that JSON text could not have produced, or that `parse` would refuse.

    Objects with text keys, lists, text, whole numbers of at most MAX_DIGITS digits,
    finite floats, booleans and null are allowed, nested at most MAX_DEPTH deep.
    """
    reason = _check_value(value, max_items)
    if reason is not None:
        raise _fail(error, what, reason)


def _check_value(root: Any, max_items: int) -> str | None:
    # Iterative, so a deep value cannot exhaust the stack; `path` names the bad part.
    stack: list[tuple[Any, int, str]] = [(root, 1, "")]
    seen = 0
    while stack:
        value, depth, path = stack.pop()
        seen += 1
        if seen > max_items:
            return f"holds more than {max_items} values"
        if value is None or isinstance(value, str | bool):
            continue
        if isinstance(value, int):
            if not -_BIGGEST < value < _BIGGEST:
                return f"holds a number of more than {MAX_DIGITS} digits{_at(path)}"
            continue
        if isinstance(value, float):
            if not math.isfinite(value):
                return f"holds {value}{_at(path)}, which JSON does not allow (only finite numbers)"
            continue
        if isinstance(value, dict | list):
            if depth > MAX_DEPTH:
                return f"is nested more than {MAX_DEPTH} levels deep"
            if isinstance(value, dict):
                for key, item in value.items():
                    if type(key) is not str:
                        return f"has a key {quote(key)}{_at(path)}; JSON object keys are text"
                    stack.append(
                        (item, depth + 1, f"{path}.{shorten(key, 30)}" if path else shorten(key, 30))
                    )
            else:
                stack.extend((item, depth + 1, f"{path}[{i}]") for i, item in enumerate(value))
            continue
        return (
            f"holds {quote(value, 30)} ({type(value).__name__}){_at(path)}; only JSON values are allowed "
            "(objects, lists, text, numbers, true, false and null)"
        )
    return None


_BIGGEST = 10**MAX_DIGITS


def _at(path: str) -> str:
    return f" at {path}" if path else ""
