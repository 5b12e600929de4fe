"""A server on another machine stops beating its heartbeat (it lost power, its network went):
its games stay its own while its lease runs, then a live server takes them over and moves
their computer seats. The process check that ends a lease at once on one machine cannot see
another machine, so this is the lease path alone."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from chaosgames.web import create_app
from chaosgames.web.cluster import HEARTBEAT, LEASE
from chaosgames.web.limits import GENEROUS
from chaosgames.web.seats import token_hash
from chaosgames.web.storage import Store
from chaosgames.web.stored import StoredGame
from tests.web.conftest import view
from tests.web.test_api import wait_for

ELSEWHERE = "another-machine:4242:0badcafe"
"""A server id as a server on another host writes it (host:process:random)."""


def game_owned_elsewhere(store: Store) -> str:
    """Plain checkers, a random computer seat to move first, owned by the far server."""
    game = StoredGame("far", "chaos-checkers", {"chaos": False}, 7, "running", 0, None, {}, 0.0, 0.0)
    game.seats, game.token_hashes = ["random", "human"], [None, token_hash("person")]
    store.create_game(game, [], owner=ELSEWHERE)
    return game.id


def test_a_silent_servers_games_wait_out_its_lease_then_move_again(database: str) -> None:
    store = Store(database)
    try:
        store.beat(ELSEWHERE)
        game_id = game_owned_elsewhere(store)
        with TestClient(create_app(database, computer_pool="thread", workers=1, limits=GENEROUS)) as client:
            # Within the lease the far server still owns the game: this one leaves it alone
            # through more than one of its sweeps.
            time.sleep(HEARTBEAT * 1.5)
            assert view(client, game_id)["version"] == 0
            assert store.owned(ELSEWHERE) == [game_id]
            # Its last heartbeat is now older than the lease: at the next sweep the game is
            # taken over and its computer seat moves.
            store.beat(ELSEWHERE, now=time.time() - LEASE - 1)
            moved = wait_for(client, game_id, lambda v: v["version"] >= 1, seconds=HEARTBEAT * 5)
            assert moved["version"] >= 1
            assert store.owned(ELSEWHERE) == []
            assert ELSEWHERE not in store.live_servers(LEASE)
    finally:
        store.close()
