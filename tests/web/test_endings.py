"""The table ends games (issue 50), through the HTTP API: a resignation, a win claimed over an
absent person, an absent person's seat handed to a computer and taken back, the rematch,
a finished game's story; and every misuse answered 403, 409 or 422 with a sentence,
changing nothing."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from chaosgames import agents, load_game
from chaosgames.sim.match import decided_at, lead_samples, play_match
from chaosgames.web import create_app
from chaosgames.web.limits import GENEROUS
from chaosgames.web.rematch import rematch_token
from tests.web.conftest import act, bearer, create, service, view
from tests.web.servers import Servers, wait_until


def checkers(client: TestClient, **table: Any) -> tuple[str, str, str]:
    """A Chaos Checkers game of two people (seeded); its id and the two seats' tokens."""
    extra: dict[str, Any] = {"table": table} if table else {}
    created = create(client, "chaos-checkers", ["human", "human"], seed=1, **extra)
    return created["id"], created["seats"][0]["token"], created["seats"][1]["token"]


def post(client: TestClient, game_id: str, path: str, token: str | None, body: Any = None) -> Any:
    return client.post(f"/api/games/{game_id}/{path}", json=body, headers=bearer(token))


def away(client: TestClient, game_id: str, seconds: float) -> None:
    """The person to act has been awaited `seconds` longer (the clock of the last commit
    moved back, as if they had left that long ago)."""
    live = service(client).cached(game_id)
    assert live is not None
    live.times[-1] -= seconds


class TestResigning:
    def test_in_a_game_of_two_the_other_player_wins(self, client: TestClient) -> None:
        game_id, red, blue = checkers(client)
        answer = post(client, game_id, "resign", red)
        assert answer.status_code == 200
        seen = view(client, game_id, blue)
        assert seen["status"] == "finished"
        assert seen["result"]["returns"] == [0.0, 1.0]
        assert seen["result"]["summary"] == "red/orange/yellow resigned: blue/lightblue/purple wins."
        assert seen["table"]["ending"] == {
            "how": "resigned",
            "seat": 0,
            "sentence": seen["result"]["summary"],
        }
        assert seen["legal"] == [] and seen["to_act"] is None

    def test_the_lobby_the_record_and_the_replay_say_how_it_ended(self, client: TestClient) -> None:
        game_id, red, _blue = checkers(client)
        post(client, game_id, "resign", red)
        finished = client.get("/api/games").json()["finished"]
        assert finished[0]["result"] == "red/orange/yellow resigned: blue/lightblue/purple wins."
        record = client.get(f"/api/games/{game_id}/record").json()
        assert record["result"] == [0.0, 1.0]
        assert record["meta"]["ending"]["how"] == "resigned"
        replay = client.get(f"/api/games/{game_id}/replay").json()
        assert replay["ending"] == "red/orange/yellow resigned: blue/lightblue/purple wins."

    def test_a_resigned_game_takes_no_more_moves(self, client: TestClient) -> None:
        game_id, red, _blue = checkers(client)
        version = view(client, game_id, red)["version"]
        post(client, game_id, "resign", red)
        answer = act(client, game_id, red, "9-13", version)
        assert answer.status_code == 409
        assert answer.json()["detail"] == "The game is over; nothing more can be played."

    def test_with_three_players_a_computer_plays_the_seat_on(self, client: TestClient) -> None:
        created = create(client, "chaos-cruisers", ["human", "human", "human"], seed=2)
        game_id, second = created["id"], created["seats"][1]["token"]
        seen = post(client, game_id, "resign", second).json()
        assert seen["status"] == "running"
        assert seen["players"][1]["who"] == "medium"
        line = seen["table"]["seats"][1]
        assert line["resigned"] and line["handed"] and line["why"] == "resigned"
        # A resigned seat is not taken back.
        answer = post(client, game_id, "seats/1/take-back", second)
        assert answer.status_code == 409
        assert answer.json()["detail"] == "A resigned seat is not taken back."

    def test_a_resignation_survives_a_restart(self, db_path: Path) -> None:
        with TestClient(
            create_app(str(db_path), computer_pool="thread", workers=1, limits=GENEROUS)
        ) as client:
            game_id, red, _blue = checkers(client)
            post(client, game_id, "resign", red)
        with TestClient(
            create_app(str(db_path), computer_pool="thread", workers=1, limits=GENEROUS)
        ) as client:
            seen = view(client, game_id)
            assert seen["status"] == "finished"
            assert seen["result"]["summary"] == "red/orange/yellow resigned: blue/lightblue/purple wins."

    def test_misuse_is_refused_and_changes_nothing(self, client: TestClient) -> None:
        game_id, red, _blue = checkers(client)
        spectator = post(client, game_id, "resign", None)
        assert spectator.status_code == 403
        assert "no seat token" in spectator.json()["detail"]
        wrong = post(client, game_id, "resign", "not-a-token")
        assert wrong.status_code == 403
        assert view(client, game_id)["status"] == "running"
        post(client, game_id, "resign", red)
        again = post(client, game_id, "resign", red)
        assert again.status_code == 409
        assert post(client, "nobody", "resign", red).status_code == 404


class TestTheStory:
    def test_a_finished_game_tells_its_length_and_lead_changes(self, client: TestClient) -> None:
        created = create(client, "cardboard-machines", ["human", "human"], seed=2)
        game_id = created["id"]
        tokens = [s["token"] for s in created["seats"]]
        assert client.get(f"/api/games/{game_id}/story").status_code == 409
        while (spectator := view(client, game_id))["status"] != "finished":
            mine = view(client, game_id, tokens[spectator["to_act"]])
            act(client, game_id, tokens[mine["viewer"]], mine["legal"][0]["notation"], mine["version"])
        story = client.get(f"/api/games/{game_id}/story").json()
        assert story["turns"] == spectator["turn"]["number"]
        assert story["decisions"] == sum(1 for e in spectator["log"] if e["actor"] >= 0)
        assert story["lead_changes"] >= 0
        assert story["replay"] == f"/games/{game_id}/replay"
        ending = spectator["table"]["ending"]
        assert ending["how"] == "rules" and "wins" in ending["sentence"]

    def test_its_lead_changes_and_turning_point_are_the_labs(self, client: TestClient) -> None:
        game = load_game("cardboard-machines", players=2)
        played = play_match(game, [agents.make("greedy", seed=1), agents.make("random", seed=2)], seed=7)
        assert lead_samples(game, game.new_initial_state(), played.record.actions) == played.result.leaders
        created = create(client, "cardboard-machines", ["human", "human"], actions=played.record.actions)
        story = client.get(f"/api/games/{created['id']}/story").json()
        assert story["lead_changes"] == played.result.lead_changes
        winner = played.result.winner
        assert winner is not None
        share = decided_at(played.result.leaders, winner, played.result.actions)
        at = round(share * played.result.actions)
        if 0 < at < played.result.actions:
            assert story["turning_point"]["seq"] == at + 1
            assert story["turning_point"]["who"] == game.player_names()[winner]
        else:
            assert story["turning_point"] is None


class TestAbsentPeople:
    def test_without_a_patience_rule_no_seat_is_handed_on(self, client: TestClient) -> None:
        game_id, _red, blue = checkers(client)
        away(client, game_id, 10**6)
        answer = post(client, game_id, "seats/0/computer", blue, {"level": "easy"})
        assert answer.status_code == 409
        assert "no patience rule" in answer.json()["detail"]

    def test_before_the_patience_runs_out_the_seat_stays(self, client: TestClient) -> None:
        game_id, _red, blue = checkers(client, patience=600)
        answer = post(client, game_id, "seats/0/computer", blue, {"level": "easy"})
        assert answer.status_code == 409
        assert "the table's patience is 600 s" in answer.json()["detail"]
        assert post(client, game_id, "claim", blue).status_code == 409

    def test_an_absent_persons_seat_is_handed_to_a_computer_that_plays_on(self, client: TestClient) -> None:
        game_id, red, blue = checkers(client, patience=600)
        away(client, game_id, 601)
        seen = post(client, game_id, "seats/0/computer", blue, {"level": "easy"}).json()
        assert seen["players"][0]["who"] == "easy"
        assert seen["table"]["seats"][0]["handed"] and seen["table"]["seats"][0]["why"] == "handed"
        # The computer plays red's move; then it is blue's turn.
        for _ in range(200):
            if view(client, game_id)["to_act"] == 1:
                break
            time.sleep(0.05)
        assert view(client, game_id)["to_act"] == 1
        # Red comes back and takes the seat (only with red's own link).
        assert post(client, game_id, "seats/0/take-back", blue).status_code == 403
        back = post(client, game_id, "seats/0/take-back", red).json()
        assert back["players"][0]["who"] == "human"
        assert back["table"]["seats"][0]["why"] == "taken back"
        assert post(client, game_id, "seats/0/take-back", red).status_code == 409

    def test_in_a_game_of_two_people_the_other_may_claim_the_win(self, client: TestClient) -> None:
        game_id, red, blue = checkers(client, patience=120)
        away(client, game_id, 121)
        # Red is the one awaited: nobody red could claim over is absent.
        by_red = post(client, game_id, "claim", red)
        assert by_red.status_code == 409
        assert by_red.json()["detail"].startswith("blue/lightblue/purple is not being waited for")
        seen = post(client, game_id, "claim", blue).json()
        assert seen["status"] == "finished"
        assert (
            seen["result"]["summary"]
            == "red/orange/yellow was away too long: blue/lightblue/purple claimed the win."
        )
        assert seen["table"]["ending"]["how"] == "claimed"

    def test_bad_requests_are_422(self, client: TestClient) -> None:
        game_id, _red, blue = checkers(client, patience=600)
        assert post(client, game_id, "seats/0/computer", blue, {"level": "grandmaster"}).status_code == 422
        answer = post(client, game_id, "seats/5/computer", blue, {"level": "easy"})
        assert answer.status_code == 422
        assert answer.json()["detail"] == "This game has seats 0 to 1, not 5."
        too_patient = client.post(
            "/api/games",
            json={"game": "chaos-checkers", "seats": ["human", "human"], "table": {"patience": 30}},
        )
        assert too_patient.status_code == 422

    def test_nobody_hands_on_their_own_seat(self, client: TestClient) -> None:
        game_id, red, _blue = checkers(client, patience=600)
        away(client, game_id, 601)
        answer = post(client, game_id, "seats/0/computer", red, {"level": "easy"})
        assert answer.status_code == 403


class TestRematch:
    def test_accepted_by_both_it_starts_with_the_seats_turned(self, client: TestClient) -> None:
        game_id, red, blue = checkers(client, patience=600)
        post(client, game_id, "resign", red)
        offered = post(client, game_id, "rematch", red).json()
        assert offered["game"] is None and offered["link"] is None
        assert offered["waiting_for"] == ["blue/lightblue/purple"]
        assert view(client, game_id)["table"]["rematch"] == {"offers": [0], "game": None}
        accepted = post(client, game_id, "rematch", blue).json()
        new_id = accepted["game"]
        assert accepted["seat"] == 0
        assert accepted["link"] == f"/games/{new_id}#token={rematch_token(blue, game_id)}"
        # Red's page learns its own link with its own token: red plays the second seat now.
        red_answer = post(client, game_id, "rematch", red).json()
        assert red_answer["game"] == new_id and red_answer["seat"] == 1
        assert view(client, new_id, rematch_token(red, game_id))["viewer"] == 1
        assert view(client, new_id, rematch_token(blue, game_id))["viewer"] == 0
        assert view(client, new_id)["table"]["rules"]["patience"] == 600
        assert view(client, game_id)["table"]["rematch"]["game"] == new_id

    def test_the_computer_seats_come_along_turned(self, client: TestClient) -> None:
        created = create(client, "cardboard-machines", ["human", "random", "human"], seed=4)
        game_id = created["id"]
        tokens = [s["token"] for s in created["seats"]]
        post(client, game_id, "resign", tokens[0])  # three players: a computer plays on
        for _ in range(400):
            if view(client, game_id)["status"] == "finished":
                break
            seen = view(client, game_id)
            if seen["to_act"] == 2:
                mine = view(client, game_id, tokens[2])
                act(client, game_id, tokens[2], mine["legal"][0]["notation"], mine["version"])
            else:
                time.sleep(0.02)
        assert view(client, game_id)["status"] == "finished"
        post(client, game_id, "rematch", tokens[0])
        new_id = post(client, game_id, "rematch", tokens[2]).json()["game"]
        players = view(client, new_id)["players"]
        assert [p["who"] for p in players] == ["human", "human", "random"]

    def test_misuse_is_refused(self, client: TestClient) -> None:
        game_id, red, _blue = checkers(client)
        running = post(client, game_id, "rematch", red)
        assert running.status_code == 409
        assert running.json()["detail"] == "A rematch is offered once the game is over."
        post(client, game_id, "resign", red)
        assert post(client, game_id, "rematch", None).status_code == 403
        assert post(client, game_id, "rematch", "wrong").status_code == 403


def test_a_server_killed_after_a_resignation_and_a_rematch_offer_loses_neither(
    tmp_path: Path, servers: Servers
) -> None:
    database = str(tmp_path / "games.sqlite")
    server = servers.start(database)
    three = server.post("/api/games", {"game": "cardboard-machines", "seats": ["human"] * 3, "seed": 2})
    two = server.post("/api/games", {"game": "chaos-checkers", "seats": ["human", "human"], "seed": 2})
    server.post(f"/api/games/{three['id']}/resign", {}, three["seats"][1]["token"])
    server.post(f"/api/games/{two['id']}/resign", {}, two["seats"][0]["token"])
    offered = server.post(f"/api/games/{two['id']}/rematch", {}, two["seats"][1]["token"])
    assert offered["waiting_for"] == ["red/orange/yellow"]
    server.kill()  # kill -9 at once after the answers
    server = servers.start(database)
    going_on = server.get(f"/api/games/{three['id']}")
    assert going_on["status"] == "running"
    assert going_on["table"]["seats"][1]["resigned"]
    assert going_on["players"][1]["who"] == "medium"
    ended = server.get(f"/api/games/{two['id']}")
    assert ended["result"]["summary"] == "red/orange/yellow resigned: blue/lightblue/purple wins."
    assert ended["table"]["rematch"]["offers"] == [1]
    accepted = server.post(f"/api/games/{two['id']}/rematch", {}, two["seats"][0]["token"])
    assert accepted["game"] is not None


def test_a_resignation_reaches_the_other_server_processes(tmp_path: Path, servers: Servers) -> None:
    database = str(tmp_path / "games.sqlite")
    first, second = servers.start(database), servers.start(database)
    three = first.post("/api/games", {"game": "cardboard-machines", "seats": ["human"] * 3, "seed": 2})
    two = first.post("/api/games", {"game": "chaos-checkers", "seats": ["human", "human"], "seed": 2})
    for game in (three, two):
        first.get(f"/api/games/{game['id']}")
        second.get(f"/api/games/{game['id']}")  # both servers have both games in memory
    second.post(f"/api/games/{three['id']}/resign", {}, three["seats"][1]["token"])
    second.post(f"/api/games/{two['id']}/resign", {}, two["seats"][0]["token"])
    seen = wait_until(
        lambda: (v := first.get(f"/api/games/{three['id']}"))["players"][1]["who"] == "medium" and v,
        10,
        "the resignation reaching the first server",
    )
    assert seen["table"]["seats"][1]["resigned"]
    ended = wait_until(
        lambda: (v := first.get(f"/api/games/{two['id']}"))["status"] == "finished" and v,
        10,
        "the end reaching the first server",
    )
    assert ended["result"]["summary"] == "red/orange/yellow resigned: blue/lightblue/purple wins."
