"""Seeded mutations of JSON documents and of text, as a careless or hostile user makes them.

Document mutations edit one place of a document: a value swapped for junk of another
type or a neighbouring number (`0` for `0.0`, `true` for `1`, one more than allowed), a
value taken from another document of the same game (a phase with the wrong fields), an
entry of a list dropped, repeated or added, a key removed or added. Text mutations work
on the JSON text: bytes flipped, text cut, brackets, long numbers, NaN.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

Path = tuple[str | int, ...]

JUNK: tuple[Any, ...] = (
    None,
    True,
    False,
    0,
    1,
    -1,
    2,
    3,
    7,
    99,
    10**6,
    10**30,
    -(10**30),
    0.0,
    1.0,
    0.5,
    -0.5,
    1e300,
    "",
    "x",
    "red",
    "a1",
    "over",
    [],
    {},
    [0],
    [None],
    {"x": 1},
)


def _junk(rng: random.Random) -> Any:
    return copy.deepcopy(rng.choice(JUNK))


def paths(value: Any, prefix: Path = ()) -> list[Path]:
    """Every place in a document, the document itself first."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found.extend(paths(item, (*prefix, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.extend(paths(item, (*prefix, index)))
    return found


def get(value: Any, path: Path) -> Any:
    for key in path:
        value = value[key]
    return value


def _set(doc: Any, path: Path, new: Any) -> Any:
    if not path:
        return new
    get(doc, path[:-1])[path[-1]] = new
    return doc


def _nearby(value: Any, rng: random.Random) -> Any:
    """A value a slip of the hand gives: off by a little, or the same in another type."""
    if isinstance(value, bool):
        return rng.choice([int(value), not value, None, str(value).lower()])
    if isinstance(value, int):
        return rng.choice(
            [value + 1, value - 1, value + 2, -value - 1, float(value), value * 1000, str(value)]
        )
    if isinstance(value, float):
        return rng.choice([int(value), value + 0.5, -value, 0.0])
    if isinstance(value, str):
        return rng.choice([value.upper(), value + "x", value[:-1], "", value * 2])
    return _junk(rng)


def mutate_document(doc: Any, rng: random.Random, donors: list[Any], edits: int = 0) -> Any:
    """A copy of `doc` with 1 to 3 edits (or `edits`); `donors` are other documents of the
    same game whose values may be transplanted."""
    doc = copy.deepcopy(doc)
    for _ in range(edits or rng.choice((1, 1, 1, 2, 3))):
        places = [p for p in paths(doc) if p[:1] not in (("game",), ("options",))] or [()]
        path = rng.choice(places)
        target = get(doc, path)
        kind = rng.random()
        if kind < 0.25:
            doc = _set(doc, path, _junk(rng))
        elif kind < 0.5:
            doc = _set(doc, path, _nearby(target, rng))
        elif kind < 0.7 and donors:
            donor = rng.choice(donors)
            try:
                doc = _set(doc, path, copy.deepcopy(get(donor, path)))
            except (KeyError, IndexError, TypeError):
                doc = _set(doc, path, _junk(rng))
        elif isinstance(target, list):
            doc = _set(doc, path, _edit_list(target, rng))
        elif isinstance(target, dict) and target:
            key = rng.choice(list(target))
            if rng.random() < 0.5:
                del target[key]
            else:
                target[f"{key}_"] = copy.deepcopy(target[key])
        else:
            doc = _set(doc, path, _nearby(target, rng))
    return doc


def _edit_list(items: list[Any], rng: random.Random) -> list[Any]:
    items = list(items)
    choice = rng.random()
    if items and choice < 0.3:
        del items[rng.randrange(len(items))]
    elif items and choice < 0.6:
        items.insert(rng.randrange(len(items) + 1), copy.deepcopy(rng.choice(items)))
    elif choice < 0.8:
        items.append(_junk(rng))
    else:
        rng.shuffle(items)
    return items


HOSTILE_TEXT: tuple[str, ...] = (
    "[" * 100_000 + "]" * 100_000,
    "{" * 50_000,
    "9" * 5000,
    "NaN",
    "-Infinity",
    "1e999",
    '"\\ud800"',
    "\x00",
    "",
)


def mutate_text(text: str, rng: random.Random) -> str | bytes:
    """The JSON text of a document, damaged: bytes, brackets, numbers, encodings."""
    kind = rng.random()
    if kind < 0.15:
        return rng.choice(HOSTILE_TEXT)
    if kind < 0.3:
        raw = bytearray(text.encode("utf-8"))
        for _ in range(rng.randint(1, 4)):
            if raw:
                raw[rng.randrange(len(raw))] = rng.randrange(256)
        return bytes(raw)
    if kind < 0.4:
        return text.encode(rng.choice(["utf-16", "utf-32", "latin-1"]), errors="replace")
    if kind < 0.55:
        return text[: rng.randrange(len(text) + 1)]
    at = rng.randrange(len(text) + 1)
    insert = rng.choice(
        ["[", "]", "{", "}", ",", '"', "9" * 5000, "NaN", "1e999", " 0.0 ", "\\u0000", "[" * 1000]
    )
    return text[:at] + insert + text[at:]


def hostile_notation(rng: random.Random, legal: list[str]) -> Any:
    """Text a player might type, or worse: near-misses of legal notation and junk."""
    kind = rng.random()
    if kind < 0.4 and legal:
        text = rng.choice(legal)
        edits = [
            text.upper(),
            f"  {text}  ",
            text + text,
            text[:-1],
            text + "9",
            text.replace(":", " : "),
            text.replace("1", "0"),
            text.replace("1", "9" * 30),
            text.replace(":", "\x00"),
            text + "\udcff",
        ]
        return rng.choice(edits)
    if kind < 0.5:
        return rng.choice([None, 3, 3.5, b"11-15", ["11-15"], {"a": 1}])
    if kind < 0.6:
        return rng.choice(["", " ", "x" * 100_000, "\n", "🎲", "move:" + "9" * 5000, "[" * 1000])
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789:-=+@>,x~ NESW"
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 24)))


def jsonable(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True
