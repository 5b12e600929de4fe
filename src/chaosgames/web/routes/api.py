"""The HTTP API (docs/web.md): the catalogue, games, actions, move logs, records, replays."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.responses import JSONResponse, Response

import chaosgames.web.schemas as schemas
import chaosgames.web.views as views
from chaosgames.core.records import GameRecord
from chaosgames.web.deps import Seat, Service, TheHub, TheReplays, Token, seated_in
from chaosgames.web.limits import client_address, gate
from chaosgames.web.live import HUMAN, LiveGame
from chaosgames.web.lobby import LIST_LIMIT, game_lists
from chaosgames.web.replays import Replays
from chaosgames.web.routes.declare import PROBLEMS, limited_post
from chaosgames.web.seats import check_record_shown
from chaosgames.web.service import GameService
from chaosgames.web.stored import TableEvents, TableRules

OPTIONAL_TOKEN = ("/api/games/{game_id}", "/api/games/{game_id}/log")
"""Paths whose GET a spectator may ask for without a token (see `optional_token_in_schema`)."""

router = APIRouter()


@router.get("/api/health", response_model=schemas.Health, tags=["server"])
async def health(service: Service, hub: TheHub) -> dict[str, Any]:
    """Whether the server runs, with how many games and connections."""
    return {
        "ok": True,
        "running_games": len(service.running),
        "connections": hub.connections(),
        "servers": service.cluster.servers,
    }


@router.get("/api/catalogue", response_model=schemas.Catalogue, tags=["games"])
async def catalogue() -> dict[str, Any]:
    """The games with their player counts and options, and the computer opponents."""
    return views.catalogue()


@router.get("/api/games", response_model=schemas.GameList, responses=PROBLEMS, tags=["games"])
async def list_games(
    service: Service, limit: Annotated[int, Query(ge=1, le=200)] = LIST_LIMIT
) -> dict[str, Any]:
    """Games in progress and the last finished games, most recently changed first."""
    return await game_lists(service, limit)


@limited_post(router, "/api/games", schemas.CreatedGame, tag="games", limit="games", status_code=201)
async def create_game(new: schemas.NewGame, request: Request, service: Service) -> dict[str, Any]:
    """Create a game: one private link per human seat and a spectator link."""
    client = client_address(request)
    computers = any(who != HUMAN for who in new.seats)
    room = gate(request).computer_game(client, service.running) if computers else contextlib.nullcontext()
    with room as keep:
        # The table's rules beyond the game's options: takebacks kept in its meta when not the
        # default, patience and clock as the table's rules.
        meta = {"takebacks": new.takebacks} if new.takebacks != "accept" else None
        table = None if new.table is None else TableEvents(rules=TableRules(**new.table.model_dump()))
        live, tokens = await service.create(
            new.game, new.options, new.seats, new.seed, new.actions, client=client, table=table, meta=meta
        )
        if keep is not None:
            keep(live.id)
    return created(live, tokens)


@router.get("/api/games/{game_id}", response_model=schemas.GameView, responses=PROBLEMS, tags=["play"])
async def get_game(seated: Seat, hub: TheHub) -> dict[str, Any]:
    """The game as a seat (with its token) or a spectator (without) sees it."""
    return await hub.view_off_loop(seated.live, seated.seat)


@limited_post(router, "/api/games/{game_id}/actions", schemas.GameView, tag="play", limit="actions")
async def play(
    game_id: str,
    request: schemas.ActionRequest,
    service: Service,
    hub: TheHub,
    token: Token,
    prefer: Annotated[str | None, Header(description="`return=minimal`: the short answer")] = None,
) -> Any:
    """Play an action for the seat the token opens. It is committed before this answer,
    which is the seat's new view with the move-log entries from `version` on (with
    `Prefer: return=minimal`, only the game's new version, status and seat to act); a stale
    `version` or an illegal action answers 409 and changes nothing."""
    # The seat is resolved here rather than in a dependency (`Seat`), so that a malformed
    # body is answered 422 before the game or the token is looked at (FastAPI runs
    # dependencies before it validates the route's own parameters).
    seated = await seated_in(service, game_id, token)
    live = await service.act(seated.live, seated.seat, request.action, request.version)
    if prefer is not None and "return=minimal" in prefer:
        short = schemas.ActionAccepted(
            id=live.id, version=live.version, status=live.status, to_act=live.to_act()
        )
        return JSONResponse(short.model_dump(), headers={"Preference-Applied": "return=minimal"})
    # The entries from the request's version on (actions are only added between the two).
    before = request.version - live.skipped
    return hub.view(live, seated.seat, log_from=max(0, min(before, live.length)))


@router.get("/api/games/{game_id}/log", response_model=schemas.LogPage, responses=PROBLEMS, tags=["play"])
async def log_page(
    game_id: str,
    stop: Annotated[int, Query(ge=0, description="entries before this one")],
    service: Service,
    token: Token,
) -> dict[str, Any]:
    """A page of the move log as the seat (or a spectator) may keep it: up to 200 entries
    before entry `stop`, for the earlier moves of a long game."""
    seated = await seated_in(service, game_id, token)  # after `stop` is checked, as in `play`
    live = seated.live
    stop = min(stop, live.length)
    start = max(0, stop - views.LOG_PAGE)
    return {"start": start, "log": views.log_entries(live, seated.seat, start, stop)}


@router.get(
    "/api/games/{game_id}/record",
    responses={**PROBLEMS, 200: {"content": {"application/json": {}}, "description": "the game record"}},
    tags=["replay"],
)
async def record(game_id: str, service: Service) -> Response:
    """The game record (every action, chance included) as a JSON file."""
    live = await replayable(service, game_id)
    # A long game's record is megabytes of JSON: written off the event loop.
    body = await asyncio.to_thread(lambda: json.dumps(live.record().to_json(), indent=1))
    name = f"{live.game.name}-{live.id}.json"
    return Response(
        body,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@router.get(
    "/api/games/{game_id}/replay", response_model=schemas.ReplayInfo, responses=PROBLEMS, tags=["replay"]
)
async def game_replay(game_id: str, service: Service, replays: TheReplays) -> Response:
    """The game's move log in full, for the replay viewer."""
    live = await replayable(service, game_id)
    return encoded(await replays.summary(live.record(), f"{live.id}:{live.version}"))


@router.get(
    "/api/games/{game_id}/replay/{at}",
    response_model=schemas.ReplayFrame,
    responses=PROBLEMS,
    tags=["replay"],
)
async def game_replay_frame(game_id: str, at: int, service: Service, replays: TheReplays) -> Response:
    """The position after `at` actions, shown in full."""
    live = await replayable(service, game_id)
    return encoded(await replays.frame(live.record(), at, f"{live.id}:{live.version}"))


async def upload(request: Request) -> str:
    """The key of an uploaded record, its body's SHA-256. One the server has not replayed
    lately counts as an upload of its client, before the body is validated (a position of
    one just replayed is cheap, and the replay viewer asks for one at every step)."""
    key = hashlib.sha256(await request.body()).hexdigest()
    replays: Replays = request.app.state.replays
    if not replays.known(key):
        gate(request).hit("replays", client_address(request))
    return key


UploadKey = Annotated[str, Depends(upload)]


@router.post("/api/replay", response_model=schemas.ReplayInfo, responses=PROBLEMS, tags=["replay"])
async def record_replay(key: UploadKey, record: schemas.RecordDocument, replays: TheReplays) -> Response:
    """An uploaded record's move log, each action checked."""
    return encoded(await replays.summary(GameRecord.from_json(record.model_dump()), key))


@router.post("/api/replay/{at}", response_model=schemas.ReplayFrame, responses=PROBLEMS, tags=["replay"])
async def record_replay_frame(
    at: int, key: UploadKey, record: schemas.RecordDocument, replays: TheReplays
) -> Response:
    """The position of an uploaded record after `at` actions."""
    return encoded(await replays.frame(GameRecord.from_json(record.model_dump()), at, key))


def encoded(text: str) -> Response:
    """An answer the worker has encoded already (of the shape the route declares)."""
    return Response(text, media_type="application/json")


async def replayable(service: GameService, game_id: str) -> LiveGame:
    """A game whose record may be shown: finished, or hiding nothing from anyone."""
    live = await service.get(game_id)
    check_record_shown(live)
    return live


def created(live: LiveGame, tokens: list[str | None]) -> dict[str, Any]:
    names = live.game.player_names()
    spectator = f"/games/{live.id}"
    return {
        "id": live.id,
        "game": live.game.name,
        "title": live.game.title,
        "spectator": spectator,
        "seats": [
            {
                "seat": i,
                "name": names[i],
                "who": who,
                "link": None if tokens[i] is None else f"{spectator}#token={tokens[i]}",
                "token": tokens[i],
            }
            for i, who in enumerate(live.seats)
        ],
    }
