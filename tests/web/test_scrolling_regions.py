"""Every region of the pages that scrolls is reachable by keyboard (axe-core's
`scrollable-region-focusable`): a list or text that overflows and holds nothing focusable
itself must take the focus, or a person without a mouse cannot read its hidden part.

The regions are read from the style sheets (a rule with `overflow: auto` or `scroll`), so
a new scrolling region is checked as soon as it is styled; lists of buttons are exempt
(their buttons take the focus)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import chaosgames.web

WEB = Path(chaosgames.web.__file__).parent
HOLD_BUTTONS = {"actions", "chooser"}
"""Scrolling classes whose content is buttons."""


def scrolling_selectors() -> set[str]:
    """The simple class selectors (and `pre` under `.text-view`) that scroll."""
    found: set[str] = set()
    for sheet in (WEB / "static").glob("*.css"):
        for selectors, body in re.findall(r"([^{}]+)\{([^}]*)\}", sheet.read_text()):
            if re.search(r"overflow(-[xy])?\s*:\s*(auto|scroll)", body):
                for selector in selectors.split(","):
                    found.add(" ".join(selector.split()))
    return found


class Elements(HTMLParser):
    """Each start tag of a template with its attributes and its enclosing classes."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, dict[str, str | None], set[str]]] = []
        self.open: list[tuple[str, set[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        classes = set((attributes.get("class") or "").split())
        enclosing = set().union(*(c for _, c in self.open)) if self.open else set()
        self.found.append((tag, attributes, enclosing))
        if tag not in ("input", "img", "br", "meta", "link", "source", "hr", "use", "path", "circle", "rect"):
            self.open.append((tag, classes))

    def handle_endtag(self, tag: str) -> None:
        for at in range(len(self.open) - 1, -1, -1):
            if self.open[at][0] == tag:
                del self.open[at:]
                return


def scrolls(tag: str, classes: set[str], enclosing: set[str], selectors: set[str]) -> bool:
    for selector in selectors:
        parts = selector.split(" ")
        last = parts[-1]
        name, _, cls = last.partition(".")
        if cls and cls in classes and cls not in HOLD_BUTTONS and name in ("", tag) and len(parts) == 1:
            return True
        if len(parts) == 2 and parts[0].startswith(".") and parts[0][1:] in enclosing and last == tag:
            return parts[0][1:] not in HOLD_BUTTONS
    return False


def test_every_scrolling_region_of_the_pages_takes_the_focus() -> None:
    selectors = scrolling_selectors()
    assert ".since-list" in selectors and ".text-view pre" in selectors  # the sheets as read
    checked, unreachable = 0, []
    for template in sorted((WEB / "templates").glob("*.html")):
        parser = Elements()
        parser.feed(template.read_text())
        for tag, attributes, enclosing in parser.found:
            classes = set((attributes.get("class") or "").split())
            if scrolls(tag, classes, enclosing, selectors):
                checked += 1
                if attributes.get("tabindex") != "0":
                    unreachable.append(f"{template.name}: <{tag} id={attributes.get('id')}>")
    assert checked >= 8, checked
    assert unreachable == []
