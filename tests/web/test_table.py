"""The table tells the story (issue 48), in a real browser: every change of the board is
marked, animated and told; the board is explained and played with a mouse, a finger or the
keyboard; the pages fit a phone and pass axe-core.

Each game is played by two people (three in Chaos Cruisers) at their own browser, seeded.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from tests.web.browser import (
    PHONE,
    WIDE,
    Server,
    browser,
    click_place,
    open_seat,
    screenshot,
    server,
    wait_for_view,
)

__all__ = ["browser", "server"]  # the module's fixtures

GAMES = {
    "chaos-checkers": ["human", "human"],
    "chaos-cruisers": ["human", "human", "human"],
    "royal-racers": ["human", "human"],
    "cardboard-machines": ["human", "human"],
}


def start(server: Server, game: str, seed: int = 3, options: dict[str, Any] | None = None) -> dict[str, Any]:
    created: dict[str, Any] = server.post(
        "/api/games", {"game": game, "seats": GAMES[game], "options": options or {}, "seed": seed}
    )
    return created


def play_on(server: Server, created: dict[str, Any], decisions: int, seed: int = 1) -> dict[str, Any]:
    """`decisions` random decisions through the API (the people's tokens); the spectator's view."""
    rng = random.Random(seed)
    tokens = [s["token"] for s in created["seats"]]
    for _ in range(decisions):
        seen = server.get(f"/api/games/{created['id']}")
        if seen["status"] != "running":
            break
        seat = seen["to_act"]
        mine = server.get(f"/api/games/{created['id']}", tokens[seat])
        action = rng.choice(mine["legal"])
        server.post(
            f"/api/games/{created['id']}/actions",
            {"action": action["notation"], "version": mine["version"]},
            tokens[seat],
        )
    view: dict[str, Any] = server.get(f"/api/games/{created['id']}")
    return view


def until_places(server: Server, created: dict[str, Any], seed: int = 2) -> None:
    """Play on (randomly) until the seat to act has actions on the board."""
    for step in range(200):
        view = server.get(f"/api/games/{created['id']}")
        seat = view["to_act"]
        if seat is None:
            raise AssertionError("the game ended before a seat had actions on the board")
        mine = server.get(f"/api/games/{created['id']}", created["seats"][seat]["token"])
        if any(a["places"] for a in mine["legal"]):
            return
        play_on(server, created, 1, seed=seed + step)
    raise AssertionError("no seat had actions on the board")


def mover_page(browser: Any, server: Server, created: dict[str, Any], viewport: dict[str, int] = WIDE) -> Any:
    until_places(server, created)
    view = server.get(f"/api/games/{created['id']}")
    seat = view["to_act"]
    context, page = open_seat(browser, server, created["seats"][seat]["link"], viewport)
    wait_for_view(page, f"v.viewer === {seat} && v.legal.length > 0")
    settled(page)
    return context, page, seat


def settled(page: Any) -> None:
    """Wait until nothing on the page moves."""
    page.wait_for_function("() => document.getAnimations().length === 0")


def play_first_placed(page: Any) -> dict[str, Any]:
    """Play, by clicks on the board, the first legal action that has places (else the first
    action of the list); the action."""
    view = wait_for_view(page, "v.legal.length > 0")
    placed = [a for a in view["legal"] if a["places"]]
    action = placed[0] if placed else view["legal"][0]
    if placed:
        for place in action["places"]:
            click_place(page, place)
            chooser = page.locator(f'#chooser:not([hidden]) button:has(code:text-is("{action["notation"]}"))')
            if chooser.count():
                chooser.click()
                break
    else:
        page.locator(f'#actions button[data-notation="{action["notation"]}"]').click()
    return action  # type: ignore[no-any-return]


# -- the last turn: marked, animated, told ------------------------------------------------------


@pytest.mark.parametrize("game", list(GAMES))
def test_the_other_screen_marks_animates_and_tells_the_last_turn(
    browser: Any, server: Server, game: str
) -> None:
    created = start(server, game)
    play_on(server, created, 6)
    context, page, seat = mover_page(browser, server, created)
    others = [open_seat(browser, server, s["link"]) for i, s in enumerate(created["seats"]) if i != seat]
    watcher = others[0][1]
    before = wait_for_view(watcher, "v.version > 0")
    changes = watcher.evaluate("() => cgBoard.lastMotion.changes")
    played = play_first_placed(page)
    view = wait_for_view(watcher, f"v.version > {before['version']}")
    watcher.wait_for_function(f"() => cgBoard.lastMotion.changes > {changes}")
    turn = view["turn"]
    # The decision is in the latest turn, told in a sentence beside the board ...
    assert (
        played["notation"] in [e["notation"] for e in turn["events"]] or view["version"] > before["version"]
    )
    story = watcher.locator("#story-list li").all_inner_texts()
    assert len(story) == len(turn["events"]) >= 1
    for item, event in zip(story, turn["events"], strict=True):
        assert event["text"] in item and event["text"].endswith((".", "!", ")"))
    # ... every place it changed is outlined (class last-action) ...
    assert turn["places"], turn
    for place in turn["places"]:
        assert watcher.locator(f'#board .last-action[data-mark="{place}"]').count() == 1, place
    # ... and it moved: each motion at most about 400 ms.
    motion = watcher.evaluate("() => cgBoard.lastMotion")
    assert motion["things"] >= 1 and 0 < motion["longest"] <= 400, motion
    # The log keeps it, grouped by turn.
    headings = watcher.locator("#log .turn h3").all_inner_texts()
    assert headings and headings[-1].startswith(("Turn", "Setup"))
    screenshot(watcher, f"story-{game}")
    for opened, _ in [(context, page), *others]:
        opened.close()


def test_no_motion_for_people_who_ask_for_none(browser: Any, server: Server) -> None:
    created = start(server, "chaos-checkers")
    context, page, seat = mover_page(browser, server, created)
    still = browser.new_context(viewport=WIDE, reduced_motion="reduce")
    watcher = still.new_page()
    watcher.goto(server.url + created["seats"][1 - seat]["link"])
    before = wait_for_view(watcher, "v.version > 0")
    play_first_placed(page)
    wait_for_view(watcher, f"v.version > {before['version']}")
    watcher.wait_for_function("() => cgBoard.lastMotion.changes >= 1")
    assert watcher.evaluate("() => cgBoard.lastMotion.things") == 0
    assert watcher.evaluate("() => document.getAnimations().length") == 0
    assert watcher.locator("#board .last-action").count() >= 1  # marked all the same
    context.close()
    still.close()


def test_computer_turns_are_shown_one_after_another(
    browser: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Computer seats answering faster than people can follow (every 0.05 s): the page shows
    each change for at least its motion and a pause, never several at once."""
    with Server(tmp_path_factory.mktemp("paced") / "games.sqlite", pace=0.05) as server:
        shown_one_after_another(browser, server)


def shown_one_after_another(browser: Any, server: Server) -> None:
    created = server.post(
        "/api/games", {"game": "chaos-checkers", "seats": ["random", "random"], "seed": 5, "options": {}}
    )
    context = browser.new_context(viewport=WIDE)
    page = context.new_page()
    page.add_init_script(
        "window.cgShown = []; setInterval(() => { const p = window.chaosgamesPage;"
        " if (p && (!cgShown.length || cgShown[cgShown.length - 1][0] !== p.view.version))"
        " cgShown.push([p.view.version, performance.now()]); }, 20);"
    )
    page.goto(f"{server.url}/games/{created['id']}")
    page.wait_for_function("() => window.cgShown.length >= 6", timeout=60_000)
    shown = page.evaluate("() => window.cgShown")
    gaps = [later[1] - earlier[1] for earlier, later in itertools.pairwise(shown[1:])]
    assert min(gaps) >= 380, shown  # MOTION_MS: each change is seen before the next comes
    context.close()


# -- help in the page ------------------------------------------------------------------------------


@pytest.mark.parametrize("game", list(GAMES))
def test_the_key_titles_and_rules_links_explain_the_board(browser: Any, server: Server, game: str) -> None:
    created = start(server, game)
    play_on(server, created, 4)
    context, page, _seat = mover_page(browser, server, created)
    view = wait_for_view(page, "v.legal.length > 0")
    # The key is HTML beside the board.
    assert page.locator("#legend").is_visible()
    assert page.locator("#legend-body h3").count() >= 1
    # A tap on a place says what it is.
    placed = next(a for a in view["legal"] if a["places"])
    node = page.locator(f'#board [data-place="{placed["places"][0]}"]').first
    title = node.evaluate(
        "n => { const o = n.closest('[data-piece], [data-place]');"
        " const t = [...o.children].find(c => c.tagName === 'title'); return t ? t.textContent : null; }"
    )
    assert title, f"the place {placed['places'][0]} has no title"
    box = node.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    inspected = page.locator("#inspect").inner_text()
    assert inspected and inspected != "Hover over or tap anything on the board to see what it is."
    # Every group of actions links to the rules' section it follows, and that section exists.
    links = page.locator("#actions .rules-link")
    assert links.count() >= 1
    href = links.first.get_attribute("href")
    assert href is not None and href.startswith(f"/rules/{game}")
    if "#" in href:
        rules = context.new_page()
        rules.goto(server.url + href)
        assert rules.locator(f"#{href.split('#', 1)[1]}").count() == 1
        rules.close()
    context.close()


# -- phones -------------------------------------------------------------------------------------------

TEXT_SIZES = """() => {
  const small = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim()) continue;
    const el = node.parentElement;
    const away = '[hidden], .visually-hidden, details:not([open]) > :not(summary), script, title';
    if (!el || el.closest(away)) continue;
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    const range = document.createRange(); range.selectNodeContents(node);
    if (!range.getClientRects().length) continue;
    let size = parseFloat(style.fontSize);
    const svg = el.closest('svg');
    if (svg) { const m = svg.getScreenCTM(); size *= m ? m.a : 1; }
    if (size < 10.99) small.push([node.textContent.trim().slice(0, 30), size]);
  }
  return small;
}"""

PLACE_SIZES = """(places) => {
  const out = [];
  for (const place of places) {
    let x1 = Infinity, y1 = Infinity, x2 = -Infinity, y2 = -Infinity;
    for (const n of document.querySelectorAll('#board [data-place]')) {
      if (n.getAttribute('data-place') !== place) continue;
      const r = n.getBoundingClientRect();
      x1 = Math.min(x1, r.left); y1 = Math.min(y1, r.top);
      x2 = Math.max(x2, r.right); y2 = Math.max(y2, r.bottom);
    }
    out.push([place, x2 - x1, y2 - y1]);
  }
  return out;
}"""


@pytest.mark.parametrize("game", list(GAMES))
def test_a_phone_shows_everything_readable_and_tappable(browser: Any, server: Server, game: str) -> None:
    created = start(server, game)
    play_on(server, created, 8)
    context, page, _seat = mover_page(browser, server, created, PHONE)
    view = wait_for_view(page, "v.legal.length > 0")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.evaluate(TEXT_SIZES) == []
    places = sorted({p for a in view["legal"] for p in a["places"]})
    assert places, "the seat to act has places to tap"
    sizes = page.evaluate(PLACE_SIZES, places)
    assert [s for s in sizes if s[1] < 24 or s[2] < 24] == [], sizes
    page.locator("#zoom").click()
    settled(page)
    sizes = page.evaluate(PLACE_SIZES, places)
    assert [s for s in sizes if s[1] < 40 or s[2] < 40] == [], sizes
    screenshot(page, f"phone-zoomed-{game}")
    page.locator("#zoom").click()
    screenshot(page, f"phone-{game}")
    for path in ("/", f"/rules/{game}", f"/games/{created['id']}"):
        page.goto(server.url + path)
        page.wait_for_load_state("load")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"], path
        assert page.evaluate(TEXT_SIZES) == [], path
    context.close()


# -- the keyboard ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", list(GAMES))
def test_a_move_is_played_with_the_keyboard_alone(browser: Any, server: Server, game: str) -> None:
    created = start(server, game)
    play_on(server, created, 5)
    context, page, _seat = mover_page(browser, server, created)
    view = wait_for_view(page, "v.legal.length > 0")
    placed = [a for a in view["legal"] if a["places"]]
    action = placed[-1]
    page.locator("#board").focus()
    cursor = "() => { const m = document.querySelector('#board .cg-cursor'); return m && m.dataset.mark; }"
    # Escape starts again; the cursor walks the places; Enter picks them.
    page.keyboard.press("Escape")
    page.locator("#board").focus()
    for place in action["places"]:
        for _ in range(400):
            if page.evaluate(cursor) == place:
                break
            page.keyboard.press("ArrowRight")
        assert page.evaluate(cursor) == place, f"the cursor never reached {place}"
        page.keyboard.press("Enter")
        if page.locator("#chooser").is_visible():
            page.locator(f'#chooser button:has(code:text-is("{action["notation"]}"))').focus()
            page.keyboard.press("Enter")
            break
    after = wait_for_view(page, f"v.version > {view['version']}")
    assert after["log"][view["version"] - after["log_from"]]["notation"] == action["notation"]
    context.close()


# -- accessibility --------------------------------------------------------------------------------------


def serious_violations(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    found = results.response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes'][:3]]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_on_any_page(browser: Any, server: Server, scheme: str) -> None:
    context = browser.new_context(viewport=WIDE, color_scheme=scheme)
    page = context.new_page()
    pages = ["/", "/replay", "/rules/chaos-checkers"]
    for game in GAMES:
        created = start(server, game)
        play_on(server, created, 6)
        view = server.get(f"/api/games/{created['id']}")
        pages += [f"/games/{created['id']}", created["seats"][view["to_act"]]["link"]]
        if game != "royal-racers":  # its replay opens when the game is over
            pages.append(f"/games/{created['id']}/replay")
    found = {}
    for path in pages:
        page.goto(server.url + path)
        page.wait_for_load_state("networkidle")
        if "/games/" in path and "/replay" not in path:
            wait_for_view(page, "v.version > 0")
        if "/replay" in path and path != "/replay":
            page.wait_for_function("() => window.chaosgamesReplay.at > 0")
        problems = serious_violations(page)
        if problems:
            found[path] = problems
    assert found == {}
    context.close()


def test_the_dark_theme_follows_the_system(browser: Any, server: Server) -> None:
    context = browser.new_context(viewport=WIDE, color_scheme="dark")
    page = context.new_page()
    page.goto(server.url + "/")
    background = page.evaluate("() => getComputedStyle(document.documentElement).backgroundColor")
    assert background == "rgb(20, 23, 29)"
    context.close()


# -- the connection ---------------------------------------------------------------------------------------


def test_an_unreachable_server_is_said_and_cleared_when_it_answers_again(
    browser: Any, server: Server
) -> None:
    created = start(server, "chaos-checkers")
    context, page, _seat = mover_page(browser, server, created)
    view = wait_for_view(page, "v.legal.length > 0")
    context.set_offline(True)
    page.locator(f'#actions button[data-notation="{view["legal"][0]["notation"]}"]').click()
    page.wait_for_function("() => !window.chaosgamesPage.online")
    assert "cannot be reached" in page.locator("#message").inner_text()
    assert page.locator("#actions-box").is_hidden()  # nothing is offered that cannot be sent
    assert page.locator("#board .cg-next").count() == 0
    context.set_offline(False)
    page.wait_for_function("() => window.chaosgamesPage.live", timeout=20_000)
    assert page.locator("#message").is_hidden()
    assert page.locator("#actions-box").is_visible()
    play_first_placed(page)
    wait_for_view(page, f"v.version > {view['version']}")
    context.close()


# -- the lobby ---------------------------------------------------------------------------------------------


def test_the_lobby_offers_people_and_levels_by_choice(browser: Any, server: Server) -> None:
    context = browser.new_context(viewport=WIDE)
    page = context.new_page()
    page.goto(server.url + "/")
    card = page.locator("#new-chaos-checkers")
    card.locator("summary.button").click()
    form = card.locator("form.create")
    assert form.locator("select[name=seat0]").input_value() == "human"
    assert form.locator("select[name=seat1]").input_value() == "medium"
    form.locator("select[name=seat1]").select_option("human")
    form.locator("button[type=submit]").click()
    card.locator(".created a.seat-link").nth(1).wait_for()
    assert card.locator(".created a.seat-link").count() == 2
    # Another computer player by its spec; a level that does not exist names the levels.
    card.locator("select[name=seat1]").select_option("other")
    card.locator("input[name=spec1]").fill("hardest")
    form.locator("button[type=submit]").click()
    problem = form.locator(".problem")
    problem.wait_for()
    assert "easy, medium or hard" in problem.inner_text()
    screenshot(page, "lobby-new-game")
    context.close()
