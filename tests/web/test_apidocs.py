"""`/api/docs` works offline under the app's Content-Security-Policy (issue 49, finding 5)."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from tests.web.browser import Server, browser, screenshot, server

__all__ = ["browser", "server"]  # the module's fixtures


def test_the_docs_page_loads_everything_from_the_server_and_runs_no_inline_script(
    client: TestClient,
) -> None:
    page = client.get("/api/docs")
    assert page.status_code == 200
    assert "script-src 'self'" in page.headers["content-security-policy"]
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", page.text, re.DOTALL)
    assert scripts and all('src="/' in attributes and not body.strip() for attributes, body in scripts)
    addresses = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    assert all(a.startswith("/") and not a.startswith("//") for a in addresses), addresses
    for address in addresses:
        assert client.get(address).status_code == 200, address
    assert client.get("/api/docs/swagger-ui-bundle.js").headers["content-type"].startswith("text/javascript")
    assert client.get("/api/docs/anything.js").status_code == 404


def test_the_docs_page_shows_the_api_in_a_browser_offline(browser: Any, server: Server) -> None:
    context = browser.new_context(offline=False)
    # Offline: nothing but the server answers (a CDN request would fail).
    context.route(
        re.compile(r"^(?!http://127\.0\.0\.1).*"), lambda route: route.abort("internetdisconnected")
    )
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.goto(server.url + "/api/docs")
    page.wait_for_selector(".swagger-ui .info .title", timeout=30_000)
    assert "chaosgames" in page.locator(".swagger-ui .info .title").inner_text()
    page.get_by_text("/api/games/{game_id}/actions").first.wait_for(timeout=30_000)
    screenshot(page, "api-docs")
    assert problems == []
    context.close()
