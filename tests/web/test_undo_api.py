"""Undo and takebacks through the API (issue 50), after Board Game Arena's policy: a
person takes back their own decision alone while nobody else has acted, no die was rolled
and nothing hidden shown; anything further back is a takeback every other person accepts;
computer seats answer by the table's setting. The version only grows."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from chaosgames.web import create_app
from chaosgames.web.limits import GENEROUS
from tests.web.conftest import act, bearer, create, service, view
from tests.web.servers import Servers

CHECKERS = {"options": {"chaos": False}, "seed": 3}


def post(client: TestClient, game_id: str, path: str, token: str | None, version: Any) -> Any:
    return client.post(f"/api/games/{game_id}/{path}", json={"version": version}, headers=bearer(token))


def people(client: TestClient) -> tuple[str, str, str]:
    created = create(client, "chaos-checkers", ["human", "human"], **CHECKERS)
    return created["id"], created["seats"][0]["token"], created["seats"][1]["token"]


def notations(seen: dict[str, Any]) -> list[str]:
    return [e["notation"] for e in seen["log"]]


def test_a_person_takes_back_their_own_move_before_the_other_answers(client: TestClient) -> None:
    game_id, black, white = people(client)
    assert view(client, game_id, black)["undo"] == {"undo": False, "takeback": 0}  # nothing played
    played = act(client, game_id, black, "9-13", 0).json()
    assert played["undo"] == {"undo": True, "takeback": 0}
    assert view(client, game_id, white)["undo"] == {"undo": False, "takeback": 0}  # not White's move
    undone = post(client, game_id, "undo", black, played["version"])
    assert undone.status_code == 200, undone.text
    seen = undone.json()
    # The move is gone, Black is to act again, and the version went up, not back.
    assert notations(seen) == [] and seen["to_act"] == 0
    assert seen["version"] == 2 > played["version"]
    # Black plays another move on the new version: its log has that move only.
    again = act(client, game_id, black, "10-14", seen["version"]).json()
    assert notations(again) == ["10-14"] and again["version"] == 3
    # The old version is stale: a move decided on it is refused.
    assert act(client, game_id, white, "22-17", 1).status_code == 409


def test_undo_is_refused_once_the_other_seat_has_acted(client: TestClient) -> None:
    game_id, black, white = people(client)
    act(client, game_id, black, "9-13", 0)
    answered = act(client, game_id, white, "22-17", 1).json()
    mine = view(client, game_id, black)
    assert mine["undo"] == {"undo": False, "takeback": 2}
    refused = post(client, game_id, "undo", black, answered["version"])
    assert refused.status_code == 409
    assert refused.json()["detail"] == (
        "Another seat has acted since your decision: ask the others for a takeback instead."
    )
    assert notations(view(client, game_id)) == ["9-13", "22-17"]


def test_a_takeback_accepted_by_the_other_person_goes_back_before_the_asker_s_move(
    client: TestClient,
) -> None:
    game_id, black, white = people(client)
    act(client, game_id, black, "9-13", 0)
    version = act(client, game_id, white, "22-17", 1).json()["version"]
    asked = post(client, game_id, "takeback", black, version)
    assert asked.status_code == 200, asked.text
    assert asked.json()["takeback"] == {
        "seat": 0, "name": "Black", "count": 2, "version": version, "accepted": [], "waiting": [1]
    }  # fmt: skip
    # Nothing is taken back until White answers; Black may not answer for White.
    assert notations(view(client, game_id)) == ["9-13", "22-17"]
    assert post(client, game_id, "takeback/accept", black, version).status_code == 409
    assert post(client, game_id, "takeback", black, version).status_code == 409  # one at a time
    accepted = post(client, game_id, "takeback/accept", white, version)
    assert accepted.status_code == 200 and accepted.json()["takeback"] is None
    seen = view(client, game_id, black)
    assert notations(seen) == [] and seen["to_act"] == 0 and seen["version"] == version + 2


def test_a_declined_takeback_changes_nothing(client: TestClient) -> None:
    game_id, black, white = people(client)
    act(client, game_id, black, "9-13", 0)
    version = act(client, game_id, white, "22-17", 1).json()["version"]
    post(client, game_id, "takeback", black, version)
    declined = post(client, game_id, "takeback/decline", white, version)
    assert declined.status_code == 200 and declined.json()["takeback"] is None
    assert notations(view(client, game_id)) == ["9-13", "22-17"]
    # Nothing waits any more: accepting now is a conflict.
    answer = post(client, game_id, "takeback/accept", white, version)
    assert answer.status_code == 409 and answer.json()["detail"] == "No takeback is waiting for an answer."


def test_a_takeback_lapses_when_the_game_moves_on(client: TestClient) -> None:
    game_id, black, white = people(client)
    act(client, game_id, black, "9-13", 0)
    act(client, game_id, white, "22-17", 1)
    post(client, game_id, "takeback", black, 2)
    on = view(client, game_id, black)["legal"][0]["notation"]
    assert act(client, game_id, black, on, 2).status_code == 200  # Black plays on instead
    assert client.get(f"/api/games/{game_id}/table").json()["takeback"] is None
    assert post(client, game_id, "takeback/accept", white, 3).status_code == 409


def test_misuse_is_refused_with_a_message(client: TestClient) -> None:
    game_id, black, _white = people(client)
    act(client, game_id, black, "9-13", 0)
    for path in ("undo", "takeback", "takeback/accept", "takeback/decline"):
        spectator = post(client, game_id, path, None, 1)
        assert spectator.status_code == 403 and "seat token" in spectator.json()["detail"]
        assert post(client, game_id, path, "no-such-token", 1).status_code == 403
        for body in ({}, {"version": -1}, {"version": "one"}, {"version": 1, "seat": 0}):
            answer = client.post(f"/api/games/{game_id}/{path}", json=body, headers=bearer(black))
            assert answer.status_code == 422, (path, body)
        assert post(client, "nosuchgame", path, black, 1).status_code == 404
    stale = post(client, game_id, "undo", black, 0)
    assert stale.status_code == 409 and "moved on" in stale.json()["detail"]
    assert notations(view(client, game_id)) == ["9-13"]


def test_nothing_is_taken_back_across_a_die_roll(client: TestClient) -> None:
    created = create(client, "cardboard-machines", ["human", "human"], seed=4)
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    rng = random.Random(1)
    for _ in range(80):  # play on until a person's decision was followed by dice rolled
        seen = view(client, game_id)
        log = seen["log"]
        if log[-1]["actor"] == -1 and log[-1]["seq"] > 1 and any(e["actor"] >= 0 for e in log):
            break
        mine = view(client, game_id, tokens[seen["to_act"]])
        act(client, game_id, tokens[mine["viewer"]], rng.choice(mine["legal"])["notation"], mine["version"])
    else:
        raise AssertionError("no decision was followed by a chance outcome")
    roller = [e for e in log if e["actor"] >= 0][-1]["actor"]
    assert view(client, game_id, tokens[roller])["undo"] == {"undo": False, "takeback": 0}
    for path in ("undo", "takeback"):
        refused = post(client, game_id, path, tokens[roller], seen["version"])
        assert refused.status_code == 409, refused.text
        assert "chance outcome" in refused.json()["detail"]
    assert view(client, game_id)["version"] == seen["version"]


def test_nothing_is_taken_back_in_a_game_with_hidden_cards(client: TestClient) -> None:
    created = create(client, "royal-racers", ["human", "human"], seed=2)
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    seen = view(client, game_id)
    mine = view(client, game_id, tokens[seen["to_act"]])
    played = act(
        client, game_id, tokens[mine["viewer"]], mine["legal"][0]["notation"], mine["version"]
    ).json()
    assert played["undo"] == {"undo": False, "takeback": 0}
    refused = post(client, game_id, "undo", tokens[mine["viewer"]], played["version"])
    assert refused.status_code == 409 and "hidden card" in refused.json()["detail"]


def wait_for(client: TestClient, game_id: str, version: int) -> dict[str, Any]:
    for _ in range(200):
        seen = view(client, game_id)
        if seen["version"] >= version and seen["thinking"] is None:
            return seen
        time.sleep(0.05)
    raise AssertionError(f"the game did not reach version {version}")


def test_computer_seats_accept_takebacks_by_default(client: TestClient) -> None:
    created = create(client, "chaos-checkers", ["human", "random"], **CHECKERS)
    game_id, black = created["id"], created["seats"][0]["token"]
    act(client, game_id, black, "9-13", 0)
    answered = wait_for(client, game_id, 2)
    asked = post(client, game_id, "takeback", black, answered["version"])
    assert asked.status_code == 200 and asked.json()["takeback"] is None  # done at once
    seen = view(client, game_id, black)
    assert notations(seen) == [] and seen["to_act"] == 0


def test_a_table_whose_computers_never_accept_refuses_takebacks(client: TestClient) -> None:
    created = create(client, "chaos-checkers", ["human", "random"], takebacks="never", **CHECKERS)
    game_id, black = created["id"], created["seats"][0]["token"]
    act(client, game_id, black, "9-13", 0)
    answered = wait_for(client, game_id, 2)
    refused = post(client, game_id, "takeback", black, answered["version"])
    assert refused.status_code == 409 and "do not accept takebacks" in refused.json()["detail"]
    bad = client.post(
        "/api/games", json={"game": "chaos-checkers", "seats": ["human"] * 2, "takebacks": "maybe"}
    )
    assert bad.status_code == 422


def test_an_undo_is_committed_and_the_game_resumes_after_it(db_path: Path) -> None:
    app = create_app(str(db_path), computer_pool="thread", workers=1, limits=GENEROUS)
    with TestClient(app) as client:
        game_id, black, white = people(client)
        act(client, game_id, black, "9-13", 0)
        undone = post(client, game_id, "undo", black, 1).json()
        act(client, game_id, black, "10-14", undone["version"])
    with TestClient(create_app(str(db_path), computer_pool="thread", workers=1, limits=GENEROUS)) as client:
        seen = view(client, game_id, white)
        assert notations(seen) == ["10-14"] and seen["version"] == 3 and seen["to_act"] == 1
        assert act(client, game_id, white, "22-18", 3).status_code == 200
        record = client.get(f"/api/games/{game_id}/record").json()
        assert record["actions"] == ["10-14", "22-18"]


def test_another_server_process_reads_the_game_anew_after_an_undo(database: str) -> None:
    first_app = create_app(database, computer_pool="thread", workers=1, limits=GENEROUS)
    second_app = create_app(database, computer_pool="thread", workers=1, limits=GENEROUS)
    with TestClient(first_app) as first, TestClient(second_app) as second:
        game_id, black, white = people(first)
        act(first, game_id, black, "9-13", 0)
        assert notations(view(second, game_id)) == ["9-13"]  # the second has it in memory
        post(first, game_id, "undo", black, 1)
        act(first, game_id, black, "10-14", 2)
        # A move decided on the old game is refused by the second server's commit check ...
        assert act(second, game_id, white, "22-17", 1).status_code == 409
        # ... which then reads the game anew: the undone move is gone there too.
        for _ in range(100):
            if notations(view(second, game_id)) == ["10-14"]:
                break
            time.sleep(0.05)
        assert notations(view(second, game_id)) == ["10-14"]
        assert act(second, game_id, white, "22-17", 3).status_code == 200
        assert service(first) is not service(second)


def test_a_watching_socket_gets_the_log_anew_after_an_undo(client: TestClient) -> None:
    game_id, black, white = people(client)
    with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
        ws.send_text(json.dumps({"token": white}))
        assert ws.receive_json()["view"]["version"] == 0
        act(client, game_id, black, "9-13", 0)
        assert notations(ws.receive_json()["view"]) == ["9-13"]
        post(client, game_id, "undo", black, 1)
        act(client, game_id, black, "10-14", 2)
        seen = ws.receive_json()["view"]
        while seen["version"] < 3:
            seen = ws.receive_json()["view"]
        # The log starts again from its first entry: the undone move is not in it.
        assert seen["log_from"] == 0 and notations(seen) == ["10-14"]


def test_chat_an_undo_and_a_waiting_takeback_survive_kill_9(tmp_path: Path, servers: Servers) -> None:
    database = str(tmp_path / "games.sqlite")
    server = servers.start(database)
    try:
        created = server.post(
            "/api/games", {"game": "chaos-checkers", "seats": ["human", "human"], **CHECKERS}
        )
        game_id, black, white = created["id"], created["seats"][0]["token"], created["seats"][1]["token"]
        server.post(f"/api/games/{game_id}/chat", {"text": "Good luck!"}, white)
        played = server.post(f"/api/games/{game_id}/actions", {"action": "9-13", "version": 0}, black)
        undone = server.post(f"/api/games/{game_id}/undo", {"version": played["version"]}, black)
        again = server.post(
            f"/api/games/{game_id}/actions", {"action": "10-14", "version": undone["version"]}, black
        )
        mine = server.get(f"/api/games/{game_id}", white)
        answered = server.post(
            f"/api/games/{game_id}/actions",
            {"action": mine["legal"][0]["notation"], "version": again["version"]},
            white,
        )
        server.post(f"/api/games/{game_id}/takeback", {"version": answered["version"]}, black)
    finally:
        server.kill()  # right after the acknowledgements
    server = servers.start(database)
    seen = server.get(f"/api/games/{game_id}", white)
    assert seen["version"] == answered["version"] == 4
    assert [e["notation"] for e in seen["log"]] == ["10-14", mine["legal"][0]["notation"]]
    table = server.get(f"/api/games/{game_id}/table")
    assert [m["text"] for m in table["chat"]] == ["Good luck!"]
    assert table["takeback"]["seat"] == 0 and table["takeback"]["waiting"] == [1]
    # The takeback still waits for White, who accepts it on the new server.
    server.post(f"/api/games/{game_id}/takeback/accept", {"version": 4}, white)
    assert server.get(f"/api/games/{game_id}")["log"] == []
