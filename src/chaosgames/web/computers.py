"""The computer seats of a server: what they may ask for, and who thinks next.

Three guards keep one table's computer seats from taking a server that every table shares:

- **Every parameter of every agent is bounded** (`SEAT_LIMITS`): a spec beyond a bound is
  refused when the game is created (422, with the bound). A parameter no bound names is
  refused too, so a parameter added to an agent later cannot slip through unbounded.
- **A wall-clock cap per decision** (`think_limit` seconds plus `GRACE`), enforced here
  whatever the agent does: a decision still running at the cap is stopped (its worker
  process killed and a fresh one started) and the seat plays its game's *easy* level's
  move instead, which is logged. The bounds alone cannot do it: within them a search can
  still be slow (greedy playouts in a long race), and the cap needs no agent's cooperation.
- **Fair turns**: decisions wait in one queue per client (the address that created the
  game) and, within it, in the order their games asked; free workers take from the
  clients in turn (round robin), and one client's decisions hold at most half the workers
  (at least one) at once. A stranger with many slow tables takes its turns like anyone
  else and never all the workers: another table's seat waits for the decisions of the
  other tables in line, not behind the stranger's queue, and at most about one decision's
  cap (with every worker busy, the first to finish takes it).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections import Counter, OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field

from chaosgames import agents
from chaosgames.web.errors import Unprocessable
from chaosgames.web.workers import Decision, Overrun, Worker, WorkerDied, decide, warm_up

log = logging.getLogger("chaosgames.web")

THINK_LIMIT = 10.0
"""Seconds a computer seat may think per move (the `time` parameter's ceiling): ten times
the hardest level's time on this machine and more."""
GRACE = 2.0
"""Seconds beyond `think_limit` a decision is given before it is stopped: the worker
rebuilds the position first, and a busy machine is slower."""

SEARCH_LIMITS: dict[str, tuple[float, float]] = {
    "iterations": (0, 20_000),
    "time": (0.0, THINK_LIMIT),
    "c": (0.0, 10.0),
    "depth": (0, 50),
    "epsilon": (0.0, 1.0),
    "prior": (0, 1_000),
}
"""The bounds of a tree search's parameters (mcts, ismcts)."""
SEAT_LIMITS: dict[str, dict[str, tuple[float, float]]] = {
    "mcts": SEARCH_LIMITS,
    "rollout": {
        "futures": (1, 256),
        "finish_futures": (1, 256),
        "depth": (0, 50),
        "every": (0, 50),
        "finish": (0, 50),
    },
    # Information-set MCTS searches as mcts does, in a few worlds drawn from what its seat knows.
    "ismcts": {**SEARCH_LIMITS, "memory": (-1, 1_000), "worlds": (1, 16)},
    "greedy": {
        "samples": (1, 64),
        "chance_depth": (0, 4),
        "blunders": (0.0, 1.0),
        "memory": (-1, 1_000),
        "worlds": (1, 64),
    },
    "random": {},
}
"""The least and the most of every numeric parameter of every agent on this server: ten
times the hardest level and more, so that every level and any sensible spec is taken.
Playouts to the end of the game (`depth=-1`) are not run here: a race can last thousands of
decisions. Parameters that are not numbers (choices such as `rollout`, switches such as
`reuse`) need no bound. The agents themselves take any budget elsewhere (the command line,
the lab)."""


def check_seat_limits(spec: str, agent: agents.Agent, think_limit: float = THINK_LIMIT) -> None:
    """Unprocessable when the agent would think more than the server allows (SEAT_LIMITS)."""
    bounds = SEAT_LIMITS.get(agent.name)
    if bounds is None:
        raise Unprocessable(f"The computer opponent {agent.name!r} is not offered on this server.")
    for key, value in agent.settings.items():
        if isinstance(value, bool) or not isinstance(value, int | float):
            continue
        if key not in bounds:
            raise Unprocessable(f"The parameter {key} of {agent.name} is not bounded on this server.")
        least, most = bounds[key]
        if key == "time":
            most = min(most, think_limit)
        if value > most:
            raise Unprocessable(
                f"A computer seat on this server thinks at most {key}={most:g} ({agent.name}); "
                f"'{spec}' asks {value:g}. The levels easy, medium and hard are well within it."
            )
        if value < least:
            to_the_end = " (playouts to the end of the game are not run here)" if key == "depth" else ""
            raise Unprocessable(
                f"A computer seat on this server takes {key} from {least:g} on ({agent.name}){to_the_end}; "
                f"'{spec}' asks {value:g}."
            )


@dataclass
class _Job:
    request: Decision
    answer: asyncio.Future[str]
    queued: float


@dataclass
class ComputerPlayers:
    """`workers` worker processes shared by every game's computer seats, taken in turn."""

    kind: str = "process"
    workers: int = 2
    think_limit: float = THINK_LIMIT
    decider: Callable[[Decision], str] = decide
    """What a worker runs for a decision (a module-level function: it goes to a process)."""
    _idle: list[Worker] = field(default_factory=list)
    _all: list[Worker] = field(default_factory=list)
    _queues: OrderedDict[str, deque[_Job]] = field(default_factory=OrderedDict)
    _running: set[asyncio.Task[None]] = field(default_factory=set)
    _busy: Counter[str] = field(default_factory=Counter)
    longest_wait: float = 0.0
    """The longest a decision waited for a worker (seconds), for health and benchmarks."""

    @property
    def cap(self) -> float:
        """Seconds a decision may take before it is stopped."""
        return self.think_limit + GRACE

    def start(self) -> None:
        """Start the workers now (spawning one takes a second: not at the first move)."""
        for _ in range(self.workers):
            worker = Worker(self.kind)
            worker.start()
            self._all.append(worker)
            self._idle.append(worker)
            self._run(worker, self._warm(worker))

    async def _warm(self, worker: Worker) -> None:
        with contextlib.suppress(Exception):
            await worker.call(warm_up, limit=60.0)

    async def stop(self) -> None:
        for task in list(self._running):
            task.cancel()
        for task in list(self._running):
            with contextlib.suppress(BaseException):
                await task
        for worker in self._all:
            worker.kill()
        for queue in self._queues.values():
            for job in queue:
                job.answer.cancel()
        self._queues.clear()

    def waiting(self) -> int:
        return sum(len(q) for q in self._queues.values())

    async def decide(self, request: Decision, client: str) -> str:
        """The notation of the action the seat plays: its agent's choice, or the easy level's
        if that overran the cap. Overrun when even that overran; an agent's own error and
        WorkerDied (a worker killed from outside, twice) are raised as they come."""
        loop = asyncio.get_running_loop()
        job = _Job(request, loop.create_future(), loop.time())
        self._queues.setdefault(client, deque()).append(job)
        self._dispatch()
        return await job.answer

    @property
    def share(self) -> int:
        """The most workers one client's decisions may hold at once: half (at least one), so
        that the others are left to everyone else even when that client's every decision
        runs to the cap."""
        return max(1, self.workers // 2)

    def _dispatch(self) -> None:
        """Hand waiting decisions to idle workers, one client after the other (a client
        holding its share of the workers waits for one of them)."""
        while self._idle:
            client = next((c for c in self._queues if self._busy[c] < self.share), None)
            if client is None:
                return
            queue = self._queues[client]
            job = queue.popleft()
            if queue:
                self._queues.move_to_end(client)  # the next client first; this one's turn comes again
            else:
                del self._queues[client]
            if job.answer.done():  # its game stopped waiting (the server stops)
                continue
            self.longest_wait = max(self.longest_wait, asyncio.get_running_loop().time() - job.queued)
            self._busy[client] += 1
            self._run(self._idle[-1], self._think(self._idle[-1], job), client)

    def _run(self, worker: Worker, work: object, client: str | None = None) -> None:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(work)  # type: ignore[arg-type]
        self._running.add(task)
        if worker in self._idle:
            self._idle.remove(worker)

        def done(finished: asyncio.Task[None]) -> None:
            self._running.discard(finished)
            self._idle.append(worker)
            if client is not None:
                self._busy[client] -= 1
                if self._busy[client] <= 0:
                    del self._busy[client]
            if not finished.cancelled():
                self._dispatch()

        task.add_done_callback(done)

    async def _think(self, worker: Worker, job: _Job) -> None:
        try:
            notation = await self._decided(worker, job.request)
        except asyncio.CancelledError:
            job.answer.cancel()
            raise
        except Exception as exc:
            if not job.answer.done():
                job.answer.set_exception(exc)
        else:
            if not job.answer.done():
                job.answer.set_result(notation)

    async def _decided(self, worker: Worker, request: Decision) -> str:
        try:
            try:
                return await worker.call(self.decider, request, limit=self.cap)
            except WorkerDied:
                # Killed from outside (out of memory?): a fresh process decides again.
                return await worker.call(self.decider, request, limit=self.cap)
        except Overrun:
            log.warning(
                "Computer seat %s of game %s did not decide within %g s; it plays the easy level's move",
                request.spec,
                request.game_id,
                self.cap,
            )
        easy = dataclasses.replace(request, spec="easy")
        return await worker.call(self.decider, easy, limit=self.cap)
