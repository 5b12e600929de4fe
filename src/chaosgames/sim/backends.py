"""Where the games of a job are played: in this process, in local worker processes, on Ray.

A backend takes tasks and yields `(row, seconds)` as games finish, in any order; the
rows themselves do not depend on the backend. At most a few tasks per worker are in
flight at once, so an interruption loses at most the games being played.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from chaosgames.sim.jobs import Task, play_task
from chaosgames.sim.storage import GameRow, LabError

BACKENDS = ("local", "ray")
Result = tuple[GameRow, float]


def run_tasks(tasks: Sequence[Task], workers: int, backend: str = "local") -> Iterator[Result]:
    """The results of `tasks`, as they finish."""
    if backend == "local":
        if workers <= 1:
            return (play_task(t) for t in tasks)
        return _local_processes(tasks, workers)
    if backend == "ray":
        return _ray(tasks, workers)
    raise LabError(f"There is no backend {backend!r}; choose local or ray.")


def _start_worker(started: Any, stopping: Any) -> None:
    # Ctrl-C is the parent's to handle: it stops handing out games and keeps what is stored.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Tell the parent who we are, so that it can stop us at once when interrupted; a
    # worker starting after the interruption (too late to be told) leaves by itself.
    started.put(os.getpid())
    if stopping.is_set():
        os._exit(0)


def _local_processes(tasks: Sequence[Task], workers: int) -> Iterator[Result]:
    # fork starts workers at once and shares the already imported games; elsewhere spawn.
    method = "fork" if sys.platform.startswith("linux") else "spawn"
    context = multiprocessing.get_context(method)
    started, stopping = context.SimpleQueue(), context.Event()
    pending: set[Future[Result]] = set()
    queue = iter(tasks)
    executor = ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_start_worker, initargs=(started, stopping)
    )
    finished_normally = False
    try:
        for task in queue:
            pending.add(executor.submit(play_task, task))
            if len(pending) >= 3 * workers:
                break
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                yield future.result()
                following = next(queue, None)
                if following is not None:
                    pending.add(executor.submit(play_task, following))
        finished_normally = True
    finally:
        if not finished_normally:
            # Interrupted (Ctrl-C) or failed: the games in flight are dropped, not awaited
            # (a game between slow agents can take minutes); stop our own workers now.
            stopping.set()
            while not started.empty():
                _terminate(started.get())
        executor.shutdown(wait=True, cancel_futures=True)
        started.close()


def _terminate(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):  # already gone
        os.kill(pid, signal.SIGTERM)


def _ray(tasks: Sequence[Task], workers: int) -> Iterator[Result]:
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
