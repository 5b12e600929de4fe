"""The refusals of the web app: an HTTP status, a sentence, and details.

Every module of the app raises these; `app` turns them into `{"detail": ...}` answers.
"""

from __future__ import annotations

from typing import Any


class WebError(Exception):
    """A request the server refuses: an HTTP status, a sentence, and details."""

    status = 400

    def __init__(self, detail: str, *, headers: dict[str, str] | None = None, **extra: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        self.headers = headers
        self.extra = extra


class NotFound(WebError):
    status = 404


class Forbidden(WebError):
    status = 403


class Conflict(WebError):
    status = 409


class Unprocessable(WebError):
    status = 422


class TooMany(WebError):
    """A client over one of the server's limits: 429, with when to try again."""

    status = 429

    def __init__(self, detail: str, retry_after: float) -> None:
        self.retry_after = max(1, int(retry_after + 0.999))
        super().__init__(detail, headers={"Retry-After": str(self.retry_after)})
