"""The game page plays its moves on its open WebSocket, in each of the four games: no
HTTP request per move, and the board shows the move as before."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.browser import Server, browser, server, wait_for_view
from tests.web.test_table import GAMES, mover_page, play_first_placed, start

__all__ = ["browser", "server"]  # the module's fixtures


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_move_clicked_on_the_board_goes_on_the_socket(browser: Any, server: Server, game: str) -> None:
    created = start(server, game)
    context, page, _seat = mover_page(browser, server, created)
    posts: list[str] = []
    page.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)
    before = wait_for_view(page, "v.legal.length > 0")["version"]
    play_first_placed(page)
    after = wait_for_view(page, f"v.version > {before}")
    page.wait_for_function("() => !window.chaosgamesPage.sending")
    assert after["version"] > before and [url for url in posts if url.endswith("/actions")] == []
    context.close()
