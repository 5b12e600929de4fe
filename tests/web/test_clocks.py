"""Clocks at the table (issue 50): each person's time, kept by the server from the actions'
commit times; time runs out without any request and does what the table chose; time while
no server kept the game is not charged; a server killed mid-clock (kill -9) loses nothing."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from chaosgames.web import create_app
from chaosgames.web.clocks import ALIVE_EVERY, GAP
from chaosgames.web.limits import GENEROUS
from tests.web.conftest import act, bearer, create, view
from tests.web.servers import Servers, wait_until


def clocked(client: TestClient, **table: Any) -> tuple[str, list[str]]:
    created = create(client, "chaos-checkers", ["human", "human"], seed=1, table=table)
    return created["id"], [s["token"] for s in created["seats"]]


def play_first(client: TestClient, game_id: str, tokens: list[str]) -> dict[str, Any]:
    """The person to act plays their first legal action; the answer (their view)."""
    seat = view(client, game_id)["to_act"]
    mine = view(client, game_id, tokens[seat])
    answer = act(client, game_id, tokens[seat], mine["legal"][0]["notation"], mine["version"])
    assert answer.status_code == 200, answer.text
    seen: dict[str, Any] = answer.json()
    return seen


def wait_for(client: TestClient, game_id: str, check: Any, seconds: float = 20) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        seen = view(client, game_id)
        if check(seen):
            return seen
        assert time.monotonic() < deadline, "the clock did not run out"
        time.sleep(0.1)


def test_each_decision_is_charged_its_time_and_earns_the_increment(client: TestClient) -> None:
    game_id, tokens = clocked(client, clock=600, increment=5)
    start = view(client, game_id)["table"]["clock"]
    assert start["running"] == 0
    assert [s["remaining"] for s in start["seats"]] == [600.0, 600.0]
    time.sleep(0.3)
    after = play_first(client, game_id, tokens)["table"]["clock"]
    red = after["seats"][0]["remaining"]
    assert 600 + 5 - 2 < red < 600 + 5 - 0.3  # charged what it took, then the increment
    assert after["seats"][1]["remaining"] == 600.0
    assert after["since"] >= start["since"] + 0.3


def test_out_of_time_in_a_game_of_two_loses(client: TestClient) -> None:
    game_id, _tokens = clocked(client, clock=10, out_of_time="loss")
    seen = wait_for(client, game_id, lambda v: v["status"] == "finished")
    assert seen["result"]["returns"] == [0.0, 1.0]
    assert seen["result"]["summary"] == "red/orange/yellow ran out of time: blue/lightblue/purple wins."
    assert seen["table"]["ending"]["how"] == "time"
    assert seen["table"]["clock"]["seats"][0]["remaining"] == 0.0


def test_out_of_time_a_computer_plays_the_seat_on(client: TestClient) -> None:
    game_id, tokens = clocked(client, clock=10, out_of_time="computer")
    seen = wait_for(client, game_id, lambda v: v["players"][0]["who"] == "medium")
    assert seen["status"] == "running"
    assert seen["table"]["seats"][0]["why"] == "time"
    # The computer plays red's turn; then blue's clock runs.
    seen = wait_for(client, game_id, lambda v: v["to_act"] == 1)
    assert seen["table"]["clock"]["running"] == 1
    refused = client.post(f"/api/games/{game_id}/seats/0/take-back", headers=bearer(tokens[0]))
    assert refused.status_code == 409
    assert refused.json()["detail"] == "A seat whose time ran out is not taken back."


def test_a_clock_too_short_or_a_choice_unknown_is_refused(client: TestClient) -> None:
    for table in ({"clock": 5}, {"clock": 60, "out_of_time": "draw"}, {"clock": 60, "increment": -1}):
        answer = client.post(
            "/api/games", json={"game": "chaos-checkers", "seats": ["human", "human"], "table": table}
        )
        assert answer.status_code == 422, table


def test_time_while_no_server_kept_the_game_is_not_charged(db_path: Path) -> None:
    with TestClient(create_app(str(db_path), computer_pool="thread", workers=1, limits=GENEROUS)) as client:
        game_id, tokens = clocked(client, clock=600)
        play_first(client, game_id, tokens)
        before = view(client, game_id)["table"]["clock"]
    # The server was down for an hour since then (every time in the database an hour back).
    with sqlite3.connect(db_path) as db:
        db.execute("UPDATE actions SET created = created - 3600 WHERE game_id = ?", (game_id,))
        db.execute(
            "UPDATE games SET created = created - 3600, updated = updated - 3600 WHERE id = ?", (game_id,)
        )
        db.execute("UPDATE clocks SET alive = alive - 3600 WHERE game_id = ?", (game_id,))
    with TestClient(create_app(str(db_path), computer_pool="thread", workers=1, limits=GENEROUS)) as client:
        time.sleep(0.5)
        after = view(client, game_id)["table"]["clock"]
        assert after["seats"] == before["seats"]
        running = after["running"]
        # The hour is a pause: the person to act has (about) what they had when it began.
        left = after["seats"][running]["remaining"] - (time.time() - after["since"])
        assert before["seats"][running]["remaining"] - 5 < left <= before["seats"][running]["remaining"]
        assert view(client, game_id)["status"] == "running"


def test_a_server_killed_mid_clock_loses_nothing(tmp_path: Path, servers: Servers) -> None:
    database = str(tmp_path / "games.sqlite")
    server = servers.start(database)
    created = server.post(
        "/api/games",
        {
            "game": "chaos-checkers",
            "seats": ["human", "human"],
            "seed": 3,
            "table": {"clock": 60, "increment": 2},
        },
    )
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    acknowledged = []
    for _ in range(4):
        seat = server.get(f"/api/games/{game_id}")["to_act"]
        mine = server.get(f"/api/games/{game_id}", tokens[seat])
        seen = server.post(
            f"/api/games/{game_id}/actions",
            {"action": mine["legal"][0]["notation"], "version": mine["version"]},
            tokens[seat],
        )
        acknowledged.append(seen["version"])
    before = server.get(f"/api/games/{game_id}")
    server.kill()  # kill -9, its clock running
    time.sleep(GAP + 2)  # down longer than a stamp's gap: not charged
    server = servers.start(database)
    after = server.get(f"/api/games/{game_id}")
    assert after["version"] == acknowledged[-1] == before["version"]
    assert [e["notation"] for e in after["log"]] == [e["notation"] for e in before["log"]]
    assert after["table"]["clock"]["seats"] == before["table"]["clock"]["seats"]
    running = after["table"]["clock"]["running"]

    def given_back() -> float:
        """How much more time the person to act has than the downtime's full charge."""
        now = server.get(f"/api/games/{game_id}")["table"]["clock"]
        had = before["table"]["clock"]["seats"][running]["remaining"] - (
            time.time() - before["table"]["clock"]["since"]
        )
        return float(now["seats"][running]["remaining"] - (time.time() - now["since"]) - had)

    # The server was down GAP + 2 s and more; of that, only the time since its last stamp
    # as alive (at most ALIVE_EVERY s) is charged, once the restarted server has taken the
    # game up (it does so just after it starts answering: a loaded machine may show a GET
    # first).
    wait_until(lambda: given_back() > GAP + 2 - ALIVE_EVERY - 1, 30, "the downtime given back")
    assert after["status"] == "running"
    # The restarted server keeps the clock: it runs out without any request.
    ended = wait_until(
        lambda: (v := server.get(f"/api/games/{game_id}"))["status"] == "finished" and v,
        90,
        "the time running out",
    )
    assert ended["table"]["ending"]["how"] == "time"
