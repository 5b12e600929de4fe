"""Computer seats decide in a pool of worker processes, off the server's event loop.

A search agent is CPU-bound (MCTS spends its whole time budget computing), so it runs in
another process: the server stays free to answer people while computers think, and two
cores think for two games at once. A worker rebuilds the position from the game's actions
(each one checked, as a record replays) and keeps the positions it built last, so the next
decision in the same game only applies the new actions.
"""

from __future__ import annotations

import multiprocessing
import threading
from collections import OrderedDict
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from chaosgames import agents
from chaosgames.core.game import State
from chaosgames.core.registry import list_games, load_game

CACHED_GAMES = 32


@dataclass(frozen=True)
class Decision:
    """What a worker needs to move for a computer seat."""

    game_id: str
    game: str
    options: dict[str, Any]
    actions: tuple[str, ...]
    spec: str
    seed: int


_cache: OrderedDict[str, tuple[tuple[str, ...], State]] = OrderedDict()
_cache_lock = threading.Lock()  # a thread pool shares the cache between its threads


def decide(request: Decision) -> str:
    """The notation of the action the seat's agent chooses (runs in a worker)."""
    state = _position(request)
    agent = agents.from_spec(request.spec, seed=request.seed)
    return str(agent.choose(state))


def _position(request: Decision) -> State:
    with _cache_lock:
        cached = _cache.pop(request.game_id, None)
    if cached is not None and request.actions[: len(cached[0])] == cached[0]:
        done, state = cached
    else:
        done, state = (), load_game(request.game, **request.options).new_initial_state()
    game = state.game
    for text in request.actions[len(done) :]:
        state.apply_action(game.parse_action(state, text))
    with _cache_lock:
        _cache[request.game_id] = (request.actions, state)
        while len(_cache) > CACHED_GAMES:
            _cache.popitem(last=False)
    # The agent must not change the cached position: it decides on a copy.
    return state.clone()


def warm_up() -> int:
    """Import every game in a fresh worker, so that its first decision starts at once."""
    return len(list_games())


def budget(spec: str) -> float | None:
    """The seconds a seat's agent may think per move, when its spec sets a time budget."""
    try:
        agent = agents.from_spec(spec)
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
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
