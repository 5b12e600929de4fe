"""The table's routes (issue 50): resigning, an absent person's seat handed to a computer
and taken back, a win claimed over an absent person, the rematch, a finished game's story.

Each one speaks for the seat its token opens (403 without one, or with a wrong one), is
refused with 409 when the table is not in a state that allows it (the game running or
over, the patience not run out, not a person's seat) and with 422 for a malformed body or
a seat the game does not have. Every change is committed before the answer."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Path

import chaosgames.web.absences as absences
import chaosgames.web.endings as endings
import chaosgames.web.rematch as rematch
import chaosgames.web.schemas as schemas
import chaosgames.web.schemas_table as schemas_table
from chaosgames.web.deps import Seat, Seated, Service, TheHub, Token, seated_in
from chaosgames.web.errors import Conflict, Unprocessable
from chaosgames.web.limits import limited
from chaosgames.web.routes.declare import PROBLEMS

router = APIRouter(tags=["table"], responses=PROBLEMS)

SeatNumber = Annotated[int, Path(ge=0, le=7, description="the seat, counted from 0")]


def _seat_of_game(seated: Seated, seat: int) -> int:
    if seat >= len(seated.live.seats):
        raise Unprocessable(f"This game has seats 0 to {len(seated.live.seats) - 1}, not {seat}.")
    return seat


@router.post(
    "/api/games/{game_id}/resign", response_model=schemas.GameView, dependencies=[limited("actions")]
)
async def resign(seated: Seat, service: Service, hub: TheHub) -> dict[str, Any]:
    """The seat's person resigns: with two players the other wins; with more, a computer
    level plays the seat on (docs/web.md, "Table rules")."""
    live = await endings.resign(service, seated.live, seated.seat)
    return await hub.view_off_loop(live, seated.seat)


@router.post("/api/games/{game_id}/claim", response_model=schemas.GameView, dependencies=[limited("actions")])
async def claim(seated: Seat, service: Service, hub: TheHub) -> dict[str, Any]:
    """In a game of two people, claim the win over the other, awaited longer than the
    table's patience."""
    live = await absences.claim_win(service, seated.live, seated.seat)
    return await hub.view_off_loop(live, seated.seat)


@router.post(
    "/api/games/{game_id}/seats/{seat}/computer",
    response_model=schemas.GameView,
    dependencies=[limited("actions")],
)
async def hand_to_computer(
    game_id: str,
    seat: SeatNumber,
    request: schemas_table.HandRequest,
    service: Service,
    hub: TheHub,
    token: Token,
) -> dict[str, Any]:
    """Hand an absent person's seat (awaited longer than the table's patience) to a
    computer level; only another person of the table may."""
    seated = await seated_in(service, game_id, token)  # after the body is checked (see api.play)
    live = await absences.hand(service, seated.live, seated.seat, _seat_of_game(seated, seat), request.level)
    return await hub.view_off_loop(live, seated.seat)


@router.post(
    "/api/games/{game_id}/seats/{seat}/take-back",
    response_model=schemas.GameView,
    dependencies=[limited("actions")],
)
async def take_back(seat: SeatNumber, seated: Seat, service: Service, hub: TheHub) -> dict[str, Any]:
    """The seat's person takes it back from the computer playing it (their own link only)."""
    live = await absences.take_back(service, seated.live, seated.seat, _seat_of_game(seated, seat))
    return await hub.view_off_loop(live, seated.seat)


@router.post(
    "/api/games/{game_id}/rematch",
    response_model=schemas_table.RematchAnswer,
    dependencies=[limited("actions")],
)
async def offer_rematch(seated: Seat, service: Service, token: Token) -> dict[str, Any]:
    """Offer a rematch of a finished game, or accept the one offered. Once every person has,
    the new game starts; the answer then holds this person's own link to it."""
    return await rematch.offer(service, seated.live, seated.seat, token)


@router.get("/api/games/{game_id}/story", response_model=schemas_table.GameStory)
async def story(game_id: str, service: Service) -> dict[str, Any]:
    """A finished game's short story: its length, the lead changes and the turning point by
    the game's heuristic, the links to its replay and record."""
    live = await service.get(game_id)
    if not live.over:
        raise Conflict("The game's story is told once it is over.", version=live.version)
    cached = _stories.get(live.id)
    if cached is None:
        cached = _stories[live.id] = await asyncio.to_thread(endings.story, live)
        while len(_stories) > 256:
            _stories.pop(next(iter(_stories)))
    return cached


_stories: dict[str, dict[str, Any]] = {}
"""Stories told lately (a finished game's story never changes)."""
