"""Work off the server's event loop: worker processes that can be stopped mid-task.

A search agent is CPU-bound (MCTS spends its whole time budget computing), and so is the
replay of a long record: they run in other processes, so the server stays free to answer
people meanwhile, and two cores think for two games at once. Each `Worker` is one process
that runs one call at a time. A call has a time limit: a process still busy when it
passes is killed (whatever it was doing: an agent need not cooperate) and a fresh one is
started in its place. No `ProcessPoolExecutor`: it cannot stop one task, and a server that
shut it down mid-task left its semaphores behind.

A computer seat's worker rebuilds the position from the game's actions (each one checked,
as a record replays) and keeps the positions it built last, so the next decision in the
same game only applies the new actions.

A computer seat decides from what its seat may know, as a person's does: while the worker
replays the actions, every seat's recollection hears them (`chaosgames.core.information`),
and the agent is handed a position drawn from the deciding seat's recollection (in Royal
Racers, the face-down cards it saw go down where they lie, any it never saw laid at
random) with that recollection, never the real position itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import multiprocessing.connection
import multiprocessing.context
import os
import random
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from chaosgames import agents
from chaosgames.core.game import State
from chaosgames.core.information import Recollection
from chaosgames.core.registry import list_games, load_game

T = TypeVar("T")

CACHED_GAMES = 32
PARENT_CHECK_SECONDS = 1.0
NICENESS = 19
"""Worker processes run at the lowest priority, so that the server answering people gets the
cores first when computer seats, replays and requests all want them: a computer seat's search
is bounded in wall-clock time (see `computers`), so under load it searches less, while a
person's request waits for no search (issue 49: at nice 10 one stranger's searches, each run
to its cap, still took a share of the cores that the people's answers felt)."""


def lower_priority(pid: int) -> None:
    """Process `pid` (0: this one) at NICENESS and, on Linux, in the idle scheduling class:
    the kernel then hands a core to the server the moment it wakes, however long the
    worker has run (at nice 19 alone a waking server could still wait for the worker's
    time slice; measured in benchmarks/abuse.py, docs/results/server.md)."""
    with contextlib.suppress(OSError):
        os.setpriority(os.PRIO_PROCESS, pid, NICENESS)
    if hasattr(os, "SCHED_IDLE"):
        with contextlib.suppress(OSError):
            os.sched_setscheduler(pid, os.SCHED_IDLE, os.sched_param(0))


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
    state: State[Any]
    seats: list[Recollection[Any, Any]]


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


def _position(request: Decision) -> tuple[State[Any], Recollection[Any, Any]]:
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


class Overrun(Exception):
    """A call passed its time limit; its worker process was killed."""


class WorkerDied(Exception):
    """The worker process ended during a call (killed from outside, out of memory)."""


class Worker:
    """One process (or, for quick tests, one thread) that runs one call at a time.

    `await worker.call(fn, *args, limit=seconds)` runs `fn(*args)` there. An exception of
    `fn` is raised again here; a call still running after `limit` seconds raises Overrun,
    its process killed and a fresh one started. A thread cannot be killed: in "thread" mode
    an overrunning call is abandoned (it goes on in the background) and a new thread serves
    the next one; that mode is for tests with cheap work.
    """

    def __init__(self, kind: str = "process") -> None:
        self.kind = kind
        self._process: multiprocessing.context.SpawnProcess | None = None
        self._conn: multiprocessing.connection.Connection | None = None
        self._threads: ThreadPoolExecutor | None = None

    def start(self) -> None:
        """Start the process now (it takes a second to import the games), not at the first call."""
        if self.kind == "thread":
            if self._threads is None:
                self._threads = ThreadPoolExecutor(1, thread_name_prefix="chaosgames-worker")
            return
        if self._process is not None and self._process.is_alive():
            return
        self.kill()
        context = ShieldedSpawn()
        ours, theirs = context.Pipe()
        process = context.Process(target=_serve, args=(theirs, os.getpid()), daemon=True)
        process.start()
        lower_priority(process.pid or 0)  # at once: its imports are a second of CPU
        theirs.close()
        self._process, self._conn = process, ours

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    async def call(self, fn: Callable[..., T], *args: Any, limit: float) -> T:
        if self.kind == "thread":
            return await self._call_in_thread(fn, args, limit)
        self.start()
        conn = self._conn
        assert conn is not None
        loop = asyncio.get_running_loop()
        answered: asyncio.Future[None] = loop.create_future()
        fd = conn.fileno()

        def readable() -> None:
            if not answered.done():
                answered.set_result(None)

        loop.add_reader(fd, readable)
        try:
            try:
                conn.send((fn, args))
                await asyncio.wait_for(answered, limit)
                status, value = conn.recv()
            finally:
                loop.remove_reader(fd)
        except TimeoutError:
            self.restart()
            raise Overrun(f"still busy after {limit:g} s") from None
        except (EOFError, OSError):
            self.restart()
            raise WorkerDied("the worker process ended") from None
        except asyncio.CancelledError:
            self.kill()  # it is mid-call, and nobody will take the answer
            raise
        if status == "error":
            raise value
        return value  # type: ignore[no-any-return]

    async def _call_in_thread(self, fn: Callable[..., T], args: tuple[Any, ...], limit: float) -> T:
        self.start()
        assert self._threads is not None
        future = asyncio.wrap_future(self._threads.submit(fn, *args))
        try:
            return await asyncio.wait_for(future, limit)
        except TimeoutError:
            self._threads.shutdown(wait=False)
            self._threads = None
            raise Overrun(f"still busy after {limit:g} s") from None

    def restart(self) -> None:
        self.kill()
        self.start()

    def kill(self) -> None:
        """End the process at once (its call, if any, is lost)."""
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)
            self._threads = None
        process, conn = self._process, self._conn
        self._process = self._conn = None
        if conn is not None:
            conn.close()
        if process is not None:
            with contextlib.suppress(Exception):
                process.kill()
                process.join(5)
                process.close()


def _serve(conn: multiprocessing.connection.Connection, server: int) -> None:
    """A worker process: run the calls the server sends, one at a time, until it hangs up."""
    start_computer_player(server)
    while True:
        try:
            fn, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            answer: tuple[str, Any] = ("ok", fn(*args))
        except Exception as exc:
            answer = ("error", exc)
        try:
            conn.send(answer)
        except Exception as exc:  # an answer or exception that does not pickle
            conn.send(("error", RuntimeError(f"{type(exc).__name__}: {exc}")))


STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}
"""Ctrl-C in a terminal and a service manager's stop: sent to the whole process group.

The computer players leave them to the server, which shuts its pool down as it stops; dying
first, they would break the pool under a server that does not yet know it is stopping."""


class ShieldedProcess(multiprocessing.context.SpawnProcess):
    """A worker process, started with the stop signals ignored: it would otherwise die of one
    that comes while it is still importing, before `start_computer_player` ignores them for
    good. An ignored signal stays ignored across exec, and Python then installs no handler of
    its own for it; a blocked mask does not do (a spawned interpreter starts with none). In
    the server meanwhile the signals are blocked, not lost: one that comes waits for the
    server's own handler, put back before they are unblocked. (Only the main thread may
    change handlers: a server run in another thread, as tests do, starts workers unshielded.)"""

    def start(self) -> None:
        before = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        handlers = {}
        try:
            if threading.current_thread() is threading.main_thread():
                handlers = {stop: signal.signal(stop, signal.SIG_IGN) for stop in STOP_SIGNALS}
            super().start()
        finally:
            for stop, handler in handlers.items():
                signal.signal(stop, handler)
            signal.pthread_sigmask(signal.SIG_SETMASK, before)


class ShieldedSpawn(multiprocessing.context.SpawnContext):
    Process = ShieldedProcess


def start_computer_player(server: int) -> None:
    """Set up a worker process of the server process `server`: the stop signals ignored (see
    STOP_SIGNALS), a lower priority (NICENESS); if the server is killed outright, which leaves it no time to
    shut the pool down, it follows within a second."""
    for stop in STOP_SIGNALS:
        signal.signal(stop, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    lower_priority(0)
    threading.Thread(target=_follow, args=(server,), name="follow-the-server", daemon=True).start()


def _follow(server: int) -> None:
    while os.getppid() == server:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)  # the server is gone: nobody will ask this process anything again
