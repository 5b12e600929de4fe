"""The table's endings in real browsers (issue 50), two people at their own screens: a
resignation ends the game with the game-over panel on both pages; a rematch moves both pages
to their new seats; an absent person's seat handed to a computer plays on, and the person
takes it back. Both pages at 1280 and 390 px pass axe-core."""

from __future__ import annotations

import re
import time
from typing import Any

from fastapi import FastAPI

from tests.web.browser import PHONE, WIDE, Server, browser, open_seat, screenshot, server, wait_for_view
from tests.web.test_table import serious_violations

__all__ = ["browser", "server"]  # the module's fixtures


def two_people(server: Server, **table: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"game": "chaos-checkers", "seats": ["human", "human"], "seed": 5}
    if table:
        body["table"] = table
    created: dict[str, Any] = server.post("/api/games", body)
    return created


def both_pages(
    browser: Any, server: Server, created: dict[str, Any], viewport: dict[str, int] = WIDE
) -> list[Any]:
    pages = []
    for seat in created["seats"]:
        _context, page = open_seat(browser, server, seat["link"], viewport)
        wait_for_view(page, f"v.viewer === {seat['seat']}")
        pages.append(page)
    return pages


def close(pages: list[Any]) -> None:
    for page in pages:
        assert page.errors == []
        page.context.close()


def test_a_resignation_ends_the_game_with_the_game_over_panel_on_both_pages(
    browser: Any, server: Server
) -> None:
    created = two_people(server)
    red, blue = both_pages(browser, server, created)
    red.click("#resign")
    red.click("#resign-yes")  # a confirmation: nothing irreversible from one click
    for page in (red, blue):
        wait_for_view(page, "v.status === 'finished'")
        page.wait_for_selector("#result:not([hidden]) #ending-story:not([hidden])")
        assert page.inner_text("#result-text") == "red/orange/yellow resigned: blue/lightblue/purple wins."
        assert "Ended by a resignation." in page.inner_text("#ending-how")
        story = page.inner_text("#ending-story")
        assert re.search(r"The lead (never changed|changed once|changed \d+ times)\.", story)
        assert page.get_attribute("#ending-replay", "href") == f"/games/{created['id']}/replay"
        assert page.is_visible("#rematch-offer")
        assert serious_violations(page) == []
    screenshot(blue, "resigned-wide")
    blue.set_viewport_size(PHONE)
    screenshot(blue, "resigned-phone")
    assert serious_violations(blue) == []
    # "New game with these settings" opens the lobby's form filled in.
    blue.click("#ending-new")
    blue.wait_for_selector("#new-chaos-checkers details.new-game[open]")
    assert blue.input_value("#seat-chaos-checkers-1") == "human"
    close([red, blue])


def test_a_rematch_moves_both_pages_to_their_new_seats(browser: Any, server: Server) -> None:
    created = two_people(server)
    red, blue = both_pages(browser, server, created)
    red.click("#resign")
    red.click("#resign-yes")
    wait_for_view(blue, "v.status === 'finished'")
    red.click("#rematch-offer")
    blue.wait_for_function(
        "() => document.getElementById('rematch-offer').textContent === 'Accept the rematch'"
    )
    assert "offered a rematch" in blue.inner_text("#rematch-status")
    blue.click("#rematch-offer")
    for page, seat in ((red, 1), (blue, 0)):  # the seats turned by one
        page.wait_for_url(lambda url: created["id"] not in url, timeout=15_000)
        page.wait_for_function("() => window.chaosgamesPage !== undefined")
        seen = wait_for_view(page, f"v.viewer === {seat} && v.status === 'running'")
        assert seen["id"] != created["id"]
        assert seen["version"] > 0
    # Each page holds its own seat's link, and no other.
    assert red.url.split("#token=")[1] != blue.url.split("#token=")[1]
    close([red, blue])


def test_an_absent_persons_seat_handed_to_a_computer_plays_on(browser: Any, server: Server) -> None:
    created = two_people(server, patience=120)
    red, blue = both_pages(browser, server, created)
    assert "from" in blue.inner_text("#table-absent")  # when red's seat may be handed on
    _as_if_red_left_minutes_ago(server, created["id"])
    blue.wait_for_selector("#table-absent button")
    blue.click("text=Hand red/orange/yellow's seat to a computer")
    # The computer plays red's move, then it is blue's turn.
    seen = wait_for_view(blue, "v.to_act === 1 && v.players[0].who === 'medium'")
    assert seen["log"][-1]["actor"] in (0, -1)
    red_view = wait_for_view(red, "v.table.seats[0].handed")
    assert red_view["players"][0]["who"] == "medium"
    screenshot(red, "handed-wide")
    assert serious_violations(red) == []
    red.click("text=Take your seat back")
    wait_for_view(blue, "v.players[0].who === 'human'")
    close([red, blue])


def _as_if_red_left_minutes_ago(server: Server, game_id: str) -> None:
    """Move the clock of the game's last commit back 10 minutes, in the server's loop, and
    show the game anew (the server would count the same after 10 real minutes)."""
    app = server.server.config.app
    assert isinstance(app, FastAPI)
    service = app.state.service
    loop = service.cluster._loops[0].get_loop()  # the server's event loop
    done: list[bool] = []

    def back() -> None:
        live = service.cached(game_id)
        live.times[-1] -= 600
        live.table_changed()
        service.publish(live)
        done.append(True)

    loop.call_soon_threadsafe(back)
    deadline = time.monotonic() + 5
    while not done and time.monotonic() < deadline:
        time.sleep(0.02)
    assert done


def test_a_clock_runs_out_and_a_computer_plays_the_seat_on(browser: Any, server: Server) -> None:
    created = two_people(server, clock=10, out_of_time="computer")
    red, blue = both_pages(browser, server, created, PHONE)
    for page in (red, blue):
        page.wait_for_selector("#clocks .clock.running")
        assert page.inner_text("#clocks .clock.running").startswith("▶ red/orange/yellow 0:")
        assert serious_violations(page) == []
    screenshot(blue, "clocks-phone")
    # Nobody does anything: the server ends red's time by itself, and a computer plays on.
    for page in (red, blue):
        seen = wait_for_view(page, "v.players[0].who === 'medium'", timeout=30_000)
        assert seen["table"]["seats"][0]["why"] == "time"
    wait_for_view(blue, "v.to_act === 1")
    assert blue.inner_text("#clocks .clock.running").startswith("▶ blue/lightblue/purple 0:")
    assert "red/orange/yellow 0:00" in blue.inner_text("#clocks")
    close([red, blue])


def test_the_lobby_sends_the_tables_takebacks_rule_and_a_new_game_keeps_it(
    browser: Any, server: Server
) -> None:
    # A table that wants no takebacks from its computer seats says so at creation, and
    # "New game with these settings" fills the same choice in again.
    created = server.post(
        "/api/games",
        {"game": "chaos-checkers", "seats": ["human", "greedy"], "seed": 5, "takebacks": "never"},
    )
    query = server.get(f"/api/games/{created['id']}", created["seats"][0]["token"])["table"]["new_game"]
    assert "takebacks=never" in query
    context = browser.new_context(viewport=WIDE)
    page = context.new_page()
    page.goto(server.url + query)
    page.wait_for_selector("#new-chaos-checkers details.new-game[open]")
    form = "#new-chaos-checkers form.create"
    assert page.input_value(f"{form} [name=takebacks]") == "never"
    with page.expect_request(lambda r: r.url.endswith("/api/games") and r.method == "POST") as sent:
        page.click(f"{form} button[type=submit]")
    assert sent.value.post_data_json["takebacks"] == "never"
    page.wait_for_selector(f"{form} ~ .created:not([hidden])")
    assert serious_violations(page) == []
    context.close()
