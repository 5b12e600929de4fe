"""The web app: pages (lobby, game, replay, rules), the HTTP API and the WebSocket.

`create_app(database_url=...)` builds it; `chaosgames serve` runs it with uvicorn. Every
refusal is a 4xx answer with a sentence (`{"detail": ...}`), never a 500 and never a
change of any game. See docs/web.md for the API.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import time
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from markdown_it import MarkdownIt
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import chaosgames
import chaosgames.web.apidocs as apidocs
import chaosgames.web.schemas as schemas
import chaosgames.web.views as views
from chaosgames.core.errors import ChaosGamesError, IllegalActionError, UnknownGameError
from chaosgames.core.records import GameRecord
from chaosgames.core.registry import game_class
from chaosgames.core.story import slug
from chaosgames.web.computers import THINK_LIMIT
from chaosgames.web.hub import Hub
from chaosgames.web.limits import ClientLimits, Gate, client_address, gate, limited
from chaosgames.web.live import HUMAN, LiveGame
from chaosgames.web.origins import normalised
from chaosgames.web.replays import REPLAY_LIMIT, Replays
from chaosgames.web.service import Forbidden, GameService, NotFound, WebError
from chaosgames.web.storage import FINISHED, RUNNING, Store

log = logging.getLogger("chaosgames.web")

HERE = Path(__file__).parent
MAX_BODY = 2_000_000
"""Bytes a request body may have (a long game's record fits many times over)."""
LIST_LIMIT = 50

PROBLEMS: dict[int | str, dict[str, Any]] = {
    code: {"model": schemas.Problem} for code in (400, 403, 404, 409, 413, 422, 429)
}

bearer = HTTPBearer(auto_error=False, description="a seat's secret token (from its private link)")
SeatToken = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


def create_app(
    database_url: str = "chaosgames.sqlite",
    *,
    computer_pool: str = "process",
    workers: int = 2,
    pace: float = 0.0,
    max_body: int = MAX_BODY,
    think_limit: float = THINK_LIMIT,
    limits: ClientLimits | None = None,
    allow_origins: Iterable[str] = (),
    replay_limit: float = REPLAY_LIMIT,
) -> FastAPI:
    """The web app on `database_url` (a SQLAlchemy URL, or a SQLite file's path).

    `computer_pool` is "process" (computer seats think in `workers` other processes, and
    records are replayed in one more) or "thread" (tests with cheap agents); `pace` is the
    pause, in seconds, before a computer seat moves, so that people can follow the game.
    `think_limit` bounds a computer seat's thinking per move, `limits` what one client
    address may do (docs/web.md, "Running it in public"), `allow_origins` the pages of
    other sites that may open the WebSocket, `replay_limit` the seconds a record's replay
    may take.
    """
    hub = Hub()
    hub.origins = normalised(allow_origins)
    state: dict[str, Any] = {}
    replays = Replays(computer_pool, replay_limit)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(database_url)  # creates the schema when missing
        service = GameService(
            store, pool=computer_pool, workers=workers, pace=pace, think_limit=think_limit, notify=hub.notify
        )
        hub.service = service
        state["service"] = service
        app.state.service = service  # for tests and tools that inspect the live games
        replays.worker.start()
        await service.start()
        try:
            yield
        finally:
            await service.stop()
            replays.stop()
            store.close()

    app = FastAPI(
        title="chaosgames",
        version=chaosgames.__version__,
        summary="Play Chaos Cruisers, Chaos Checkers, Royal Racers and Cardboard Machines in the browser.",
        lifespan=lifespan,
        docs_url=None,  # apidocs serves it, offline and under the CSP
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.state.gate = hub.gate = Gate(limits or ClientLimits())
    app.state.replays = replays
    app.add_middleware(SecurityHeaders)
    app.add_middleware(BodyLimit, limit=max_body)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    templates = Jinja2Templates(directory=HERE / "templates")
    templates.env.filters["tojson_script"] = json_for_script
    templates.env.filters["json_text"] = json.dumps

    def service() -> GameService:
        return state["service"]  # type: ignore[no-any-return]

    _install_error_handlers(app, templates)
    _api_routes(app, service, hub, replays)
    _page_routes(app, service, templates)
    _optional_token_in_schema(app)
    apidocs.install(app)

    @app.websocket("/api/games/{game_id}/ws")
    async def game_socket(websocket: WebSocket, game_id: str) -> None:
        await hub.serve(websocket, game_id)

    return app


# -- the HTTP API ------------------------------------------------------------------------------


def _api_routes(app: FastAPI, service: Callable[[], GameService], hub: Hub, replays: Replays) -> None:
    @app.get("/api/health", response_model=schemas.Health, tags=["server"])
    async def health() -> dict[str, Any]:
        """Whether the server runs, with how many games and connections."""
        return {
            "ok": True,
            "running_games": len(service().running),
            "connections": hub.connections(),
            "servers": service().servers,
        }

    @app.get("/api/catalogue", response_model=schemas.Catalogue, tags=["games"])
    async def catalogue() -> dict[str, Any]:
        """The games with their player counts and options, and the computer opponents."""
        return views.catalogue()

    @app.get("/api/games", response_model=schemas.GameList, responses=PROBLEMS, tags=["games"])
    async def list_games(limit: Annotated[int, Query(ge=1, le=200)] = LIST_LIMIT) -> dict[str, Any]:
        """Games in progress and the last finished games, most recently changed first."""
        return await game_lists(service(), limit)

    @app.post(
        "/api/games",
        response_model=schemas.CreatedGame,
        status_code=201,
        responses=PROBLEMS,
        tags=["games"],
        dependencies=[limited("games")],
    )
    async def create_game(new: schemas.NewGame, request: Request) -> dict[str, Any]:
        """Create a game: one private link per human seat and a spectator link."""
        client = client_address(request)
        computers = any(who != HUMAN for who in new.seats)
        room = (
            gate(request).computer_game(client, service().running) if computers else contextlib.nullcontext()
        )
        with room as keep:
            live, tokens = await service().create(
                new.game, new.options, new.seats, new.seed, new.actions, client=client
            )
            if keep is not None:
                keep(live.id)
        return created(live, tokens)

    @app.get("/api/games/{game_id}", response_model=schemas.GameView, responses=PROBLEMS, tags=["play"])
    async def get_game(game_id: str, credentials: SeatToken = None) -> dict[str, Any]:
        """The game as a seat (with its token) or a spectator (without) sees it."""
        live = await service().get(game_id)
        viewer = service().seat_for(live, _token(credentials))
        return await hub.view_off_loop(live, viewer)

    @app.post(
        "/api/games/{game_id}/actions",
        response_model=schemas.GameView,
        responses=PROBLEMS,
        tags=["play"],
        dependencies=[limited("actions")],
    )
    async def play(
        game_id: str,
        request: schemas.ActionRequest,
        credentials: SeatToken = None,
    ) -> dict[str, Any]:
        """Play an action for the seat the token opens. It is committed before this answer,
        which is the seat's new view with the move-log entries from `version` on; a stale
        `version` or an illegal action answers 409 and changes nothing."""
        live = await service().act(game_id, _token(credentials), request.action, request.version)
        seat = service().seat_for(live, _token(credentials))
        return hub.view(live, seat, log_from=min(request.version, live.version))

    @app.get("/api/games/{game_id}/log", response_model=schemas.LogPage, responses=PROBLEMS, tags=["play"])
    async def log_page(
        game_id: str,
        stop: Annotated[int, Query(ge=0, description="entries before this one")],
        credentials: SeatToken = None,
    ) -> dict[str, Any]:
        """A page of the move log as the seat (or a spectator) may keep it: up to 200 entries
        before entry `stop`, for the earlier moves of a long game."""
        live = await service().get(game_id)
        viewer = service().seat_for(live, _token(credentials))
        stop = min(stop, live.version)
        start = max(0, stop - views.LOG_PAGE)
        return {"start": start, "log": views.log_entries(live, viewer, start, stop)}

    @app.get(
        "/api/games/{game_id}/record",
        responses={**PROBLEMS, 200: {"content": {"application/json": {}}, "description": "the game record"}},
        tags=["replay"],
    )
    async def record(game_id: str) -> Response:
        """The game record (every action, chance included) as a JSON file."""
        live = await replayable(service(), game_id)
        # A long game's record is megabytes of JSON: written off the event loop.
        body = await asyncio.to_thread(lambda: json.dumps(live.record().to_json(), indent=1))
        name = f"{live.game.name}-{live.id}.json"
        return Response(
            body,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    @app.get(
        "/api/games/{game_id}/replay", response_model=schemas.ReplayInfo, responses=PROBLEMS, tags=["replay"]
    )
    async def game_replay(game_id: str) -> Response:
        """The game's move log in full, for the replay viewer."""
        live = await replayable(service(), game_id)
        return encoded(await replays.summary(live.record(), f"{live.id}:{live.version}"))

    @app.get(
        "/api/games/{game_id}/replay/{at}",
        response_model=schemas.ReplayFrame,
        responses=PROBLEMS,
        tags=["replay"],
    )
    async def game_replay_frame(game_id: str, at: int) -> Response:
        """The position after `at` actions, shown in full."""
        live = await replayable(service(), game_id)
        return encoded(await replays.frame(live.record(), at, f"{live.id}:{live.version}"))

    @app.post("/api/replay", response_model=schemas.ReplayInfo, responses=PROBLEMS, tags=["replay"])
    async def record_replay(key: UploadKey, record: schemas.RecordDocument) -> Response:
        """An uploaded record's move log, each action checked."""
        return encoded(await replays.summary(GameRecord.from_json(record.model_dump()), key))

    @app.post("/api/replay/{at}", response_model=schemas.ReplayFrame, responses=PROBLEMS, tags=["replay"])
    async def record_replay_frame(at: int, key: UploadKey, record: schemas.RecordDocument) -> Response:
        """The position of an uploaded record after `at` actions."""
        return encoded(await replays.frame(GameRecord.from_json(record.model_dump()), at, key))


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


def encoded(text: str) -> Response:
    """An answer the worker has encoded already (of the shape the route declares)."""
    return Response(text, media_type="application/json")


def _optional_token_in_schema(app: FastAPI) -> None:
    """Say in the OpenAPI schema that a game's view and move log may be asked for without a
    token (a spectator's): FastAPI marks every use of the bearer scheme as required."""
    plain = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = plain()
            for path in ("/api/games/{game_id}", "/api/games/{game_id}/log"):
                operation = schema["paths"][path]["get"]
                operation["security"] = [*operation.get("security", []), {}]
        return app.openapi_schema or schema

    app.openapi = openapi  # type: ignore[method-assign]


def _token(credentials: HTTPAuthorizationCredentials | None) -> str | None:
    return None if credentials is None else credentials.credentials


async def replayable(service: GameService, game_id: str) -> LiveGame:
    """A game whose record may be shown: finished, or hiding nothing from anyone."""
    live = await service.get(game_id)
    if live.status != FINISHED and live.game.hides_information():
        raise Forbidden(
            f"The record of a {live.game.title} game in progress would show face-down cards; "
            "it opens when the game is over."
        )
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


LISTS_FRESH = 1.0
"""Seconds a list of games, once built, is given to everyone who asks (building it reads and
describes every game listed, and anyone may ask for the lobby as often as they like)."""


async def game_lists(service: GameService, limit: int) -> dict[str, Any]:
    built = service.lists.get(limit)
    now = time.monotonic()
    if built is not None and now - built[0] < LISTS_FRESH:
        return built[1]
    lists = await _game_lists(service, limit)
    service.lists[limit] = (now, lists)
    return lists


async def _game_lists(service: GameService, limit: int) -> dict[str, Any]:
    # Running games come from the database too: other servers may have started some.
    newest = await asyncio.to_thread(service.store.summaries, RUNNING, limit)
    running = []
    for summary in newest:
        with contextlib.suppress(WebError):
            running.append(views.live_summary(await service.get(summary.id)))
    stored = await asyncio.to_thread(service.store.summaries, FINISHED, limit)
    return {"running": running, "finished": [views.stored_summary(s) for s in stored]}


# -- pages -----------------------------------------------------------------------------------


def _page_routes(app: FastAPI, service: Callable[[], GameService], templates: Jinja2Templates) -> None:
    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def lobby(request: Request) -> Response:
        lists = await game_lists(service(), LIST_LIMIT)
        return templates.TemplateResponse(
            request, "lobby.html", {"catalogue": views.catalogue(), "lists": lists, "page": "lobby"}
        )

    @app.get("/games/{game_id}", response_class=HTMLResponse, include_in_schema=False)
    async def game_page(request: Request, game_id: str) -> Response:
        live = await service().get(game_id)
        # The page is a spectator's: a seat's own view comes from its token, which the
        # browser keeps in the link's #fragment and never sends in a page request.
        view = views.view(live, None)
        return templates.TemplateResponse(
            request, "game.html", {"view": view, "page": "game", "hides": live.game.hides_information()}
        )

    @app.get("/games/{game_id}/replay", response_class=HTMLResponse, include_in_schema=False)
    async def game_replay_page(request: Request, game_id: str) -> Response:
        live = await replayable(service(), game_id)
        return templates.TemplateResponse(
            request, "replay.html", {"game_id": live.id, "title": live.game.title, "page": "replay"}
        )

    @app.get("/replay", response_class=HTMLResponse, include_in_schema=False)
    async def replay_page(request: Request) -> Response:
        return templates.TemplateResponse(
            request, "replay.html", {"game_id": None, "title": None, "page": "replay"}
        )

    @app.get("/rules/{game}", response_class=HTMLResponse, include_in_schema=False)
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


def rules_html(cls: type[chaosgames.Game]) -> str:
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


def json_for_script(value: Any) -> str:
    """JSON safe inside a <script type="application/json"> element."""
    return json.dumps(value).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


# -- errors -------------------------------------------------------------------------------------

ERROR_STATUS: dict[type[ChaosGamesError], int] = {IllegalActionError: 409}


def _install_error_handlers(app: FastAPI, templates: Jinja2Templates) -> None:
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

    @app.exception_handler(WebError)
    async def web_error(request: Request, exc: WebError) -> Response:
        return answer(request, exc.status, exc.detail, headers=exc.headers, **exc.extra)

    @app.exception_handler(ChaosGamesError)
    async def game_error(request: Request, exc: ChaosGamesError) -> Response:
        # Bad options, unknown games or agents, unreadable records: the request's fault.
        status = next((code for kind, code in ERROR_STATUS.items() if isinstance(exc, kind)), 422)
        return answer(request, status, str(exc))

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> Response:
        return answer(request, 422, describe_validation(exc))

    @app.exception_handler(StarletteHTTPException)
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
            allowed = allowed_methods(app, request)
            headers["Allow"] = ", ".join(allowed)
            detail = f"{request.method} is not allowed here; use {' or '.join(allowed)}."
        return answer(request, exc.status_code, detail, headers=headers or None)

    @app.exception_handler(Exception)
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
    for route in app.router.routes:
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


# -- middleware -----------------------------------------------------------------------------------


class BodyTooLarge(StarletteHTTPException):
    def __init__(self, limit: int) -> None:
        super().__init__(413, f"The request body is larger than the {limit} bytes this server accepts.")


class BodyLimit:
    """Refuse request bodies larger than `limit` bytes (413), declared or streamed."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.limit):
                response = JSONResponse({"detail": BodyTooLarge(self.limit).detail}, status_code=413)
                await response(scope, receive, send)
                return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise BodyTooLarge(self.limit)
            return message

        await self.app(scope, limited, send)


CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)


class SecurityHeaders:
    """Headers that keep pages from being framed, sniffed or fed foreign scripts; no page
    sends its address (which may carry a seat's token) to another site."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [
                    (b"content-security-policy", CSP.encode()),
                    (b"referrer-policy", b"no-referrer"),
                    (b"x-content-type-options", b"nosniff"),
                    (b"x-frame-options", b"DENY"),
                ]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


__all__ = ["create_app"]
