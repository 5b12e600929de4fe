"""Seats and their keys: who a request speaks for, and who may act.

A person's seat is opened by a secret token, given once in the seat's private link; the
database keeps only its SHA-256 (see `database`). A request without a token is a
spectator's. The token is resolved to a seat once per request (see `deps`), and the
service is handed the seat, never the token.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from chaosgames.web.errors import Conflict, Forbidden
from chaosgames.web.live import HUMAN, LiveGame
from chaosgames.web.stored import FINISHED


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str, stored_hash: str | None) -> bool:
    """Whether `token` is the one whose hash is stored, compared in constant time."""
    if stored_hash is None:
        return False
    return hmac.compare_digest(token_hash(token), stored_hash)


def new_tokens(seats: list[str]) -> list[str | None]:
    """A fresh secret token for each person's seat; None for a computer's."""
    return [secrets.token_urlsafe(24) if who == HUMAN else None for who in seats]


def seat_for(live: LiveGame, token: str | None) -> int | None:
    """The seat whose token this is; None for no token (a spectator); Forbidden else."""
    if token is None:
        return None
    # Every seat is compared (in constant time), so the answer's timing tells nothing.
    matches = [i for i, stored in enumerate(live.token_hashes) if token_matches(token, stored)]
    if len(matches) != 1:
        raise Forbidden("This token is not the key of any seat of this game.")
    return matches[0]


def acting_seat(seat: int | None) -> int:
    """The seat a request may act for: a spectator (no token) may not act."""
    if seat is None:
        raise Forbidden("Only a seat's private link may act: this request carries no seat token.")
    return seat


def check_turn(live: LiveGame, seat: int, version: int) -> None:
    """Conflict unless `seat` may act now on the game at `version`."""
    if version != live.version:
        raise Conflict(
            f"The game has moved on: this action was decided at version {version}, "
            f"the game is at version {live.version}. Look at the board again.",
            version=live.version,
        )
    if live.over:
        raise Conflict("The game is over; nothing more can be played.", version=live.version)
    to_act = live.to_act()
    if to_act != seat:
        names = live.game.player_names()
        raise Conflict(
            f"It is not your turn: {names[to_act] if to_act is not None else 'nobody'} is to act.",
            version=live.version,
            legal=[],
        )


def check_record_shown(live: LiveGame) -> None:
    """Forbidden unless the game's record may be shown: finished, or hiding nothing."""
    if live.status != FINISHED and live.game.hides_information():
        raise Forbidden(
            f"The record of a {live.game.title} game in progress would show face-down cards; "
            "it opens when the game is over."
        )
