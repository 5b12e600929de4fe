"""The designers in a real browser, as a person who never saw the JSON format uses them:
a course drawn by clicks only (and by keys), a problem explained at its place, saved,
played with a friend from the lobby's form, tested beside a preset; a track chosen from
the real boards. At 1280 and 390 px, with axe finding nothing serious."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

import chaosgames.web.design_trials as design_trials
from tests.web.browser import PHONE, WIDE, Server, browser, screenshot, server
from tests.web.test_table import serious_violations

__all__ = ["browser", "server"]  # the module's fixtures

OVAL_TILES = [(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)]
GATES = {"sun": (1, 0), "moon": (2, 1), "crown": (1, 1), "arms": (0, 1)}
SIZES = {"wide": WIDE, "phone": PHONE}


@pytest.fixture
def short_races(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A test's races end after a few rounds (the server runs in this process's threads)."""
    monkeypatch.setitem(design_trials.CAPS, "chaos-cruisers", {"max_rounds": 4})
    yield


def open_page(browser: Any, server: Server, path: str, size: str) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport=SIZES[size])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.url + path)
    return context, page, errors


def status(page: Any, text: str) -> None:
    """Wait until the latest change is checked and drawn, and the check says `text`."""
    page.wait_for_function(
        "(t) => document.querySelector('.design-page').dataset.checking === 'no'"
        " && document.getElementById('check-status').textContent.includes(t)",
        arg=text,
        timeout=10_000,
    )


def draw_oval(page: Any) -> None:
    for x, y in OVAL_TILES:
        page.locator(f'#course-grid [data-tile="{x},{y}"]').click()
    for gate, (x, y) in GATES.items():
        page.locator(f'.gate-button[data-gate="{gate}"]').click()
        page.locator(f'#course-grid [data-tile="{x},{y}"]').click()
    status(page, "The game takes this design.")


@pytest.mark.parametrize("size", ["wide", "phone"])
def test_a_course_drawn_by_clicks_is_checked_saved_played_and_tested(
    browser: Any, server: Server, size: str, short_races: None
) -> None:
    context, page, errors = open_page(browser, server, "/", size)
    page.locator("#new-chaos-cruisers a", has_text="Design a course").click()
    page.wait_for_url("**/design/chaos-cruisers")
    draw_oval(page)
    assert page.locator("#picture svg [data-place='gate:crown']").count() == 1

    # A tile laid apart: the game's sentence, at the tile.
    page.locator('#course-grid [data-tile="6,4"]').click()
    status(page, "does not take")
    assert page.locator("#callout").inner_text().startswith("the course is disconnected")
    assert page.locator('#course-grid [data-tile="6,4"].marked').count() == 1
    screenshot(page, f"designer-course-problem-{size}")
    assert serious_violations(page) == []
    page.locator("#undo").click()
    status(page, "The game takes this design.")
    assert page.locator("#callout").is_hidden()

    page.fill("#design-name", f"Clicked oval {size}")
    page.locator("#save").click()
    link = page.locator("#saved-link a")
    link.wait_for()
    assert link.inner_text() == f"Clicked oval {size}"
    assert page.url.endswith(link.get_attribute("href") or "?")
    screenshot(page, f"designer-course-{size}")

    # Test it: a few short races of the design beside grand-loop, with progress and figures.
    page.select_option("#trial-games", "5")
    page.locator("#trial").click()
    page.wait_for_function(
        "() => document.getElementById('trial-status').textContent.includes('finished')", timeout=120_000
    )
    assert page.locator("#trial-progress").evaluate("p => p.value") == 1
    assert page.locator("#trial-table th", has_text="Seat 1 wins").count() == 1
    assert page.locator("#heat figure.heat-map svg").count() == 2
    screenshot(page, f"designer-course-tested-{size}")

    # Play it: the lobby's form, filled with the course; a game with a friend.
    page.locator("#play").click()
    page.wait_for_url("**/#new-chaos-cruisers")
    form = page.locator("#new-chaos-cruisers form.create")
    assert '"moon":[2,1]' in form.locator("[name='opt:course']").input_value()
    form.locator("[name=players]").select_option("2")
    form.locator("[name=seat1]").select_option("human")
    with page.expect_response("**/api/games") as answer:
        form.locator("button[type=submit]").click()
    created = answer.value.json()
    record = server.get(f"/api/games/{created['id']}/record")
    assert record["options"]["course"]["tiles"] == sorted([list(t) for t in OVAL_TILES])
    page.goto(server.url + created["seats"][1]["link"])
    page.wait_for_function("() => window.chaosgamesPage && window.chaosgamesPage.view")
    assert page.locator("#board [data-place='gate:moon']").count() == 1
    assert errors == []
    context.close()


def test_a_course_is_laid_with_the_keyboard(browser: Any, server: Server) -> None:
    context, page, errors = open_page(browser, server, "/design/chaos-cruisers", "wide")
    page.locator("#course-grid").focus()
    for key in ["Space", "ArrowRight", "Space", "ArrowRight", "Space", "ArrowUp", "Space", "m"]:
        page.keyboard.press(key)
    for key in ["ArrowLeft", "Space", "c", "ArrowLeft", "Space", "a", "ArrowDown", "s"]:
        page.keyboard.press(key)
    status(page, "The game takes this design.")
    assert page.locator("#grid-cursor").inner_text().startswith("Cursor on tile 0,0: laid, sun gate")
    # The moon gate dragged with the mouse from its tile to another laid tile.
    page.locator('#course-grid [data-gate="moon"]').drag_to(page.locator('#course-grid [data-tile="2,0"]'))
    status(page, "The game takes this design.")
    assert page.locator("#grid-cursor").inner_text().startswith("Cursor on tile 2,0: laid, moon gate")
    page.keyboard.press("Control+z")
    page.wait_for_function(
        "() => document.querySelector('#course-grid [data-gate=moon] title').textContent.includes('2,1')"
    )
    page.keyboard.press("Control+z")
    status(page, "does not take")
    assert (
        page.locator("#problems").inner_text() == "the course is missing the sun gate (the start and finish)."
    )
    # Export the course as JSON, start from a preset, import it back.
    with page.expect_download() as download:
        page.locator("#export").click()
    exported = json.loads(Path(download.value.path()).read_text())
    assert exported["tiles"] == [[0, 0], [1, 0], [2, 0], [2, 1], [1, 1], [0, 1]]
    assert "sun" not in exported["gates"]
    page.select_option("#design-start", "preset:figure-eight")
    status(page, "The game takes this design.")
    upload = {"name": "c.json", "mimeType": "application/json", "buffer": json.dumps(exported).encode()}
    page.set_input_files("#import", files=[upload])
    status(page, "does not take")
    assert page.locator("#grid-cursor").inner_text().endswith("6 of 24 tiles.")
    # The sun gate dragged from its button onto a tile.
    page.locator('.gate-button[data-gate="sun"]').drag_to(page.locator('#course-grid [data-tile="1,0"]'))
    status(page, "The game takes this design.")
    assert page.locator('.gate-button[data-gate="sun"]').get_attribute("aria-pressed") == "false"
    assert errors == []
    context.close()


@pytest.mark.parametrize("size", ["wide", "phone"])
def test_a_track_is_chosen_from_the_real_boards(browser: Any, server: Server, size: str) -> None:
    context, page, errors = open_page(browser, server, "/design/cardboard-machines", size)
    status(page, "The game takes this design.")
    page.select_option("#board-3", "1")  # board 1 twice
    status(page, "does not take")
    slot = page.locator(".track-slot.marked")
    assert slot.count() == 1 and "six different boards" in slot.inner_text()
    assert slot.locator("label").inner_text() == "2nd in front"
    assert serious_violations(page) == []
    page.select_option("#board-3", "7")
    page.locator('[aria-label="Side of the board 1st in front"]').select_option("gray")
    status(page, "The game takes this design.")
    page.locator('#picture svg [data-piece="board-1"][data-face="gray"]').wait_for()
    screenshot(page, f"designer-track-{size}")
    assert serious_violations(page) == []
    assert errors == []
    context.close()


def test_a_finger_lifts_a_tile_and_drags_a_gate_on_a_phone(browser: Any, server: Server) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(server.url + "/design/chaos-cruisers")
    page.select_option("#design-start", "preset:grand-loop")
    status(page, "The game takes this design.")

    def middle(selector: str) -> tuple[float, float]:
        # The grid is drawn anew after every check: ask again if it was redrawn meanwhile.
        for _ in range(20):
            try:
                page.locator(selector).scroll_into_view_if_needed()
                box = page.locator(selector).bounding_box()
            except PlaywrightError:
                box = None
            if box is not None:
                return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            page.wait_for_timeout(100)
        raise AssertionError(f"{selector} is not on the page")

    page.touchscreen.tap(*middle('#course-grid [data-tile="2,0"]'))
    status(page, "The game takes this design.")  # 23 tiles, still one course
    assert page.locator("#grid-cursor").inner_text() == "Cursor on tile 2,0: empty · 23 of 24 tiles."
    # A finger drags the moon gate along the track (touch events, as a phone sends them).
    touch = context.new_cdp_session(page)
    (x0, y0), (x1, y1) = middle('#course-grid [data-gate="moon"]'), middle('#course-grid [data-tile="7,1"]')
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for step in range(1, 11):
        point = {"x": x0 + (x1 - x0) * step / 10, "y": y0 + (y1 - y0) * step / 10}
        touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_function(
        "() => document.querySelector('#course-grid [data-gate=moon] title').textContent.includes('7,1')"
    )
    status(page, "The game takes this design.")
    context.close()
