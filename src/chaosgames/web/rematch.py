"""A rematch (issue 50): once a game is over, one person offers it and every other person
accepts (each with their own link); then a new game starts with the same options, table
rules and computer seats, the seats turned by one (seat 1's person plays seat 2, and so
on, the last person seat 1), and each person's page moves to their new seat.

No new link is sent to anyone: a person's token in the new game is derived from their
token in the old one (HMAC-SHA256 keyed by the old token, of the old game's id), so only
the holder of the old seat's link can learn the new one (`POST .../rematch` answers each
seat its own link), and the server still stores nothing but SHA-256 hashes.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
from dataclasses import replace
from typing import Any

from sqlalchemy.exc import IntegrityError

from chaosgames.web.endings import people
from chaosgames.web.errors import Conflict
from chaosgames.web.live import HUMAN, LiveGame
from chaosgames.web.seats import acting_seat, token_hash
from chaosgames.web.service import GameService
from chaosgames.web.stored import TableEvents
from chaosgames.web.table_rows import offer_rematch, offered_tokens


def rematch_token(token: str, game_id: str) -> str:
    """The token of a person's seat in the rematch of `game_id`, from their old token."""
    digest = hmac.new(token.encode("utf-8", "surrogatepass"), f"rematch:{game_id}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(digest.digest()).decode()[:32]


def rotated(seat: int, players: int) -> int:
    """The seat the player of `seat` takes in the rematch."""
    return (seat + 1) % players


def new_seats(live: LiveGame) -> list[str]:
    """Who plays each seat of the rematch: the people of the game (a seat resigned or handed
    on is its person's again) and its computer seats, turned by one."""
    n = len(live.seats)
    seats = [""] * n
    for seat, who in enumerate(live.seats):
        seats[rotated(seat, n)] = HUMAN if live.token_hashes[seat] is not None else who
    return seats


async def offer(service: GameService, live: LiveGame, seat: int | None, token: str | None) -> dict[str, Any]:
    """The seat offers or accepts the rematch; once every person has, the new game starts.
    Answers the seat's part: who is still awaited, and its new link once the game exists."""
    seat = acting_seat(seat)
    if not live.over:
        raise Conflict("A rematch is offered once the game is over.", version=live.version)
    assert token is not None  # a seat comes from a token
    mine = rematch_token(token, live.id)
    async with service.lock(live.id):
        if seat not in live.table.offers:
            await asyncio.to_thread(offer_rematch, service.store, live.id, seat, token_hash(mine))
        # The offers as the database has them: others may have come through other servers.
        hashes = await asyncio.to_thread(offered_tokens, service.store, live.id)
        if set(hashes) != live.table.offers:
            live.table.offers = set(hashes)
            live.table_changed()
        if live.table.rematch is None and set(people(live)) <= live.table.offers:
            await _start(service, live, hashes)
    service.publish(live)
    return answer(live, seat, mine)


def answer(live: LiveGame, seat: int, mine: str) -> dict[str, Any]:
    names = live.game.player_names()
    waiting = [names[s] for s in people(live) if s not in live.table.offers]
    new = live.table.rematch
    return {
        "game": new,
        "seat": rotated(seat, len(live.seats)),
        "link": None if new is None else f"/games/{new}#token={mine}",
        "waiting_for": waiting,
    }


async def _start(service: GameService, live: LiveGame, hashes: dict[int, str]) -> None:
    n = len(live.seats)
    seats = new_seats(live)
    tokens: list[str | None] = [None] * n
    for seat, hashed in hashes.items():
        tokens[rotated(seat, n)] = hashed
    options = {k: v for k, v in live.game.options.items() if k != "players"}
    table = TableEvents(rules=replace(live.table.rules))
    try:
        new, _ = await service.create(
            live.game.name,
            options,
            seats,
            table=table,
            hashes=tokens,
            # The table's takebacks rule (see `undo`) carries over with its other rules.
            meta={"rematch_of": live.id}
            | ({"takebacks": live.meta["takebacks"]} if "takebacks" in live.meta else {}),
        )
    except IntegrityError:
        # Another server started it first: read which game it is.
        stored = await asyncio.to_thread(service.store.load, live.id)
        if stored is None or stored.table.rematch is None:
            raise Conflict("The rematch could not be started; try again.") from None
        live.table.rematch = stored.table.rematch
    else:
        live.table.rematch = new.id
    live.table_changed()
