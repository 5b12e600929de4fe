"""Real-browser tests: a server in a thread on a free port, Debian's Chromium via Playwright.

Screenshots go to `test-artifacts/web/` (git-ignored) for a person to look at.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from chaosgames.web import create_app
from chaosgames.web.limits import GENEROUS

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "web"
WIDE = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


class Server:
    """The web app under uvicorn in a background thread."""

    def __init__(self, database: Path, pace: float = 0.0) -> None:
        app = create_app(str(database), computer_pool="thread", workers=1, pace=pace, limits=GENEROUS)
        config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", ws_max_size=65536)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("The test server did not start.")
            time.sleep(0.02)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)

    def post(self, path: str, body: Any, token: str | None = None) -> Any:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(), headers=headers)
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.load(answer)

    def get(self, path: str, token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        request = urllib.request.Request(self.url + path, headers=headers)
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.load(answer)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with Server(tmp_path_factory.mktemp("web") / "games.sqlite") as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing (make test installs Debian's chromium package)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


def screenshot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def page_view(page: Any) -> dict[str, Any]:
    """The view the game page shows now."""
    view: dict[str, Any] = page.evaluate("() => window.chaosgamesPage.view")
    return view


def page_log(page: Any) -> list[dict[str, Any]]:
    """The whole move log the game page holds."""
    log: list[dict[str, Any]] = page.evaluate("() => window.chaosgamesPage.log")
    return log


def wait_for_view(page: Any, condition: str, timeout: float = 30_000) -> dict[str, Any]:
    """Wait until the page's view satisfies a JavaScript condition on `v`."""
    # A function, not an expression: the pages' Content-Security-Policy forbids eval.
    page.wait_for_function(
        f"() => {{ const v = window.chaosgamesPage.view; return {condition}; }}", timeout=timeout
    )
    return page_view(page)


def click_place(page: Any, place: str) -> None:
    """Click the middle of a place on the board, as a person would (whatever lies on top)."""
    node = page.locator(f'#board [data-place="{place}"]').first
    node.scroll_into_view_if_needed()
    box = node.bounding_box()
    assert box is not None, f"no place {place} on the board"
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def open_seat(browser: Any, server: Server, link: str, viewport: dict[str, int] = WIDE) -> tuple[Any, Any]:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.url + link)
    page.wait_for_function("() => window.chaosgamesPage !== undefined")
    page.errors = errors
    return context, page
