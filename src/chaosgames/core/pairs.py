"""Lists of `name=value` items, as agent specs and the lab's option texts write them."""

from __future__ import annotations

from collections.abc import Callable, Iterable


def name_value_pairs(
    items: Iterable[str], unreadable: Callable[[str], Exception], twice: Callable[[str], Exception]
) -> dict[str, str]:
    """The items as names and values, white space stripped, in their order. Raises
    `unreadable(item)` for an item that is not name=value (with both), `twice(name)` for a
    name given twice."""
    found: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name or not value:
            raise unreadable(item.strip())
        if name in found:
            raise twice(name)
        found[name] = value
    return found
