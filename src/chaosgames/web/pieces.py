"""The `~` edit of a patch: a new text (a picture, a text view) as copies of the old one's
tokens and new text (see `patches`).

Tokens are an SVG's tags and the texts between them, a text's lines (`TOKENS`); the page
splits the old text with the same expression. A picture that keeps its elements
(`core.svg.Drawing`) is compared element by element: an element drawn as before is one
copy, found by comparing cached strings (most often the same object), and only the new
elements are read token by token. The tokens of an element are read once (kept by the
element's string) and are what `TOKENS` finds in the whole picture.
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import itertools
import re
from collections.abc import Sequence
from typing import Any, cast

from chaosgames.core.svg import Drawing

TOKENS = re.compile(r"<[^<\n]*\n?|[^<\n]+\n?|\n")
"""The tokens of a text: a tag and what follows it up to the next tag or line end; a run
of text up to the next tag or line end. The page splits with the same expression."""

REPEATED = 32
"""New tokens from this length on are sent once: again, as `["n", index]`."""

SEARCHED = 24
"""Places of a token in the old text looked at, at most, for a copy to start from."""


def text_pieces(old: str, new: str) -> list[Any]:
    """`new` as copies of `old`'s tokens and new text (see the module's doc).

    One pass over `new` (difflib's exact matching takes milliseconds on a picture, and
    the page does not need the shortest patch), by units: the elements of a picture that
    keeps them (`Drawing`), else the tokens. Each unit continues the copy before it when
    the old text goes on the same way, else starts a copy where the old text has it
    followed by the same next unit (the nearest such place after the copy before), else
    is new: a new element token by token, the same way, from the old elements no longer
    drawn (a piece that moved), a new token as new text."""
    a, b = _texts(old), _texts(new)
    m, n = len(a.units), len(b.units)
    # The same beginning and end (most of a picture) are found by comparing whole runs.
    head = _same_run(lambda k: a.units[:k] == b.units[:k], min(m, n))
    tail = _same_run(lambda k: a.units[m - k :] == b.units[n - k :], min(m, n) - head)
    made = _Pieces(a, b, head, tail)
    at = head if head else -1  # the old unit the copy being made ends before; -1: none
    for j in range(head, n - tail):
        unit = b.units[j]
        if 0 <= at < m and a.units[at] == unit:
            made.copy(a.starts[at], a.starts[at + 1])
            at += 1
            continue
        start = _copy_start(a.units, made.places().get(unit), b.units, j, at)
        if start is not None:
            made.copy(a.starts[start], a.starts[start + 1])
            at = start + 1
        else:
            at = made.drawn_anew(j, a.starts[at] if at >= 0 else -1)
    if tail:
        made.copy(a.starts[m - tail], len(a.tokens))
    return made.pieces


@dataclasses.dataclass(frozen=True)
class _Text:
    """A text as units: its tokens, the units they make (the elements of a `Drawing`, else
    the tokens themselves) and where each unit's tokens start (and the last one ends)."""

    tokens: list[str]
    units: Sequence[str]
    starts: Sequence[int]


def tokens_of(text: str) -> list[str]:
    """A text's tokens, as `TOKENS` finds them (read by element in a `Drawing`)."""
    return _texts(text).tokens


def _texts(text: str) -> _Text:
    """A text's tokens and units. Kept for the texts seen lately: the picture a patch makes
    is the one the next patch starts from, and the viewers of a game share their pictures."""
    if isinstance(text, Drawing):
        # Kept by the picture itself (its identity): hashing a whole picture to find it
        # again would cost as much as reading its elements.
        found = _DRAWINGS_READ.get(id(text))
        if found is not None and found[0] is text:
            return found[1]
        split = _split(text)
        if split is not None:
            tokens = list(itertools.chain.from_iterable(split))
            read = _Text(tokens, text.parts, list(itertools.accumulate(map(len, split), initial=0)))
            if len(_DRAWINGS_READ) >= READ_KEPT:
                _DRAWINGS_READ.clear()  # all at once: a thread may patch a long game's view meanwhile
            _DRAWINGS_READ[id(text)] = (text, read)
            return read
    return _plain_text(text)


READ_KEPT = 256
"""Pictures and texts whose tokens are kept, at most."""

_DRAWINGS_READ: dict[int, tuple[Drawing, _Text]] = {}
"""The pictures read lately, by identity (each kept with its reading, so its id is its own)."""


@functools.lru_cache(maxsize=READ_KEPT)
def _plain_text(text: str) -> _Text:
    tokens = TOKENS.findall(text)
    return _Text(tokens, tokens, range(len(tokens) + 1))


_PART_TOKENS: dict[str, dict[str, tuple[str, ...]]] = {}
"""The tokens of the elements of pictures (a few thousand, drawn again and again), by the
joiner that follows them. Tuples of strings, which the garbage collector soon stops
looking at (lists it would walk at every full collection)."""

PARTS_KEPT = 20_000
"""Elements whose tokens are kept, for each joiner, before they are all let go."""


def _split(drawn: Drawing) -> list[tuple[str, ...]] | None:
    """The tokens of each part of a picture, as `TOKENS` finds them in the whole: a token
    ends at a line end and before a tag, so a part's tokens with its joiner are the whole's
    when that joiner ends a line or the next part is a tag. None when neither holds."""
    joiner, parts = drawn.joiner, drawn.parts
    known = _PART_TOKENS.setdefault(joiner, {})
    last = _PART_TOKENS.setdefault("", {})
    # Looked up all at once; only the elements not seen lately are read.
    split = [*map(known.get, parts[:-1]), last.get(parts[-1])]
    missed = -1
    while (missed := _find_none(split, missed + 1)) >= 0:
        end, kept = (joiner, known) if missed < len(parts) - 1 else ("", last)
        part = parts[missed]
        tokens = split[missed] = tuple(TOKENS.findall(part + end))
        # Parts kept for a joiner that ends no line are tags, so safe anywhere.
        if end.endswith("\n") or part.startswith("<"):
            if len(kept) >= PARTS_KEPT:
                kept.clear()
            kept[part] = tokens
        elif missed and not joiner.endswith("\n"):
            return None
    return cast(list[tuple[str, ...]], split)  # no None is left


def _find_none(items: list[Any], start: int) -> int:
    """Where the first None from `start` on is in `items`, or -1."""
    try:
        return items.index(None, start)
    except ValueError:
        return -1


class _Pieces:
    """The pieces of a text being made (see `text_pieces`)."""

    def __init__(self, a: _Text, b: _Text, head: int, tail: int) -> None:
        self.a, self.b = a, b
        self.pieces: list[Any] = []
        self.said: dict[str, int] = {}  # new tokens written so far, by where they are in `new`
        self.middle = (head, len(a.units) - tail, len(b.units) - tail)
        self.spare: dict[str, list[int]] | None = None
        self.where: dict[str, list[int]] | None = None
        if head:
            self.copy(0, a.starts[head])

    def places(self) -> dict[str, list[int]]:
        """Where each old unit between the same beginning and end is (a copy starts there:
        a piece that moved, a title that changed); made when first asked for."""
        if self.where is None:
            head, old_end, _ = self.middle
            self.where = {}
            for i in range(head, old_end):
                self.where.setdefault(self.a.units[i], []).append(i)
        return self.where

    def copy(self, start: int, stop: int) -> None:
        """Copy the old tokens `start` to `stop` (going on with the copy before, if it ends there)."""
        last = self.pieces[-1] if self.pieces else None
        if isinstance(last, list) and last[0] != "n" and last[1] == start:
            last[1] = stop
        else:
            self.pieces.append([start, stop])

    def said_anew(self, index: int) -> None:
        """The new token `index` as new text, or a repetition of new text said before."""
        token = self.b.tokens[index]
        if len(token) >= REPEATED and token in self.said:
            self.pieces.append(["n", self.said[token]])  # a title told twice (a card and its square)
            return
        self.said.setdefault(token, index)
        if self.pieces and isinstance(self.pieces[-1], str):
            self.pieces[-1] += token
        else:
            self.pieces.append(token)

    def drawn_anew(self, j: int, at: int) -> int:
        """The new unit `j`, not in the old text, token by token from the old token `at` on
        (-1: none); the old unit the copy made ends before, or -1."""
        a, b = self.a, self.b
        for k in range(b.starts[j], b.starts[j + 1]):
            token = b.tokens[k]
            if 0 <= at < len(a.tokens) and a.tokens[at] == token:
                self.copy(at, at + 1)
                at += 1
                continue
            # (A new text's unit is a token: already looked for among all the old ones.)
            spare = None if b.units is b.tokens else self.spares().get(token)
            start = _copy_start(a.tokens, spare, b.tokens, k, at)
            if start is None:
                self.said_anew(k)
                at = -1
            else:
                self.copy(start, start + 1)
                at = start + 1
        unit = bisect.bisect_left(a.starts, at) if at >= 0 else -1
        return unit if 0 <= unit < len(a.starts) and a.starts[unit] == at else -1

    def spares(self) -> dict[str, list[int]]:
        """Where the tokens of the old units between the same beginning and end that the
        new text has not kept are (what a new element may be made from)."""
        if self.spare is None:
            a, b = self.a, self.b
            head, old_end, new_end = self.middle
            kept = set(b.units[head:new_end])
            self.spare = {}
            for i in range(head, old_end):
                if a.units[i] not in kept:
                    for t in range(a.starts[i], a.starts[i + 1]):
                        self.spare.setdefault(a.tokens[t], []).append(t)
        return self.spare


def _same_run(same: Any, most: int) -> int:
    """The longest length up to `most` for which `same(length)` holds (it holds for every
    shorter one too)."""
    low, high = 0, most
    while low < high:
        middle = (low + high + 1) // 2
        if same(middle):
            low = middle
        else:
            high = middle - 1
    return low


def _copy_start(
    before: Sequence[str], found: list[int] | None, after: Sequence[str], j: int, at: int
) -> int | None:
    """Where in the old units a copy of `after[j:]` may start (see `text_pieces`)."""
    if not found:
        return None
    following = after[j + 1] if j + 1 < len(after) else None
    fallback = None
    first = bisect.bisect_left(found, max(at, 0))
    # A token found in many places (`</g>`) is looked for near the copy before only.
    for i in itertools.islice(itertools.chain(found[first:], found[:first]), SEARCHED):
        if following is None or (i + 1 < len(before) and before[i + 1] == following):
            return i
        if fallback is None and len(after[j]) > 16:
            fallback = i  # a long token alone is still worth copying
    return fallback
