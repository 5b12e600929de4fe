"""The table's routes beside the game (issue 50): its news (presence and chat), the chat,
undo and takebacks. Each needs the seat's token where a seat speaks (403 otherwise)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request

import chaosgames.web.chat as chat
import chaosgames.web.schemas_talk as schemas_talk
from chaosgames.web.deps import Seat, Service, Token, seated_in
from chaosgames.web.limits import client_address, gate
from chaosgames.web.routes.api import PROBLEMS
from chaosgames.web.talk import Talk

OPTIONAL_TOKEN = ("/api/games/{game_id}/table",)
"""Paths whose GET a spectator may ask for without a token (see `app`)."""

router = APIRouter()


def talk_of(request: Request) -> Talk:
    found: Talk = request.app.state.talk
    return found


@router.get(
    "/api/games/{game_id}/table", response_model=schemas_talk.TableNews, responses=PROBLEMS, tags=["table"]
)
async def table_news(seated: Seat, request: Request) -> dict[str, Any]:
    """Who is at the table (connected now, when each seat last acted) and the latest chat."""
    return await asyncio.to_thread(talk_of(request).news, seated.live)


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
    talk.changed(seated.live.id)
    return await asyncio.to_thread(talk.news, seated.live)
