"""What routes are given by `Depends`: the service, the hub, the replays, and the seat a
request speaks for, its token resolved once per request."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.requests import HTTPConnection

from chaosgames.web.hub import Hub
from chaosgames.web.live import LiveGame
from chaosgames.web.replays import Replays
from chaosgames.web.seats import seat_for
from chaosgames.web.service import GameService

bearer = HTTPBearer(auto_error=False, description="a seat's secret token (from its private link)")


def get_service(connection: HTTPConnection) -> GameService:
    service: GameService = connection.app.state.service
    return service


def get_hub(connection: HTTPConnection) -> Hub:
    hub: Hub = connection.app.state.hub
    return hub


def get_replays(connection: HTTPConnection) -> Replays:
    replays: Replays = connection.app.state.replays
    return replays


def seat_token(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)] = None,
) -> str | None:
    """The bearer token the request carries, if any (a spectator's carries none)."""
    return None if credentials is None else credentials.credentials


Service = Annotated[GameService, Depends(get_service)]
TheHub = Annotated[Hub, Depends(get_hub)]
TheReplays = Annotated[Replays, Depends(get_replays)]
Token = Annotated[str | None, Depends(seat_token)]


@dataclass(frozen=True)
class Seated:
    """A game and the seat a request speaks for in it (None: a spectator)."""

    live: LiveGame
    seat: int | None


async def seated_in(service: GameService, game_id: str, token: str | None) -> Seated:
    """The game (NotFound) and the seat its token opens (Forbidden for a wrong token)."""
    live = await service.get(game_id)
    return Seated(live, seat_for(live, token))


async def seated(game_id: str, service: Service, token: Token) -> Seated:
    return await seated_in(service, game_id, token)


Seat = Annotated[Seated, Depends(seated)]
