"""Where the games of a job are played: in this process, in local worker processes, on Ray.

A backend takes tasks and yields `(row, seconds)` as games finish, in any order; the
rows themselves do not depend on the backend. At most a few tasks per worker are in
flight at once, so an interruption loses at most the games being played.
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import multiprocessing.connection
import os
import pickle
import signal
import sys
from collections.abc import Iterable, Iterator
from typing import Any

from chaosgames.core.errors import quote
from chaosgames.sim.jobs import BACKENDS, Task, play_task
from chaosgames.sim.storage import GameRow, LabError

Result = tuple[GameRow, float]


def run_tasks(tasks: Iterable[Task], workers: int, backend: str = "local") -> Iterator[Result]:
    """The results of `tasks`, as they finish; tasks are taken from `tasks` only as they
    are handed out (a generator of a million tasks is never made into a list)."""
    if backend == "local":
        if workers <= 1:
            return (play_task(t) for t in tasks)
        return _local_processes(tasks, workers)
    if backend == "ray":
        return _ray(tasks, workers)
    raise LabError(f"There is no backend {quote(backend)}; choose {' or '.join(BACKENDS)}.")


IN_FLIGHT = 2
"""Games handed to each worker process ahead of its results: one to play, one waiting."""


class _Worker:
    """A game-playing process with a pipe of its own: games go in, rows come back in order.

    No queue or lock is shared between workers, so killing one (as Ctrl-C does) can only
    spoil its own pipe, which is dropped with it. (A `ProcessPoolExecutor` worker killed
    while sending its result leaves the pool's shared result pipe half-written, and the
    pool's shutdown then waits for the rest forever.)
    """

    def __init__(self, context: Any, others: list[_Worker]) -> None:
        self.pipe, theirs = context.Pipe()
        # A forked worker inherits the pipes of the workers started before it: it closes
        # them, so that each worker sees the end of its own pipe when the parent dies.
        inherited = [w.pipe for w in others] if context.get_start_method() == "fork" else []
        self.process = context.Process(target=_serve, args=(theirs, inherited), daemon=True)
        self.process.start()
        theirs.close()  # ours is the parent's only end: recv sees EOF when the worker dies
        self.given = 0

    def give(self, task: Task) -> None:
        try:
            self.pipe.send(task)
        except OSError:  # it died playing an earlier game
            raise self._gone() from None
        self.given += 1

    def take(self) -> Result:
        try:
            done, value = self.pipe.recv()
        except (EOFError, OSError):
            raise self._gone() from None
        self.given -= 1
        if not done:
            raise value
        return value  # type: ignore[no-any-return]

    def _gone(self) -> LabError:
        self.process.join(5)
        return LabError(f"A worker process stopped unexpectedly (exit code {self.process.exitcode}).")

    def stop(self, at_once: bool) -> None:
        if at_once:
            self.process.kill()  # games in flight are dropped (a slow game can take minutes)
        else:
            with contextlib.suppress(OSError):
                self.pipe.send(None)
        self.process.join()
        self.pipe.close()


def _serve(pipe: Any, inherited: list[Any]) -> None:
    # Ctrl-C is the parent's to handle: it stops handing out games and keeps what is stored.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for other in inherited:
        other.close()
    while True:
        try:
            task = pipe.recv()
        except EOFError:  # the parent is gone
            return
        if task is None:
            return
        try:
            reply: tuple[bool, Any] = (True, play_task(task))
        except Exception as exc:  # the parent raises it, as if the game had been played there
            reply = (False, exc)
        try:
            pipe.send(reply)
        except (TypeError, AttributeError, pickle.PicklingError):
            pipe.send((False, LabError(f"{type(reply[1]).__name__}: {reply[1]}")))


def _local_processes(tasks: Iterable[Task], workers: int) -> Iterator[Result]:
    # fork starts workers at once and shares the already imported games; elsewhere spawn.
    method = "fork" if sys.platform.startswith("linux") else "spawn"
    context = multiprocessing.get_context(method)
    queue = iter(tasks)
    crew: list[_Worker] = []
    finished_normally = False
    try:
        # One game each first, a worker started for each (a job of two games plays both at
        # once and starts no third worker); then the games that wait behind them.
        for task in itertools.islice(queue, workers):
            crew.append(_Worker(context, crew))
            crew[-1].give(task)
        for _ in range(IN_FLIGHT - 1):
            for worker in crew:
                _hand_out(worker, queue, 1)
        while busy := [w for w in crew if w.given]:
            ready = multiprocessing.connection.wait([w.pipe for w in busy])
            for worker in busy:
                if worker.pipe in ready:
                    yield worker.take()
                    _hand_out(worker, queue, 1)
        finished_normally = True
    finally:
        # Interrupted (Ctrl-C) or failed: the games in flight are dropped, not awaited.
        for worker in crew:
            worker.stop(at_once=not finished_normally)


def _hand_out(worker: _Worker, queue: Iterator[Task], count: int) -> None:
    for task in itertools.islice(queue, count):
        worker.give(task)


def _ray(tasks: Iterable[Task], workers: int) -> Iterator[Result]:
    try:
        import ray
    except ImportError:
        raise LabError(
            "The ray backend needs Ray: install the optional extra with pip install 'chaosgames[ray]'."
        ) from None
    if not ray.is_initialized():
        # RAY_ADDRESS joins an existing cluster; without it Ray starts a local instance.
        if os.environ.get("RAY_ADDRESS"):
            ray.init(log_to_driver=False)
        else:
            ray.init(num_cpus=max(workers, 1), log_to_driver=False, include_dashboard=False)
    remote = ray.remote(play_task)
    queue = iter(tasks)
    pending: list[Any] = [remote.remote(t) for _, t in zip(range(3 * max(workers, 1)), queue, strict=False)]
    try:
        while pending:
            finished, pending = ray.wait(pending, num_returns=1)
            for ref in finished:
                yield ray.get(ref)
                following = next(queue, None)
                if following is not None:
                    pending.append(remote.remote(following))
    finally:
        for ref in pending:
            ray.cancel(ref)
