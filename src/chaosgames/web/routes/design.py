"""The designer (issue 54): the editor pages and `/api/designs...` (check, save, list, test).

Checking a design is the game's own option check and a picture of a few milliseconds: it
runs in a thread, as the database reads do, so a burst of checks never holds the loop. A
test of a design plays games in the trials' worker process (`design_trials`).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import HTMLResponse, Response
from starlette.convertors import StringConvertor, register_url_convertor
from starlette.requests import HTTPConnection

import chaosgames.web.designs as designs
import chaosgames.web.schemas_designs as schemas
from chaosgames.web.deps import Service
from chaosgames.web.design_trials import MAX_GAMES, Trials
from chaosgames.web.errors import NotFound, Unprocessable
from chaosgames.web.limits import client_address
from chaosgames.web.routes.declare import PROBLEMS, limited_post
from chaosgames.web.templating import templates

router = APIRouter()
ID = Path(max_length=32)


class DesignId(StringConvertor):
    """A saved design's id (12 hex digits), so that `/api/designs/check` and `/trials` are no
    design's path (a GET there is 405 with `Allow: POST`, not a search for design 'check')."""

    regex = "[0-9a-f]{12}"


register_url_convertor("design_id", DesignId())
TEMPLATES = {"chaos-cruisers": "design_course.html", "cardboard-machines": "design_track.html"}
TITLES = {
    "chaos-cruisers": "Design a Chaos Cruisers course",
    "cardboard-machines": "Design a Cardboard Machines track",
}


def trials_of(connection: HTTPConnection) -> Trials:
    trials: Trials = connection.app.state.trials
    return trials


@router.get("/design/{game}", response_class=HTMLResponse, include_in_schema=False)
async def design_page(request: Request, game: str, service: Service) -> Response:
    return await _page(request, game, service, None)


@router.get("/design/{game}/{design_id}", response_class=HTMLResponse, include_in_schema=False)
async def saved_design_page(request: Request, game: str, design_id: str, service: Service) -> Response:
    return await _page(request, game, service, design_id)


async def _page(request: Request, game: str, service: Service, design_id: str | None) -> Response:
    if game not in TEMPLATES:
        raise NotFound(f"There is no designer for {game!r}; try /design/chaos-cruisers.")
    saved = None
    if design_id is not None:
        saved = await asyncio.to_thread(designs.load, service.store, design_id)
        if saved["game"] != game:
            raise NotFound(f"The design {design_id!r} is a design of {saved['game']}.")
    listed = await asyncio.to_thread(designs.listed, service.store, game)
    page = {
        "game": game,
        "saved": saved,
        "designs": listed,
        "presets": designs.presets(game),
        "max_games": MAX_GAMES,
    }
    return templates.TemplateResponse(
        request, TEMPLATES[game], {"design": page, "title": TITLES[game], "page": "design"}
    )


@router.post("/api/designs/check", response_model=schemas.CheckedDesign, responses=PROBLEMS, tags=["designs"])
async def check_design(body: schemas.DesignCheck) -> dict[str, Any]:
    """The game's own check of a design, the places each problem points at, and its picture."""
    checked = await asyncio.to_thread(designs.check, body.game, body.value, body.players)
    return checked.answer()


@router.get("/api/designs", response_model=schemas.DesignList, responses=PROBLEMS, tags=["designs"])
async def list_designs(
    service: Service, game: Annotated[str | None, Query(max_length=64)] = None
) -> dict[str, Any]:
    """Saved designs, newest first (of one game with `game`), and that game's presets."""
    if game is not None:
        designs.option_of(game)
    found = await asyncio.to_thread(designs.listed, service.store, game)
    return {"designs": found, "presets": designs.presets(game) if game is not None else {}}


@limited_post(router, "/api/designs", schemas.SavedDesign, tag="designs", limit="designs", status_code=201)
async def save_design(body: schemas.NewDesign, service: Service) -> dict[str, Any]:
    """Save a design under a new name: it gets a link, and the lobby offers it."""
    return await asyncio.to_thread(designs.save, service.store, body.game, body.name, body.value)


@router.get(
    "/api/designs/{design_id:design_id}",
    response_model=schemas.SavedDesign,
    responses=PROBLEMS,
    tags=["designs"],
)
async def get_design(design_id: Annotated[str, ID], service: Service) -> dict[str, Any]:
    """One saved design."""
    return await asyncio.to_thread(designs.load, service.store, design_id)


@limited_post(
    router, "/api/designs/trials", schemas.TrialState, tag="designs", limit="trials", status_code=202
)
async def start_trial(body: schemas.NewTrial, request: Request) -> dict[str, Any]:
    """Test a design: games at the easy level on the server, beside as many of a preset
    (follow it with GET /api/designs/trials/{id})."""
    option = designs.option_of(body.game)
    preset = body.preset if body.preset is not None else next(iter(designs.presets(body.game).values()))
    options: dict[str, Any] = {} if body.players is None else {"players": body.players}
    for what, value in (("design", body.value), ("preset", preset)):
        checked = await asyncio.to_thread(designs.check, body.game, value, body.players)
        if checked.problems:
            raise Unprocessable(f"The {what} cannot be tested: {checked.problems[0]['message']}")
    trial = trials_of(request).start(
        body.game,
        {**options, option: body.value},
        {**options, option: preset},
        body.games,
        client_address(request),
    )
    return trial.answer()


@router.get(
    "/api/designs/trials/{trial_id}", response_model=schemas.TrialState, responses=PROBLEMS, tags=["designs"]
)
async def trial_state(trial_id: Annotated[str, ID], request: Request) -> dict[str, Any]:
    """How far a test has come, and its figures so far."""
    return trials_of(request).get(trial_id).answer()
