"""Two people (or two tabs of one) send a move for the same seat and the same turn at the
same moment, 200 times: exactly one is accepted each time, the other is answered 409 and
the game holds the accepted one alone. Half the pairs reach two different server processes
on one database (the database decides), half reach the same process."""

from __future__ import annotations

import threading
from typing import Any

from tests.web.servers import Refused, ServerProcess, Servers

ROUNDS = 200


def send_together(
    targets: list[tuple[ServerProcess, str]], game_id: str, version: int, token: str
) -> list[int]:
    """POST each (server, action) at once (released by one barrier); their statuses."""
    barrier = threading.Barrier(len(targets))
    statuses = [0] * len(targets)

    def send(i: int, server: ServerProcess, action: str) -> None:
        barrier.wait(timeout=30)
        try:
            server.post(f"/api/games/{game_id}/actions", {"action": action, "version": version}, token)
            statuses[i] = 200
        except Refused as refused:
            statuses[i] = refused.status

    threads = [threading.Thread(target=send, args=(i, *t)) for i, t in enumerate(targets)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return statuses


def new_game(server: ServerProcess) -> tuple[str, list[str]]:
    created = server.post(
        "/api/games", {"game": "chaos-checkers", "seats": ["human", "human"], "options": {"chaos": False}}
    )
    return created["id"], [s["token"] for s in created["seats"]]


def test_of_two_moves_for_one_turn_exactly_one_is_accepted(database: str, servers: Servers) -> None:
    first, second = servers.start(database), servers.start(database)
    game_id, tokens = new_game(first)
    # Views are read from the server that accepted the last move: the other one may hear
    # of it a moment later (a move sent to it meanwhile makes it read the game first).
    current = first
    for round_number in range(ROUNDS):
        spectator: dict[str, Any] = current.get(f"/api/games/{game_id}")
        if spectator["status"] == "finished":
            game_id, tokens = new_game(current)
            spectator = current.get(f"/api/games/{game_id}")
        token = tokens[spectator["to_act"]]
        mine = current.get(f"/api/games/{game_id}", token)
        version, legal = mine["version"], [a["notation"] for a in mine["legal"]]
        other = second if round_number % 2 == 0 else first
        statuses = send_together([(first, legal[0]), (other, legal[-1])], game_id, version, token)
        assert sorted(statuses) == [200, 409], f"round {round_number}: {statuses}"
        accepted, current = (legal[0], first) if statuses[0] == 200 else (legal[-1], other)
        after = current.get(f"/api/games/{game_id}")
        # Plain checkers draws no chance outcomes: the accepted move alone was added.
        assert after["version"] == version + 1
        log = current.get(f"/api/games/{game_id}/replay")["log"]
        assert [e["notation"] for e in log][version:] == [accepted]
