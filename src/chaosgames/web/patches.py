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

import copy
from typing import Any

from chaosgames.web.pieces import TOKENS, text_pieces

EDITED = 256
"""Texts from this length on are edited token by token; shorter ones are replaced."""

LOGGED = ("log", "log_from")
"""Fields a patch carries as a view does (only the entries new to the connection)."""

Path = list[str | int]


def diff(old: Any, new: Any, path: Path | None = None) -> list[list[Any]]:
    """The edits that make `old` into `new` (two JSON documents)."""
    path = [] if path is None else path
    if old is new or old == new:
        return []
    # The parts that did not change (most of a view) are passed over without a call.
    if isinstance(old, dict) and isinstance(new, dict):
        ops: list[list[Any]] = [["-", [*path, key]] for key in old if key not in new]
        for key, value in new.items():
            if key not in old:
                ops.append(["=", [*path, key], value])
            elif (path or key not in LOGGED) and old[key] != value:
                ops += diff(old[key], value, [*path, key])
        return ops
    if isinstance(old, list) and isinstance(new, list) and path:
        if len(old) == len(new):
            pairs = enumerate(zip(old, new, strict=True))
            return [op for i, (a, b) in pairs if a != b for op in diff(a, b, [*path, i])]
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
