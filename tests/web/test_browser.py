"""The web app in a real browser (Debian's Chromium): clicks on the board, two people at two
browsers, the replay slider and the phone layout."""

from __future__ import annotations

import random
from typing import Any

from chaosgames import agents
from chaosgames.core.chance import sample_outcome
from chaosgames.core.registry import load_game
from tests.web.browser import (
    PHONE,
    WIDE,
    Server,
    browser,
    click_place,
    open_seat,
    page_log,
    screenshot,
    server,
    wait_for_view,
)
from tests.web.test_hidden_information import leaks, secret_cards

__all__ = ["browser", "server"]  # the module's fixtures


def test_a_checkers_game_advances_by_clicks_against_a_computer(browser: Any, server: Server) -> None:
    created = server.post(
        "/api/games",
        {"game": "chaos-checkers", "seats": ["human", "greedy"], "options": {"chaos": False}, "seed": 2},
    )
    context, page = open_seat(browser, server, created["seats"][0]["link"])
    view = wait_for_view(page, "v.viewer === 0 && v.legal.length > 0")
    assert page.title() == "▶ Your turn · Chaos Checkers · chaosgames"
    for _move in range(3):
        assert view["legal"], view
        move = view["legal"][0]
        click_place(page, move["places"][0])
        # The piece is picked: the squares it may go to are highlighted.
        assert page.locator(f'#board .cg-next[data-mark="{move["places"][1]}"]').count() == 1
        for place in move["places"][1:]:
            click_place(page, place)
        before = view["version"]
        view = wait_for_view(
            page, f"(v.version >= {before + 2} && v.legal.length > 0) || v.status === 'finished'"
        )
        notations = page.locator("#log li code").all_inner_texts()
        assert notations[before] == move["notation"]  # ours, then the computer's answer
        assert len(notations) == view["version"]
    screenshot(page, "checkers-wide")
    assert page.errors == []
    context.close()


def test_two_people_play_royal_racers_each_seeing_only_what_they_may(browser: Any, server: Server) -> None:
    created = server.post(
        "/api/games",
        {"game": "royal-racers", "seats": ["human", "human"], "options": {"flags": 2}, "seed": 5},
    )
    pages = [open_seat(browser, server, seat["link"]) for seat in created["seats"]]
    rng = random.Random(1)
    for number in range(40):
        views = [wait_for_view(page, f"v.viewer === {i}") for i, (_, page) in enumerate(pages)]
        if views[0]["status"] == "finished":
            break
        seat = views[0]["to_act"]
        mover, other = pages[seat][1], pages[1 - seat][1]
        view = wait_for_view(mover, f"v.version === {views[0]['version']} && v.legal.length > 0")
        assert mover.locator("#status").inner_text().startswith("Your turn")
        assert other.locator("#actions-box").is_hidden()
        assert other.locator("#status").inner_text().startswith("Waiting for")
        action = rng.choice(view["legal"])
        if action["places"] and number % 2 == 0:
            click_place(mover, action["places"][0])
            if len([a for a in view["legal"] if a["places"] == action["places"]]) > 1:
                mover.locator(f'#chooser button:has(code:text-is("{action["notation"]}"))').click()
        else:
            mover.locator(f'#actions button[data-notation="{action["notation"]}"]').click()
        for _, page in pages:
            wait_for_view(page, f"v.version > {view['version']}")
    full = server_state(server, created["id"])
    secret = secret_cards(full)
    assert secret, "the game should have face-down cards by now"
    for i, (context, page) in enumerate(pages):
        html = page.content()
        assert leaks(html, secret) == []
        assert "face down" in html
        screenshot(page, f"royal-racers-seat-{i + 1}")
        assert page.errors == []
        context.close()


def server_state(server: Server, game_id: str) -> dict[str, Any]:
    """The full state (face-down cards included) of a game, straight from the server."""
    app: Any = server.server.config.app
    live = app.state.service.cached(game_id)
    doc: dict[str, Any] = live.state.to_json()
    return doc


def chaos_round_actions(players: int = 3) -> tuple[list[str], int]:
    """Actions of a Chaos Cruisers race up to its first chaos round, and who moves the tiles.

    A short race can end before any chaos round, so the first seed whose race reaches one
    is taken (seeded, so always the same race)."""
    game = load_game("chaos-cruisers", players=players, laps=1, gates=2)
    for seed in range(1, 50):
        state = game.new_initial_state()
        rng = random.Random(seed)
        agent = agents.make("greedy", seed=seed)
        actions: list[str] = []
        while not state.is_terminal():
            if any(str(a).startswith("lift:") for a in state.legal_actions()):
                return actions, state.current_player()
            player = state.current_player()
            action = sample_outcome(state.chance_outcomes(), rng) if player < 0 else agent.choose(state)
            state.apply_action(action)
            actions.append(str(action))
    raise AssertionError("no seeded greedy race reached a chaos round")


def test_a_chaos_round_tile_is_moved_on_the_board(browser: Any, server: Server) -> None:
    actions, relocator = chaos_round_actions()
    seats = ["random"] * 3
    seats[relocator] = "human"
    created = server.post(
        "/api/games",
        {"game": "chaos-cruisers", "seats": seats, "options": {"laps": 1, "gates": 2}, "actions": actions},
    )
    context, page = open_seat(browser, server, created["seats"][relocator]["link"])
    view = wait_for_view(page, f"v.viewer === {relocator} && v.legal.length > 0")
    lift = next(a for a in view["legal"] if a["notation"].startswith("lift:"))
    tiles_before = view["observation"]["tiles"]
    click_place(page, lift["places"][0])
    view = wait_for_view(page, f"v.version > {len(actions)} && v.legal.length > 0")
    lay = view["legal"][0]
    assert lay["notation"].startswith("lay:") and lay["places"][0].startswith("spot:")
    assert page.locator(f'#board [data-place="{lay["places"][0]}"]').count() == 1
    screenshot(page, "cruisers-tile-lifted")
    click_place(page, lay["places"][0])
    view = wait_for_view(page, f"v.version > {len(actions) + 1}")
    log = [e["notation"] for e in page_log(page)[len(actions) :]]
    assert log[:2] == [lift["notation"], lay["notation"]]
    assert view["observation"]["tiles"] != tiles_before
    screenshot(page, "cruisers-tile-laid")
    assert page.errors == []
    context.close()


def test_a_cardboard_machines_turn(browser: Any, server: Server) -> None:
    created = server.post(
        "/api/games", {"game": "cardboard-machines", "seats": ["human", "random"], "seed": 8, "options": {}}
    )
    context, page = open_seat(browser, server, created["seats"][0]["link"])
    view = wait_for_view(page, "v.viewer === 0 && v.legal.length > 0")
    start = view["version"]
    gear = next(a for a in view["legal"] if a["notation"] == "gear:2")
    page.locator('#actions button[data-notation="gear:2"]').click()
    view = wait_for_view(page, f"v.version > {start} && (v.legal.length > 0 || v.to_act !== 0)")
    moved = 0
    while view["to_act"] == 0 and any(a["notation"].startswith("move:") for a in view["legal"]):
        step = next(a for a in view["legal"] if a["notation"].startswith("move:") and a["places"])
        click_place(page, step["places"][0])
        view = wait_for_view(page, f"v.version > {view['version']}")
        moved += 1
    mine = [e["notation"] for e in page_log(page)[start:] if e["actor"] == 0]
    assert mine[0] == gear["notation"] and sum(n.startswith("move:") for n in mine) == moved >= 1
    screenshot(page, "cardboard-machines-turn")
    assert page.errors == []
    context.close()


def test_the_replay_slider_and_keys_step_through_a_game(browser: Any, server: Server) -> None:
    created = server.post(
        "/api/games",
        {
            "game": "chaos-checkers",
            "seats": ["human", "human"],
            "options": {"chaos": False},
            "actions": ["11-15", "22-18", "15x22"],
        },
    )
    context = browser.new_context(viewport=WIDE)
    page = context.new_page()
    page.goto(f"{server.url}/games/{created['id']}/replay")
    page.wait_for_function("() => window.chaosgamesReplay.at === 3")
    assert page.locator("#position").inner_text() == "3 / 3"
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => window.chaosgamesReplay.at === 2")
    page.keyboard.press("Home")
    page.wait_for_function("() => window.chaosgamesReplay.at === 0")
    page.locator("#slider").fill("1")
    page.wait_for_function("() => window.chaosgamesReplay.at === 1")
    assert page.locator("#position").inner_text() == "1 / 3"
    assert page.locator("#replay-log li.current").inner_text().startswith("Black")
    assert page.locator("#download").get_attribute("href") == f"/api/games/{created['id']}/record"
    screenshot(page, "replay")
    context.close()


def test_the_phone_layout_fits_390_pixels(browser: Any, server: Server) -> None:
    created = server.post(
        "/api/games", {"game": "royal-racers", "seats": ["human", "greedy", "random"], "seed": 4}
    )
    context, page = open_seat(browser, server, created["seats"][0]["link"], viewport=PHONE)
    wait_for_view(page, "v.viewer === 0")
    for path in (None, "/"):
        if path:
            page.goto(server.url + path)
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"]
    page.goto(server.url + created["seats"][0]["link"])
    view = wait_for_view(page, "v.viewer === 0")
    board = page.locator("#board svg").bounding_box()
    assert board is not None and board["width"] <= PHONE["width"] and board["x"] >= 0
    if view["legal"]:
        assert page.locator("#actions-box").is_visible()
    screenshot(page, "royal-racers-phone")
    page.goto(server.url + "/")
    screenshot(page, "lobby-phone")
    assert page.errors == []
    context.close()
