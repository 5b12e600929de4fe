"""The HTTP API: every endpoint, and every kind of bad input refused with a 4xx and a
sentence, never a 500 and never a change of the game."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from chaosgames import agents, load_game
from chaosgames.core import CHANCE
from chaosgames.core.records import GameRecord
from chaosgames.web import create_app
from chaosgames.web.limits import GENEROUS
from chaosgames.web.live import Thinking
from chaosgames.web.workers import Decision, decide
from tests.web.conftest import act, bearer, create, service, view


def checkers(client: TestClient, second: str = "human") -> tuple[str, str, str | None]:
    """A plain checkers game (no chance setup): its id and the two seats' tokens."""
    created = create(client, "chaos-checkers", ["human", second], options={"chaos": False}, seed=1)
    return created["id"], created["seats"][0]["token"], created["seats"][1]["token"]


def snapshot(client: TestClient, game_id: str) -> tuple[int, str]:
    got = view(client, game_id)
    return got["version"], got["svg"]


class TestCatalogueAndLobby:
    def test_the_catalogue_lists_the_four_games_with_their_options_and_the_agents(
        self, client: TestClient
    ) -> None:
        doc = client.get("/api/catalogue").json()
        names = [g["name"] for g in doc["games"]]
        assert names == ["cardboard-machines", "chaos-checkers", "chaos-cruisers", "royal-racers"]
        cruisers = doc["games"][2]
        assert (cruisers["min_players"], cruisers["max_players"]) == (2, 4)
        laps = next(o for o in cruisers["options"] if o["name"] == "laps")
        assert laps == {
            "name": "laps",
            "kind": "int",
            "default": 2,
            "doc": "laps of the course (variant 4)",
            "choices": None,
            "minimum": 1,
            "maximum": 5,
        }
        assert [g["hides_information"] for g in doc["games"]] == [False, False, False, True]
        assert {a["name"] for a in doc["agents"]} == {"random", "greedy", "ismcts", "mcts", "rollout"}

    def test_health(self, client: TestClient) -> None:
        assert client.get("/api/health").json() == {
            "ok": True,
            "running_games": 0,
            "connections": 0,
            "servers": 1,
        }

    def test_the_lobby_lists_games_in_progress_and_finished(self, client: TestClient) -> None:
        game_id, _first, _ = checkers(client)
        listed = client.get("/api/games").json()
        assert [g["id"] for g in listed["running"]] == [game_id]
        assert listed["running"][0]["to_act_name"] == "Black"
        assert listed["finished"] == []
        page = client.get("/")
        assert page.status_code == 200
        for title in ("Chaos Cruisers", "Chaos Checkers", "Royal Racers", "Cardboard Machines"):
            assert title in page.text
        assert f"/games/{game_id}" in page.text
        assert 'name="opt:laps"' in page.text and 'value="2"' in page.text  # defaults filled in

    def test_a_method_a_path_does_not_take_answers_405_with_what_it_takes(self, client: TestClient) -> None:
        answer = client.delete("/api/games")
        assert answer.status_code == 405
        assert answer.headers["allow"] == "GET, POST"
        assert answer.json() == {"detail": "DELETE is not allowed here; use GET or POST."}

    def test_the_openapi_schema_describes_the_api(self, client: TestClient) -> None:
        schema = client.get("/api/openapi.json").json()
        assert {"/api/games", "/api/games/{game_id}", "/api/games/{game_id}/actions"} <= set(schema["paths"])
        assert "409" in schema["paths"]["/api/games/{game_id}/actions"]["post"]["responses"]


class TestCreating:
    def test_a_game_gives_one_private_link_per_person_and_a_spectator_link(self, client: TestClient) -> None:
        created = create(client, "chaos-cruisers", ["human", "random", "human"], options={"laps": 1})
        assert created["spectator"] == f"/games/{created['id']}"
        people = [s for s in created["seats"] if s["who"] == "human"]
        assert [s["seat"] for s in people] == [0, 2]
        for seat in people:
            assert seat["link"] == f"/games/{created['id']}#token={seat['token']}"
            assert len(seat["token"]) >= 32
        assert created["seats"][1]["link"] is None and created["seats"][1]["token"] is None
        assert view(client, created["id"])["observation"]["player"] is None

    def test_the_tokens_are_not_stored(self, client: TestClient, db_path: Path) -> None:
        created = create(client, "chaos-checkers", ["human", "human"])
        tokens = [s["token"] for s in created["seats"]]
        data = db_path.read_bytes() + Path(str(db_path) + "-wal").read_bytes()
        assert not any(t.encode() in data for t in tokens)

    @pytest.mark.parametrize(
        ("spec", "message"),
        [
            ("mcts:iterations=999999999999", "thinks at most iterations=20000 (mcts); 'mcts:iterations="),
            ("mcts:time=1e300", "thinks at most time=10 (mcts)"),
            ("rollout:futures=100000", "thinks at most futures=256 (rollout)"),
            ("greedy:samples=1000", "thinks at most samples=64 (greedy)"),
        ],
    )
    def test_a_computer_seat_that_would_think_for_hours_is_refused(
        self, client: TestClient, spec: str, message: str
    ) -> None:
        answer = client.post("/api/games", json={"game": "chaos-checkers", "seats": ["human", spec]})
        assert answer.status_code == 422, answer.text
        assert message in answer.json()["detail"]
        assert client.get("/api/games").json()["running"] == []

    @pytest.mark.parametrize("level", ["easy", "medium", "hard", "mcts:iterations=20000,time=10"])
    def test_every_level_and_the_limits_themselves_are_taken(self, client: TestClient, level: str) -> None:
        for game in ("chaos-checkers", "royal-racers"):
            create(client, game, ["human", level])

    @pytest.mark.parametrize(
        ("body", "message"),
        [
            ({"game": "chess", "seats": ["human", "human"]}, "There is no game called 'chess'"),
            (
                {"game": "chaos-cruisers", "seats": ["human", "random"], "options": {"laps": 9}},
                "Option 'laps' must be at most 5, not 9.",
            ),
            (
                {"game": "chaos-cruisers", "seats": ["human", "random"], "options": {"laps": "two"}},
                "Option 'laps' takes a whole number, not 'two'.",
            ),
            (
                {"game": "chaos-cruisers", "seats": ["human", "random"], "options": {"speed": 3}},
                "chaos-cruisers has no option speed",
            ),
            ({"game": "chaos-checkers", "seats": ["human"] * 3}, "Chaos Checkers is for 2 players; 3 seats"),
            (
                {"game": "chaos-checkers", "seats": ["human", "alphazero"]},
                "There is no agent or level called 'alphazero'",
            ),
            (
                {"game": "chaos-checkers", "seats": ["human", "mcts:time=-1"]},
                "parameter 'time' must be at least",
            ),
            (
                {"game": "chaos-checkers", "seats": ["human", "human"], "options": {"players": 3}},
                "The option players must match the 2 seats given.",
            ),
            (
                {
                    "game": "chaos-checkers",
                    "seats": ["human", "human"],
                    "options": {"chaos": False},
                    "actions": ["9-13", "9-14"],
                },
                "Action 2, '9-14', does not replay",
            ),
            ({"game": "chaos-checkers"}, "seats: Field required"),
            (
                {"game": "chaos-checkers", "seats": [], "colour": 1},
                "The request is not what this endpoint takes",
            ),
            ({"game": 7, "seats": ["human", "human"]}, "game: Input should be a valid string"),
            (
                {"game": "chaos-checkers", "seats": ["human", "human"], "options": {"name": "x"}},
                "has no option name",
            ),
            (
                {"game": "chaos-checkers", "seats": ["human", "greedy:seed=3"]},
                "no parameter seed in its spec",
            ),
        ],
    )
    def test_bad_requests_are_refused_with_the_reason(
        self, client: TestClient, body: dict[str, Any], message: str
    ) -> None:
        answer = client.post("/api/games", json=body)
        assert answer.status_code == 422, answer.text
        assert message in answer.json()["detail"]
        assert client.get("/api/games").json()["running"] == []

    def test_malformed_json_is_refused(self, client: TestClient) -> None:
        answer = client.post(
            "/api/games",
            content=b'{"game": "chaos-checkers", "seats": [',
            headers={"Content-Type": "application/json"},
        )
        assert answer.status_code == 422
        assert "JSON decode error" in answer.json()["detail"]

    @pytest.mark.parametrize("path", ["/api/games", "/api/replay"])
    def test_a_body_nested_too_deep_answers_422_as_documented(self, client: TestClient, path: str) -> None:
        deep = "[" * 100_000 + "]" * 100_000
        answer = client.post(path, content=deep, headers={"Content-Type": "application/json"})
        assert answer.status_code == 422, answer.text
        assert answer.json()["detail"].startswith("The request body is nested too deep to be read")

    def test_an_oversized_body_is_refused(self, client: TestClient) -> None:
        body = json.dumps(
            {"game": "chaos-checkers", "seats": ["human", "human"], "options": {"x": "y" * 3_000_000}}
        )
        answer = client.post("/api/games", content=body, headers={"Content-Type": "application/json"})
        assert answer.status_code == 413
        assert "larger than the 2000000 bytes" in answer.json()["detail"]

    def test_a_streamed_oversized_body_is_refused(self, client: TestClient) -> None:
        def chunks() -> Any:
            for _ in range(300):
                yield b" " * 10_000

        answer = client.post("/api/replay", content=chunks(), headers={"Content-Type": "application/json"})
        assert answer.status_code == 413

    def test_a_game_continues_from_a_records_actions(self, client: TestClient) -> None:
        created = create(
            client, "chaos-checkers", ["human", "human"], options={"chaos": False}, actions=["9-13", "21-17"]
        )
        got = view(client, created["id"], created["seats"][0]["token"])
        assert got["version"] == 2 and got["continued_from"] == 2
        assert [e["notation"] for e in got["log"]] == ["9-13", "21-17"]
        assert got["to_act"] == 0


class TestViewing:
    def test_a_seat_sees_its_legal_actions_with_their_places_and_a_spectator_none(
        self, client: TestClient
    ) -> None:
        game_id, first, second = checkers(client)
        mine = view(client, game_id, first)
        assert mine["viewer"] == 0 and mine["to_act"] == 0 and mine["viewer_name"] == "Black"
        moves = [{k: a[k] for k in ("notation", "description", "places")} for a in mine["legal"]]
        assert {"notation": "9-13", "description": "move 9-13", "places": ["9", "13"]} in moves
        assert len(mine["legal"]) == 7
        assert 'data-place="13"' in mine["svg"]
        assert view(client, game_id, second)["legal"] == []
        spectator = view(client, game_id)
        assert spectator["viewer"] is None and spectator["legal"] == []

    def test_a_wrong_token_is_refused(self, client: TestClient) -> None:
        game_id, _, _ = checkers(client)
        _other_id, other, _ = checkers(client)
        for token in ("nonsense", other):
            answer = client.get(f"/api/games/{game_id}", headers=bearer(token))
            assert answer.status_code == 403
            assert answer.json() == {"detail": "This token is not the key of any seat of this game."}

    def test_an_unknown_game_is_not_found(self, client: TestClient) -> None:
        answer = client.get("/api/games/nosuchgame")
        assert answer.status_code == 404
        assert answer.json() == {"detail": "There is no game 'nosuchgame' on this server."}
        assert client.get("/games/nosuchgame").status_code == 404
        assert "There is no game" in client.get("/games/nosuchgame").text
        assert client.get("/api/games/" + "x" * 300).status_code == 404

    def test_the_pages_show_the_game_its_rules_and_replay(self, client: TestClient) -> None:
        game_id, _, _ = checkers(client)
        page = client.get(f"/games/{game_id}")
        assert page.status_code == 200
        assert 'data-place="9"' in page.text and "/rules/chaos-checkers" in page.text
        assert page.headers["content-security-policy"].startswith("default-src 'self'")
        assert page.headers["referrer-policy"] == "no-referrer"
        rules = client.get("/rules/chaos-checkers")
        assert rules.status_code == 200 and "Chaos Checkers (Blake Cetnar, 2009)</h1>" in rules.text
        assert client.get("/rules/go").status_code == 404
        assert client.get(f"/games/{game_id}/replay").status_code == 200
        assert client.get("/replay").status_code == 200
        assert client.get("/static/game.js").status_code == 200


class TestActing:
    def test_an_action_is_committed_and_the_game_moves_on(self, client: TestClient) -> None:
        game_id, first, second = checkers(client)
        answer = act(client, game_id, first, "9-13", 0)
        assert answer.status_code == 200, answer.text
        got = answer.json()
        assert got["version"] == 1 and got["to_act"] == 1 and got["legal"] == []
        assert got["log"] == [
            {
                "seq": 1,
                "actor": 0,
                "who": "Black",
                "notation": "9-13",
                "description": "Black moves the man on 9 to 13.",
                "turn": 1,
            }
        ]
        assert view(client, game_id, second)["legal"]

    def test_an_illegal_action_answers_409_with_the_legal_ones_and_changes_nothing(
        self, client: TestClient
    ) -> None:
        game_id, first, _ = checkers(client)
        before = snapshot(client, game_id)
        answer = act(client, game_id, first, "9-18", 0)
        assert answer.status_code == 409
        body = answer.json()
        assert body["legal"] == ["9-13", "10-14", "11-15", "12-16", "9-14", "10-15", "11-16"]
        assert body["detail"] == (
            "'9-18' is not a legal action here; "
            "legal actions are 9-13, 10-14, 11-15, 12-16, 9-14, 10-15 or 11-16."
        )
        assert body["version"] == 0
        assert snapshot(client, game_id) == before

    def test_notation_that_is_no_action_at_all_answers_422(self, client: TestClient) -> None:
        game_id, first, _ = checkers(client)
        before = snapshot(client, game_id)
        answer = act(client, game_id, first, "e2e4", 0)
        assert answer.status_code == 422
        assert "is not Chaos Checkers notation" in answer.json()["detail"]
        assert snapshot(client, game_id) == before

    def test_a_stale_action_answers_409(self, client: TestClient) -> None:
        game_id, first, second = checkers(client)
        assert act(client, game_id, first, "9-13", 0).status_code == 200
        assert second is not None
        before = snapshot(client, game_id)
        answer = act(client, game_id, second, "21-17", 0)
        assert answer.status_code == 409
        assert answer.json()["version"] == 1
        assert "The game has moved on" in answer.json()["detail"]
        assert snapshot(client, game_id) == before

    def test_only_the_seat_to_act_may_act(self, client: TestClient) -> None:
        game_id, _first, second = checkers(client)
        assert second is not None
        answer = act(client, game_id, second, "21-17", 0)
        assert answer.status_code == 409
        assert answer.json()["detail"] == "It is not your turn: Black is to act."

    @pytest.mark.parametrize("token", [None, "nonsense"])
    def test_acting_without_a_seats_token_is_forbidden(self, client: TestClient, token: str | None) -> None:
        game_id, _, _ = checkers(client)
        before = snapshot(client, game_id)
        answer = client.post(
            f"/api/games/{game_id}/actions", json={"action": "9-13", "version": 0}, headers=bearer(token)
        )
        assert answer.status_code == 403
        assert snapshot(client, game_id) == before

    @pytest.mark.parametrize(
        "body",
        [
            {"action": "9-13"},
            {"action": "9-13", "version": -1},
            {"action": 913, "version": 0},
            {"action": "9-13", "version": 0, "extra": 1},
            {"action": "x" * 65, "version": 0},
            [],
        ],
    )
    def test_malformed_actions_answer_422(self, client: TestClient, body: Any) -> None:
        game_id, first, _ = checkers(client)
        before = snapshot(client, game_id)
        answer = client.post(f"/api/games/{game_id}/actions", json=body, headers=bearer(first))
        assert answer.status_code == 422
        assert answer.json()["detail"].startswith("The request is not what this endpoint takes")
        assert snapshot(client, game_id) == before

    def test_a_finished_game_cannot_be_changed(self, client: TestClient) -> None:
        game_id, first, second = checkers(client)
        got = played_out(client, game_id, {0: first, 1: second})
        assert got["result"] is not None
        answer = act(client, game_id, first, "9-13", got["version"])
        assert answer.status_code == 409
        assert answer.json()["detail"] == "The game is over; nothing more can be played."
        finished = client.get("/api/games").json()["finished"]
        assert [g["id"] for g in finished] == [game_id]


def played_out(client: TestClient, game_id: str, tokens: dict[int, str | None]) -> dict[str, Any]:
    """Both seats play their first legal action until the game ends; its last view."""
    got = view(client, game_id)
    while got["status"] == "running":
        token = tokens[got["to_act"]] or ""
        mine = view(client, game_id, token)
        assert act(client, game_id, token, mine["legal"][0]["notation"], mine["version"]).status_code == 200
        got = view(client, game_id)
    return got


def wait_for(client: TestClient, game_id: str, check: Any, seconds: float = 30.0) -> dict[str, Any]:
    """Poll the game until `check(view)` holds (a computer seat moves in the background)."""
    deadline = time.monotonic() + seconds
    while True:
        got = view(client, game_id)
        if check(got) or time.monotonic() > deadline:
            return got
        time.sleep(0.02)


class TestComputerSeats:
    def test_a_thinking_seats_clock_runs_on_between_changes(
        self, client: TestClient, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        game_id, _first, _second = checkers(client)
        live = service(client).running[game_id]
        live.thinking = Thinking(1, 1000.0, 5.0)  # as a computer seat deciding since t=1000
        monkeypatch.setattr("chaosgames.web.views.time.time", lambda: 1001.0)
        assert view(client, game_id)["thinking"]["elapsed"] == 1.0
        monkeypatch.setattr("chaosgames.web.views.time.time", lambda: 1004.5)
        assert view(client, game_id)["thinking"]["elapsed"] == 4.5  # not the view of t=1001 again
        with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
            ws.send_text('{"token": null}')
            assert ws.receive_json()["view"]["thinking"]["elapsed"] == 4.5

    def test_a_computer_seat_answers_a_persons_move(self, client: TestClient) -> None:
        game_id, first, _ = checkers(client, second="greedy")
        assert act(client, game_id, first, "9-13", 0).status_code == 200
        got = wait_for(client, game_id, lambda v: v["version"] == 2)
        assert got["version"] == 2 and got["to_act"] == 0 and got["thinking"] is None
        assert got["log"][1]["actor"] == 1

    def test_computer_seats_alone_play_a_game_to_its_end(self, client: TestClient) -> None:
        created = create(client, "chaos-checkers", ["random", "random"], options={"chaos": False}, seed=4)
        got = wait_for(client, created["id"], lambda v: v["status"] == "finished", seconds=120)
        assert got["status"] == "finished" and got["result"] is not None

    def test_a_seat_given_by_level_plays_that_games_level(
        self, client: TestClient, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        # In Royal Racers `medium` is greedy (agents.GAME_LEVELS), not the search it is elsewhere.
        created = create(client, "royal-racers", ["human", "medium"], seed=3)
        assert [s["who"] for s in created["seats"]][1] == "medium"
        state, actions = load_game("royal-racers", players=2).new_initial_state(), []
        while state.current_player() == CHANCE or state.current_player() != 1:
            action = (
                state.legal_actions()[0] if state.current_player() == CHANCE else state.legal_actions()[-1]
            )
            actions.append(str(action))
            state.apply_action(action)
        asked = Decision("g", "royal-racers", {"players": 2}, tuple(actions), "medium", seed=11)
        made: list[str] = []
        real_make = agents.make

        def make(name: str, **params: Any) -> agents.Agent:
            made.append(name)
            return real_make(name, **params)

        monkeypatch.setattr(agents, "make", make)
        assert decide(asked) == str(agents.make("greedy", seed=11).choose(state))
        assert made[0] == "greedy"  # the worker made greedy, not the search `medium` is elsewhere


class TestRecordsAndReplays:
    def test_the_record_of_a_game_replays_to_its_position(self, client: TestClient) -> None:
        game_id, first, _second = checkers(client)
        assert act(client, game_id, first, "9-13", 0).status_code == 200
        answer = client.get(f"/api/games/{game_id}/record")
        assert answer.status_code == 200
        assert "attachment" in answer.headers["content-disposition"]
        record = GameRecord.from_json(answer.text)
        assert record.actions == ["9-13"] and record.players == ["human", "human"]
        assert record.replay().observation(None) == view(client, game_id)["observation"]

    def test_a_running_games_record_keeps_its_seed_until_the_game_is_over(self, client: TestClient) -> None:
        # The seed fixes every roll still to come: shown mid-game, it would show the dice.
        game_id, first, second = checkers(client)  # seed 1
        act(client, game_id, first, "9-13", 0)
        running = json.loads(client.get(f"/api/games/{game_id}/record").text)
        assert "seed" not in running["meta"] and running["meta"]["server_game"] == game_id
        played_out(client, game_id, {0: first, 1: second})
        over = json.loads(client.get(f"/api/games/{game_id}/record").text)
        assert over["meta"]["seed"] == 1

    def test_the_replay_viewer_steps_through_a_game(self, client: TestClient) -> None:
        game_id, first, _ = checkers(client)
        act(client, game_id, first, "9-13", 0)
        info = client.get(f"/api/games/{game_id}/replay").json()
        assert info["count"] == 1 and info["log"][0]["notation"] == "9-13"
        frame = client.get(f"/api/games/{game_id}/replay/0").json()
        assert frame["at"] == 0 and "<svg" in frame["svg"]
        assert client.get(f"/api/games/{game_id}/replay/2").status_code == 422

    def test_an_uploaded_record_is_replayed(self, client: TestClient) -> None:
        record = GameRecord("chaos-checkers", {"chaos": False}, ["a", "b"], ["9-13", "21-17"])
        doc = record.to_json()
        info = client.post("/api/replay", json=doc).json()
        assert info["count"] == 2 and [e["who"] for e in info["log"]] == ["Black", "White"]
        assert client.post("/api/replay/1", json=doc).json()["at"] == 1
        bad = {**doc, "actions": ["9-13", "9-14"]}
        answer = client.post("/api/replay", json=bad)
        assert answer.status_code == 422
        assert answer.json()["detail"].startswith("Action 2 of the record, '9-14', does not replay")
        assert client.post("/api/replay", json={"format": "x"}).status_code == 422
        assert client.post("/api/replay", json={**doc, "game": "go"}).status_code == 422

    def test_a_running_game_with_hidden_cards_opens_no_record(self, client: TestClient) -> None:
        created = create(client, "royal-racers", ["human", "human"])
        for path in ("record", "replay", "replay/0"):
            answer = client.get(f"/api/games/{created['id']}/{path}")
            assert answer.status_code == 403
            assert "would show face-down cards" in answer.json()["detail"]


class TestRestart:
    def test_a_new_server_on_the_same_database_continues_every_game(self, db_path: Path) -> None:
        app = create_app(str(db_path), computer_pool="thread", workers=1, limits=GENEROUS)
        with TestClient(app) as client:
            game_id, first, second = checkers(client)
            act(client, game_id, first, "9-13", 0)
            before = view(client, game_id, second)
        with TestClient(
            create_app(str(db_path), computer_pool="thread", workers=1, limits=GENEROUS)
        ) as client:
            after = view(client, game_id, second)
            assert after == before
            assert act(client, game_id, second or "", "21-17", 1).status_code == 200
