"""The web app: pages (lobby, game, replay, rules), the HTTP API and the WebSocket.

`create_app(database_url=...)` builds it from its rooms; `chaosgames serve` runs it with
uvicorn. Every refusal is a 4xx answer with a sentence (`{"detail": ...}`), never a 500
and never a change of any game. See docs/web.md for the API, docs/architecture.md for the
rooms and how a move flows through them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

import chaosgames
import chaosgames.web.apidocs as apidocs
import chaosgames.web.handlers as handlers
from chaosgames.web.computers import THINK_LIMIT
from chaosgames.web.design_trials import Trials
from chaosgames.web.hub import Hub
from chaosgames.web.limits import ClientLimits, Gate
from chaosgames.web.middleware import MAX_BODY, BodyLimit, SecurityHeaders
from chaosgames.web.origins import normalised
from chaosgames.web.refusals import Refusals
from chaosgames.web.replays import REPLAY_LIMIT, Replays
from chaosgames.web.routes import api, design, pages, sockets, table, talk
from chaosgames.web.service import GameService
from chaosgames.web.storage import Store
from chaosgames.web.talk import Talk

HERE = Path(__file__).parent


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

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(database_url)  # creates the schema when missing
        service = GameService(
            store, app.state.hub, pool=computer_pool, workers=workers, pace=pace, think_limit=think_limit
        )
        app.state.service = service
        app.state.talk = Talk(app.state.hub, store, alone=lambda: service.cluster.servers == 1)
        app.state.replays.worker.start()
        await service.start()
        try:
            yield
        finally:
            await app.state.talk.stop()
            await service.stop()
            await app.state.trials.stop()
            app.state.replays.stop()
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
    app.state.hub = Hub()
    app.state.gate = Gate(limits or ClientLimits())
    app.state.origins = normalised(allow_origins)
    app.state.replays = Replays(computer_pool, replay_limit)
    app.state.trials = Trials(computer_pool)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(BodyLimit, limit=max_body)
    app.add_middleware(Refusals, gate=app.state.gate)  # outermost: before any other work
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    handlers.install(app)
    app.include_router(api.router)
    app.include_router(pages.router)
    app.include_router(design.router)
    app.include_router(sockets.router)
    app.include_router(talk.router)
    app.include_router(table.router)
    _optional_token_in_schema(app)
    apidocs.install(app)
    return app


def _optional_token_in_schema(app: FastAPI) -> None:
    """Say in the OpenAPI schema that a game's view and move log may be asked for without a
    token (a spectator's): FastAPI marks every use of the bearer scheme as required."""
    plain = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = plain()
            for path in (*api.OPTIONAL_TOKEN, *talk.OPTIONAL_TOKEN):
                operation = schema["paths"][path]["get"]
                operation["security"] = [*operation.get("security", []), {}]
        return app.openapi_schema or schema

    app.openapi = openapi  # type: ignore[method-assign]


__all__ = ["create_app"]
