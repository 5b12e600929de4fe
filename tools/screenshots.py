"""`make screenshots`: pictures of every game mid-play, wide and on a phone, for the docs.

Each game is a seeded game of people (three in Chaos Cruisers) played on by seeded random
decisions through the HTTP API, then shown in Debian's Chromium as the seat to act sees it:
the board with the other person's last turn marked, animated (the picture is taken once
the motion is over) and told beside it. Also the lobby, the replay viewer and the designers. The pictures
go to docs/screenshots/ (the README and docs/web.md show them).
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402
from tests.web.browser import CHROMIUM, PHONE, WIDE, Server  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
GAMES: dict[str, tuple[list[str], int, int]] = {
    # game: (seats, seed, decisions played before the picture)
    "chaos-checkers": (["human", "human"], 7, 15),
    "chaos-cruisers": (["human", "human", "human"], 3, 24),
    "royal-racers": (["human", "human"], 5, 40),
    "cardboard-machines": (["human", "human", "human"], 8, 14),
}


def play_on(server: Server, created: dict[str, Any], decisions: int, seed: int) -> None:
    """`decisions` seeded random decisions (on the board where it can), then on until the
    seat to act is not the one whose turn is the last: the picture shows another person's
    turn, marked and told, as a player opening the page would see it."""
    rng = random.Random(seed)
    tokens = [s["token"] for s in created["seats"]]
    for number in range(decisions + 200):
        seen = server.get(f"/api/games/{created['id']}")
        if seen["status"] != "running":
            return
        deciders = {e["actor"] for e in seen["turn"]["events"] if e["actor"] >= 0}
        if number >= decisions and seen["turn"]["places"] and seen["to_act"] not in deciders:
            return
        mine = server.get(f"/api/games/{created['id']}", tokens[seen["to_act"]])
        placed = [a for a in mine["legal"] if a["places"]] or mine["legal"]
        action = rng.choice(placed)
        body = {"action": action["notation"], "version": mine["version"]}
        server.post(f"/api/games/{created['id']}/actions", body, tokens[seen["to_act"]])


def shoot(browser: Any, url: str, name: str, viewport: dict[str, int], game_page: bool) -> None:
    context = browser.new_context(viewport=viewport, device_scale_factor=1)
    page = context.new_page()
    page.goto(url)
    if game_page:
        page.wait_for_function("() => window.chaosgamesPage && window.chaosgamesPage.view.version > 0")
    page.wait_for_load_state("networkidle")
    page.wait_for_function("() => document.getAnimations().length === 0")
    page.screenshot(path=str(OUT / f"{name}.png"))
    context.close()


def designers(browser: Any, server: Server) -> None:
    """The course designer on a preset with one tile laid apart (the problem shown at its
    place), wide and on a phone; the track designer on a phone."""
    for name, viewport in (("designer-wide", WIDE), ("designer-phone", PHONE)):
        context = browser.new_context(viewport=viewport, device_scale_factor=1)
        page = context.new_page()
        page.goto(server.url + "/design/chaos-cruisers")
        page.select_option("#design-start", "preset:chicane")
        page.wait_for_function("() => document.getElementById('check-status').textContent.includes('takes')")
        page.locator('#course-grid [data-tile="9,1"]').click()
        page.wait_for_function("() => !document.getElementById('callout').hidden")
        page.screenshot(path=str(OUT / f"{name}.png"), full_page=True)
        context.close()
    context = browser.new_context(viewport=PHONE, device_scale_factor=1)
    page = context.new_page()
    page.goto(server.url + "/design/cardboard-machines")
    page.wait_for_function("() => document.getElementById('check-status').textContent.includes('takes')")
    page.screenshot(path=str(OUT / "designer-track-phone.png"), full_page=True)
    context.close()


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with (
        Server(Path(tempfile.mkdtemp()) / "screenshots.sqlite") as server,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        finished = None
        for game, (seats, seed, decisions) in GAMES.items():
            created = server.post("/api/games", {"game": game, "seats": seats, "options": {}, "seed": seed})
            play_on(server, created, decisions, seed)
            seat = server.get(f"/api/games/{created['id']}")["to_act"] or 0
            link = server.url + created["seats"][seat]["link"]
            shoot(browser, link, f"{game}-wide", WIDE, True)
            shoot(browser, link, f"{game}-phone", PHONE, True)
            if game == "chaos-checkers":
                finished = created["id"]
        shoot(browser, server.url + "/", "lobby-wide", WIDE, False)
        designers(browser, server)
        shoot(browser, f"{server.url}/games/{finished}/replay", "replay-wide", WIDE, False)
        browser.close()
    print(f"Screenshots in {OUT.relative_to(ROOT)}/")


if __name__ == "__main__":
    main()
