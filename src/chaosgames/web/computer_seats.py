"""Computer seats taking their turns: when one is to act, its decision (in the workers of
`computers`, shared fairly by every game) and its move, committed like a person's.

The game shows the seat "thinking" meanwhile. Only the server that owns a game (see
`cluster`) moves its computer seats. A seat whose agent fails does not end the game: the
players are told why, and the seat tries again when the server restarts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from typing import Any, Protocol

from chaosgames.core.game import State
from chaosgames.web.computers import ComputerPlayers
from chaosgames.web.dice import agent_seed
from chaosgames.web.errors import Conflict
from chaosgames.web.live import LiveGame, Step, Thinking
from chaosgames.web.stored import RUNNING
from chaosgames.web.workers import Decision, Overrun, budget

log = logging.getLogger("chaosgames.web")


class Table(Protocol):
    """What a computer seat asks of the service: its game, the game's lock, a commit."""

    clients: dict[str, str]

    def cached(self, game_id: str) -> LiveGame | None: ...

    def lock(self, game_id: str) -> asyncio.Lock: ...

    async def commit(self, live: LiveGame, state: State[Any], steps: list[Step]) -> None: ...

    def changed(self, live: LiveGame) -> None:
        """Tell the game's viewers, and start the next computer seat's turn."""
        ...

    def publish(self, live: LiveGame) -> None:
        """Tell the game's viewers only."""
        ...


class ComputerSeats:
    """The computer seats' turns in progress, one per game at most."""

    def __init__(self, players: ComputerPlayers, table: Table, pace: float = 0.0) -> None:
        self.players = players
        self.table = table
        self.pace = pace
        """Seconds a computer seat waits before it moves, so that people can follow."""
        self.tasks: dict[str, asyncio.Task[None]] = {}

    def schedule(self, live: LiveGame, owned: bool) -> None:
        """If a computer seat is to act, start its decision (once); only the game's owner
        (`owned`) moves it."""
        seat = live.to_act()
        if seat is None or not live.is_computer(seat) or live.status != RUNNING:
            live.thinking = None
            return
        if not owned:
            return  # its owner, another server, moves it
        if live.id in self.tasks:
            return
        live.thinking = Thinking(seat, time.time(), budget(live.seats[seat], live.game.name))
        self.tasks[live.id] = asyncio.get_running_loop().create_task(self._turn(live.id, live.version, seat))

    async def stop(self) -> None:
        for task in list(self.tasks.values()):
            task.cancel()
        for task in list(self.tasks.values()):
            # A cancelled or failed computer move: the database is intact either way.
            with contextlib.suppress(BaseException):
                await task

    async def _turn(self, game_id: str, version: int, seat: int) -> None:
        try:
            live = await self._move(game_id, version, seat)
        finally:
            self.tasks.pop(game_id, None)
        if live is not None:
            self.table.changed(live)

    async def _move(self, game_id: str, version: int, seat: int) -> LiveGame | None:
        if self.pace > 0:
            await asyncio.sleep(self.pace)  # let people see the last move before the next
        table = self.table
        live = table.cached(game_id)
        if live is None or live.version != version:
            return live
        request = Decision(
            game_id,
            live.game.name,
            dict(live.game.options),
            tuple(s.notation for s in live.steps),
            live.seats[seat],
            agent_seed(live.seed, version, live.secret),
        )
        try:
            notation = await self._decide(request, live, seat)
            async with table.lock(game_id):
                live = table.cached(game_id)
                # The game moved on, or its person took the seat back meanwhile (issue 50).
                if live is None or live.version != version or not live.is_computer(seat):
                    return live
                action = live.game.parse_action(live.state, notation)
                state, steps = live.advance(seat, action)
                await table.commit(live, state, steps)
        except Conflict:
            return table.cached(game_id)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the game must not die with its computer seat: say why, wait
            log.exception("Computer seat %s of game %s failed", seat, game_id)
            self._failed(game_id, seat, exc)
            return None
        return live

    async def _decide(self, request: Decision, live: LiveGame, seat: int) -> str:
        game_id = request.game_id
        try:
            return await self.players.decide(request, self.table.clients.get(game_id, game_id))
        except Overrun:
            # Even the easy level overran (a position that is slow to think about at all):
            # a legal action at random, from the seat's seed.
            log.warning("Computer seat %s of game %s plays a random legal action", seat, game_id)
            live = self.table.cached(game_id) or live
            legal = live.state.legal_actions()
            return str(random.Random(request.seed).choice(legal))

    def _failed(self, game_id: str, seat: int, exc: Exception) -> None:
        live = self.table.cached(game_id)
        if live is not None:
            live.thinking = None
            live.trouble = (
                f"The computer seat {live.seats[seat]} could not move ({type(exc).__name__}: {exc}); "
                "it tries again when the server restarts."
            )
            self.table.publish(live)
