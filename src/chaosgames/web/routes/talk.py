"""The table's routes beside the game (issue 50): its news (presence and chat), the chat,
undo and takebacks. Each needs the seat's token where a seat speaks (403 otherwise)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.types import DecoratedCallable

import chaosgames.web.chat as chat
import chaosgames.web.schemas as schemas
import chaosgames.web.schemas_talk as schemas_talk
import chaosgames.web.undo as undo
from chaosgames.web.deps import Seat, Service, TheHub, Token, seated_in
from chaosgames.web.limits import client_address, gate, limited
from chaosgames.web.routes.declare import PROBLEMS
from chaosgames.web.service import GameService
from chaosgames.web.talk import Talk

OPTIONAL_TOKEN = ("/api/games/{game_id}/table",)
"""Paths whose GET a spectator may ask for without a token (see `app`)."""

router = APIRouter()


def talk_of(request: Request) -> Talk:
    found: Talk = request.app.state.talk
    return found


def _table_post(
    path: str, answer: Any = schemas_talk.TableNews
) -> Callable[[DecoratedCallable], DecoratedCallable]:
    """A POST of the table's, counted as an action of the client's."""
    return router.post(
        path, response_model=answer, responses=PROBLEMS, tags=["table"], dependencies=[limited("actions")]
    )


@router.get(
    "/api/games/{game_id}/table", response_model=schemas_talk.TableNews, responses=PROBLEMS, tags=["table"]
)
async def table_news(seated: Seat, request: Request) -> dict[str, Any]:
    """Who is at the table (connected now, when each seat last acted) and the latest chat."""
    return await talk_of(request).news(seated.live)


@router.post(
    "/api/games/{game_id}/chat",
    response_model=schemas_talk.TableNews,
    responses=PROBLEMS,
    tags=["table"],
)
async def post_chat(
    game_id: str, message: schemas_talk.ChatPost, request: Request, service: Service, token: Token
) -> dict[str, Any]:
    """Say something to the table (a seat's token: spectators read). One line of at most
    300 characters; it is kept with the game (never in its record) before this answer."""
    seated = await seated_in(service, game_id, token)  # after the body is checked, as in `play`
    seat = chat.check_poster(seated.seat)
    text = chat.cleaned(message.text)
    gate(request).hit("chat", client_address(request))
    talk = talk_of(request)
    await asyncio.to_thread(chat.post, talk.db, seated.live.id, seat, text)
    return await talk.heard(seated.live)


@_table_post("/api/games/{game_id}/undo", schemas.GameView)
async def take_back_mine(
    game_id: str, request: schemas_talk.VersionAnswer, service: Service, hub: TheHub, token: Token
) -> dict[str, Any]:
    """Take back the seat's latest decision alone, while no other seat has decided since, no
    chance outcome has been drawn and nothing hidden shown (`undo` in the view says when);
    409 otherwise. Committed before this answer, the seat's new view."""
    seated = await seated_in(service, game_id, token)
    live = await undo.undo(service, seated.live, seated.seat, request.version)
    return hub.view(live, seated.seat)


@_table_post("/api/games/{game_id}/takeback")
async def ask_takeback(
    game_id: str, answer: schemas_talk.VersionAnswer, request: Request, service: Service, token: Token
) -> dict[str, Any]:
    """Ask to take back everything since the seat's last decision (never across a chance
    outcome); every other person accepts it, computer seats by the table's `takebacks`.
    Done at once when nobody has to answer. The table's news after it."""
    seated = await seated_in(service, game_id, token)
    await undo.ask(service, seated.live, seated.seat, answer.version)
    return await _told(request, service, game_id)


@_table_post("/api/games/{game_id}/takeback/accept")
async def accept_takeback(
    game_id: str, answer: schemas_talk.VersionAnswer, request: Request, service: Service, token: Token
) -> dict[str, Any]:
    """Accept the waiting takeback (another person's); the last acceptance takes it back."""
    return await _answer_takeback(request, service, game_id, token, answer.version, accept=True)


@_table_post("/api/games/{game_id}/takeback/decline")
async def decline_takeback(
    game_id: str, answer: schemas_talk.VersionAnswer, request: Request, service: Service, token: Token
) -> dict[str, Any]:
    """Decline the waiting takeback (the asker withdraws it the same way)."""
    return await _answer_takeback(request, service, game_id, token, answer.version, accept=False)


async def _answer_takeback(
    request: Request, service: GameService, game_id: str, token: str | None, version: int, *, accept: bool
) -> dict[str, Any]:
    seated = await seated_in(service, game_id, token)
    await undo.answer(service, seated.live, seated.seat, version, accept=accept)
    return await _told(request, service, game_id)


async def _told(request: Request, service: GameService, game_id: str) -> dict[str, Any]:
    """Tell the table's viewers its news (the takeback read anew), and answer with it."""
    return await talk_of(request).heard(await service.get(game_id))
