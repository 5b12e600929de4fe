"""Which pages may open the server's WebSocket: its own, and those `--allow-origin` names.

A browser sends the page's origin with every WebSocket it opens, and lets any page open one
to any server: without this check another site's page, opened by a player, could watch a
game through that player's browser. A connection that sends no Origin at all is not a
browser's (scripts, bots, the command line): it is let in, since it could send any Origin
it liked anyway, and what it may see is decided by the token in its hello.
"""

from __future__ import annotations

from collections.abc import Iterable

from starlette.requests import HTTPConnection


def normalised(origins: Iterable[str]) -> frozenset[str]:
    """Origins as a browser writes them: scheme://host[:port], lower case, no trailing slash."""
    return frozenset(o.strip().rstrip("/").lower() for o in origins if o.strip())


def origin_allowed(connection: HTTPConnection, allowed: frozenset[str]) -> bool:
    """Whether the connection's Origin is the server's own (its Host, by http or https) or
    one of `allowed`; True when it sends none."""
    origin = connection.headers.get("origin")
    if origin is None:
        return True
    origin = origin.strip().rstrip("/").lower()
    host = connection.headers.get("host", "").strip().lower()
    own = {f"http://{host}", f"https://{host}"} if host else set()
    return origin in own or origin in allowed
