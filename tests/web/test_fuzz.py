"""The HTTP API fuzzed from its own OpenAPI schema (Schemathesis, bounded to a few hundred
requests): no answer is a 500, every answer matches the schema, requests outside the schema
are refused, and a refused request changes nothing.

Generated ids name no game, so a third of the requests are pointed at real games (one
running, one finished) and half carry a real seat's token: the fuzzer then reaches the
checks behind the 404 and the 403 too."""

from __future__ import annotations

import atexit
import itertools
import shutil
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

from chaosgames.web import create_app
from chaosgames.web.limits import GENEROUS
from tests.web.conftest import act, create, view

DATABASE = Path(tempfile.mkdtemp(prefix="chaosgames-fuzz-")) / "games.sqlite"
atexit.register(shutil.rmtree, DATABASE.parent, ignore_errors=True)
# 413 refuses a body too large for the server, which the schema's own limits can exceed
# (64 characters of escaped Unicode take up to 384 bytes of JSON).
CONFIG = SchemathesisConfig.from_dict(
    {"checks": {"negative_data_rejection": {"expected-statuses": [400, 403, 404, 405, 409, 413, 422]}}}
)


def seed_games() -> dict[str, list[str]]:
    """A running game and a finished one, people only (nothing moves by itself): id -> tokens."""
    with TestClient(create_app(str(DATABASE), computer_pool="thread", workers=1, limits=GENEROUS)) as client:
        running = create(client, "chaos-checkers", ["human", "human"], options={"chaos": False}, seed=1)
        finished = create(client, "cardboard-machines", ["human", "human"], seed=2)
        tokens = [s["token"] for s in finished["seats"]]
        while (spectator := view(client, finished["id"]))["status"] != "finished":
            mine = view(client, finished["id"], tokens[spectator["to_act"]])
            act(client, finished["id"], tokens[mine["viewer"]], mine["legal"][0]["notation"], mine["version"])
    return {g["id"]: [s["token"] for s in g["seats"]] for g in (running, finished)}


SEEDED = seed_games()
app = create_app(str(DATABASE), computer_pool="thread", workers=1, limits=GENEROUS)
schema = schemathesis.openapi.from_asgi("/api/openapi.json", app, config=CONFIG)
cases = itertools.count()


def snapshot() -> tuple[Any, ...]:
    """What a refused request must leave alone: the seeded games and how many games exist
    (computer seats of games the fuzzer made may move meanwhile, so not all actions)."""
    with sqlite3.connect(DATABASE) as db:
        seeded = db.execute(
            "SELECT id, version, status, result FROM games WHERE id IN (?, ?) ORDER BY id", list(SEEDED)
        ).fetchall()
        games = db.execute("SELECT count(*) FROM games").fetchone()[0]
    return tuple(seeded), games


def aim(case: Any) -> int:
    """Point some requests at the seeded games, with a seat's token (deterministically);
    the case's number (even: it carries a real seat's token)."""
    number = next(cases)
    game_id, tokens = list(SEEDED.items())[number % 2]
    if case.path.endswith(("/resign", "/claim")):
        # A resignation is a seat's right: the running game resigned would be over for
        # every later request, so these go to the finished game (409 there).
        game_id, tokens = list(SEEDED.items())[1]
    if case.path_parameters and "game_id" in case.path_parameters and number % 3 != 2:
        case.path_parameters["game_id"] = game_id
    if number % 2 == 0:
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {tokens[number // 2 % 2]}"}
    return number


@schema.parametrize()
@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck), database=None)
def test_the_api_answers_every_request_by_its_schema(case: Any) -> None:
    number = aim(case)
    before = snapshot()
    # Valid-looking requests may still be refused for what a schema cannot say (a game name
    # that is not registered, an option value out of range, an illegal move): 4xx, not 2xx.
    # The seat token is optional (a spectator has none) and a request without one is
    # answered 403 as issue 11 asks, not 401, so the missing-header check does not apply; it
    # also resends `aim`'s token, which reaches the turn check (409). A real seat's token,
    # put in by `aim`, is no "generated auth" that should be refused (a seat offering a
    # rematch of the finished game is answered 200). A chat message is taken at any turn,
    # so there too the resent real token is rightly accepted (a wrong token is tested in
    # test_talk_api).
    excluded = [schemathesis.checks.positive_data_acceptance, schemathesis.checks.missing_required_header]
    if number % 2 == 0 or case.path.endswith("/chat"):
        excluded.append(schemathesis.checks.ignored_auth)
    response = case.call_and_validate(excluded_checks=excluded)
    assert response.status_code < 500
    if response.status_code >= 400:
        assert snapshot() == before, (
            f"{case.method} {case.path} answered {response.status_code} and changed a game"
        )
