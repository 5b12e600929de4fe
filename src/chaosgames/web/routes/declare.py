"""How the routes declare themselves: the problems every route may answer, and a POST
counted against one of the client's limits (`limits`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter
from fastapi.types import DecoratedCallable

import chaosgames.web.schemas as schemas
from chaosgames.web.limits import limited

PROBLEMS: dict[int | str, dict[str, Any]] = {
    code: {"model": schemas.Problem} for code in (400, 403, 404, 409, 413, 422, 429)
}


def limited_post(
    router: APIRouter, path: str, answer: Any, *, tag: str, limit: str, status_code: int = 200
) -> Callable[[DecoratedCallable], DecoratedCallable]:
    """`router.post(path)` answering `answer` (or one of PROBLEMS), each call counted as one
    `limit` (a rate of `limits.RATES`) of the client's."""
    return router.post(
        path,
        response_model=answer,
        status_code=status_code,
        responses=PROBLEMS,
        tags=[tag],
        dependencies=[limited(limit)],
    )
