"""Limits per client address, so that one stranger cannot take the server from everyone.

Rates (a moving window per address, `MovingWindows`; the rates written and parsed as the
`limits` library writes them): games created, actions played, replays of uploaded
records, chat messages, designs saved and tests of designs.
Counts at once: open WebSockets per address and per address and game, and running games
with computer seats per address (they hold the workers every table shares). A client over
a limit is answered 429 with `Retry-After` (a WebSocket is closed with 4429 and the
reason). Each limit is a `chaosgames serve` flag (docs/web.md, "Running it in public").

The counts live in the memory of one server process: with `--workers N` each process
counts apart. A client's address is the connection's, or, behind a proxy on the same
machine, the `X-Forwarded-For` it sets (uvicorn believes it from 127.0.0.1 only).
"""

from __future__ import annotations

import contextlib
import time
from collections import Counter, deque
from collections.abc import Callable, Container, Iterator
from dataclasses import dataclass, fields
from typing import Any

from fastapi import Depends, Request
from limits import RateLimitItem, parse
from starlette.requests import HTTPConnection

from chaosgames.core.errors import InvalidOptionError
from chaosgames.web.errors import TooMany

RATES = {
    "games": "games created",
    "actions": "actions",
    "replays": "replays of uploaded records",
    "chat": "chat messages",
    "designs": "designs saved",
    "trials": "tests of designs",
}
SOCKET_RETRY = 10.0
"""Seconds after which a client refused a WebSocket may try again (one of its own closes)."""
BOXED = 10_000
"""Refusals remembered at most (see `refusals`): beyond, the ones that ran out are forgotten."""
COMPUTER_GAME_RETRY = 60.0
"""Seconds after which a client at its count of computer games may try again (one ends)."""


@dataclass(frozen=True)
class ClientLimits:
    """What one client address may do (rates as `limits` writes them: "10/minute")."""

    games: str = "10/minute"
    actions: str = "240/minute"
    replays: str = "20/minute"
    sockets: int = 32
    sockets_per_game: int = 8
    computer_games: int = 4
    chat: str = "12/minute"
    designs: str = "30/hour"
    trials: str = "6/hour"
    """A test of a design plays up to 200 games in a worker (design_trials)."""

    def __post_init__(self) -> None:
        for name in RATES:
            rate(getattr(self, name), name)
        for name in ("sockets", "sockets_per_game", "computer_games"):
            if getattr(self, name) < 1:
                raise InvalidOptionError(f"The limit {name} must be at least 1, not {getattr(self, name)}.")

    def described(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def rate(text: str, name: str = "rate") -> RateLimitItem:
    """The rate `text` ("10/minute", "100 per hour") names; InvalidOptionError if none."""
    try:
        return parse(text)
    except ValueError:
        raise InvalidOptionError(
            f"The limit {name} takes a rate such as '10/minute' or '100 per hour', not {text!r}."
        ) from None


GENEROUS = ClientLimits(
    "100000/minute",
    "100000/minute",
    "100000/minute",
    100_000,
    100_000,
    100_000,
    "100000/minute",
    "100000/minute",
    "100000/minute",
)
"""For tests and tools that are not about limits (many games from one address at once)."""


def client_address(connection: HTTPConnection) -> str:
    """Who is asking: the client's address (the proxy's X-Forwarded-For when uvicorn trusts it)."""
    return connection.client.host if connection.client is not None else "unknown"


SWEEP = 10_000
"""Hits after which the windows of clients gone quiet are forgotten."""


class MovingWindows:
    """The hits of each (rate, client) within the rate's period, oldest first: a hit is
    refused when the period already holds the rate's amount. The `limits` library's
    moving window, without its memory storage's timer thread (it started one to expire
    entries every 10 ms of hits, a twelfth of a move's CPU under load)."""

    def __init__(self) -> None:
        self._hits: dict[tuple[str, str], deque[float]] = {}
        self._periods: dict[str, float] = {}
        self._since_sweep = 0

    def hit(self, item: RateLimitItem, what: str, client: str) -> bool:
        """Count a hit now unless the window is full; whether it was counted."""
        now = time.time()
        period = self._periods[what] = item.get_expiry()
        hits = self._hits.get((what, client))
        if hits is None:
            self._sweep(now)
            hits = self._hits[what, client] = deque()
        while hits and hits[0] <= now - period:
            hits.popleft()
        if len(hits) >= item.amount:
            return False
        hits.append(now)
        return True

    def reset(self, what: str, client: str) -> float:
        """When (epoch seconds) the oldest hit in the window leaves it."""
        hits = self._hits.get((what, client))
        return hits[0] + self._periods[what] if hits else time.time()

    def _sweep(self, now: float) -> None:
        """Now and then (a flood of addresses), forget the windows with no hit left in them."""
        self._since_sweep += 1
        if self._since_sweep < SWEEP:
            return
        self._since_sweep = 0
        self._hits = {k: h for k, h in self._hits.items() if h and h[-1] >= now - self._periods[k[0]]}


class Gate:
    """The counts behind the limits of one server process."""

    def __init__(self, limits: ClientLimits) -> None:
        self.limits = limits
        self._rates = {name: rate(getattr(limits, name), name) for name in RATES}
        self._windows = MovingWindows()
        self._sockets: Counter[str] = Counter()
        self._game_sockets: Counter[tuple[str, str]] = Counter()
        self._computer_games: dict[str, set[str]] = {}
        self.refused: Counter[str] = Counter()
        """How many requests each limit refused (for benchmarks and health)."""
        self._boxed: dict[tuple[str, str], tuple[float, str]] = {}
        """(rate, client) -> until when (epoch seconds) and why it was refused (`refusals`)."""
        self._boxed_sockets: dict[tuple[str, str | None], str] = {}
        """(client, game or None for all) -> why a WebSocket was refused (`refusals`)."""

    def hit(self, what: str, client: str) -> None:
        """Count one `what` (a key of RATES) for `client`; TooMany when over its rate."""
        item = self._rates[what]
        if self._windows.hit(item, what, client):
            return
        self.refused[what] += 1
        reset = self._windows.reset(what, client)
        detail = (
            f"Too many {RATES[what]} from your address: this server takes {item.amount} per "
            f"{_period(item)}. Try again in a little while."
        )
        self._box((what, client), (reset, detail))
        raise TooMany(detail, reset - time.time())

    def still_refused(self, what: str, client: str) -> tuple[str, float] | None:
        """Why `client` was refused `what` and the seconds left, while its refusal lasts."""
        boxed = self._boxed.get((what, client))
        if boxed is None:
            return None
        left = boxed[0] - time.time()
        if left <= 0:
            del self._boxed[what, client]
            return None
        self.refused[what] += 1
        return boxed[1], left

    def sockets_still_refused(self, client: str, game_id: str) -> str | None:
        """Why `client` was refused a WebSocket (to `game_id`), while it still has as many open."""
        for key, open_now, limit in (
            ((client, None), self._sockets[client], self.limits.sockets),
            ((client, game_id), self._game_sockets[client, game_id], self.limits.sockets_per_game),
        ):
            detail = self._boxed_sockets.get(key)
            if detail is not None and open_now >= limit:
                self.refused["sockets"] += 1
                return detail
            self._boxed_sockets.pop(key, None)
        return None

    def _box(self, key: tuple[str, str], entry: tuple[float, str]) -> None:
        if len(self._boxed) >= BOXED:  # a flood of addresses: forget the refusals that ran out
            now = time.time()
            self._boxed = {k: v for k, v in self._boxed.items() if v[0] > now}
        self._boxed[key] = entry

    @contextlib.contextmanager
    def socket(self, client: str, game_id: str) -> Iterator[None]:
        """Count an open WebSocket while it lasts; TooMany when the client has too many."""
        if self._sockets[client] >= self.limits.sockets:
            self.refused["sockets"] += 1
            detail = f"Your address has {self.limits.sockets} connections open already."
            self._box_socket((client, None), detail)
            raise TooMany(detail, SOCKET_RETRY)
        if self._game_sockets[client, game_id] >= self.limits.sockets_per_game:
            self.refused["sockets"] += 1
            detail = f"Your address has {self.limits.sockets_per_game} connections to this game open already."
            self._box_socket((client, game_id), detail)
            raise TooMany(detail, SOCKET_RETRY)
        self._sockets[client] += 1
        self._game_sockets[client, game_id] += 1
        try:
            yield
        finally:
            self._sockets[client] -= 1
            self._game_sockets[client, game_id] -= 1
            if self._sockets[client] <= 0:
                del self._sockets[client]
            if self._game_sockets[client, game_id] <= 0:
                del self._game_sockets[client, game_id]

    def _box_socket(self, key: tuple[str, str | None], detail: str) -> None:
        if len(self._boxed_sockets) >= BOXED:  # connections close: keep only the fullest clients'
            self._boxed_sockets.clear()
        self._boxed_sockets[key] = detail

    @contextlib.contextmanager
    def computer_game(self, client: str, running: Container[str]) -> Iterator[Callable[[str], None]]:
        """Make room for one more running game with computer seats for `client` (TooMany
        when it has its limit's count running); the block calls the given function with the
        new game's id once created. `running` holds the ids of games still running."""
        games = self._computer_games.setdefault(client, set())
        games.intersection_update({g for g in games if g in running or g.startswith("?")})
        if len(games) >= self.limits.computer_games:
            self.refused["computer_games"] += 1
            raise TooMany(
                f"Your address has {self.limits.computer_games} games with computer seats running; "
                "finish one (or play it with people) before starting another.",
                COMPUTER_GAME_RETRY,
            )
        placeholder = f"?{id(object())}"
        games.add(placeholder)
        created: list[str] = []
        try:
            yield created.append
        finally:
            games.discard(placeholder)
            games.update(created)
            if not games:
                del self._computer_games[client]


def _period(item: RateLimitItem) -> str:
    unit = item.GRANULARITY.name
    return unit if item.multiples == 1 else f"{item.multiples} {unit}s"


def gate(connection: HTTPConnection) -> Gate:
    found: Gate = connection.app.state.gate
    return found


def limited(what: str) -> Any:
    """A route dependency counting one `what` (a key of RATES) for the requesting client."""

    async def count(request: Request) -> None:
        gate(request).hit(what, client_address(request))

    return Depends(count)
