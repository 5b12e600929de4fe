"""The error handlers: every refusal is a 4xx answer with a sentence (`{"detail": ...}`, or
an error page for a browser's GET), never a 500 and never a change of any game."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.routing import iter_route_contexts
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from chaosgames.core.errors import ChaosGamesError, IllegalActionError
from chaosgames.web.errors import WebError
from chaosgames.web.templating import templates

log = logging.getLogger("chaosgames.web")

ERROR_STATUS: dict[type[ChaosGamesError], int] = {IllegalActionError: 409}


def install(app: FastAPI) -> None:
    """Every refusal as a 4xx with a sentence: JSON for the API, a page for a browser."""
    app.exception_handler(WebError)(web_error)
    app.exception_handler(ChaosGamesError)(game_error)
    app.exception_handler(RequestValidationError)(invalid_request)
    app.exception_handler(StarletteHTTPException)(http_error)
    app.exception_handler(Exception)(unexpected)


def answer(
    request: Request, status: int, detail: str, headers: dict[str, str] | None = None, **extra: Any
) -> Response:
    if request.url.path.startswith("/api/") or request.method != "GET":
        body = {"detail": detail, **{k: v for k, v in extra.items() if v is not None}}
        return JSONResponse(body, status_code=status, headers=headers)
    return templates.TemplateResponse(
        request,
        "error.html",
        {"status": status, "detail": detail, "page": "error"},
        status_code=status,
        headers=headers,
    )


async def web_error(request: Request, exc: WebError) -> Response:
    return answer(request, exc.status, exc.detail, headers=exc.headers, **exc.extra)


async def game_error(request: Request, exc: ChaosGamesError) -> Response:
    # Bad options, unknown games or agents, unreadable records: the request's fault.
    status = next((code for kind, code in ERROR_STATUS.items() if isinstance(exc, kind)), 422)
    return answer(request, status, str(exc))


async def invalid_request(request: Request, exc: RequestValidationError) -> Response:
    return answer(request, 422, describe_validation(exc))


async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
    detail = exc.detail if isinstance(exc.detail, str) else "The request was refused."
    if exc.status_code == 404 and detail == "Not Found":
        detail = f"There is no page {request.url.path!r} here."
    headers = dict(exc.headers or {})
    if exc.status_code == 400 and detail == "There was an error parsing the body":
        # FastAPI's answer when its JSON parser fails otherwise than on syntax: most often
        # a body nested too deep for it (RecursionError). Malformed JSON is a 422.
        return answer(request, 422, unreadable_body(exc.__cause__))
    if exc.status_code == 405:
        # Starlette answers for the first route of the path only; a path served by
        # several routes (GET and POST /api/games) allows all their methods.
        allowed = allowed_methods(request.app, request)
        headers["Allow"] = ", ".join(allowed)
        detail = f"{request.method} is not allowed here; use {' or '.join(allowed)}."
    return answer(request, exc.status_code, detail, headers=headers or None)


async def unexpected(request: Request, exc: Exception) -> Response:
    # Nothing changes a game before it is committed, so an unforeseen error leaves
    # every game as it was; the request gets a sentence, the log the traceback.
    log.exception("Unexpected error on %s %s", request.method, request.url.path)
    return answer(request, 400, f"The server could not handle this request ({type(exc).__name__}).")


def unreadable_body(cause: BaseException | None) -> str:
    if isinstance(cause, RecursionError):
        return (
            "The request body is nested too deep to be read (this API's bodies need fewer than ten levels)."
        )
    reason = f" ({type(cause).__name__})" if cause is not None else ""
    return f"The request body cannot be read as JSON{reason}."


def allowed_methods(app: FastAPI, request: Request) -> list[str]:
    methods: set[str] = set()
    # The routers are included without a prefix, so each route's own path is the app's.
    for context in iter_route_contexts(app.router.routes):
        route = context.original_route
        match, _ = route.matches({**request.scope, "method": "GET"})
        route_methods = getattr(route, "methods", None)
        if match != Match.NONE and route_methods:
            methods |= set(route_methods)
    return sorted(methods)


def describe_validation(exc: RequestValidationError) -> str:
    parts = []
    for error in exc.errors()[:5]:
        where = ".".join(str(p) for p in error.get("loc", ()) if p != "body") or "the request body"
        parts.append(f"{where}: {error.get('msg', 'invalid')}")
    return "The request is not what this endpoint takes: " + "; ".join(parts) + "."
