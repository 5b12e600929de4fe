"""Two server processes on one database, one of them killed with kill -9 in the middle of
a game (on SQLite and on PostgreSQL): every action the players saw accepted is still there
after the restart, none is there twice, the other server takes the dead one's games over
(its computer seats go on moving) and every game ends normally."""

from __future__ import annotations

from typing import Any

from chaosgames.core.records import GameRecord
from tests.web.servers import Refused, ServerProcess, Servers, wait_until


class Person:
    """A person at one seat, acting through whichever server is given, keeping every
    acknowledged action as (version it was decided at, notation)."""

    def __init__(self, game_id: str, token: str) -> None:
        self.game_id, self.token = game_id, token
        self.acknowledged: list[tuple[int, str]] = []
        self.version = 0  # the newest version this person has seen acknowledged

    def turn(self, server: ServerProcess) -> dict[str, Any] | None:
        """The seat's view when it is its turn (waiting for the computer seat), else None
        once the game is over."""

        def mine() -> dict[str, Any] | None:
            view: dict[str, Any] = server.get(f"/api/games/{self.game_id}", self.token)
            return view if view["status"] == "finished" or view["legal"] else None

        view: dict[str, Any] = wait_until(mine, 60, "the person's turn")
        return None if view["status"] == "finished" else view

    def play(self, server: ServerProcess) -> bool:
        """Play the first legal action; False when the game is over."""
        view = self.turn(server)
        if view is None:
            return False
        action, version = view["legal"][0]["notation"], view["version"]
        try:
            server.post(
                f"/api/games/{self.game_id}/actions", {"action": action, "version": version}, self.token
            )
        except Refused as refused:
            assert refused.status == 409, refused.body  # another server's news came first
            return True
        self.acknowledged.append((version, action))
        self.version = max(self.version, version + 1)
        return True


def finished_record(server: ServerProcess, game_id: str) -> GameRecord:
    view = wait_until(
        lambda: (v := server.get(f"/api/games/{game_id}"))["status"] == "finished" and v,
        120,
        f"the end of game {game_id}",
    )
    record = GameRecord.from_json(server.get(f"/api/games/{game_id}/record"))
    assert len(record.actions) == view["version"]
    return record


def test_a_server_killed_mid_game_loses_nothing_and_its_games_finish(database: str, servers: Servers) -> None:
    # The first server waits a second before each computer move, so it dies while thinking.
    first = servers.start(database, pace=1.0)
    second = servers.start(database)
    person_game = first.post(
        "/api/games", {"game": "cardboard-machines", "seats": ["human", "greedy"], "seed": 7}
    )
    computers_game = first.post(
        "/api/games", {"game": "cardboard-machines", "seats": ["random", "random"], "seed": 8}
    )
    person = Person(person_game["id"], person_game["seats"][0]["token"])
    # The person plays through both servers (each hears of the other's moves) until the
    # first server, owner of the game, is thinking for the computer seat: then it dies.
    # The first server is asked only once it has heard of the person's last move (SQLite
    # servers hear of each other's moves by a version poll), so a stale view is never read.
    for number in range(40):
        assert person.play(second if number % 2 else first)
        seen = wait_until(
            lambda: (
                (v := first.get(f"/api/games/{person.game_id}", person.token))["version"] >= person.version
                and (v["thinking"] or v["legal"])
            ),
            10,
            "the computer's thinking or the person's turn",
        )
        if number >= 2 and isinstance(seen, dict):
            break
    else:
        raise AssertionError("the computer seat never had the turn")
    before_kill = first.get(f"/api/games/{computers_game['id']}")
    first.kill()

    # The second server takes both games over: the computer seats move again, and the
    # person plays on through it, then through the first server restarted.
    while len(person.acknowledged) < 8 and person.play(second):
        pass
    restarted = servers.start(database)
    while len(person.acknowledged) < 12 and person.play(
        restarted if len(person.acknowledged) % 2 else second
    ):
        pass
    while person.play(second):  # to the end, through the server that moves the computer seat
        pass

    for game_id in (person.game_id, computers_game["id"]):
        record = finished_record(restarted, game_id)
        state = record.replay()  # every action checked: none applied twice, none skipped
        assert state.is_terminal() and record.result is not None
    record = finished_record(second, person.game_id)
    assert [record.actions[version] for version, _ in person.acknowledged] == [
        action for _, action in person.acknowledged
    ]
    people_moves = [v for v, _ in person.acknowledged]
    assert len(set(people_moves)) == len(people_moves)
    machines = finished_record(second, computers_game["id"])
    assert machines.actions[: before_kill["version"]] == [e["notation"] for e in before_kill["log"]]
