"""What new players found at the table (issue 48's defects), each in a real browser: a wrong
guess shown and said, no memory aid in the page, reselecting a piece, a crash explained, a
chaos round announced, the board turned for its seat, notation help without chance forms."""

from __future__ import annotations

import random
import re
from typing import Any

from chaosgames.core.chance import sample_outcome
from chaosgames.core.registry import load_game
from chaosgames.games.royal_racers.board import CARD_BY_NAME, RANK_OF, SQUARE_NAMES
from tests.web.browser import (
    WIDE,
    Server,
    browser,
    click_place,
    open_seat,
    screenshot,
    server,
    wait_for_view,
)
from tests.web.test_browser import chaos_round_actions
from tests.web.test_hidden_information import leaks, secret_cards
from tests.web.test_table import mover_page, play_on, settled, start

__all__ = ["browser", "server"]  # the module's fixtures


def wrong_guess_actions(seed: int = 1) -> tuple[list[str], str, int]:
    """Actions of a two-player Royal Racers game up to a seat's chance to guess a face-down
    card wrong; the wrong guess and the seat (seeded random play, the first seed that has one)."""
    game = load_game("royal-racers", players=2)
    for attempt in range(seed, seed + 200):
        rng = random.Random(attempt)
        state = game.new_initial_state()
        actions: list[str] = []
        while not state.is_terminal() and len(actions) < 400:
            player = state.current_player()
            if player < 0:
                action = sample_outcome(state.chance_outcomes(), rng)
            else:
                doc = state.to_json()
                for guess in (a for a in state.legal_actions() if str(a).startswith("up:")):
                    card = doc["cards"][SQUARE_NAMES.index(str(guess)[3:])]
                    rank = RANK_OF[CARD_BY_NAME[card.casefold()]]
                    if rank != doc["roll"]:
                        return actions, str(guess), player
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            actions.append(str(action))
    raise AssertionError("no seeded game offered a wrong guess")


def test_a_wrong_guess_is_shown_to_everyone_for_its_turn_and_then_hidden_again(
    browser: Any, server: Server
) -> None:
    actions, guess, seat = wrong_guess_actions()
    created = server.post(
        "/api/games", {"game": "royal-racers", "seats": ["human", "human"], "options": {}, "actions": actions}
    )
    pages = [open_seat(browser, server, s["link"]) for s in created["seats"]]
    spectator = open_seat(browser, server, f"/games/{created['id']}")
    mover, other = pages[seat][1], pages[1 - seat][1]
    view = wait_for_view(mover, f"v.viewer === {seat} && v.legal.length > 0")
    square = guess[3:]
    click_place(mover, square)
    for page in (other, spectator[1]):
        seen = wait_for_view(page, f"v.version > {view['version']}")
        story = page.locator("#story-list").inner_text()
        assert f"Wrong: {square} is the " in story, story
        # The card is on the board face up, marked wrong, for this turn.
        assert seen["observation"]["last_flip"]["card"] is not None
        face = page.locator(f'#board [data-piece="card-{square}"]').inner_html()
        assert "✗" in face
    screenshot(other, "royal-racers-wrong-guess")
    # The next decision turns the page back: the card's face is nowhere any more.
    to_act = wait_for_view(spectator[1], f"v.version > {view['version']}")["to_act"]
    deciding = pages[to_act][1]
    after = wait_for_view(deciding, f"v.version > {view['version']} && v.legal.length > 0")
    deciding.locator(f'#actions button[data-notation="{after["legal"][0]["notation"]}"]').click()
    for page in (pages[1 - to_act][1], spectator[1]):
        seen = wait_for_view(page, f"v.version > {after['version']}")
        full = page_server_state(server, created["id"])
        secret = secret_cards(full)
        assert square in secret
        assert leaks(page.content(), secret) == []
        assert (
            "Wrong:" not in page.locator("#log").inner_text()
            or f"{square} is the" not in page.locator("#log").inner_text()
        )
    for context, _ in [*pages, spectator]:
        context.close()


def page_server_state(server: Server, game_id: str) -> dict[str, Any]:
    app: Any = server.server.config.app
    doc: dict[str, Any] = app.state.service.cached(game_id).state.to_json()
    return doc


def test_without_the_memory_aid_the_log_keeps_no_die_face_and_no_turned_card(
    browser: Any, server: Server
) -> None:
    created = start(server, "royal-racers", seed=11)
    play_on(server, created, 60, seed=4)
    context, page = open_seat(browser, server, f"/games/{created['id']}")
    view = wait_for_view(page, "v.version > 0")
    turn_start = view["turn"]["start"]
    rolls = [e for e in page.evaluate("() => window.chaosgamesPage.log") if e["notation"].startswith("roll")]
    assert rolls
    for entry in rolls:
        if entry["seq"] <= turn_start:  # before the latest turn: no face
            assert entry["notation"] == "roll", entry
            assert re.fullmatch(r"The die is rolled for \w+\.", entry["description"]), entry
    log_text = page.locator("#log").inner_text()
    assert "The die shows" not in log_text
    full = page_server_state(server, created["id"])
    assert leaks(page.content(), secret_cards(full)) == []
    context.close()


def test_clicking_another_own_piece_changes_the_selection_and_never_spends_a_potion(
    browser: Any, server: Server
) -> None:
    created = start(server, "chaos-checkers", seed=4)
    context, page, _seat = mover_page(browser, server, created)  # the first move: many pieces may go
    view = wait_for_view(page, "v.legal.length > 0")
    starts = [
        a["places"][0] for a in view["legal"] if a["places"] and not a["places"][0].startswith("potion-")
    ]
    assert len(set(starts)) >= 2, [a["notation"] for a in view["legal"]]
    first, second = sorted(set(starts), key=starts.index)[:2]
    for place in (first, second, first):
        click_place(page, place)
    settled(page)
    assert page.evaluate("() => window.chaosgamesPage.view.version") == view["version"]  # nothing played
    assert page.locator(f'#board .cg-picked[data-mark="{first}"]').count() == 1
    assert page.locator("#board .cg-picked").count() == 1
    # A potion is spent from its badge: picked first, then its target.
    potions = [a for a in view["legal"] if a["places"] and a["places"][0].startswith("potion-")]
    assert all(p["places"][0].startswith("potion-") for p in potions)
    context.close()


def test_a_crash_and_every_stress_die_are_explained(browser: Any, server: Server) -> None:
    created = start(server, "cardboard-machines", seed=6)
    for step in range(120):
        play_on(server, created, 5, seed=step)
        log = server.get(f"/api/games/{created['id']}/log?stop=100000")["log"]
        if any(" crashes" in e["description"] for e in log):
            break
    else:
        raise AssertionError("no crash in 600 random decisions")
    context, page = open_seat(browser, server, f"/games/{created['id']}")
    wait_for_view(page, "v.version > 0")
    text = page.locator("#log").inner_text()
    crash = next(line for line in text.splitlines() if " crashes" in line)
    assert ":" in crash.split(" crashes", 1)[1], crash  # why: "red crashes: the move ends in terrain ..."
    dice = [line for line in text.splitlines() if "stress die" in line.casefold() and " shows " in line]
    assert dice and all("(" in line for line in dice), dice  # each face says what it does
    assert "♥" in page.locator("#legend").inner_text()  # lives, labelled
    screenshot(page, "cardboard-machines-crash")
    context.close()


def test_a_chaos_round_is_announced_and_the_cruisers_show_heading_and_next_gate(
    browser: Any, server: Server
) -> None:
    actions, relocator = chaos_round_actions()
    created = server.post(
        "/api/games",
        {
            "game": "chaos-cruisers",
            "seats": ["human"] * 3,
            "options": {"laps": 1, "gates": 2},
            "actions": actions,
        },
    )
    context, page = open_seat(browser, server, created["seats"][relocator]["link"])
    wait_for_view(page, f"v.viewer === {relocator} && v.legal.length > 0")
    log = page.locator("#log").inner_text()
    assert "Chaos round" in log and "reshapes the course" in log
    assert page.locator("#board .next-gate").count() >= 1
    assert page.locator("#board [data-piece^='cruiser-'] polygon").count() >= 1  # the noses
    assert "next gate" in page.locator("#legend").inner_text().casefold()
    context.close()


def test_the_checkers_board_is_turned_to_each_seat(browser: Any, server: Server) -> None:
    created = start(server, "chaos-checkers", seed=2)
    play_on(server, created, 1)
    heights = []
    for seat in (0, 1):
        context, page = open_seat(browser, server, created["seats"][seat]["link"])
        wait_for_view(page, f"v.viewer === {seat}")
        board = page.locator("#board svg").bounding_box()
        square = page.locator('#board [data-place="1"]').first.bounding_box()
        assert board is not None and square is not None
        heights.append((square["y"] - board["y"]) / board["height"])
        context.close()
    # Squares 1-4 are the first player's home row: at the bottom of its own board, the top
    # of the other seat's.
    assert heights[0] > 0.8 and heights[1] < 0.2, heights


def test_nonsense_notation_is_told_what_a_player_may_type(browser: Any, server: Server) -> None:
    created = start(server, "cardboard-machines", seed=1)
    context, page, _seat = mover_page(browser, server, created)
    page.locator("#notation").fill("zzz")
    page.locator("#notation-form button").click()
    message = page.locator("#message")
    message.wait_for()
    text = message.inner_text()
    assert (
        "actions look like" in text and "first:" not in text and "board:" not in text and "roll:" not in text
    )
    context.close()


def test_the_replay_viewer_marks_and_tells_each_turn(browser: Any, server: Server) -> None:
    created = start(server, "chaos-checkers", seed=3)
    play_on(server, created, 8)
    context = browser.new_context(viewport=WIDE)
    page = context.new_page()
    page.goto(f"{server.url}/games/{created['id']}/replay")
    page.wait_for_function("() => window.chaosgamesReplay.at > 0")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => document.querySelectorAll('#replay-board .last-action').length > 0")
    assert page.locator("#story-list li").count() >= 1
    assert page.locator("#legend-body h3").count() >= 1
    assert page.locator("#replay-log .turn h3").count() >= 2
    context.close()
