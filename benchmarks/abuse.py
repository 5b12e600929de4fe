"""Ordinary players while one stranger floods the server (issue 49), on loopback only.

Starts `chaosgames serve` with its public defaults (the limits per client address, the
think limit) on a fresh SQLite file and no pace, and runs the same load twice, for
--seconds each: once quiet, once with a flood.

- **Ordinary players**: --games tables (the four games in turn, as benchmarks/server.py
  plays them: one scripted person against random computer seats), each from its own
  loopback address (127.0.1.N), the person pausing 0.5-1.5 s before each action as people
  do. A finished game is followed by a new one. Measured: the latency from a person's
  action leaving to the WebSocket view with the new version arriving, and the *wait* of
  every computer seat of theirs: from the view that hands it the turn to the view with
  its move.
- **The stranger** (one address, 127.0.0.2), all at once, each loop sending its next
  request as soon as the last is answered, Retry-After ignored: game creation; computer-only
  games with hog seats (`mcts:time=10`, and Chaos Cruisers' `mcts:iterations=20000,
  rollout=greedy,depth=50`, within every bound and still minutes a move, so every one of
  its decisions runs into the cap), plus the review's unbounded spec; uploads of a long
  record (a different one each time); and WebSockets to the games the lobby lists (the
  people's too), held open.

Also measured, the figures a shared machine's other work disturbs least: the server
process's CPU time per person's action in the quiet runs, and per request of the stranger
(an HTTP request or a WebSocket handshake) in the flooded ones, the latter being what the
flooded runs took beyond their people's actions at the quiet cost (so it includes the views
sent to the stranger's held sockets); and that cost as a share of one core over the run
(`stranger_server_cpu_share`: fewer requests answered slower make each dearer).

Targets: the people's p95 latency with the flood within 2x of the quiet run; no computer
seat of theirs waits longer than its own cap plus one other decision's (2 x (think limit
+ 2 s) here: every seat has the server's cap).

    python benchmarks/abuse.py                           # 20 games, 60 s of each kind, 3 rounds
    python benchmarks/abuse.py --games 6 --seconds 10    # the short run of make bench
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import platform
import random
import statistics
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

import chaosgames
from chaosgames.core.chance import sample_outcome

try:
    from benchmarks.server import TABLES, Server, cpu_seconds, percentile, wait_quiet, wait_ready
except ImportError:  # run as a script: benchmarks/ is on the path
    from server import (  # type: ignore[no-redef]
        TABLES,
        Server,
        cpu_seconds,
        percentile,
        wait_quiet,
        wait_ready,
    )

STRANGER = "127.0.0.2"
THINK_LIMIT = 10.0
"""The server's default think limit; the cap of a decision is this plus 2 s."""
CAP = THINK_LIMIT + 2.0
HOGS = [
    {"game": "chaos-checkers", "seats": ["mcts:time=10", "mcts:time=10"]},
    {
        "game": "chaos-cruisers",
        "seats": ["mcts:iterations=20000,rollout=greedy,depth=50"] * 2,
        "options": {"laps": 1},
    },
]
UNBOUNDED = {"game": "chaos-cruisers", "seats": ["mcts:iterations=20000,depth=-1,rollout=greedy", "human"]}
RECORD_ACTIONS = 5_000
STRANGER_NICENESS = 19
FLOODS = ["creates", "hogs", "replays", "sockets"]
"""What the stranger floods (--flood takes some of them, to see what each costs)."""


def person(i: int) -> str:
    return f"127.0.1.{i + 1}"


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    waits: list[float] = field(default_factory=list)
    actions: int = 0
    games: int = 0
    refused: Counter[int] = field(default_factory=Counter)
    flood: Counter[str] = field(default_factory=Counter)
    server_cpu: float = 0.0
    """CPU seconds of the server process (its event loop; not its computer players) over the run."""


def long_record() -> dict[str, Any]:
    """A Chaos Cruisers record of random play, RECORD_ACTIONS actions long (or to its end)."""
    game = chaosgames.load_game("chaos-cruisers", players=4)
    state = game.new_initial_state()
    rng = random.Random(49)
    actions: list[str] = []
    while not state.is_terminal() and len(actions) < RECORD_ACTIONS:
        if state.current_player() == chaosgames.CHANCE:
            action = sample_outcome(state.chance_outcomes(), rng)
        else:
            action = rng.choice(state.legal_actions())
        actions.append(str(action))
        state.apply_action(action)
    return chaosgames.GameRecord(game.name, dict(game.options), ["a", "b", "c", "d"], actions).to_json()


# -- the ordinary players ---------------------------------------------------------------------


async def ordinary(url: str, i: int, deadline: float, tally: Tally) -> None:
    """Game after game at one table, from its own address, until the deadline."""
    rng = random.Random(i)
    table = TABLES[i % len(TABLES)]
    transport = httpx.AsyncHTTPTransport(local_address=person(i))
    async with httpx.AsyncClient(base_url=url, transport=transport, timeout=120) as http:
        while time.monotonic() < deadline:
            answer = await http.post("/api/games", json={**table, "seed": rng.randrange(2**31)})
            if answer.status_code != 201:
                tally.refused[answer.status_code] += 1
                await asyncio.sleep(1.0)
                continue
            tally.games += 1
            await play(http, url, i, answer.json(), deadline, tally, rng)


async def play(
    http: httpx.AsyncClient,
    url: str,
    i: int,
    created: dict[str, Any],
    deadline: float,
    tally: Tally,
    rng: random.Random,
) -> None:
    game_id, token = created["id"], created["seats"][0]["token"]
    headers = {"Authorization": f"Bearer {token}"}
    ws_url = url.replace("http://", "ws://") + f"/api/games/{game_id}/ws"
    waiting: tuple[int, float] | None = None  # a computer seat's turn: (version, since)

    async with connect(ws_url, max_size=2**24, local_addr=(person(i), 0)) as ws:
        await ws.send(json.dumps({"token": token}))

        async def next_view() -> dict[str, Any]:
            nonlocal waiting
            view: dict[str, Any] = json.loads(await ws.recv())["view"]
            now = time.perf_counter()
            if waiting is not None and view["version"] > waiting[0]:
                tally.waits.append(now - waiting[1])
                waiting = None
            if waiting is None and view["status"] == "running" and view["to_act"] not in (None, 0):
                waiting = (view["version"], now)
            return view

        view = await next_view()
        while time.monotonic() < deadline and view["status"] == "running":
            if view["to_act"] != 0 or not view["legal"]:
                view = await next_view()
                continue
            await asyncio.sleep(rng.uniform(0.5, 1.5))
            decided = view["version"]
            sent = time.perf_counter()
            answer = await http.post(
                f"/api/games/{game_id}/actions",
                json={"action": rng.choice(view["legal"])["notation"], "version": decided},
                headers=headers,
            )
            if answer.status_code != 200:
                tally.refused[answer.status_code] += 1
                view = await next_view()
                continue
            tally.actions += 1
            while view["version"] <= decided:
                view = await next_view()
            tally.latencies.append(time.perf_counter() - sent)


# -- the stranger ----------------------------------------------------------------------------


async def flood(url: str, deadline: float, tally: Tally, record: dict[str, Any], floods: list[str]) -> None:
    transport = httpx.AsyncHTTPTransport(local_address=STRANGER, retries=1)
    limits = httpx.Limits(max_connections=8)
    async with httpx.AsyncClient(base_url=url, transport=transport, timeout=120, limits=limits) as http:
        people = {"game": "chaos-checkers", "seats": ["human", "human"]}

        async def creates() -> None:
            while time.monotonic() < deadline:
                answer = await http.post("/api/games", json=people)
                tally.flood[f"create {answer.status_code}"] += 1

        async def hogs() -> None:
            n = 0
            while time.monotonic() < deadline:
                answer = await http.post("/api/games", json=HOGS[n % len(HOGS)])
                tally.flood[f"hog game {answer.status_code}"] += 1
                answer = await http.post("/api/games", json=UNBOUNDED)
                tally.flood[f"unbounded spec {answer.status_code}"] += 1
                n += 1

        async def uploads() -> None:
            n = 0
            while time.monotonic() < deadline:
                answer = await http.post("/api/replay", json={**record, "players": [f"p{n}", "b", "c", "d"]})
                tally.flood[f"replay {answer.status_code}"] += 1
                n += 1

        async def sockets() -> None:
            # Spectators of every game the lobby lists (the people's among them), as many as
            # the server lets one address hold, held open; refused ones tried again at once.
            held: list[Any] = []
            ws_url = url.replace("http://", "ws://")
            try:
                while time.monotonic() < deadline:
                    answer = await http.get("/api/games")
                    tally.flood[f"lobby {answer.status_code}"] += 1
                    lobby = answer.json()["running"]
                    for game in lobby[:8]:
                        try:
                            address = f"{ws_url}/api/games/{game['id']}/ws"
                            ws = await connect(address, max_size=2**24, local_addr=(STRANGER, 0))
                        except InvalidStatus as refused:  # refused in the handshake (web/refusals.py)
                            tally.flood[f"websocket refused {refused.response.status_code}"] += 1
                            continue
                        try:
                            await ws.send(json.dumps({"token": None}))
                            await ws.recv()
                            held.append(ws)
                            tally.flood["websocket held"] += 1
                        except Exception:
                            tally.flood[f"websocket closed {ws.close_code}"] += 1
                            await ws.close()
            finally:
                for ws in held:
                    with contextlib.suppress(Exception):
                        await ws.close()

        kinds = {"creates": creates, "hogs": hogs, "replays": uploads, "sockets": sockets}
        await asyncio.gather(*(kinds[kind]() for kind in floods))


# -- the runs ---------------------------------------------------------------------------------


def stranger_ready() -> int:
    """Nothing: the stranger's process started, this module (httpx, chaosgames) imported."""
    return os.getpid()


def flood_process(url: str, deadline: float, record: dict[str, Any], floods: list[str]) -> dict[str, int]:
    """The stranger, in a process of its own: its client work (encoding records, opening
    connections) does not delay the ordinary players' clients, whose latency is measured;
    and at a low priority: on loopback the CPU it spends sending as fast as it can would
    come out of the server's cores, which a stranger on another machine does not take."""
    os.nice(STRANGER_NICENESS)
    tally = Tally()
    asyncio.run(flood(url, deadline, tally, record, floods))
    return dict(tally.flood)


async def load(
    url: str, group: int, games: int, seconds: float, flooding: bool, record: dict[str, Any]
) -> Tally:
    """The run; `group` is the server's process group (its leader the server process)."""
    tally = Tally()
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        await wait_ready(http)
    await wait_quiet(group)  # the computer players' imports are no one's cost
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as stranger:
        if flooding:  # started and its imports done first: on a busy machine they take seconds
            await asyncio.get_running_loop().run_in_executor(stranger, stranger_ready)
        deadline = time.monotonic() + seconds  # CLOCK_MONOTONIC: the same in every process
        used = cpu_seconds(group)[1]
        work: list[Any] = [ordinary(url, i, deadline, tally) for i in range(games)]
        if flooding:
            loop = asyncio.get_running_loop()
            work.append(loop.run_in_executor(stranger, flood_process, url, deadline, record, list(FLOODS)))
        done = await asyncio.gather(*work)
        tally.server_cpu = cpu_seconds(group)[1] - used
    if flooding:
        tally.flood.update(done[-1])
    return tally


def figures(tally: Tally, seconds: float) -> dict[str, Any]:
    lat = tally.latencies or [0.0]
    waits = tally.waits or [0.0]
    return {
        "people_actions": tally.actions,
        "people_actions_per_second": round(tally.actions / seconds, 1),
        "games_started": tally.games,
        "latency_ms_p50": round(1000 * statistics.median(lat), 1),
        "latency_ms_p95": round(1000 * percentile(lat, 0.95), 1),
        "latency_ms_max": round(1000 * max(lat), 1),
        "computer_moves": len(tally.waits),
        "computer_wait_s_p95": round(percentile(waits, 0.95), 2),
        "computer_wait_s_max": round(max(waits), 2),
        "people_refused": dict(tally.refused),
        "server_cpu_s": round(tally.server_cpu, 2),
        "server_cpu_share": round(tally.server_cpu / seconds, 2),
        "flood": dict(sorted(tally.flood.items())),
    }


def run_once(games: int, seconds: float, flooding: bool, record: dict[str, Any]) -> Tally:
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(str(Path(tmp) / "abuse.sqlite"), workers=2, options=())  # the public defaults
        try:
            return asyncio.run(load(server.url, server.process.pid, games, seconds, flooding, record))
        finally:
            server.stop()


def pooled(tallies: list[Tally]) -> Tally:
    """The rounds of one kind (quiet or flooded) as one tally."""
    whole = Tally()
    for tally in tallies:
        whole.latencies += tally.latencies
        whole.waits += tally.waits
        whole.actions += tally.actions
        whole.games += tally.games
        whole.refused.update(tally.refused)
        whole.flood.update(tally.flood)
        whole.server_cpu += tally.server_cpu
    return whole


def cpu_costs(quiet: Tally, flooded: Tally) -> tuple[float, float]:
    """The server process's CPU seconds per person's action in the quiet runs, and what the
    flooded runs took beyond their people's actions at that cost: the stranger's. Figures a
    shared machine's other work disturbs far less than latency."""
    per_action = quiet.server_cpu / max(quiet.actions, 1)
    return per_action, flooded.server_cpu - per_action * flooded.actions


def measure(games: int, seconds: float, rounds: int = 1) -> dict[str, Any]:
    """Quiet and flooded runs in turn, `rounds` of each, `seconds` in all for each kind.

    Taking turns (quiet, flood, quiet, flood, ...) puts the machine's other work, which
    moves the quiet run's figures by several times on a shared machine, on both sides of
    the ratio alike; the figures pool every round of a kind."""
    record = long_record()
    share = seconds / rounds
    quiet: list[Tally] = []
    flooded: list[Tally] = []
    for _ in range(rounds):
        quiet.append(run_once(games, share, False, record))
        flooded.append(run_once(games, share, True, record))
    calm, flood = figures(pooled(quiet), seconds), figures(pooled(flooded), seconds)
    ratio = flood["latency_ms_p95"] / max(calm["latency_ms_p95"], 1e-9)
    per_action, strangers = cpu_costs(pooled(quiet), pooled(flooded))
    requests = sum(pooled(flooded).flood.values())  # each count is one request or handshake
    return {
        "games": games,
        "seconds_per_run": seconds,
        "rounds": rounds,
        "record_actions": len(record["actions"]),
        "cap_s": CAP,
        "quiet": calm,
        "flood": flood,
        "p95_ratio": round(ratio, 2),
        "p95_within_2x": ratio <= 2.0,
        "server_cpu_ms_per_quiet_action": round(1000 * per_action, 2),
        "server_cpu_ms_per_stranger_request": round(1000 * strangers / max(requests, 1), 3),
        "stranger_server_cpu_share": round(strangers / seconds, 3),
        "longest_wait_within_two_caps": flood["computer_wait_s_max"] <= 2 * CAP,
        "load_average": [round(x, 1) for x in os.getloadavg()],
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
    }


def run(quick: bool = True) -> dict[str, Any]:
    """`make bench`: 6 games, 10 s a run (under a minute in all); `--full`: 20 games, 60 s of
    each kind in 3 rounds."""
    result = measure(games=6 if quick else 20, seconds=10.0 if quick else 60.0, rounds=1 if quick else 3)
    print(json.dumps(result, indent=1), flush=True)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="ordinary tables (default 20)")
    parser.add_argument("--seconds", type=float, default=60.0, help="length of each run (default 60)")
    parser.add_argument("--flood", default=",".join(FLOODS), help="what the stranger floods (default: all)")
    parser.add_argument("--rounds", type=int, default=3, help="quiet and flooded runs in turn (default 3)")
    args = parser.parse_args()
    FLOODS[:] = [kind for kind in args.flood.split(",") if kind in FLOODS]
    if not 1 <= args.games <= 100 or not 0 < args.seconds <= 120 or not 1 <= args.rounds <= 10:
        parser.error("keep it bounded: 1-100 tables, at most 120 seconds a run, 1-10 rounds")
    print(json.dumps(measure(args.games, args.seconds, args.rounds), indent=1))


if __name__ == "__main__":
    main()
