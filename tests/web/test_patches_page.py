"""The game page on patches, in a real browser: it rebuilds each seat's view from the
patches it is sent, and a page that misses one asks for its whole view again and ends with
exactly the server's view (picture, legal actions, move log and all)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.browser import Server, browser, open_seat, page_log, page_view, server, wait_for_view
from tests.web.test_table import GAMES, play_first_placed, play_on, start

__all__ = ["browser", "server"]  # the module's fixtures

PER_CONNECTION = ("log", "log_from", "thinking")


def game_part(doc: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k not in PER_CONNECTION}


@pytest.mark.parametrize("game", list(GAMES))
def test_a_page_that_misses_a_patch_asks_again_and_ends_with_the_servers_view(
    browser: Any, server: Server, game: str
) -> None:
    created = start(server, game, seed=4)
    play_on(server, created, 3)
    seen = server.get(f"/api/games/{created['id']}")
    seats = [{**s, "seat": i} for i, s in enumerate(created["seats"])]
    mover = seats[seen["to_act"]]
    watcher = next(s for s in seats if s["seat"] != seen["to_act"])
    pages = [open_seat(browser, server, s["link"]) for s in (mover, watcher)]
    (_, mine), (_, theirs) = pages
    wait_for_view(mine, f"v.viewer === {mover['seat']} && v.legal.length > 0")
    wait_for_view(theirs, f"v.viewer === {watcher['seat']} && v.version === {seen['version']}")
    theirs.evaluate("() => { window.chaosgamesPage.stream.tests.drop = 1; }")  # the next patch is lost
    play_first_placed(mine)  # the page plays on the board; the server answers it in short
    wait_for_view(mine, f"v.version > {seen['version']}")
    after = play_on(server, created, 2, seed=9)
    for (_, page), seat in zip(pages, (mover, watcher), strict=True):
        wait_for_view(page, f"v.version === {after['version']}")
        page.wait_for_function("() => !window.chaosgamesPage.sending")
        server_view = server.get(f"/api/games/{created['id']}", seat["token"])
        assert game_part(page_view(page)) == game_part(server_view)
        assert page_log(page) == server_view["log"]
        assert page.errors == []
    assert theirs.evaluate("() => window.chaosgamesPage.stream.tests.resyncs") == 1
    assert mine.evaluate("() => window.chaosgamesPage.stream.tests.resyncs") == 0
    for context, _ in pages:
        context.close()
