"""Every relative link in README.md and docs/ leads to a file of the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)|!\[[^\]]*\]\(([^)\s]+)\)")


def relative_links(page: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.DOTALL)
    links = [a or b for a, b in LINK.findall(text)]
    return [link for link in links if not re.match(r"[a-z]+:", link) and not link.startswith("#")]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(page: Path) -> None:
    broken = [link for link in relative_links(page) if not (page.parent / link.split("#")[0]).exists()]
    assert broken == [], f"{page.relative_to(ROOT)} links to missing files: {broken}"


def test_links_are_found() -> None:
    assert "docs/contract.md" in relative_links(ROOT / "README.md")
