"""The web app stays in rooms (docs/architecture.md, "The web"): no file of `web/` grows
past `MAX_LINES`, a live game needs nothing of the database, and the service reaches the
hub only through its `Transport` (the hub knows no service).

The import graph is `tests/test_import_cycles.py`'s: read from the source with `ast`,
imports inside functions included, imports under `TYPE_CHECKING` left out. A rule is
broken by an import path, direct or through other modules.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_import_cycles import PACKAGE, SOURCE, graph

WEB = SOURCE / PACKAGE / "web"
MAX_LINES = 350

FORBIDDEN = [
    # (importer, imported, why)
    ("web.live", "web.storage", "a live game is a replay of stored data, not of the database"),
    ("web.live", "web.database", "a live game is a replay of stored data, not of the database"),
    ("web.service", "web.hub", "the service reaches the hub through its Transport only"),
    ("web.hub", "web.service", "the hub is given live games; it never asks the service"),
]


def reaches(edges: dict[str, set[str]], start: str, target: str) -> list[str] | None:
    """An import path from `start` to `target` (both dotted names), or None."""
    paths = {start: [start]}
    todo = [start]
    while todo:
        node = todo.pop()
        for nxt in sorted(edges.get(node, ())):
            if nxt not in paths:
                paths[nxt] = [*paths[node], nxt]
                todo.append(nxt)
    return paths.get(target)


def long_files(folder: Path, limit: int) -> list[str]:
    """The Python files under `folder` with more than `limit` lines, with their counts."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit:
            found.append(f"{path.relative_to(folder)} ({lines} lines)")
    return found


def test_no_file_of_the_web_app_is_over_the_limit() -> None:
    assert long_files(WEB, MAX_LINES) == [], f"web/ files over {MAX_LINES} lines"


@pytest.mark.parametrize(("importer", "imported", "why"), FORBIDDEN)
def test_the_web_rooms_import_only_what_they_may(importer: str, imported: str, why: str) -> None:
    path = reaches(graph(), f"{PACKAGE}.{importer}", f"{PACKAGE}.{imported}")
    assert path is None, f"{why}: " + " -> ".join(path or [])


def test_the_rules_can_fail(tmp_path: Path) -> None:
    (tmp_path / "short.py").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "rooms").mkdir()
    (tmp_path / "rooms" / "long.py").write_text("x = 1\n" * 4, encoding="utf-8")
    assert long_files(tmp_path, 3) == ["rooms/long.py (4 lines)"]
    edges = {"a": {"b"}, "b": {"c"}, "c": set()}
    assert reaches(edges, "a", "c") == ["a", "b", "c"]
    assert reaches(edges, "c", "a") is None
    # The real graph sees the web's own imports (so a rule above is not vacuous).
    assert f"{PACKAGE}.web.stored" in graph()[f"{PACKAGE}.web.live"]
    assert f"{PACKAGE}.web.storage" in graph()[f"{PACKAGE}.web.service"]
