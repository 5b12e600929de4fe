"""Computer seats decide in a pool of worker processes, off the server's event loop.

A search agent is CPU-bound (MCTS spends its whole time budget computing), so it runs in
another process: the server stays free to answer people while computers think, and two
cores think for two games at once. A worker rebuilds the position from the game's actions
(each one checked, as a record replays) and keeps the positions it built last, so the next
decision in the same game only applies the new actions.

A computer seat decides from what its seat may know, as a person's does: while the worker
replays the actions, every seat's recollection hears them (`chaosgames.core.information`),
and the agent is handed a position drawn from the deciding seat's recollection (in Royal
Racers, the face-down cards it saw go down where they lie, any it never saw laid at
random) with that recollection, never the real position itself.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.context
import os
import random
import signal
import threading
import time
from collections import OrderedDict
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from chaosgames import agents
from chaosgames.core.game import State
from chaosgames.core.information import Recollection
from chaosgames.core.registry import list_games, load_game

CACHED_GAMES = 32
PARENT_CHECK_SECONDS = 1.0


@dataclass(frozen=True)
class Decision:
    """What a worker needs to move for a computer seat."""

    game_id: str
    game: str
    options: dict[str, Any]
    actions: tuple[str, ...]
    spec: str
    seed: int


@dataclass
class _Followed:
    """A game as a worker rebuilt it: its actions, the position and what each seat saw."""

    actions: tuple[str, ...]
    state: State
    seats: list[Recollection]


_cache: OrderedDict[str, _Followed] = OrderedDict()
_cache_lock = threading.Lock()  # a thread pool shares the cache between its threads


def decide(request: Decision) -> str:
    """The notation of the action the seat's agent chooses (runs in a worker)."""
    real, recollection = _position(request)
    # What the seat may know, and nothing more: a position it cannot tell from the real one.
    world = recollection.sample(real, random.Random(request.seed))
    agent = agents.from_spec(request.spec, seed=request.seed, game=request.game)
    agent.tell(recollection, world)
    return str(agent.choose(world))


def _position(request: Decision) -> tuple[State, Recollection]:
    """The position the actions reach and the recollection of the seat to act there, both
    copies: the cached ones go on with the game while the agent thinks."""
    with _cache_lock:
        cached = _cache.pop(request.game_id, None)
    if cached is None or request.actions[: len(cached.actions)] != cached.actions:
        game = load_game(request.game, **request.options)
        seats = [game.recollection(seat) for seat in range(game.num_players)]
        cached = _Followed((), game.new_initial_state(), seats)
    state = cached.state
    game = state.game
    for text in request.actions[len(cached.actions) :]:
        action = game.parse_action(state, text)
        for recollection in cached.seats:
            recollection.hear(state, action)
        state.apply_action(action)
    cached.actions = request.actions
    seat = state.current_player()  # no seat at chance or at the end: the agent says so
    recollection = cached.seats[seat].copy() if seat >= 0 else game.recollection(0)
    position = state.clone()
    with _cache_lock:
        _cache[request.game_id] = cached
        while len(_cache) > CACHED_GAMES:
            _cache.popitem(last=False)
    return position, recollection


def warm_up() -> int:
    """Import every game in a fresh worker, so that its first decision starts at once."""
    return len(list_games())


def budget(spec: str, game: str | None = None) -> float | None:
    """The seconds a seat's agent may think per move, when its spec (or its level in `game`)
    sets a time budget."""
    try:
        agent = agents.from_spec(spec, game=game)
    except Exception:
        return None
    seconds = agent.settings.get("time")
    return float(seconds) if isinstance(seconds, int | float) and seconds > 0 else None


def make_pool(kind: str, workers: int) -> Executor:
    """Processes (the server's choice) or threads (quick tests with cheap agents)."""
    if kind == "thread":
        return ThreadPoolExecutor(max_workers=workers, thread_name_prefix="chaosgames-computer")
    # spawn, not fork: the server process runs threads (the event loop, the database pool)
    # that a forked child would inherit in an unknown state.
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=ShieldedSpawn(),
        initializer=start_computer_player,
        initargs=(os.getpid(),),
    )


STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}
"""Ctrl-C in a terminal and a service manager's stop: sent to the whole process group.

The computer players leave them to the server, which shuts its pool down as it stops; dying
first, they would break the pool under a server that does not yet know it is stopping."""


class ShieldedProcess(multiprocessing.context.SpawnProcess):
    """A computer-player process, started with the stop signals blocked: it would otherwise
    die of one that comes while it is still importing, before `start_computer_player` ignores them
    (the way multiprocessing starts its own resource tracker)."""

    def start(self) -> None:
        before = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        try:
            super().start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, before)


class ShieldedSpawn(multiprocessing.context.SpawnContext):
    Process = ShieldedProcess


def start_computer_player(server: int) -> None:
    """Set up a computer-player process of the server process `server`: the stop signals
    ignored (see STOP_SIGNALS); if the server is killed outright, which leaves it no time to
    shut the pool down, it follows within a second."""
    for stop in STOP_SIGNALS:
        signal.signal(stop, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    threading.Thread(target=_follow, args=(server,), name="follow-the-server", daemon=True).start()


def _follow(server: int) -> None:
    while os.getppid() == server:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)  # the server is gone: nobody will ask this process anything again
