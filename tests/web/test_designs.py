"""Designs over the HTTP API: the game's own check with the places it points at, saved
designs with links, the lobby offering them, a design played as an ordinary option, and a
small test of a design beside a preset."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import chaosgames.web.design_trials as design_trials
from chaosgames.cli.common import UsageError, saved_designs
from chaosgames.core.errors import InvalidOptionError
from chaosgames.web.database import Database
from tests.web.conftest import create

OVAL: dict[str, Any] = {
    "name": "small oval",
    "tiles": [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1]],
    "gates": {"sun": [1, 0], "moon": [2, 1], "crown": [1, 1], "arms": [0, 1]},
}


def check(client: TestClient, game: str, value: Any) -> dict[str, Any]:
    answer = client.post("/api/designs/check", json={"game": game, "value": value})
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def test_the_check_takes_a_course_and_draws_it(client: TestClient) -> None:
    checked = check(client, "chaos-cruisers", OVAL)
    assert checked["ok"] and checked["problems"] == []
    assert checked["value"]["tiles"] == sorted(OVAL["tiles"])
    assert checked["svg"].startswith("<svg") and 'data-place="gate:moon"' in checked["svg"]


def test_the_check_explains_a_gate_off_the_course_at_its_place(client: TestClient) -> None:
    checked = check(client, "chaos-cruisers", {**OVAL, "gates": {**OVAL["gates"], "moon": [9, 9]}})
    assert checked == {
        "ok": False,
        "value": None,
        "svg": None,
        "problems": [
            {
                "message": "Option 'course': the moon gate at [9, 9] is not on a tile of the course.",
                "places": ["gate:moon"],
            }
        ],
    }


def test_the_check_of_a_track_names_the_board_in_the_wrong_place(client: TestClient) -> None:
    checked = check(client, "cardboard-machines", [0, 3, 5, 1, 8, 2])
    assert not checked["ok"] and checked["problems"][0]["places"] == ["board:1"]
    good = check(client, "cardboard-machines", [3, 0, [5, "gray"], 1, 8, 2])
    assert good["ok"] and "board 5 gray" in good["svg"]


def test_no_designer_for_other_games(client: TestClient) -> None:
    answer = client.post("/api/designs/check", json={"game": "chaos-checkers", "value": {}})
    assert answer.status_code == 422
    assert "designs are made for cardboard-machines, chaos-cruisers" in answer.json()["detail"]


def test_a_saved_design_gets_a_link_and_the_lobby_offers_it(client: TestClient) -> None:
    answer = client.post("/api/designs", json={"game": "chaos-cruisers", "name": " My  oval ", "value": OVAL})
    assert answer.status_code == 201, answer.text
    saved = answer.json()
    assert saved["name"] == "My oval" and saved["link"] == f"/design/chaos-cruisers/{saved['id']}"
    assert saved["value"]["name"] == "My oval"
    assert client.get(f"/api/designs/{saved['id']}").json() == saved
    assert client.get("/api/designs?game=chaos-cruisers").json()["designs"] == [saved]
    page = client.get(saved["link"])
    assert page.status_code == 200 and "My oval" in page.text
    lobby = client.get("/").text
    assert "saved: My oval" in lobby and 'href="/design/chaos-cruisers"' in lobby


def test_a_name_taken_and_a_refused_design_are_not_saved(client: TestClient) -> None:
    first = client.post("/api/designs", json={"game": "chaos-cruisers", "name": "oval", "value": OVAL})
    assert first.status_code == 201
    again = client.post("/api/designs", json={"game": "chaos-cruisers", "name": "oval", "value": OVAL})
    assert again.status_code == 409 and "called 'oval' already" in again.json()["detail"]
    bad = {**OVAL, "tiles": [*OVAL["tiles"][:5], [7, 7]]}
    refused = client.post("/api/designs", json={"game": "chaos-cruisers", "name": "broken", "value": bad})
    assert refused.status_code == 422 and "the course is disconnected" in refused.json()["detail"]
    assert refused.json()["places"] == ["tile:14,14"]
    assert [d["name"] for d in client.get("/api/designs").json()["designs"]] == ["oval"]
    assert client.get("/api/designs/nothere").status_code == 404


def test_a_design_is_an_ordinary_option_value_of_a_game(client: TestClient) -> None:
    saved = client.post("/api/designs", json={"game": "chaos-cruisers", "name": "oval", "value": OVAL}).json()
    created = create(
        client, "chaos-cruisers", ["human", "random", "random"], options={"course": saved["value"]}
    )
    record = client.get(f"/api/games/{created['id']}/record").json()
    assert record["options"]["course"] == saved["value"]
    view = client.get(f"/api/games/{created['id']}").json()
    assert view["observation"]["tiles"] == saved["value"]["tiles"]


def test_the_command_line_takes_a_saved_design_by_name(client: TestClient, db_path: Path) -> None:
    client.post(
        "/api/designs",
        json={"game": "cardboard-machines", "name": "gray five", "value": [3, 0, [5, "gray"], 1, 8, 2]},
    )
    options = saved_designs(
        {"boards": "design:gray five", "round_tokens": "2"}, "cardboard-machines", str(db_path)
    )
    assert options == {"boards": [3, 0, [5, "gray"], 1, 8, 2], "round_tokens": "2"}
    Database(str(db_path)).close()


def test_a_saved_design_named_without_a_database_or_wrongly_is_refused(db_path: Path) -> None:
    with pytest.raises(UsageError, match="give the web server's database with --database"):
        saved_designs({"course": "design:oval"}, "chaos-cruisers", None)
    Database(str(db_path)).close()
    with pytest.raises(InvalidOptionError, match="has no design of chaos-cruisers called 'oval'"):
        saved_designs({"course": "design:oval"}, "chaos-cruisers", str(db_path))


def test_a_small_test_of_a_track_counts_its_games_beside_the_preset(client: TestClient) -> None:
    answer = client.post(
        "/api/designs/trials",
        json={"game": "cardboard-machines", "value": [3, 0, [5, "gray"], 1, 8, 2], "games": 3},
    )
    assert answer.status_code == 202, answer.text
    trial = answer.json()
    assert trial["total"] == 6 and trial["level"] == "easy"
    for _ in range(200):
        trial = client.get(f"/api/designs/trials/{trial['id']}").json()
        if trial["status"] == "finished":
            break
        time.sleep(0.1)
    assert trial["done"] == 6 and trial["note"] is None
    for side in ("design", "preset"):
        figures = trial[side]
        assert figures["games"] == 3 and len(figures["seats"]) == 4
        assert sum(s["wins"] for s in figures["seats"]) == pytest.approx(3)
        assert sum(figures["endings"].values()) == 3
        assert (
            0
            <= figures["completion"]["low"]
            <= figures["completion"]["share"]
            <= figures["completion"]["high"]
            <= 1
        )


def test_a_course_test_maps_where_cruisers_crash_ram_and_wait(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(design_trials.CAPS, "chaos-cruisers", {"max_rounds": 12})
    answer = client.post(
        "/api/designs/trials", json={"game": "chaos-cruisers", "value": OVAL, "games": 1, "players": 3}
    )
    assert answer.status_code == 202, answer.text
    second = client.post("/api/designs/trials", json={"game": "chaos-cruisers", "value": OVAL, "games": 1})
    assert second.status_code == 429  # one test at a time for an address
    trial = answer.json()
    for _ in range(600):
        trial = client.get(f"/api/designs/trials/{trial['id']}").json()
        if trial["status"] == "finished":
            break
        time.sleep(0.1)
    assert trial["done"] == 2, trial
    heat = trial["design"]["heat"]
    assert heat and all(set(h) - {"place"} <= {"crash", "ram", "wait"} for h in heat)
    assert trial["design"]["endings"] in ({"length cap": 1}, {"race won": 1})


def test_a_preset_saved_under_a_name_of_its_own_is_its_course(client: TestClient) -> None:
    answer = client.post(
        "/api/designs", json={"game": "chaos-cruisers", "name": "eights", "value": "figure-eight"}
    )
    assert answer.status_code == 201, answer.text
    figure_eight = client.get("/api/designs?game=chaos-cruisers").json()["presets"]["figure-eight"]
    assert answer.json()["value"] == {**figure_eight, "name": "eights"}
