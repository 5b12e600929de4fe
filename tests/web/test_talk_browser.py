"""The table beside the game (issue 50), in real browsers: two friends at their own screens
see each other come and go, are told when it is their turn (title, favicon), see what
happened since they last played, and chat (escaped: a message is text, never markup).

Chaos Checkers without chaos, two people, seeded: every move is a plain decision.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import uvicorn

from chaosgames.web import create_app
from chaosgames.web.limits import GENEROUS
from tests.web.browser import (
    PHONE,
    WIDE,
    Server,
    browser,
    open_seat,
    screenshot,
    server,
    wait_for_view,
)
from tests.web.test_table import serious_violations

__all__ = ["browser", "server"]  # the module's fixtures


def new_table(server: Server) -> dict[str, Any]:
    created: dict[str, Any] = server.post(
        "/api/games",
        {"game": "chaos-checkers", "seats": ["human", "human"], "options": {"chaos": False}, "seed": 5},
    )
    return created


def move(server: Server, created: dict[str, Any], seat: int) -> dict[str, Any]:
    """`seat` plays its first legal move through the API; the seat's new view."""
    mine = server.get(f"/api/games/{created['id']}", created["seats"][seat]["token"])
    assert mine["to_act"] == seat
    answer: dict[str, Any] = server.post(
        f"/api/games/{created['id']}/actions",
        {"action": mine["legal"][0]["notation"], "version": mine["version"]},
        created["seats"][seat]["token"],
    )
    return answer


def presence_of(page: Any, seat: int) -> Any:
    return page.locator(f'#players li[data-seat="{seat}"] .presence')


def test_each_seat_shows_whether_its_person_is_connected(browser: Any, server: Server) -> None:
    created = new_table(server)
    first_context, first = open_seat(browser, server, created["seats"][0]["link"])
    first.wait_for_function("() => window.chaosgamesTable.news !== null")
    # The second person has not opened the game: away, and has not acted.
    away = presence_of(first, 1)
    away.wait_for(state="attached")
    first.wait_for_function(
        "() => document.querySelector('#players li[data-seat=\"1\"] .presence').dataset.connected === 'false'"
    )
    assert away.inner_text() == "away, has not acted yet"
    second_context, second = open_seat(browser, server, created["seats"][1]["link"])
    first.wait_for_function(
        "() => document.querySelector('#players li[data-seat=\"1\"] .presence').dataset.connected === 'true'"
    )
    assert presence_of(first, 1).inner_text() == "connected, has not acted yet"
    assert presence_of(second, 0).inner_text() == "connected, has not acted yet"
    move(server, created, 0)
    second.wait_for_function(
        "() => document.querySelector('#players li[data-seat=\"0\"] .presence').textContent"
        " === 'connected, last acted just now'"
    )
    screenshot(first, "talk-presence-wide")
    second_context.close()
    first.wait_for_function(
        "() => document.querySelector('#players li[data-seat=\"1\"] .presence').dataset.connected === 'false'"
    )
    assert presence_of(first, 1).inner_text() == "away, has not acted yet"
    assert first.errors == []
    first_context.close()


def icon(page: Any) -> str:
    href: str = page.evaluate("() => document.querySelector('link[rel=icon]').getAttribute('href')")
    return href


def test_the_title_and_the_favicon_say_whose_turn_it_is(browser: Any, server: Server) -> None:
    created = new_table(server)
    first_context, first = open_seat(browser, server, created["seats"][0]["link"])
    second_context, second = open_seat(browser, server, created["seats"][1]["link"])
    wait_for_view(first, "v.viewer === 0 && v.legal.length > 0")
    wait_for_view(second, "v.viewer === 1")
    assert first.title().startswith("▶ Your turn · Chaos Checkers")
    assert icon(first) == "/static/favicon-turn.svg"
    assert not second.title().startswith("▶")
    assert icon(second) == "/static/favicon.svg"
    # The first person moves: the turn passes to the second screen.
    before = move(server, created, 0)["version"]
    wait_for_view(second, f"v.version >= {before} && v.legal.length > 0")
    second.wait_for_function("() => document.title.startsWith('▶ Your turn')")
    assert icon(second) == "/static/favicon-turn.svg"
    first.wait_for_function("() => !document.title.startsWith('▶')")
    assert icon(first) == "/static/favicon.svg"
    # The sound is off until asked for; the notification waits for the person's button.
    assert second.locator("#turn-sound").inner_text() == "Sound on my turn: off"
    second.locator("#turn-sound").click()
    assert second.locator("#turn-sound").get_attribute("aria-pressed") == "true"
    assert second.evaluate("() => localStorage.getItem('cg-turn-sound')") == "on"
    first_context.close()
    second_context.close()


def test_a_person_coming_back_sees_what_happened_since_they_last_played(browser: Any, server: Server) -> None:
    created = new_table(server)
    move(server, created, 0)
    answered = move(server, created, 1)
    context, page = open_seat(browser, server, created["seats"][0]["link"])
    wait_for_view(page, f"v.version === {answered['version']} && v.legal.length > 0")
    since = page.locator("#since")
    since.wait_for(state="visible")
    entries = page.locator("#since-list li").all_inner_texts()
    theirs = [e for e in answered["log"] if e["actor"] == 1]
    assert len(entries) == len(theirs) == 1
    assert theirs[0]["description"] in entries[0]
    assert page.locator("#status").inner_text() == f"Your turn, {answered['players'][0]['name']}."
    screenshot(page, "talk-since-wide")
    # Once the person plays, nothing has happened since: the box goes.
    move(server, created, 0)
    page.wait_for_function("() => document.getElementById('since').hidden")
    # The second person, who has not played since, is shown the first person's moves.
    other_context, other = open_seat(browser, server, created["seats"][1]["link"])
    other.locator("#since").wait_for(state="visible")
    assert len(other.locator("#since-list li").all_inner_texts()) == 1
    context.close()
    other_context.close()


def test_the_chat_shows_a_message_as_text_never_as_markup(browser: Any, server: Server) -> None:
    created = new_table(server)
    first_context, first = open_seat(browser, server, created["seats"][0]["link"])
    second_context, second = open_seat(browser, server, created["seats"][1]["link"])
    spectator_context, spectator = open_seat(browser, server, created["spectator"], PHONE)
    nasty = '<img src=x onerror="window.pwned=1"> hello'
    first.locator("#chat-text").fill(nasty)
    first.locator("#chat-form button").click()
    for page in (first, second, spectator):
        page.locator("#chat-list li").first.wait_for()
        assert page.locator("#chat-list li .name").first.inner_text() == created["seats"][0]["name"]
        assert nasty in page.locator("#chat-list li").first.inner_text()
        assert page.locator("#chat-list img").count() == 0
        assert page.evaluate("() => window.pwned") is None
    # A quick reaction is a message like any other.
    second.locator("#reactions button", has_text="Well played").click()
    first.wait_for_function("() => document.querySelectorAll('#chat-list li').length === 2")
    assert "Well played" in first.locator("#chat-list li").nth(1).inner_text()
    # Spectators read but have nothing to post with.
    assert spectator.locator("#chat-form").is_hidden() and spectator.locator("#reactions").is_hidden()
    screenshot(first, "talk-chat-wide")
    screenshot(spectator, "talk-chat-phone")
    # Muting hides the chat on this device, and is remembered.
    second.locator("#chat-mute").click()
    assert second.locator("#chat-list").is_hidden() and second.locator("#chat-muted").is_visible()
    second.reload()
    second.wait_for_function("() => window.chaosgamesPage !== undefined")
    assert second.locator("#chat-muted").is_visible()
    assert second.locator("#chat-mute").inner_text() == "Unmute chat"
    for context in (first_context, second_context, spectator_context):
        context.close()


def test_the_table_passes_axe_and_fits_a_phone(browser: Any, server: Server) -> None:
    created = new_table(server)
    move(server, created, 0)
    move(server, created, 1)
    said = {"text": "Your move, friend."}
    server.post(f"/api/games/{created['id']}/chat", said, created["seats"][1]["token"])
    for name, viewport in (("wide", WIDE), ("phone", PHONE)):
        for scheme in ("light", "dark"):
            context = browser.new_context(viewport=viewport, color_scheme=scheme)
            page = context.new_page()
            page.goto(server.url + created["seats"][0]["link"])
            page.wait_for_function("() => window.chaosgamesTable && window.chaosgamesTable.news !== null")
            page.locator("#since").wait_for(state="visible")
            assert serious_violations(page) == []
            screenshot(page, f"talk-table-{name}-{scheme}")
            if name == "phone":
                width = page.evaluate("() => document.documentElement.scrollWidth")
                assert width <= viewport["width"]
            context.close()


def test_undo_shows_only_while_the_policy_allows_it_and_works(browser: Any, server: Server) -> None:
    created = new_table(server)
    black_context, black = open_seat(browser, server, created["seats"][0]["link"])
    white_context, white = open_seat(browser, server, created["seats"][1]["link"])
    wait_for_view(black, "v.viewer === 0 && v.legal.length > 0")
    assert black.locator("#undo-box").is_hidden()  # nothing played yet
    played = move(server, created, 0)
    wait_for_view(black, f"v.version === {played['version']}")
    black.locator("#undo").wait_for(state="visible")
    wait_for_view(white, f"v.version === {played['version']}")
    assert white.locator("#undo-box").is_hidden()  # not White's to take back
    screenshot(black, "talk-undo-wide")
    black.locator("#undo").click()
    # The move is gone on both screens and Black is to act again.
    seen = wait_for_view(black, f"v.version > {played['version']} && v.legal.length > 0")
    assert seen["to_act"] == 0
    black.wait_for_function("() => window.chaosgamesPage.log.length === 0")
    white.wait_for_function("() => window.chaosgamesPage.log.length === 0")
    assert black.locator("#undo-box").is_hidden()
    assert black.errors == [] and white.errors == []
    black_context.close()
    white_context.close()


def test_a_takeback_asked_for_is_accepted_by_the_other_person(browser: Any, server: Server) -> None:
    created = new_table(server)
    move(server, created, 0)
    answered = move(server, created, 1)
    black_context, black = open_seat(browser, server, created["seats"][0]["link"], PHONE)
    white_context, white = open_seat(browser, server, created["seats"][1]["link"])
    wait_for_view(black, f"v.version === {answered['version']}")
    wait_for_view(white, f"v.version === {answered['version']}")
    # White has answered: Black's undo is over, a takeback is asked for instead.
    assert black.locator("#undo").is_hidden()
    ask = black.locator("#takeback-ask")
    ask.wait_for(state="visible")
    assert ask.inner_text() == "Ask to take back the last 2 actions"
    ask.click()
    black.locator("#takeback-withdraw").wait_for(state="visible")
    assert (
        black.locator("#takeback-text").inner_text()
        == "You asked to take back the last 2 actions; waiting for White."
    )
    accept = white.locator("#takeback-accept")
    accept.wait_for(state="visible")
    assert (
        white.locator("#takeback-text").inner_text()
        == "Black asks to take back the last 2 actions: do you accept?"
    )
    screenshot(white, "talk-takeback-wide")
    screenshot(black, "talk-takeback-phone")
    assert serious_violations(white) == [] and serious_violations(black) == []
    accept.click()
    for page in (black, white):
        page.wait_for_function("() => window.chaosgamesPage.log.length === 0")
        page.locator("#takeback-text").wait_for(state="hidden")
    assert wait_for_view(black, "v.legal.length > 0")["to_act"] == 0
    black_context.close()
    white_context.close()


# A browser's notifications and sound, stood in for: what the page shows and plays is
# recorded, and the test says when the tab is hidden.
STAND_INS = """
window.shown = [];
window.chimes = 0;
class FakeNotification {
  constructor(title, options) { window.shown.push([title, options.body]); }
  static get permission() { return window.allowed ? "granted" : "default"; }
  static requestPermission() { window.allowed = true; return Promise.resolve("granted"); }
}
window.Notification = FakeNotification;
const RealAudio = window.AudioContext;
window.AudioContext = class extends RealAudio {
  constructor() { super(); window.chimes += 1; }
};
Object.defineProperty(document, "hidden", { get: () => window.pretendHidden === true });
"""


def test_a_hidden_tab_is_notified_and_chimes_when_the_turn_becomes_its_own(
    browser: Any, server: Server
) -> None:
    created = new_table(server)
    context = browser.new_context(viewport=WIDE)
    context.add_init_script(STAND_INS)
    page = context.new_page()
    page.goto(server.url + created["seats"][1]["link"])
    wait_for_view(page, "v.viewer === 1")
    # Nothing until the person asks: the sound is off, notifications not asked for.
    notify = page.locator("#turn-notify")
    assert notify.inner_text() == "Notify me when it is my turn"
    notify.click()
    page.wait_for_function(
        "() => document.getElementById('turn-notify').textContent.startsWith('Notifications on')"
    )
    page.locator("#turn-sound").click()
    chimes = page.evaluate("() => window.chimes")  # the sample chime on switching it on
    page.evaluate("() => { window.pretendHidden = true; }")
    played = move(server, created, 0)
    wait_for_view(page, f"v.version === {played['version']} && v.legal.length > 0")
    page.wait_for_function("() => window.shown.length === 1")
    assert page.evaluate("() => window.shown") == [["Your turn · Chaos Checkers", "White, it is your turn."]]
    assert page.evaluate("() => window.chimes") == chimes + 1
    # A tab in sight is not notified (its title and icon say it), and a turn that stays
    # the seat's is no new turn.
    page.evaluate("() => { window.pretendHidden = false; }")
    move(server, created, 1)
    again = move(server, created, 0)
    wait_for_view(page, f"v.version === {again['version']} && v.legal.length > 0")
    assert page.evaluate("() => window.shown.length") == 1
    context.close()


class ChattyServer(Server):
    """The test server with the chat's rate as `chaosgames serve --chat-rate 2/minute` sets it."""

    def __init__(self, database: Path) -> None:
        app = create_app(
            str(database), computer_pool="thread", workers=1, limits=replace(GENEROUS, chat="2/minute")
        )
        config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)


def test_a_person_chatting_too_fast_is_told_to_wait(browser: Any, tmp_path: Path) -> None:
    with ChattyServer(tmp_path / "games.sqlite") as chatty:
        created = new_table(chatty)
        context, page = open_seat(browser, chatty, created["seats"][0]["link"])
        page.wait_for_function("() => window.chaosgamesTable.news !== null")
        for n, text in enumerate(("one", "two", "three"), start=1):
            page.locator("#chat-text").fill(text)
            page.locator("#chat-form button").click()
            if n < 3:
                page.wait_for_function(f"() => document.querySelectorAll('#chat-list li').length === {n}")
        problem = page.locator("#chat-problem")
        problem.wait_for(state="visible")
        assert problem.inner_text().startswith("Too many chat messages from your address")
        assert page.locator("#chat-list li").count() == 2
        assert page.locator("#chat-text").input_value() == "three"  # kept, to send again later
        context.close()
