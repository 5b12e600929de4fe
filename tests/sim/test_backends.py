"""The lab's worker processes: results, a failing game, a dead worker, and stopping at once."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading

import pytest

from chaosgames.sim import Job, LabError, backends
from chaosgames.sim.jobs import Task, play_task

pytestmark = [
    pytest.mark.usefixtures("toy_games"),
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the workers are forked on Linux only"),
]

SEATS = ["greedy", "random"]


def _tasks(count: int, **options: object) -> list[Task]:
    job = Job.build("toy-dice-race", SEATS, 7, dict(options), 10_000, 0)
    return [job.task(i, False) for i in range(count)]


def test_worker_processes_give_the_rows_of_playing_in_this_process() -> None:
    tasks = _tasks(7)
    here = sorted((row.idx, row.winner, row.actions) for row, _ in map(play_task, tasks))
    there = sorted((row.idx, row.winner, row.actions) for row, _ in backends.run_tasks(tasks, 2))
    assert there == here
    assert multiprocessing.active_children() == []


def _whose(task: Task) -> tuple[object, float]:
    return (os.getpid(), 0.0)


@pytest.mark.parametrize("games", [2, 3, 8])
def test_every_worker_gets_a_game_before_any_gets_a_second(
    monkeypatch: pytest.MonkeyPatch, games: int
) -> None:
    monkeypatch.setattr(backends, "play_task", _whose)
    players = [pid for pid, _ in backends.run_tasks(_tasks(games), 2)]
    assert len(players) == games and len(set(players)) == 2


def _fail(task: Task) -> tuple[object, float]:
    raise LabError(f"game {task.idx} went wrong")


def test_an_error_in_a_workers_game_reaches_the_caller_as_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(backends, "play_task", _fail)  # forked workers inherit it
    with pytest.raises(LabError, match=r"game \d went wrong"):
        list(backends.run_tasks(_tasks(3), 2))
    assert multiprocessing.active_children() == []


class _Unpicklable(Exception):
    def __reduce__(self) -> str | tuple[object, ...]:
        raise TypeError("cannot pickle this")


def _fail_oddly(task: Task) -> tuple[object, float]:
    raise _Unpicklable("odd")


def test_an_error_that_cannot_travel_arrives_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(backends, "play_task", _fail_oddly)
    with pytest.raises(LabError, match="_Unpicklable: odd"):
        list(backends.run_tasks(_tasks(2), 2))


def _die(task: Task) -> tuple[object, float]:
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("unreachable")


def test_a_worker_that_dies_is_reported_not_waited_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(backends, "play_task", _die)  # forked workers inherit it
    with pytest.raises(LabError, match="stopped unexpectedly"):
        list(backends.run_tasks(_tasks(4), 2))
    assert multiprocessing.active_children() == []


def _large_result(task: Task) -> tuple[object, float]:
    return (b"x" * 20_000_000, 0.0)  # far more than a pipe holds: sending it takes many writes


def test_stopping_while_a_worker_is_half_way_through_sending_its_result_returns_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Ctrl-C kills the workers wherever they are. Here one result has been read and the other
    # worker is stuck half-way through writing its own, as nobody reads it: stopping must
    # not wait for the rest of that message (a process pool's shared pipe would).
    monkeypatch.setattr(backends, "play_task", _large_result)
    results = backends.run_tasks(_tasks(4), 2)
    next(iter(results))
    closing = threading.Thread(target=results.close, daemon=True)  # type: ignore[attr-defined]
    closing.start()
    closing.join(30)
    assert not closing.is_alive(), "stopping the workers hung"
    assert multiprocessing.active_children() == []
