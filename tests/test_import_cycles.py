"""No import cycles: a module never imports a module that imports it, even inside a function.

The graph is read from the source with `ast`, so it counts every import statement where
it stands: at the top, inside functions (where cycles hide, since such imports run late)
and in `try` blocks. Left out, by choice:

- imports under `if TYPE_CHECKING:`, which never run (they only name types);
- the implicit import of a module's parent packages (`import chaosgames.core.game` runs
  `chaosgames/core/__init__.py` first); otherwise every package that re-exports its
  modules would be in a cycle with each of them.

`from package import name` is an edge to `package.name` when that is a module, else to
`package`. Each cycle is reported in the area that holds it: one of the game packages,
or everything else.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parent.parent / "src"
PACKAGE = "chaosgames"


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its __init__.py)."""
    found = {}
    for path in sorted((SOURCE / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(SOURCE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, typing: bool = False) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement, skipping the bodies of `if TYPE_CHECKING:` (unless `typing`:
    the imports the type checker follows too)."""
    for node in ast.iter_child_nodes(tree):
        if not typing and isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                yield from _imports(child)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        yield from _imports(node, typing)


def imports_of(name: str, path: Path, known: dict[str, Path], typing: bool = False) -> set[str]:
    """The package's modules that module `name` imports (`typing`: under TYPE_CHECKING too)."""
    is_package = path.name == "__init__.py"
    edges: set[str] = set()
    for node in _imports(ast.parse(path.read_text(encoding="utf-8")), typing):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                anchor = name.split(".") if is_package else name.split(".")[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        edges.update(t for t in targets if t in known and t != name)
    return edges


@cache
def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports_of(name, path, known) for name, path in known.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


@cache
def typing_graph() -> dict[str, set[str]]:
    """The import graph with the imports under TYPE_CHECKING: what the type checker reads."""
    known = modules()
    return {name: imports_of(name, path, known, typing=True) for name, path in known.items()}


@cache
def all_cycles() -> list[list[str]]:
    return cycles(graph())


def area(group: list[str]) -> str:
    games = {m.split(".")[2] for m in group if m.startswith(f"{PACKAGE}.games.") and m.count(".") >= 2}
    inside = all(m.startswith(f"{PACKAGE}.games.") and m.count(".") >= 3 for m in group)
    return games.pop() if inside and len(games) == 1 else "outside games"


GAME_PACKAGES = sorted(p.name for p in (SOURCE / PACKAGE / "games").iterdir() if (p / "__init__.py").exists())


@pytest.mark.parametrize("where", [*GAME_PACKAGES, "outside games"])
def test_no_import_cycles(where: str) -> None:
    found = [group for group in all_cycles() if area(group) == where]
    assert found == [], "import cycles: " + "; ".join(" <-> ".join(group) for group in found)


def test_the_graph_sees_imports_inside_functions_and_skips_type_checking(tmp_path: Path) -> None:
    module = tmp_path / "hooks.py"
    module.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from chaosgames.core import game\n"
        "def render():\n    from chaosgames.core import svg\n",
        encoding="utf-8",
    )
    # An import inside a function counts; one under TYPE_CHECKING never runs.
    assert imports_of("chaosgames.hooks", module, modules()) == {"chaosgames.core.svg"}
    edges = graph()
    # core.chance names State only under TYPE_CHECKING.
    assert "chaosgames.core.game" not in edges["chaosgames.core.chance"]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


# Circles the type checker still sees, by area (a state.py and a game.py naming each other's
# types, the rules' modules naming the state): none since issue 55. Should one be let in,
# it may only shrink: a module joining it fails `test_type_checking_circles_only_shrink`.
KNOWN_TYPING_CIRCLES: dict[str, set[str]] = {}


def typing_circles(where: str) -> list[list[str]]:
    return [group for group in cycles(typing_graph()) if area(group) == where]


@pytest.mark.parametrize("where", [*GAME_PACKAGES, "outside games"])
def test_type_checking_circles_only_shrink(where: str) -> None:
    known = KNOWN_TYPING_CIRCLES.get(where, set())
    grown = sorted({m for group in typing_circles(where) for m in group} - known)
    assert grown == [], "modules in a circle for the type checker: " + ", ".join(grown)


@pytest.mark.parametrize(
    "where",
    [
        pytest.param(
            where,
            marks=pytest.mark.xfail(strict=True, reason="issue 55: not broken yet")
            if where in KNOWN_TYPING_CIRCLES
            else (),
        )
        for where in [*GAME_PACKAGES, "outside games"]
    ],
)
def test_no_circles_even_for_the_type_checker(where: str) -> None:
    found = typing_circles(where)
    assert found == [], "circles for the type checker: " + "; ".join(" <-> ".join(g) for g in found)


def test_the_typing_graph_follows_type_checking_imports(tmp_path: Path) -> None:
    module = tmp_path / "hooks.py"
    module.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from chaosgames.core import game\n",
        encoding="utf-8",
    )
    assert imports_of("chaosgames.hooks", module, modules(), typing=True) == {"chaosgames.core.game"}
    assert "chaosgames.core.game" in typing_graph()["chaosgames.core.chance"]
