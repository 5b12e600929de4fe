"""kill -9 of a running server: every acknowledged action is kept, and a new server on the
same database continues each game exactly where it was, computer seats included."""

from __future__ import annotations

import time
from pathlib import Path

from chaosgames import agents
from chaosgames.core.records import GameRecord
from chaosgames.web.dice import agent_seed
from tests.web.servers import Servers


def test_a_killed_server_resumes_every_game_exactly(tmp_path: Path, servers: Servers) -> None:
    database = str(tmp_path / "games.sqlite")
    server = servers.start(database, pace=3.0)
    try:
        # Two people at checkers; a person against a computer at Chaos Checkers (with its
        # setup draws); Cardboard Machines between computers only.
        people = server.post("/api/games", {"game": "chaos-checkers", "seats": ["human", "human"], "seed": 1})
        versus = server.post(
            "/api/games", {"game": "chaos-checkers", "seats": ["human", "greedy"], "seed": 2}
        )
        machines = server.post(
            "/api/games", {"game": "cardboard-machines", "seats": ["random", "random"], "seed": 3}
        )
        tokens = [s["token"] for s in people["seats"]]
        for _ in range(4):
            view = server.get(f"/api/games/{people['id']}")
            seat = view["to_act"]
            mine = server.get(f"/api/games/{people['id']}", tokens[seat])
            server.post(
                f"/api/games/{people['id']}/actions",
                {"action": mine["legal"][-1]["notation"], "version": mine["version"]},
                tokens[seat],
            )
        token = versus["seats"][0]["token"]
        mine = server.get(f"/api/games/{versus['id']}", token)
        acknowledged = server.post(
            f"/api/games/{versus['id']}/actions",
            {"action": mine["legal"][-1]["notation"], "version": mine["version"]},
            token,
        )
        # The computer seat is thinking (it waits 3 s) when the server dies.
        assert acknowledged["thinking"] is not None
        before = {g["id"]: server.get(f"/api/games/{g['id']}") for g in (people, versus, machines)}
        seat_view = server.get(f"/api/games/{people['id']}", tokens[before[people["id"]]["to_act"]])
    finally:
        server.kill()

    server = servers.start(database, pace=0.0)
    try:
        after = server.get(f"/api/games/{people['id']}")
        assert {k: after[k] for k in ("version", "svg", "observation", "log", "to_act")} == {
            k: before[people["id"]][k] for k in ("version", "svg", "observation", "log", "to_act")
        }
        assert (
            server.get(f"/api/games/{people['id']}", tokens[after["to_act"]])["legal"] == seat_view["legal"]
        )
        # The computer seat moves again after the restart, as it would have without the crash.
        deadline = time.monotonic() + 120
        while (view := server.get(f"/api/games/{versus['id']}"))["version"] <= acknowledged["version"]:
            assert time.monotonic() < deadline, "the computer seat never moved after the restart"
            time.sleep(0.1)
        assert before[versus["id"]]["version"] == acknowledged["version"]
        assert view["log"][: acknowledged["version"]] == before[versus["id"]]["log"]
        record = GameRecord.from_json(server.get(f"/api/games/{versus['id']}/record"))
        record.actions = [e["notation"] for e in before[versus["id"]]["log"]]
        expected = agents.from_spec("greedy", seed=agent_seed(2, acknowledged["version"])).choose(
            record.replay()
        )
        assert view["log"][acknowledged["version"]]["notation"] == str(expected)
        # The computer-only game goes on from where it stopped, to its end.
        machines_before = before[machines["id"]]
        while (view := server.get(f"/api/games/{machines['id']}"))["status"] != "finished":
            assert time.monotonic() < deadline + 120, "the computers' game did not finish"
            time.sleep(0.2)
        assert view["log"][: machines_before["version"]] == machines_before["log"]
    finally:
        server.kill()
