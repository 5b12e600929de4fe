"""The games a server runs: creating them, taking people's actions, settling chance.

After boardgame.io's `Master(game, storage, transport, auth)`: the service holds the game
logic and reaches the database through `storage.Store`, the viewers through a `Transport`
(the hub, given at construction), the other servers through `cluster`, and the computer
seats through `computer_seats`; who may act is settled by `seats`.

Everything that changes a game goes through one `asyncio.Lock` per game and one database
transaction that checks the game's version (`commits`): an action is worked out on a copy
of the state, committed, and only then becomes the game's (and is acknowledged).
After each change the transport is given the game, and it sends every connected viewer
its own view.

When the server starts it loads every unfinished game from the database and picks up
where each stopped: pending chance outcomes are drawn, computer seats move.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import OrderedDict
from typing import Any, Protocol

from chaosgames import agents
from chaosgames.core.constants import CHANCE
from chaosgames.core.errors import ChaosGamesError, IllegalActionError, InvalidOptionError, NotationError
from chaosgames.core.game import Action, State
from chaosgames.core.registry import game_class, load_game
from chaosgames.web.clocks import Clocks
from chaosgames.web.cluster import Cluster
from chaosgames.web.commits import Commit, Commits
from chaosgames.web.computer_seats import ComputerSeats
from chaosgames.web.computers import THINK_LIMIT, ComputerPlayers, check_seat_limits
from chaosgames.web.dice import new_secret
from chaosgames.web.errors import Conflict, NotFound, Unprocessable
from chaosgames.web.live import HUMAN, LiveGame, Step
from chaosgames.web.seats import acting_seat, check_turn, new_tokens, token_hash
from chaosgames.web.storage import Store
from chaosgames.web.stored import FINISHED, RUNNING, StoredGame, TableEvents, plausible_id

log = logging.getLogger("chaosgames.web")

FINISHED_CACHE = 64
MAX_START_ACTIONS = 20_000


class Transport(Protocol):
    """How the service reaches a game's viewers (the hub): nothing but "it changed"."""

    def publish(self, live: LiveGame) -> None:
        """`live` changed (or its computer seat's state did): show it to its viewers."""
        ...


class GameService:
    """Live games in memory, the database behind them, and the computer seats' workers."""

    def __init__(
        self,
        store: Store,
        transport: Transport,
        *,
        pool: str = "process",
        workers: int = 2,
        pace: float = 0.0,
        think_limit: float = THINK_LIMIT,
    ) -> None:
        self.store = store
        self.commits = Commits(store)
        self.transport = transport
        self.computers = ComputerPlayers(pool, workers, think_limit)
        self.turns = ComputerSeats(self.computers, self, pace)
        self.cluster = Cluster(store, self)
        self.clocks = Clocks(self)
        self.running: dict[str, LiveGame] = {}
        self.finished: OrderedDict[str, LiveGame] = OrderedDict()
        self.locks: dict[str, asyncio.Lock] = {}
        self.lists: dict[int, tuple[float, dict[str, Any]]] = {}
        """The lists of games built last, by length, with when (see routes.api); cleared
        when a game starts or ends here, so that only its moves may show late, by a second."""
        self.clients: dict[str, str] = {}
        """The address that created each game this server started (whose turn its computer
        seats wait for, see `computers`); games resumed from the database have none."""

    # -- start and stop --------------------------------------------------------------------

    async def start(self) -> None:
        """Start the computer players' workers and resume every unfinished game."""
        self.computers.start()
        await self.cluster.join()
        ids = await asyncio.to_thread(self.store.ids, RUNNING)
        for game_id in ids:
            await self._load_running(game_id)
        await self.cluster.start()
        self.clocks.start()

    async def _load_running(self, game_id: str) -> LiveGame | None:
        stored = await asyncio.to_thread(self.store.load, game_id)
        if stored is None:
            return None
        try:
            live = await asyncio.to_thread(LiveGame.from_stored, stored)
        except ChaosGamesError as exc:
            log.error("Game %s cannot be resumed: %s", game_id, exc)
            return None
        self.keep(live)
        return self.cached(game_id)

    async def stop(self) -> None:
        await self.clocks.stop()
        await self.cluster.stop()
        await self.turns.stop()
        # A worker deep in a search would outlive the server by its time budget: end them.
        # They ignore SIGTERM (see workers.start_computer_player).
        await self.computers.stop()
        await self.cluster.leave()

    # -- what the cluster asks -------------------------------------------------------------

    def held(self) -> list[str]:
        return list(self.running)

    async def take_over(self, game_id: str) -> None:
        live = self.cached(game_id)
        if live is None:
            live = await self._load_running(game_id)
        else:
            await self.refresh(game_id)
            live = self.cached(game_id)
        if live is not None:
            await self._settle(live)

    async def refresh(self, game_id: str, anew: bool = False) -> None:
        """Take what another server committed to a game this one has in memory (`anew`: read
        it whole, its table changed), then tell its viewers (and move its computer seats)."""
        async with self.lock(game_id):
            live = self.cached(game_id)
            if live is None:
                return
            found = await asyncio.to_thread(self.store.since, game_id, live.version)
            if found is None or (found[0] <= live.version and not anew):
                return
            _version, actions, actors, rewound = found
            try:
                if rewound or anew:  # actions taken back, or the table changed: read it anew
                    raise ChaosGamesError("taken back or the table changed")
                state, steps = await asyncio.to_thread(live.followed, actions, actors)
            except ChaosGamesError:
                # Not a continuation of what this server has: read the game anew.
                self.running.pop(game_id, None)
                self.finished.pop(game_id, None)
                if reread := await self._load_running(game_id):
                    reread.table_version = live.table_version + 1  # its views are built anew
            else:
                live.accept(state, steps, time.time())
                self.keep(live)
            live = self.cached(game_id)
        if live is not None:
            self.changed(live)

    # -- finding games ---------------------------------------------------------------------

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
        stored = await asyncio.to_thread(self.store.load, game_id) if plausible_id(game_id) else None
        if stored is None:
            raise NotFound(f"There is no game {game_id!r} on this server.")
        live = await asyncio.to_thread(LiveGame.from_stored, stored)
        self.keep(live)
        return self.cached(game_id) or live

    def keep(self, live: LiveGame) -> None:
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

    # -- creating -------------------------------------------------------------------------

    async def create(
        self,
        name: str,
        options: dict[str, Any],
        seats: list[str],
        seed: int | None = None,
        actions: list[str] | None = None,
        client: str | None = None,
        table: TableEvents | None = None,
        hashes: list[str | None] | None = None,
        meta: dict[str, Any] | None = None,
    ) -> tuple[LiveGame, list[str | None]]:
        """A new game with `seats` ('human' or an agent spec), optionally continuing from
        `actions` (a record's); returns it with one token per human seat. `client`, the
        address that asks, waits its turn for its computer seats (see `computers`). A game
        without a `seed` gets a secret for its dice (see `dice`). A rematch gives its `table`
        rules, its seats' token `hashes` and `meta`."""
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
        tokens = new_tokens(seats)
        now = time.time()
        live = LiveGame(
            id=secrets.token_urlsafe(9),
            game=game,
            seats=list(seats),
            token_hashes=hashes or [None if t is None else token_hash(t) for t in tokens],
            seed=seed if seed is not None else 0,
            secret=new_secret() if seed is None else None,
            meta=({"continued_from": len(actions)} if actions else {}) | (meta or {}),
            created=now,
            updated=now,
            state=game.new_initial_state(),
            table=table or TableEvents(),
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
            table=live.table,
        )
        await asyncio.to_thread(
            self.store.create_game, stored, [s.actor for s in live.steps], self.cluster.server_id
        )
        self.cluster.owned.add(live.id)
        if client is not None:
            self.clients[live.id] = client
        self.keep(live)
        self.turns.schedule(live, owned=True)
        self.clocks.watch(live)
        return live, tokens

    # -- acting ---------------------------------------------------------------------------

    async def act(self, live: LiveGame, seat: int | None, notation: str, version: int) -> LiveGame:
        """A person's action for `seat` (its token resolved by the request), decided on
        `version`; a spectator (None) may not act."""
        seat = acting_seat(seat)
        if version > live.version:
            # The player saw a move another server accepted that this one has not heard of yet.
            await self.refresh(live.id)
        async with self.lock(live.id):
            live = self.cached(live.id) or live
            check_turn(live, seat, version)
            action = _parse(live, notation)
            state, steps = live.advance(seat, action)
            await self.commit(live, state, steps)
        self.changed(live)
        return live

    async def commit(self, live: LiveGame, state: State[Any], steps: list[Step]) -> None:
        result = list(state.returns()) if state.is_terminal() else None
        status = RUNNING if result is None else FINISHED
        now = time.time()
        actions = [(s.notation, s.actor) for s in steps]  # with other games' if they come together
        ok = await self.commits.commit(Commit(live.id, live.version, actions, status, result, now))
        if not ok:
            # Another server committed first: take the game as the database has it (after
            # this request lets go of the game's lock).
            self.cluster.background(self.refresh(live.id))
            raise Conflict("Another action was accepted first; look at the board again.")
        live.accept(state, steps, now)
        self.keep(live)

    def changed(self, live: LiveGame) -> None:
        self.turns.schedule(live, owned=live.id in self.cluster.owned)
        self.clocks.watch(live)
        self.publish(live)

    def publish(self, live: LiveGame) -> None:
        self.transport.publish(live)

    async def _settle(self, live: LiveGame) -> None:
        """Draw pending chance outcomes (a game resumed at a chance node), then hand the
        turn to a computer seat if it has it."""
        async with self.lock(live.id):
            if live.state.current_player() == CHANCE:
                state, steps = live.advance(CHANCE, None)
                try:
                    await self.commit(live, state, steps)
                except Conflict:
                    return
        self.changed(live)


def _parse(live: LiveGame, notation: str) -> Action:
    """The action `notation` names; an illegal one answers 409 with the legal actions."""
    try:
        action: Action = live.game.parse_action(live.state, notation)
        return action
    except (IllegalActionError, NotationError) as exc:
        # The legal actions are listed only for a refusal (an accepted action needs none).
        legal = [str(a) for a in live.state.legal_actions()]
        refusal = Conflict if isinstance(exc, IllegalActionError) else Unprocessable
        raise refusal(str(exc), legal=legal, version=live.version) from None
