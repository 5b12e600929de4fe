"""An absent person's seat (Board Game Arena's "zombie" rule, issue 50): when a person has
not acted for longer than the table's patience while it is their turn, the other people may
hand the seat to a computer level, and the person takes it back with their own link. In a
game of two people the other may claim the win instead.

A person's absence is counted from the last thing that happened at the table before their
turn: the commit of the last action (the `actions` rows' `created`) or the last change of
who plays their seat, whichever is later.
"""

from __future__ import annotations

import time

from chaosgames.web.endings import Table, check_running, claim, hand_over, people, resigned
from chaosgames.web.errors import Conflict, Forbidden
from chaosgames.web.live import HUMAN, LiveGame
from chaosgames.web.seats import acting_seat
from chaosgames.web.stored import HANDED, OUT_OF_TIME, TAKEN_BACK


def waiting_since(live: LiveGame, seat: int) -> float | None:
    """Since when the person of `seat` has been awaited (None: not their turn, or a computer
    plays the seat)."""
    if live.over or live.to_act() != seat or live.seats[seat] != HUMAN:
        return None
    since = live.times[-1] if live.times else live.created
    for change in live.table.changes:
        if change.seat == seat:
            since = max(since, change.created)
    return since


def check_absent(live: LiveGame, seat: int, now: float | None = None) -> None:
    """Conflict unless `seat`'s person has been awaited longer than the table's patience."""
    patience = live.table.rules.patience
    if patience is None:
        raise Conflict("This table has no patience rule: a seat can be handed on only if one is chosen.")
    since = waiting_since(live, seat)
    names = live.game.player_names()
    if since is None:
        raise Conflict(f"{names[seat]} is not being waited for: it is not their turn, or a computer plays.")
    waited = (time.time() if now is None else now) - since
    if waited <= patience:
        raise Conflict(
            f"{names[seat]} has been awaited {waited:.0f} s; the table's patience is {patience:.0f} s."
        )


def _other_person(live: LiveGame, by: int | None, seat: int) -> int:
    by = acting_seat(by)
    if by == seat:
        raise Forbidden("Only the other people at the table may hand on a seat or claim over it.")
    if seat not in people(live) or by not in people(live):
        raise Conflict("Only a person's seat may be handed on, by another person of the table.")
    return by


async def hand(table: Table, live: LiveGame, by: int | None, seat: int, level: str) -> LiveGame:
    """Another person hands the absent person's seat to a computer `level`."""
    _other_person(live, by, seat)
    async with table.lock(live.id):
        check_running(live)
        check_absent(live, seat)
        await hand_over(table, live, seat, level, HANDED)
    table.changed(live)
    return live


async def take_back(table: Table, live: LiveGame, by: int | None, seat: int) -> LiveGame:
    """The person takes their seat back from the computer (with their own link)."""
    if acting_seat(by) != seat:
        raise Forbidden("Only the seat's own private link may take it back.")
    async with table.lock(live.id):
        check_running(live)
        if resigned(live, seat):
            raise Conflict("A resigned seat is not taken back.")
        if any(c.seat == seat and c.why == OUT_OF_TIME for c in live.table.changes):
            raise Conflict("A seat whose time ran out is not taken back.")
        if live.seats[seat] == HUMAN:
            raise Conflict("This seat is yours already: no computer plays it.")
        await hand_over(table, live, seat, HUMAN, TAKEN_BACK)
    table.changed(live)
    return live


async def claim_win(table: Table, live: LiveGame, by: int | None) -> LiveGame:
    """In a game of two people, the present one claims the win over the absent one."""
    seats = people(live)
    if live.game.num_players != 2 or len(seats) != 2:
        raise Conflict("A win is claimed only in a game of two people; hand the seat to a computer instead.")
    claimer = acting_seat(by)
    absent = 1 - claimer
    _other_person(live, claimer, absent)
    async with table.lock(live.id):
        check_running(live)
        check_absent(live, absent)
        await claim(table, live, claimer, absent)
    table.changed(live)
    return live
