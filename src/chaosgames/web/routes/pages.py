"""The pages: the lobby, a game's table, the replay viewer, a game's rules."""

from __future__ import annotations

import asyncio
from importlib import resources
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from markdown_it import MarkdownIt

import chaosgames
import chaosgames.web.designs as designs
import chaosgames.web.views as views
from chaosgames.core.errors import UnknownGameError
from chaosgames.core.registry import game_class
from chaosgames.core.story import slug
from chaosgames.web.deps import Service
from chaosgames.web.errors import NotFound
from chaosgames.web.lobby import LIST_LIMIT, game_lists
from chaosgames.web.routes.api import replayable
from chaosgames.web.templating import templates

router = APIRouter(include_in_schema=False)


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request, service: Service) -> Response:
    lists = await game_lists(service, LIST_LIMIT)
    saved = await asyncio.to_thread(designs.listed, service.store)
    offered = {game: designs.offered(game, saved) for game in designs.DESIGNED}
    return templates.TemplateResponse(
        request,
        "lobby.html",
        {"catalogue": views.catalogue(), "lists": lists, "page": "lobby", "designs": offered},
    )


@router.get("/games/{game_id}", response_class=HTMLResponse)
async def game_page(request: Request, game_id: str, service: Service) -> Response:
    live = await service.get(game_id)
    # The page is a spectator's: a seat's own view comes from its token, which the
    # browser keeps in the link's #fragment and never sends in a page request.
    view = views.view(live, None)
    return templates.TemplateResponse(
        request, "game.html", {"view": view, "page": "game", "hides": live.game.hides_information()}
    )


@router.get("/games/{game_id}/replay", response_class=HTMLResponse)
async def game_replay_page(request: Request, game_id: str, service: Service) -> Response:
    live = await replayable(service, game_id)
    return templates.TemplateResponse(
        request, "replay.html", {"game_id": live.id, "title": live.game.title, "page": "replay"}
    )


@router.get("/replay", response_class=HTMLResponse)
async def replay_page(request: Request) -> Response:
    return templates.TemplateResponse(
        request, "replay.html", {"game_id": None, "title": None, "page": "replay"}
    )


@router.get("/rules/{game}", response_class=HTMLResponse)
async def rules_page(request: Request, game: str) -> Response:
    try:
        cls = game_class(game)
    except UnknownGameError as exc:
        raise NotFound(str(exc)) from None
    return templates.TemplateResponse(
        request,
        "rules.html",
        {
            "game": views.game_doc(cls),
            "rules": rules_html(cls),
            "options": cls.options_help(),
            "page": "rules",
        },
    )


def rules_html(cls: type[chaosgames.Game[Any, Any]]) -> str:
    """The game's rules summary (its package's rules.md) as HTML; raw HTML in it is escaped."""
    package = cls.__module__.rsplit(".", 1)[0]
    try:
        text = resources.files(package).joinpath("rules.md").read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError):
        text = f"# {cls.title}\n\nNo rules summary is shipped yet."
    markdown = MarkdownIt("commonmark", {"html": False}).enable("table")
    markdown.core.ruler.push("heading_ids", _heading_ids)
    html: str = markdown.render(text)
    return html


def _heading_ids(state: Any) -> None:
    """Give every heading the id `story.slug(its text)`, so an action's rules link
    (`Game.rules_section`) opens the page at its section."""
    tokens = state.tokens
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and i + 1 < len(tokens):
            token.attrSet("id", slug(tokens[i + 1].content))
