"""The games a server runs: creating them, taking people's actions, moving computer seats.

Everything that changes a game goes through one `asyncio.Lock` per game and one database
transaction (`Store.commit`) that checks the game's version: an action is worked out on
a copy of the state, committed, and only then becomes the game's (and is acknowledged).
After each change the hub is told, and it sends every connected viewer its own view.

Computer seats decide in worker processes shared fairly by every game, within bounds and a
wall-clock cap per decision (see `computers`); the game shows them "thinking" meanwhile.
When the server starts it loads every unfinished game from the database and picks up
where each stopped: pending chance outcomes are drawn, computer seats move.

Several servers may share one database (see docs/web.md, "Running it for a club"):
- a game's computer seats are moved by the server that owns the game (`games.owner`);
  every server beats a heartbeat every `HEARTBEAT` seconds, and one that missed its
  heartbeats for `LEASE` seconds (or, on the same machine, whose process is gone) loses
  its games to the first live server that sweeps for orphans;
- a change committed by one server reaches the others' viewers: on PostgreSQL through
  LISTEN/NOTIFY at once, on SQLite by comparing versions every `SQLITE_POLL` seconds (a
  cheap query over the games this server has in memory); PostgreSQL servers also compare
  every `POSTGRES_POLL` seconds, in case a notification was lost with its connection;
- the version check of `Store.commit` keeps two servers from both accepting a move for
  one turn: the slower one reloads the game and answers 409.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Coroutine
from typing import Any

from chaosgames import agents
from chaosgames.core.constants import CHANCE
from chaosgames.core.errors import ChaosGamesError, IllegalActionError, InvalidOptionError, NotationError
from chaosgames.core.game import Action, State
from chaosgames.core.registry import game_class, load_game
from chaosgames.web.computers import THINK_LIMIT, ComputerPlayers, check_seat_limits
from chaosgames.web.dice import agent_seed, new_secret
from chaosgames.web.errors import Conflict, Forbidden, NotFound, Unprocessable, WebError
from chaosgames.web.live import HUMAN, LiveGame, Step, Thinking
from chaosgames.web.storage import (
    CHANNEL,
    FINISHED,
    RUNNING,
    Store,
    StoredGame,
    server_identity,
    token_hash,
    token_matches,
)
from chaosgames.web.workers import Decision, Overrun, budget

log = logging.getLogger("chaosgames.web")

FINISHED_CACHE = 64
MAX_START_ACTIONS = 20_000
HEARTBEAT = 2.0
"""Seconds between a server's heartbeats (and its sweeps for orphaned games)."""
LEASE = 10.0
"""Seconds without a heartbeat after which a server's games go to another server."""
SQLITE_POLL = 0.5
"""Seconds between checks for other servers' changes on SQLite (under a second to a viewer)."""
POSTGRES_POLL = 5.0
"""The same on PostgreSQL, where notifications carry changes and this only backs them up."""
__all__ = ["Conflict", "Forbidden", "GameService", "NotFound", "Unprocessable", "WebError"]


class GameService:
    """Live games in memory, the database behind them, and the computer seats' workers."""

    def __init__(
        self,
        store: Store,
        *,
        pool: str = "process",
        workers: int = 2,
        pace: float = 0.0,
        think_limit: float = THINK_LIMIT,
        notify: Callable[[str], None] = lambda game_id: None,
    ) -> None:
        self.store = store
        self.computers = ComputerPlayers(pool, workers, think_limit)
        self.pace = pace
        self.notify = notify
        self.running: dict[str, LiveGame] = {}
        self.finished: OrderedDict[str, LiveGame] = OrderedDict()
        self.locks: dict[str, asyncio.Lock] = {}
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.lists: dict[int, tuple[float, dict[str, Any]]] = {}
        """The lists of games built last, by length, with when (see app.game_lists); cleared
        when a game starts or ends here, so that only its moves may show late, by a second."""
        self.clients: dict[str, str] = {}
        """The address that created each game this server started (whose turn its computer
        seats wait for, see `computers`); games resumed from the database have none."""
        self.server_id = server_identity()
        self.owned: set[str] = set()
        """Games whose computer seats this server moves (it holds their lease)."""
        self.servers = 1
        """Live servers on the database, this one included (as of the last heartbeat)."""
        self._loops: list[asyncio.Task[None]] = []
        self._pending: set[asyncio.Task[None]] = set()
        self.stopping = False

    # -- start and stop --------------------------------------------------------------------

    async def start(self) -> None:
        """Start the computer players' workers and resume every unfinished game."""
        self.computers.start()
        await asyncio.to_thread(self.store.beat, self.server_id)
        ids = await asyncio.to_thread(self.store.ids, RUNNING)
        for game_id in ids:
            await self._load_running(game_id)
        await self._sweep()
        self._loops = [asyncio.create_task(self._heartbeats()), asyncio.create_task(self._polls())]
        if self.store.dialect == "postgresql":
            self._loops.append(asyncio.create_task(self._notifications()))

    async def _load_running(self, game_id: str) -> LiveGame | None:
        stored = await asyncio.to_thread(self.store.load, game_id)
        if stored is None:
            return None
        try:
            live = await asyncio.to_thread(LiveGame.from_stored, stored)
        except ChaosGamesError as exc:
            log.error("Game %s cannot be resumed: %s", game_id, exc)
            return None
        self._keep(live)
        return self.cached(game_id)

    async def stop(self) -> None:
        self.stopping = True
        for loop in [*self._loops, *self._pending]:
            loop.cancel()
        for loop in [*self._loops, *self._pending]:
            with contextlib.suppress(BaseException):
                await loop
        self._loops = []
        for task in list(self.tasks.values()):
            task.cancel()
        for task in list(self.tasks.values()):
            # A cancelled or failed computer move: the database is intact either way.
            with contextlib.suppress(BaseException):
                await task
        # A worker deep in a search would outlive the server by its time budget: end them.
        # They ignore SIGTERM (see workers.start_computer_player).
        await self.computers.stop()
        # The other servers take this one's games at once (not after its lease).
        with contextlib.suppress(Exception):
            await asyncio.to_thread(self.store.leave, self.server_id)
        self.owned.clear()

    # -- several servers on one database -----------------------------------------------------

    def _background(self, work: Coroutine[Any, Any, None]) -> None:
        """Run `work` beside the request that started it (kept until it is done)."""
        task = asyncio.get_running_loop().create_task(work)
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _heartbeats(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT)
            try:
                await asyncio.to_thread(self.store.beat, self.server_id)
                await self._sweep()
            except asyncio.CancelledError:
                raise
            except Exception:  # the database is away for a moment: try at the next beat
                log.warning("Heartbeat of server %s failed", self.server_id, exc_info=True)

    async def _sweep(self) -> None:
        """Take the games of servers that died, and move their computer seats."""
        await asyncio.to_thread(self.store.forget_servers, LEASE)
        servers = await asyncio.to_thread(self.store.live_servers, LEASE)
        self.servers = len(set(servers) | {self.server_id})
        orphans = await asyncio.to_thread(self.store.orphans, self.server_id, LEASE)
        for game_id, owner in orphans:
            if not await asyncio.to_thread(self.store.claim, game_id, owner, self.server_id):
                continue  # another server was faster
            log.info("Server %s takes game %s over from %s", self.server_id, game_id, owner)
            self.owned.add(game_id)
            live = self.cached(game_id)
            if live is None:
                live = await self._load_running(game_id)
            else:
                await self.refresh(game_id)
                live = self.cached(game_id)
            if live is not None:
                await self._settle(live)

    async def _polls(self) -> None:
        every = POSTGRES_POLL if self.store.dialect == "postgresql" else SQLITE_POLL
        while True:
            await asyncio.sleep(every)
            try:
                await self.catch_up()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("Checking for other servers' changes failed", exc_info=True)

    async def catch_up(self) -> None:
        """Bring every game in memory to the version the database has."""
        ids = list(self.running)
        if not ids:
            return
        versions = await asyncio.to_thread(self.store.versions, ids)
        for game_id, version in versions.items():
            live = self.cached(game_id)
            if live is not None and version > live.version:
                await self.refresh(game_id)

    async def _notifications(self) -> None:
        """LISTEN for other servers' commits; reconnect (and catch up) when the line drops."""
        import psycopg

        url = self.store.engine.url.set(drivername="postgresql")
        conninfo = url.render_as_string(hide_password=False)
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    await self.catch_up()  # what was committed while nobody listened
                    async for note in conn.notifies():
                        game_id, _, version = note.payload.partition(" ")
                        live = self.cached(game_id)
                        if live is not None and version.isdigit() and int(version) > live.version:
                            self._background(self.refresh(game_id))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("The notification connection dropped; reconnecting", exc_info=True)
                await asyncio.sleep(1.0)

    async def refresh(self, game_id: str) -> None:
        """Take the actions another server committed to a game this one has in memory,
        then tell its viewers (and move its computer seats if this server owns it)."""
        async with self.lock(game_id):
            live = self.cached(game_id)
            if live is None:
                return
            found = await asyncio.to_thread(self.store.since, game_id, live.version)
            if found is None or found[0] <= live.version:
                return
            _version, actions, actors = found
            try:
                state, steps = await asyncio.to_thread(live.followed, actions, actors)
            except ChaosGamesError:
                # Not a continuation of what this server has: read the game anew.
                self.running.pop(game_id, None)
                self.finished.pop(game_id, None)
                await self._load_running(game_id)
            else:
                live.accept(state, steps, time.time())
                self._keep(live)
            live = self.cached(game_id)
        if live is not None:
            self._changed(live)

    # -- finding games and seats --------------------------------------------------------------

    def lock(self, game_id: str) -> asyncio.Lock:
        lock = self.locks.get(game_id)
        if lock is None:
            lock = self.locks[game_id] = asyncio.Lock()
        return lock

    def cached(self, game_id: str) -> LiveGame | None:
        return self.running.get(game_id) or self.finished.get(game_id)

    async def get(self, game_id: str) -> LiveGame:
        """The game with this id; NotFound when there is none."""
        live = self.cached(game_id)
        if live is not None:
            if game_id in self.finished:
                self.finished.move_to_end(game_id)
            return live
        stored = await asyncio.to_thread(self.store.load, game_id) if _plausible_id(game_id) else None
        if stored is None:
            raise NotFound(f"There is no game {game_id!r} on this server.")
        live = await asyncio.to_thread(LiveGame.from_stored, stored)
        self._keep(live)
        return self.cached(game_id) or live

    def _keep(self, live: LiveGame) -> None:
        if live.id not in self.running and live.id not in self.finished:
            self.lists.clear()  # a game the lists do not have yet
        if live.status == RUNNING:
            self.running.setdefault(live.id, live)
            return
        if live.id in self.running:
            self.lists.clear()  # a game that ended: from one list to the other
        self.running.pop(live.id, None)
        self.clients.pop(live.id, None)
        self.finished[live.id] = live
        self.finished.move_to_end(live.id)
        while len(self.finished) > FINISHED_CACHE:
            self.finished.popitem(last=False)

    @staticmethod
    def seat_for(live: LiveGame, token: str | None) -> int | None:
        """The seat whose token this is; None for no token (a spectator); Forbidden else."""
        if token is None:
            return None
        # Every seat is compared (in constant time), so the answer's timing tells nothing.
        matches = [i for i, stored in enumerate(live.token_hashes) if token_matches(token, stored)]
        if len(matches) != 1:
            raise Forbidden("This token is not the key of any seat of this game.")
        return matches[0]

    # -- creating -------------------------------------------------------------------------

    async def create(
        self,
        name: str,
        options: dict[str, Any],
        seats: list[str],
        seed: int | None = None,
        actions: list[str] | None = None,
        client: str | None = None,
    ) -> tuple[LiveGame, list[str | None]]:
        """A new game with `seats` ('human' or an agent spec), optionally continuing from
        `actions` (a record's); returns it with one token per human seat. `client`, the
        address that asks, waits its turn for its computer seats (see `computers`). A game
        without a `seed` gets a secret for its dice (see `dice`)."""
        cls = game_class(name)
        if not cls.min_players <= len(seats) <= cls.max_players:
            players = (
                f"{cls.min_players}-{cls.max_players}"
                if cls.min_players != cls.max_players
                else cls.min_players
            )
            raise InvalidOptionError(f"{cls.title} is for {players} players; {len(seats)} seats were given.")
        options = dict(options)
        if options.pop("players", len(seats)) != len(seats):
            raise InvalidOptionError(f"The option players must match the {len(seats)} seats given.")
        game = load_game(name, players=len(seats), **options)
        for who in seats:
            if who != HUMAN:
                agent = agents.from_spec(who, game=game.name)  # AgentError: a bad spec
                check_seat_limits(who, agent, self.computers.think_limit)
        if actions is not None and len(actions) > MAX_START_ACTIONS:
            raise InvalidOptionError(f"A game can start from at most {MAX_START_ACTIONS} actions.")
        tokens = [secrets.token_urlsafe(24) if who == HUMAN else None for who in seats]
        now = time.time()
        live = LiveGame(
            id=secrets.token_urlsafe(9),
            game=game,
            seats=list(seats),
            token_hashes=[None if t is None else token_hash(t) for t in tokens],
            seed=seed if seed is not None else 0,
            secret=new_secret() if seed is None else None,
            meta={"continued_from": len(actions)} if actions else {},
            created=now,
            updated=now,
            state=game.new_initial_state(),
        )
        if actions:
            await asyncio.to_thread(live.replay, actions)
        state, steps = live.advance(CHANCE, None)
        live.accept(state, steps, now)
        stored = StoredGame(
            id=live.id,
            game=game.name,
            options=game.options,
            seed=live.seed,
            status=live.status,
            version=live.version,
            result=live.result(),
            meta=live.meta,
            created=now,
            updated=now,
            seats=live.seats,
            token_hashes=live.token_hashes,
            actions=[s.notation for s in live.steps],
            secret=None if live.secret is None else live.secret.hex(),
        )
        await asyncio.to_thread(self.store.create_game, stored, [s.actor for s in live.steps], self.server_id)
        self.owned.add(live.id)
        if client is not None:
            self.clients[live.id] = client
        self._keep(live)
        self._schedule(live)
        return live, tokens

    # -- acting ---------------------------------------------------------------------------

    async def act(self, game_id: str, token: str | None, notation: str, version: int) -> LiveGame:
        """A person's action for the seat `token` opens, decided on `version`."""
        live = await self.get(game_id)
        if token is None:
            raise Forbidden("Only a seat's private link may act: this request carries no seat token.")
        seat = self.seat_for(live, token)
        assert seat is not None
        if version > live.version:
            # The player saw a move another server accepted that this one has not heard of yet.
            await self.refresh(game_id)
        async with self.lock(game_id):
            live = self.cached(game_id) or live
            if version != live.version:
                raise Conflict(
                    f"The game has moved on: this action was decided at version {version}, "
                    f"the game is at version {live.version}. Look at the board again.",
                    version=live.version,
                )
            if live.state.is_terminal():
                raise Conflict("The game is over; nothing more can be played.", version=live.version)
            to_act = live.to_act()
            if to_act != seat:
                names = live.game.player_names()
                raise Conflict(
                    f"It is not your turn: {names[to_act] if to_act is not None else 'nobody'} is to act.",
                    version=live.version,
                    legal=[],
                )
            action = _parse(live, notation)
            state, steps = live.advance(seat, action)
            await self._commit(live, state, steps)
        self._changed(live)
        return live

    async def _commit(self, live: LiveGame, state: State, steps: list[Step]) -> None:
        status = FINISHED if state.is_terminal() else RUNNING
        result = list(state.returns()) if state.is_terminal() else None
        actions = [(s.notation, s.actor) for s in steps]
        ok = await asyncio.to_thread(self.store.commit, live.id, live.version, actions, status, result)
        if not ok:
            # Another server committed first: take the game as the database has it (after
            # this request lets go of the game's lock).
            self._background(self.refresh(live.id))
            raise Conflict("Another action was accepted first; look at the board again.")
        live.accept(state, steps, time.time())
        self._keep(live)

    def _changed(self, live: LiveGame) -> None:
        self._schedule(live)
        self.notify(live.id)

    async def _settle(self, live: LiveGame) -> None:
        """Draw pending chance outcomes (a game resumed at a chance node), then hand the
        turn to a computer seat if it has it."""
        async with self.lock(live.id):
            if live.state.current_player() == CHANCE:
                state, steps = live.advance(CHANCE, None)
                try:
                    await self._commit(live, state, steps)
                except Conflict:
                    return
        self._changed(live)

    # -- computer seats --------------------------------------------------------------------------

    def _schedule(self, live: LiveGame) -> None:
        """If a computer seat is to act, start its decision (once)."""
        seat = live.to_act()
        if seat is None or not live.is_computer(seat) or live.status != RUNNING:
            live.thinking = None
            return
        if live.id not in self.owned:
            return  # its owner, another server, moves it
        if live.id in self.tasks:
            return
        live.thinking = Thinking(seat, time.time(), budget(live.seats[seat], live.game.name))
        self.tasks[live.id] = asyncio.get_running_loop().create_task(
            self._computer_turn(live.id, live.version, seat)
        )

    async def _computer_turn(self, game_id: str, version: int, seat: int) -> None:
        try:
            live = await self._computer_move(game_id, version, seat)
        finally:
            self.tasks.pop(game_id, None)
        if live is not None:
            self._changed(live)

    async def _computer_move(self, game_id: str, version: int, seat: int) -> LiveGame | None:
        if self.pace > 0:
            await asyncio.sleep(self.pace)  # let people see the last move before the next
        live = self.cached(game_id)
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
            try:
                notation = await self.computers.decide(request, self.clients.get(game_id, game_id))
            except Overrun:
                # Even the easy level overran (a position that is slow to think about at all):
                # a legal action at random, from the seat's seed.
                log.warning("Computer seat %s of game %s plays a random legal action", seat, game_id)
                live = self.cached(game_id) or live
                legal = live.state.legal_actions()
                notation = str(random.Random(request.seed).choice(legal))
            async with self.lock(game_id):
                live = self.cached(game_id)
                if live is None or live.version != version:
                    return live
                action = live.game.parse_action(live.state, notation)
                state, steps = live.advance(seat, action)
                await self._commit(live, state, steps)
        except Conflict:
            return self.cached(game_id)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the game must not die with its computer seat: say why, wait
            log.exception("Computer seat %s of game %s failed", seat, game_id)
            live = self.cached(game_id)
            if live is not None:
                live.thinking = None
                live.trouble = (
                    f"The computer seat {live.seats[seat]} could not move ({type(exc).__name__}: {exc}); "
                    "it tries again when the server restarts."
                )
                self.notify(game_id)
            return None
        return live

    # -- lists ------------------------------------------------------------------------------

    def running_games(self) -> list[LiveGame]:
        return sorted(self.running.values(), key=lambda g: g.updated, reverse=True)


def _plausible_id(game_id: str) -> bool:
    return 0 < len(game_id) <= 32 and all(c.isalnum() or c in "-_" for c in game_id)


def _parse(live: LiveGame, notation: str) -> Action:
    """The action `notation` names; an illegal one answers 409 with the legal actions."""
    legal = [str(a) for a in live.state.legal_actions()]
    try:
        return live.game.parse_action(live.state, notation)
    except IllegalActionError as exc:
        raise Conflict(str(exc), legal=legal, version=live.version) from None
    except NotationError as exc:
        raise Unprocessable(str(exc), legal=legal, version=live.version) from None
