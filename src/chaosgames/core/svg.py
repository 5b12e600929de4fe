"""Building SVG pictures with text always escaped.

Every picture a game draws is a string of SVG elements. `element` builds one: keyword
arguments become attributes (`font_size=11` -> `font-size="11"`, `class_` -> `class`,
`data_place` -> `data-place`; None leaves the attribute out), and children are either
elements built here (kept as they are) or anything else, which is escaped as text. So
a player's name with `<` or `&` in it can never break the picture.

    from chaosgames.core.svg import element, picture

    label = element("text", "Bob & <Alice>", x=10, y=20, font_size=12)
    disc = element("circle", element("title", "red: gear 3"), cx=30, cy=30, r=20, fill="#c00")
    svg = picture(480, 480, [label, disc])
    # <svg xmlns="http://www.w3.org/2000/svg" width="480" height="480" viewBox="0 0 480 480">
    # <text x="10" y="20" font-size="12">Bob &amp; &lt;Alice&gt;</text>...</svg>

Numbers are written as f-strings write them (`30`, `30.5`), so pictures converted from
f-strings to these helpers come out byte for byte the same.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

_TEXT_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
_ATTRIBUTE_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"})
NAMESPACE = "http://www.w3.org/2000/svg"


class Markup(str):
    """SVG built by this module: inserted as it is, never escaped again."""

    __slots__ = ()


class Drawing(Markup):
    """A whole picture that keeps the elements it was joined from (`parts`, joined by
    `joiner`): what compares two pictures (the web page's patches) can then take the
    elements drawn as before (the same cached strings) whole, not read them again."""

    parts: tuple[str, ...]
    joiner: str


def drawing(parts: Sequence[str], joiner: str = "") -> Drawing:
    """The picture `joiner.join(parts)`, its parts kept (see `Drawing`)."""
    drawn = Drawing(joiner.join(parts))
    drawn.parts = tuple(parts)
    drawn.joiner = joiner
    return drawn


KEPT = 8192
"""Drawings `kept` in one of its stores before the store is emptied (and filled again)."""


def kept(store: dict[Any, T], key: Hashable, draw: Callable[[], T]) -> T:
    """What `draw()` made for `key` the last time, else `draw()`, kept in `store`.

    A picture is drawn for every change the server shows and most of it is drawn as
    before: a game keys an element (or its title) by the few things it shows, cheap to
    read from the state, and the element's words and tags are made only for a new key."""
    found = store.get(key)
    if found is None:
        if len(store) >= KEPT:
            store.clear()
        found = store[key] = draw()
    return found


def escape(text: object) -> str:
    """Text made safe between tags (`&`, `<` and `>` escaped)."""
    return str(text).translate(_TEXT_ESCAPES)


def _attribute_name(name: str) -> str:
    # class_ -> class (a Python keyword), font_size -> font-size, data_place -> data-place.
    return name.rstrip("_").replace("_", "-")


def _attribute_value(value: object) -> str:
    if isinstance(value, bool):
        raise TypeError("an SVG attribute is text or a number, not true or false")
    return str(value).translate(_ATTRIBUTE_ESCAPES)


_NAMES: dict[str, str] = {}
"""Attribute names as written, by keyword (a few dozen, the ones the games' code uses)."""


def attributes(values: dict[str, Any]) -> str:
    """' x="1" font-size="12"' (leading space included; None values left out)."""
    # The pictures' inner loop (thousands of attributes a picture, a picture a view): a
    # number needs no escaping and a name is worked out once.
    parts = []
    for name, value in values.items():
        if value is None:
            continue
        written = _NAMES.get(name)
        if written is None:
            written = _NAMES[name] = _attribute_name(name)
        kind = type(value)
        text = str(value) if kind is int or kind is float else _attribute_value(value)
        parts.append(f' {written}="{text}"')
    return "".join(parts)


def _children(children: Iterable[Any]) -> str:
    parts: list[str] = []
    for child in children:
        if isinstance(child, Markup):
            parts.append(child)
        elif child is None:
            continue
        elif isinstance(child, list | tuple):
            parts.append(_children(child))
        else:
            parts.append(escape(child))
    return "".join(parts)


def element(tag: str, *children: Any, **attrs: Any) -> Markup:
    """`<tag a="v">children</tag>`, or `<tag a="v"/>` without children.

    Children that are Markup (elements built here) go in as they are; lists and tuples of
    children are flattened; None is skipped; anything else is escaped text. Attribute
    names that are not Python names go in a dict: `element("use", **{"xlink:href": "#a"})`.
    """
    inner = _children(children)
    head = f"<{tag}{attributes(attrs)}"
    return Markup(f"{head}>{inner}</{tag}>" if inner else f"{head}/>")


def raw(svg: str) -> Markup:
    """Trusted SVG text (a constant of the game's own, such as a <defs> block) as Markup."""
    return Markup(svg)


def points(pairs: Iterable[tuple[float, float]]) -> str:
    """A polygon's or polyline's points: 'x1,y1 x2,y2 ...'."""
    return " ".join(f"{x},{y}" for x, y in pairs)


def picture(width: float, height: float, children: Iterable[Any], **attrs: Any) -> Drawing:
    """A whole SVG document of the given size (its viewBox the same unless given), made as
    `element("svg", ...)` makes it, its children kept as its parts (see `Drawing`)."""
    attrs.setdefault("viewBox", f"0 0 {width} {height}")
    head = f"<svg{attributes({'xmlns': NAMESPACE, 'width': width, 'height': height, **attrs})}"
    parts = [part for part in _parts(children) if part]
    if not parts:
        return drawing([head + "/>"])
    return drawing([head + ">", *parts, "</svg>"])


def _parts(children: Iterable[Any]) -> Iterable[str]:
    """The children as `element` writes them, one string each (lists flattened)."""
    for child in children:
        if isinstance(child, Markup):
            yield child
        elif isinstance(child, list | tuple):
            yield from _parts(child)
        elif child is not None:
            yield escape(child)
