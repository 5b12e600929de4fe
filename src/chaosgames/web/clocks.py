"""Clocks (issue 50, optional per table): each person has `clock` seconds for the game plus
`increment` seconds after each of their decisions, kept by the server.

A clock is not stored as a number that could be lost between two writes: it is worked out
from what is committed anyway, the commit time of every action (`actions.created`). A
person's wait for a decision runs from the commit of the action before it to the commit of
their decision; only decisions made while a person played the seat count (a computer's
thinking is charged to nobody). So whatever happens to a server, the clocks are exactly as
the committed actions say, and survive kill -9 like the moves.

Time while no server kept the game is not charged: every server stamps its clock games as
alive every `ALIVE_EVERY` seconds (`clocks.alive`), and a server taking a game up after a
longer gap stores the gap as a pause (`clock_pauses`), left out of every wait it overlaps.
A person should not lose on time because the server was down; at most `GAP` seconds of an
outage are charged.

Each game with a clock has a timer task here that sleeps until the person to act would run
out and is woken by every change of the game; so time runs out without any request. Out of
time: with `out_of_time` "loss" in a game of two players, the other wins; else (or with
"computer") a computer level plays the seat on, as after a resignation.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any, Protocol

from chaosgames.web.endings import TAKEOVER_LEVEL, finish, hand_over, is_person, two_sided_win
from chaosgames.web.errors import Conflict
from chaosgames.web.live import HUMAN, LiveGame
from chaosgames.web.stored import OUT_OF_TIME
from chaosgames.web.table_rows import keep_alive, resume_clock

log = logging.getLogger("chaosgames.web")

ALIVE_EVERY = 2.0
"""Seconds between two stamps of a server's clock games as alive."""
GAP = 3 * ALIVE_EVERY
"""A longer time without a stamp is a time no server kept the game (not charged)."""


class Table(Protocol):
    store: Any
    running: dict[str, LiveGame]

    def cached(self, game_id: str) -> LiveGame | None: ...

    def lock(self, game_id: str) -> Any: ...

    def keep(self, live: LiveGame) -> None: ...

    def changed(self, live: LiveGame) -> None: ...


def who_at(live: LiveGame, seat: int, version: int) -> str:
    """Who played `seat` when the game was at `version`."""
    who = HUMAN if is_person(live, seat) else live.seats[seat]
    for change in live.table.changes:
        if change.seat == seat and change.version <= version:
            who = change.who
    return who


def paused(start: float, end: float, pauses: list[tuple[float, float]]) -> float:
    """How much of [start, end] no server kept the game."""
    return sum(max(0.0, min(end, b) - max(start, a)) for a, b in pauses)


def clock_view(live: LiveGame, now: float | None = None) -> dict[str, Any] | None:
    """Each person's time left: for the person to act, as of `since` (server clock, pauses
    already left out), from which the page counts down; None without a clock."""
    rules = live.table.rules
    if rules.clock is None:
        return None
    now = time.time() if now is None else now
    pauses = live.table.pauses
    n = len(live.seats)
    used, decisions = [0.0] * n, [0] * n
    before = live.created
    for at, step in enumerate(live.steps):
        committed = live.times[at] if at < len(live.times) else live.updated
        if step.actor >= 0 and who_at(live, step.actor, at) == HUMAN:
            used[step.actor] += committed - before - paused(before, committed, pauses)
            decisions[step.actor] += 1
        before = committed
    running = live.to_act()
    if running is not None and live.seats[running] != HUMAN:
        running = None
    since = before + paused(before, now, pauses)
    seats: list[dict[str, Any]] = [
        {
            "seat": s,
            "remaining": rules.clock + rules.increment * decisions[s] - used[s]
            if is_person(live, s)
            else None,
        }
        for s in range(n)
    ]
    ending = live.table.ending
    if ending is not None and ending.how == OUT_OF_TIME and ending.seat is not None:
        seats[ending.seat]["remaining"] = 0.0
    for change in live.table.changes:
        if change.why == OUT_OF_TIME:
            seats[change.seat]["remaining"] = 0.0
    return {"since": since, "running": running, "seats": seats}


def time_left(live: LiveGame, now: float | None = None) -> tuple[int, float] | None:
    """The person to act and their seconds left now; None when no clock runs."""
    now = time.time() if now is None else now
    clock = clock_view(live, now)
    if clock is None or clock["running"] is None or live.over:
        return None
    seat = clock["running"]
    return seat, clock["seats"][seat]["remaining"] - (now - clock["since"])


class Clocks:
    """The timer tasks of a server's clock games, and their stamps as alive."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.timers: dict[str, asyncio.Task[None]] = {}
        self.wake: dict[str, asyncio.Event] = {}
        self.resumed: set[str] = set()
        self.stamps: asyncio.Task[None] | None = None

    def start(self) -> None:
        for live in list(self.table.running.values()):
            self.watch(live)
        self.stamps = asyncio.get_running_loop().create_task(self._stamp())

    async def stop(self) -> None:
        tasks = [*self.timers.values(), *([self.stamps] if self.stamps else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        self.timers.clear()

    def watch(self, live: LiveGame) -> None:
        """The game changed: its timer looks at its clocks again (started if need be)."""
        if live.id in self.timers:
            self.wake[live.id].set()  # a game over ends its timer
            return
        if live.table.rules.clock is None or live.over:
            return
        self.wake[live.id] = asyncio.Event()
        self.timers[live.id] = asyncio.get_running_loop().create_task(self._timer(live.id))

    async def _timer(self, game_id: str) -> None:
        try:
            if game_id not in self.resumed:
                await self._resume(game_id)
            while True:
                live = self.table.cached(game_id)
                left = None if live is None else time_left(live)
                if live is None or (left is None and live.over):
                    return
                if left is None or left[1] > 0:
                    wake = self.wake[game_id]
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(wake.wait(), None if left is None else left[1] + 0.05)
                    wake.clear()
                    continue
                await self._out_of_time(game_id)
        finally:
            self.timers.pop(game_id, None)
            self.wake.pop(game_id, None)

    async def _resume(self, game_id: str) -> None:
        """Take the game up: the time no server kept it is a pause."""
        live = self.table.cached(game_id)
        last = 0.0 if live is None else max([live.updated, *live.times[-1:]])
        pause = await asyncio.to_thread(resume_clock, self.table.store, game_id, time.time(), GAP, last)
        self.resumed.add(game_id)
        if pause is not None and live is not None:
            live.table.pauses.append(pause)
            live.table_changed()
            self.table.changed(live)

    async def _out_of_time(self, game_id: str) -> None:
        async with self.table.lock(game_id):
            live = self.table.cached(game_id)
            left = None if live is None else time_left(live)
            if live is None or left is None or left[1] > 0:
                return
            seat = left[0]
            names = live.game.player_names()
            try:
                if live.table.rules.out_of_time == "loss" and live.game.num_players == 2:
                    sentence = f"{names[seat]} ran out of time: {names[1 - seat]} wins."
                    await finish(self.table, live, two_sided_win(live, seat), OUT_OF_TIME, seat, sentence)
                else:
                    await hand_over(self.table, live, seat, TAKEOVER_LEVEL, OUT_OF_TIME)
            except Conflict:
                return  # another server acted first; its change reaches this one
        self.table.changed(live)

    async def _stamp(self) -> None:
        while True:
            await asyncio.sleep(ALIVE_EVERY)
            ids = [i for i in self.resumed if i in self.table.running]
            try:
                await asyncio.to_thread(keep_alive, self.table.store, ids, time.time())
            except Exception:  # a busy database: the next stamp comes in ALIVE_EVERY
                log.warning("Clock games could not be stamped alive", exc_info=True)
            self.resumed &= set(self.table.running)
