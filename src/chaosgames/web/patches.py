"""What changed between two views of one viewer, as a patch the page applies.

After its whole view a connection that asked for patches (`{"patches": true}` in its hello)
is sent, after every change, only what changed in its view: a patch names the revision of
the view it applies to (`base`, with that view's `from` version) and the revision it makes
(`revision`, `version`). A page whose view is not `base` (it missed a message) cannot apply
it and asks for the whole view again (`{"resync": true}`); so does one that reconnects.

A patch is made from the viewer's own two views and nothing else, so it holds nothing the
viewer's view would not: hidden information stays as hidden as in the views.

The edits (`ops`) are, in order, one of:

- `["=", path, value]`: the value at `path` (keys and list indexes from the view) is `value`;
- `["-", path]`: the key at the end of `path` is gone;
- `["*", path, at, removed, items]`: in the list at `path`, `removed` items from `at` on
  are replaced by `items` (a turn's events going on);
- `["~", path, pieces]`: the text at `path` (the picture, the text view) is rebuilt from
  `pieces`: `[start, stop]` copies the old text's tokens `start` to `stop`, a string is new
  text, `["n", index]` repeats the new text's token `index` (a title told twice). Tokens
  are an SVG's tags and the texts between them, a text's lines (`TOKENS`), so a piece that
  moved is two small edits to the picture, its other elements copied.

Log entries new since the connection's last message come as in a view (`log_from`, `log`).
"""

from __future__ import annotations

import bisect
import copy
import functools
import itertools
import re
from typing import Any

TOKENS = re.compile(r"<[^<\n]*\n?|[^<\n]+\n?|\n")
"""The tokens of a text: a tag and what follows it up to the next tag or line end; a run
of text up to the next tag or line end. The page splits with the same expression."""

EDITED = 256
"""Texts from this length on are edited token by token; shorter ones are replaced."""

REPEATED = 32
"""New tokens from this length on are sent once: again, as `["n", index]`."""

SEARCHED = 24
"""Places of a token in the old text looked at, at most, for a copy to start from."""

LOGGED = ("log", "log_from")
"""Fields a patch carries as a view does (only the entries new to the connection)."""

Path = list[str | int]


def diff(old: Any, new: Any, path: Path | None = None) -> list[list[Any]]:
    """The edits that make `old` into `new` (two JSON documents)."""
    path = [] if path is None else path
    if old == new:
        return []
    if isinstance(old, dict) and isinstance(new, dict):
        ops: list[list[Any]] = [["-", [*path, key]] for key in old if key not in new]
        for key, value in new.items():
            if key not in old:
                ops.append(["=", [*path, key], value])
            elif path or key not in LOGGED:
                ops += diff(old[key], value, [*path, key])
        return ops
    if isinstance(old, list) and isinstance(new, list) and path:
        if len(old) == len(new):
            pairs = enumerate(zip(old, new, strict=True))
            return [op for i, (a, b) in pairs for op in diff(a, b, [*path, i])]
        spliced = _splices(old, new, path)
        if spliced is not None:
            return spliced
    if isinstance(old, str) and isinstance(new, str) and len(new) >= EDITED:
        return [["~", path, text_pieces(old, new)]]
    return [["=", path, new]]


def _splices(old: list[Any], new: list[Any], path: Path) -> list[list[Any]] | None:
    """A list of another length as splices of the old one, when they keep some of it: the
    same beginning or end (a turn's events going on), or the old end become the new
    beginning (a new turn told with the end of the last one); None when nothing is kept."""
    same = min(len(old), len(new))
    head = next((i for i in range(same) if old[i] != new[i]), same)
    tail = next((i for i in range(same - head) if old[-1 - i] != new[-1 - i]), same - head)
    if head or tail:
        return [["*", path, head, len(old) - head - tail, new[head : len(new) - tail]]]
    for cut in range(1, len(old)):
        kept = len(old) - cut
        if kept <= len(new) and old[cut:] == new[:kept]:
            return [["*", path, 0, cut, []], ["*", path, kept, 0, new[kept:]]]
    return None


def patch(
    had: tuple[int, dict[str, Any]], now: tuple[int, dict[str, Any]], log_from: int, log: list[Any]
) -> dict[str, Any]:
    """The message that makes a connection's view `had` (revision, view without its log)
    into `now`, with the log entries new to it (from entry `log_from` on)."""
    (base, old), (revision, new) = had, now
    return {
        "type": "patch",
        "base": base,
        "from": old["version"],
        "revision": revision,
        "version": new["version"],
        "ops": diff(old, new),
        "log_from": log_from,
        "log": log,
    }


def asks_resync(text: str | None) -> bool:
    """Whether a client's message asks for its whole view again (`{"resync": true}`)."""
    return text is not None and len(text) < 100 and text.replace(" ", "") == '{"resync":true}'


def text_pieces(old: str, new: str) -> list[Any]:
    """`new` as copies of `old`'s tokens and new text (see the module's doc).

    One pass over `new` (difflib's exact matching takes milliseconds on a picture, and
    the page does not need the shortest patch): each token continues the copy before it
    when the old text goes on the same way, else starts a copy where the old text has it
    followed by the same next token (the nearest such place after the copy before), else
    is new text."""
    before, after = _tokens(old), _tokens(new)
    # The same beginning and end (most of a picture) are found by comparing whole runs.
    head = _same_run(lambda k: before[:k] == after[:k], min(len(before), len(after)))
    most = min(len(before), len(after)) - head
    tail = _same_run(lambda k: before[len(before) - k :] == after[len(after) - k :], most)
    # A copy starts in what lies between (a piece that moved, a title that changed).
    where: dict[str, list[int]] = {}
    for i in range(head, len(before) - tail):
        where.setdefault(before[i], []).append(i)
    said: dict[str, int] = {}  # new tokens written so far, by where they are in `new`
    pieces: list[Any] = [[0, head]] if head else []
    at = head if head else -1  # the old token the copy being made ends before; -1: none
    for j in range(head, len(after) - tail):
        token = after[j]
        if 0 <= at < len(before) and before[at] == token:
            pieces[-1][1] = at = at + 1
            continue
        start = _copy_start(before, where.get(token), after, j, at)
        if start is None and len(token) >= REPEATED and token in said:
            at = -1
            pieces.append(["n", said[token]])  # a title told twice (a card and its square)
        elif start is None:
            at = -1
            said.setdefault(token, j)
            if pieces and isinstance(pieces[-1], str):
                pieces[-1] += token
            else:
                pieces.append(token)
        else:
            pieces.append([start, start + 1])
            at = start + 1
    if tail:
        if pieces and not isinstance(pieces[-1], str) and pieces[-1][1] == len(before) - tail:
            pieces[-1][1] = len(before)
        else:
            pieces.append([len(before) - tail, len(before)])
    return pieces


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


@functools.lru_cache(maxsize=256)
def _tokens(text: str) -> list[str]:
    """A text's tokens. Kept for the texts seen lately: the picture a patch makes is the
    one the next patch starts from, and the viewers of a game share their old pictures."""
    return TOKENS.findall(text)


def _copy_start(before: list[str], found: list[int] | None, after: list[str], j: int, at: int) -> int | None:
    """Where in the old tokens a copy of `after[j:]` may start (see `text_pieces`)."""
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


def rebuilt(old: str, pieces: list[Any]) -> str:
    tokens = TOKENS.findall(old)
    out: list[str] = []
    for piece in pieces:
        if isinstance(piece, str):
            out += TOKENS.findall(piece)
        elif piece[0] == "n":
            out.append(out[piece[1]])
        else:
            out += tokens[piece[0] : piece[1]]
    return "".join(out)


def apply_patch(view: dict[str, Any], revision: int | None, patch: dict[str, Any]) -> dict[str, Any] | None:
    """The view `patch` makes of `view` (whose revision is `revision`), or None when it does
    not apply to it (the page then asks for the whole view). `view` is left as it was."""
    if revision is None or patch.get("base") != revision or patch.get("from") != view.get("version"):
        return None
    try:
        new = dict(view)
        copied = {id(new)}  # what this patch may change in place: copies, never `view`'s own
        for op in patch["ops"]:
            _apply(new, op, copied)
    except (AttributeError, KeyError, IndexError, TypeError, ValueError):
        return None
    if "log" in patch:
        new["log"], new["log_from"] = patch["log"], patch["log_from"]
    return new


def _apply(view: dict[str, Any], op: list[Any], copied: set[int]) -> None:
    """One edit; the lists and objects on its way are copied first (once a patch), so the
    view the patch started from is left as it was and what no edit touches is shared."""
    kind, path = op[0], op[1]
    if not path:
        raise ValueError("an edit names no field")
    holder: Any = view
    for key in path[:-1]:
        inner = holder[key]
        if id(inner) not in copied:
            inner = holder[key] = copy.copy(inner)
            copied.add(id(inner))
        holder = inner
    last = path[-1]
    if kind in "*~" and id(holder[last]) not in copied and isinstance(holder[last], list):
        holder[last] = list(holder[last])
        copied.add(id(holder[last]))
    if kind == "=":
        holder[last] = op[2]
    elif kind == "-":
        del holder[last]
    elif kind == "*":
        at, removed = op[2], op[3]
        if not isinstance(at, int) or not isinstance(removed, int) or at + removed > len(holder[last]):
            raise ValueError("a splice beyond the list")
        holder[last][at : at + removed] = op[4]
    elif kind == "~":
        holder[last] = rebuilt(holder[last], op[2])
    else:
        raise ValueError(f"no such edit {kind!r}")
