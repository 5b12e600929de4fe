"""Patches over the WebSocket: after its whole view a seat is sent only what changed.

Every seat and a spectator play through a game of each kind with patched connections; after
every action each one's view, rebuilt from its patches, is exactly the view the server
gives it, and the patches are a small part of a whole view. A page that misses a patch
cannot apply the next one, asks for its whole view again and ends with the server's view.
"""

from __future__ import annotations

import json
import random
import statistics
from typing import Any

import pytest
from fastapi.testclient import TestClient

from chaosgames.web.patches import apply_patch, diff, rebuilt
from chaosgames.web.pieces import text_pieces
from tests.web.conftest import act, create, view

TABLES = {
    "chaos-checkers": ({}, 2),
    "chaos-cruisers": ({"laps": 1}, 3),
    "royal-racers": ({}, 2),
    "cardboard-machines": ({}, 2),
}
PER_CONNECTION = ("log", "log_from", "thinking")
"""What a view says for its connection rather than for the game (the log entries new to it,
the thinking clock's time)."""


class Page:
    """A page's socket as patches.js reads it: whole views, and patches applied to them."""

    def __init__(self, ws: Any, token: str | None) -> None:
        self.ws = ws
        ws.send_text(json.dumps({"token": token, "patches": True}))
        message = ws.receive_json()
        assert message["type"] == "view"
        self.view, self.revision = message["view"], message["revision"]
        self.patch_bytes: list[int] = []
        self.whole_bytes = [len(json.dumps(message))]

    def take(self, message: dict[str, Any]) -> bool:
        """Take one message; False when it was a patch that does not apply (asks again)."""
        if message["type"] == "view":
            self.view, self.revision = message["view"], message["revision"]
            self.whole_bytes.append(len(json.dumps(message)))
            return True
        self.patch_bytes.append(len(json.dumps(message)))
        patched = apply_patch(self.view, self.revision, message)
        if patched is None:
            self.ws.send_text(json.dumps({"resync": True}))
            return False
        self.view, self.revision = patched, message["revision"]
        return True

    def until(self, version: int) -> None:
        while self.view["version"] < version:
            self.take(self.ws.receive_json())


def game_part(doc: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k not in PER_CONNECTION}


@pytest.mark.parametrize("name", sorted(TABLES))
def test_every_viewer_rebuilds_the_servers_view_from_small_patches(client: TestClient, name: str) -> None:
    options, players = TABLES[name]
    created = create(client, name, ["human"] * players, options=options, seed=5)
    game_id = created["id"]
    tokens: list[str | None] = [s["token"] for s in created["seats"]]
    viewers = [*tokens, None]
    rng = random.Random(7)
    path = f"/api/games/{game_id}/ws"
    sockets = [client.websocket_connect(path) for _ in viewers]
    pages = [Page(ws.__enter__(), token) for ws, token in zip(sockets, viewers, strict=True)]
    try:
        for _move in range(40):
            mine = view(client, game_id, tokens[0])
            if mine["status"] == "finished":
                break
            seat = mine["to_act"]
            theirs = view(client, game_id, tokens[seat])
            choice = rng.choice(theirs["legal"])["notation"]
            assert act(client, game_id, tokens[seat], choice, theirs["version"]).status_code == 200
            version = view(client, game_id)["version"]
            for page, token in zip(pages, viewers, strict=True):
                page.until(version)
                assert game_part(page.view) == game_part(view(client, game_id, token))
    finally:
        for ws in sockets:
            ws.__exit__(None, None, None)
    for page in pages:
        assert statistics.median(page.patch_bytes) <= 0.1 * statistics.median(page.whole_bytes)


def test_a_page_that_misses_a_patch_asks_again_and_ends_with_the_servers_view(client: TestClient) -> None:
    created = create(client, "chaos-checkers", ["human", "human"], options={"chaos": False})
    game_id = created["id"]
    first, second = (s["token"] for s in created["seats"])
    with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
        page = Page(ws, second)
        assert act(client, game_id, first, "11-15", 0).status_code == 200
        missed = ws.receive_json()  # lost on its way: the page never sees it
        assert missed["type"] == "patch" and (missed["from"], missed["version"]) == (0, 1)
        assert act(client, game_id, second, "22-18", 1).status_code == 200
        assert page.take(ws.receive_json()) is False  # it applies to version 1, the page has 0
        whole = ws.receive_json()
        assert whole["type"] == "view" and whole["view"]["version"] == 2
        page.take(whole)
        assert game_part(page.view) == game_part(view(client, game_id, second))
        assert [e["notation"] for e in page.view["log"]] == ["11-15", "22-18"]
        assert act(client, game_id, first, "15x22", 2).status_code == 200
        assert page.take(ws.receive_json()) is True  # patches again after the whole view
        assert game_part(page.view) == game_part(view(client, game_id, second))


def test_a_connection_that_asks_for_no_patches_gets_whole_views(client: TestClient) -> None:
    created = create(client, "chaos-checkers", ["human", "human"], options={"chaos": False})
    game_id, first = created["id"], created["seats"][0]["token"]
    with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
        ws.send_text(json.dumps({"token": None}))
        assert ws.receive_json()["type"] == "view"
        assert act(client, game_id, first, "11-15", 0).status_code == 200
        message = ws.receive_json()
        assert message["type"] == "view" and message["view"]["svg"].startswith("<svg")


def test_a_picture_is_rebuilt_from_copies_of_its_tokens_and_new_text() -> None:
    old = '<svg><rect data-place="1"/><g data-piece="a"><circle cx="5"/></g>\n<text>red</text></svg>'
    new = '<svg><rect data-place="1"/><g data-piece="a"><circle cx="9"/></g>\n<text>red</text></svg>'
    pieces = text_pieces(old, new)
    assert pieces == [[0, 3], '<circle cx="9"/>', [4, 8]]
    assert rebuilt(old, pieces) == new


def test_a_patch_that_names_another_view_is_not_applied() -> None:
    old = {"version": 3, "legal": [{"notation": "11-15"}], "svg": "<svg/>"}
    new = {"version": 4, "legal": [], "svg": "<svg/>", "result": None}
    patch = {
        "base": 7,
        "from": 3,
        "revision": 8,
        "version": 4,
        "ops": diff(old, new),
        "log_from": 3,
        "log": [],
    }
    assert apply_patch(old, 7, patch) == {**new, "log_from": 3, "log": []}
    assert apply_patch(old, 6, patch) is None  # the page has another view of version 3
    assert apply_patch({**old, "version": 2}, 7, patch) is None
    assert old == {"version": 3, "legal": [{"notation": "11-15"}], "svg": "<svg/>"}  # left as it was


def test_the_short_answer_to_an_action_says_the_new_version_only(client: TestClient) -> None:
    created = create(client, "chaos-checkers", ["human", "human"], options={"chaos": False})
    game_id, first = created["id"], created["seats"][0]["token"]
    answer = client.post(
        f"/api/games/{game_id}/actions",
        json={"action": "11-15", "version": 0},
        headers={"Authorization": f"Bearer {first}", "Prefer": "return=minimal"},
    )
    assert answer.status_code == 200 and answer.headers["Preference-Applied"] == "return=minimal"
    assert answer.json() == {"id": game_id, "version": 1, "status": "running", "to_act": 1}


def test_a_turns_events_that_go_on_are_sent_as_the_new_ones_only() -> None:
    told = [{"seq": n, "text": f"event {n}"} for n in range(1, 8)]
    going_on = diff({"turn": {"events": told[:3]}}, {"turn": {"events": told}})
    assert going_on == [["*", ["turn", "events"], 3, 0, told[3:]]]
    # A new turn told with the last event of the one before: that one is kept.
    next_turn = diff({"turn": {"events": told[:3]}}, {"turn": {"events": told[2:]}})
    assert next_turn == [["*", ["turn", "events"], 0, 2, []], ["*", ["turn", "events"], 1, 0, told[3:]]]
    for old, ops in (({"turn": {"events": told[:3]}}, going_on), ({"turn": {"events": told[:3]}}, next_turn)):
        patch = {"base": 1, "from": 0, "revision": 2, "version": 0, "ops": ops, "log_from": 0, "log": []}
        rebuilt_view = apply_patch({**old, "version": 0}, 1, patch)
        assert rebuilt_view is not None
        assert rebuilt_view["turn"]["events"] == (told if ops is going_on else told[2:])


def test_a_title_told_twice_in_the_new_picture_is_sent_once() -> None:
    title = "<title>d4: the 8 of spades, face up; 6 to 9 never flip.</title>"
    old = '<svg><g data-piece="card-d4"><title>d4: face down.</title><rect/></g></svg>'
    new = f'<svg><g data-piece="card-d4">{title}<rect>{title}</rect></g></svg>'
    pieces = text_pieces(old, new)
    assert json.dumps(pieces).count("8 of spades") == 1
    assert rebuilt(old, pieces) == new
