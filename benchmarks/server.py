"""The web server under load: many concurrent games on loopback, each with a scripted person.

Starts `chaosgames serve` (a fresh SQLite file unless --database is given), keeps --games
games running for --seconds (a finished game is replaced by a new one of the same kind),
and in each game one scripted person plays against random computer seats: it waits on its
WebSocket for its turn, picks a legal action at random, sends it on the WebSocket as the
game page does (`--act http`: as a POST, as an API client may) and waits for the updated
board on the WebSocket. Its hello asks for the table's news too (`table: true`: presence,
chat, a takeback waiting), as the game page's does, so the figures are what the page costs;
`--no-table` leaves the news out. Reported:

- actions served per second: every committed action (the people's, the computers' and the
  chance outcomes the server draws), and the people's alone;
- latency from a person's action (its message or request leaving) to the updated board (the
  WebSocket message with the new version arriving): p50, p95 and the worst;
- the server's CPU milliseconds per committed action: the CPU time of every process of the
  server (read from /proc) over the actions they committed, the figure a shared, loaded
  machine disturbs least; beside it the load client's own CPU;
- the bytes a seat is sent, in each game: its whole view (on connecting), each update after
  it (a patch, or a whole view from a server that sends no patches), the answer to its
  action, and the bytes per committed action; the updates' median as a share of the
  whole view's.

With `--think 0` the scripted people act the moment it is their turn, so the server is
saturated and the latency is mostly queueing; `--think 1` gives each a pause of 0.5-1.5 s,
as people take, which shows the latency a player feels.

    python benchmarks/server.py --think 0            # 50 games, 30 s (docs/results/server.md)
    python benchmarks/server.py --think 1
    python benchmarks/server.py --games 10 --seconds 8
    python benchmarks/server.py --games 200 --think 1 --seconds 60   # people's pace

The load clients run in this process, on the same machine as the server: on two cores they
take part of the CPU the server would otherwise have.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import re
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from chaosgames.web.patches import apply_patch

# Each kind of game with its seats: one person, the rest random computer players.
TABLES: list[dict[str, Any]] = [
    {"game": "chaos-checkers", "seats": ["human", "random"]},
    {"game": "chaos-cruisers", "seats": ["human", "random", "random"], "options": {"laps": 1}},
    {"game": "royal-racers", "seats": ["human", "random"]},
    {"game": "cardboard-machines", "seats": ["human", "random"]},
]


@dataclass
class Sent:
    """The bytes one kind of game's seats were sent."""

    whole: list[int] = field(default_factory=list)
    """Each whole view, on connecting."""
    updates: list[int] = field(default_factory=list)
    """Each message after it (a patch, or a whole view)."""
    answers: list[int] = field(default_factory=list)
    """Each answer to an action."""
    tables: list[int] = field(default_factory=list)
    """Each message of the table's news."""
    moves: int = 0
    """Committed actions the seats saw (versions advanced)."""

    def figures(self) -> dict[str, Any]:
        whole = statistics.median(self.whole or [0])
        update = statistics.median(self.updates or [0])
        total = sum(self.updates) + sum(self.answers) + sum(self.tables)
        return {
            "whole_view_bytes": round(whole),
            "update_bytes_p50": round(update),
            "update_share_of_whole": round(update / whole, 3) if whole else None,
            "answer_bytes_p50": round(statistics.median(self.answers or [0])),
            "table_news": len(self.tables),
            "bytes_per_action": round(total / self.moves) if self.moves else None,
        }


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    human_actions: int = 0
    games_started: int = 0
    games_finished: int = 0
    refused: int = 0
    dropped: int = 0
    """Requests whose connection the server closed before answering (sent again)."""
    enough: int | None = None
    """Stop once the people have made this many actions (else at the deadline alone)."""
    versions: dict[str, int] = field(default_factory=dict)
    """The last version seen of every game (for the actions served)."""
    first_versions: dict[str, int] = field(default_factory=dict)
    sent: dict[str, Sent] = field(default_factory=dict)
    """What the seats were sent, by game."""

    def of(self, game: str) -> Sent:
        return self.sent.setdefault(game, Sent())

    def going(self, deadline: float) -> bool:
        """Whether the load goes on: before the deadline and short of the actions wanted."""
        return time.monotonic() < deadline and (self.enough is None or self.human_actions < self.enough)


GENEROUS = [
    *("--games-rate", "100000/second", "--actions-rate", "100000/second", "--replays-rate", "100000/second"),
    *("--sockets", "100000", "--sockets-per-game", "100000", "--computer-games", "100000"),
]
"""Limits per client address this load never reaches: every scripted person here comes from
127.0.0.1 (benchmarks/abuse.py measures the limits themselves). Counted per second: a
moving window keeps every hit of its period, and a minute's worth of this whole load's
actions under one address made each count cost milliseconds, which no real client's
window (240 a minute) comes near."""


class Server:
    """`chaosgames serve` in its own process group."""

    def __init__(
        self,
        database: str,
        workers: int,
        processes: int = 1,
        pace: float = 0.0,
        options: Sequence[str] = tuple(GENEROUS),
    ) -> None:
        command = [sys.executable, "-m", "chaosgames.cli.main", "serve", "--port", "0", "--pace", str(pace)]
        command += ["--database", database, "--computers", str(workers), "--workers", str(processes)]
        command += options
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = re.search(r"http://[^:]+:(\d+)/", line)
        if not found:
            self.stop()
            raise SystemExit(f"The server did not start: {line.strip()}")
        self.url = f"http://127.0.0.1:{found.group(1)}"
        # Read what the server says from now on (else a full pipe would stop it), keep the end.
        self.said: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.said = [*self.said[-200:], line]

    def stop(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=20)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            pass
        self.kill()  # whatever of its group outlived it (a worker started while it stopped)
        if self.said:
            print(f"The server said (last lines):\n{''.join(self.said[-20:])}", file=sys.stderr)

    def kill(self) -> None:
        """kill -9 of every process of the server."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)


async def wait_ready(http: httpx.AsyncClient) -> None:
    for _ in range(600):
        try:
            if (await http.get("/api/health")).status_code == 200:
                return
        except httpx.TransportError:
            pass
        await asyncio.sleep(0.05)
    raise SystemExit("The server did not answer.")


async def play_games(
    http: httpx.AsyncClient,
    ws_url: str,
    table: dict[str, Any],
    deadline: float,
    tally: Tally,
    seed: int,
    think: float,
    over: str = "socket",
    table_news: bool = True,
) -> None:
    """One seat of the load: game after game of one kind until the deadline."""
    rng = random.Random(seed)
    while tally.going(deadline):
        created = (await http.post("/api/games", json={**table, "seed": rng.randrange(2**31)})).json()
        tally.games_started += 1
        if await play_one(http, ws_url, created, deadline, tally, rng, think, over, table_news):
            tally.games_finished += 1


async def play_one(
    http: httpx.AsyncClient,
    ws_url: str,
    created: dict[str, Any],
    deadline: float,
    tally: Tally,
    rng: random.Random,
    think: float,
    over: str = "socket",
    table_news: bool = True,
) -> bool:
    """One game; the person acts on its WebSocket (`over` "socket", as the game page does)
    or with a POST each ("http", as an API client may); `table_news`: its hello asks for the
    table's news, as the page's does."""
    game_id, token = created["id"], created["seats"][0]["token"]
    # The short answer (the new position comes on the WebSocket, as on the game page).
    headers = {"Authorization": f"Bearer {token}", "Prefer": "return=minimal"}
    async with connect(f"{ws_url}/api/games/{game_id}/ws", max_size=2**24) as ws:
        await ws.send(json.dumps({"token": token, "patches": True, "table": table_news}))
        first = await ws.recv()
        view = json.loads(first)["view"]
        bytes_sent = tally.of(view["game"])
        bytes_sent.whole.append(len(first))
        tally.first_versions.setdefault(game_id, view["version"])
        reader = Reader(ws, view, bytes_sent)
        while tally.going(deadline):
            view = reader.view
            tally.versions[game_id] = view["version"]
            if view["status"] == "finished":
                return True
            if view["to_act"] != 0 or not view["legal"]:
                await reader.take()
                continue
            if think > 0:
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                if not tally.going(deadline):
                    break
            decided = view["version"]
            action = rng.choice(view["legal"])["notation"]
            sent = time.perf_counter()
            if over == "socket":
                status = await reader.act(action, decided)
            else:
                answer = await send_action(http, game_id, action, decided, headers, tally)
                bytes_sent.answers.append(len(answer.content))
                status = answer.status_code
            if status != 200:
                tally.refused += 1
            else:
                tally.human_actions += 1
            while reader.view["version"] <= decided:
                await reader.take()
            if status == 200:
                tally.latencies.append(time.perf_counter() - sent)
    return False


class Reader:
    """A seat's WebSocket as the page reads it: whole views, and patches applied to the
    view before them (a patch that does not apply asks for the whole view); the answers
    to the actions sent on it."""

    def __init__(self, ws: Any, view: dict[str, Any], sent: Sent) -> None:
        self.ws, self.view, self.sent = ws, view, sent
        self.revision = None
        self.answer: dict[str, Any] | None = None
        self.acts = 0

    async def take(self) -> None:
        """Read the next message: a view or a patch (to `view`), or an answer (to `answer`)."""
        text = await self.ws.recv()
        message = json.loads(text)
        if message["type"] == "table":  # the news beside the board: counted, not read
            self.sent.tables.append(len(text))
            return
        if message["type"] in ("acted", "refused"):
            self.sent.answers.append(len(text))
            self.answer = message
            return
        self.sent.updates.append(len(text))
        before = self.view["version"]
        if message["type"] == "view":
            self.view = message["view"]
            self.revision = message.get("revision")
        else:
            patched = apply_patch(self.view, self.revision, message)
            if patched is None:
                await self.ws.send(json.dumps({"resync": True}))
                return
            self.view, self.revision = patched, message["revision"]
        self.sent.moves += max(0, self.view["version"] - before)

    async def act(self, action: str, decided: int) -> int:
        """Send an action on the socket and read until its answer; its HTTP-like status."""
        self.acts += 1
        self.answer = None
        await self.ws.send(json.dumps({"type": "act", "action": action, "version": decided, "id": self.acts}))
        while self.answer is None or self.answer.get("id") != self.acts:
            await self.take()
        return 200 if self.answer["type"] == "acted" else int(self.answer["status"])


async def send_action(
    http: httpx.AsyncClient, game_id: str, action: str, decided: int, headers: dict[str, str], tally: Tally
) -> httpx.Response:
    """Send an action; a connection the server closed first (a keep-alive connection it timed
    out as the request left) is counted and the request sent again. Sending it again is safe:
    it names the version it was decided at, so a second commit is refused (409)."""
    for _attempt in range(5):
        try:
            return await http.post(
                f"/api/games/{game_id}/actions", json={"action": action, "version": decided}, headers=headers
            )
        except httpx.TransportError:
            tally.dropped += 1
    raise SystemExit("The server closed five connections in a row.")


async def load(
    url: str,
    games: int,
    seconds: float,
    think: float = 0.0,
    actions: int | None = None,
    server: Server | None = None,
    over: str = "socket",
    table_news: bool = True,
) -> tuple[Tally, float, tuple[float, float, float]]:
    """The load; with the CPU seconds over it of the server's processes, of the server
    process alone, and of the client."""
    tally = Tally(enough=actions)
    limits = httpx.Limits(max_connections=games + 10, max_keepalive_connections=games + 10)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=120) as http:
        await wait_ready(http)
        group = server.process.pid if server is not None else None
        if group:
            await wait_quiet(group)
        cpu_before = (cpu_seconds(group) if group else (0.0, 0.0)), client_cpu_seconds()
        start = time.monotonic()
        deadline = start + seconds
        ws_url = url.replace("http://", "ws://")
        tasks = [
            play_games(http, ws_url, TABLES[i % len(TABLES)], deadline, tally, i, think, over, table_news)
            for i in range(games)
        ]
        await asyncio.gather(*tasks)
        elapsed = time.monotonic() - start
        cpu_after = (cpu_seconds(group) if group else (0.0, 0.0)), client_cpu_seconds()
    (total, leader), client = cpu_after[0], cpu_after[1] - cpu_before[1]
    return tally, elapsed, (total - cpu_before[0][0], leader - cpu_before[0][1], client)


def cpu_seconds(group: int) -> tuple[float, float]:
    """The CPU time (user and system) of every live process of a process group, from /proc,
    and of its leader alone (the server process; the others think for its computer seats)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = leader = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[2]) == group:  # the process group; utime and stime follow at 11 and 12
            used = int(fields[11]) + int(fields[12])
            total += used
            leader += used if int(entry.name) == group else 0
    return total / ticks, leader / ticks


async def wait_quiet(group: int, limit: float = 60.0) -> None:
    """Wait until the server's processes are idle: its computer players import every game
    as they start (seconds of CPU), which is no action's cost."""
    end = time.monotonic() + limit
    used = cpu_seconds(group)[0]
    while time.monotonic() < end:
        await asyncio.sleep(0.5)
        now = cpu_seconds(group)[0]
        if now - used < 0.02:
            return
        used = now


def client_cpu_seconds() -> float:
    times = os.times()
    return times.user + times.system


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report(
    tally: Tally, elapsed: float, games: int, workers: int, think: float, cpu: tuple[float, float, float]
) -> dict[str, Any]:
    served = sum(v - tally.first_versions.get(g, 0) for g, v in tally.versions.items())
    lat = tally.latencies or [0.0]
    server_cpu, leader_cpu, client_cpu = cpu
    return {
        "games": games,
        "think_seconds": think,
        "seconds": round(elapsed, 1),
        "computer_workers": workers,
        "games_started": tally.games_started,
        "games_finished": tally.games_finished,
        "actions_served": served,
        "actions_per_second": round(served / elapsed, 1),
        "human_actions": tally.human_actions,
        "human_actions_per_second": round(tally.human_actions / elapsed, 1),
        "refused": tally.refused,
        "dropped_connections": tally.dropped,
        "latency_ms_p50": round(1000 * statistics.median(lat), 1),
        "latency_ms_p95": round(1000 * percentile(lat, 0.95), 1),
        "latency_ms_max": round(1000 * max(lat), 1),
        "server_cpu_ms_per_action": round(1000 * server_cpu / served, 2) if served else None,
        "server_process_cpu_ms_per_action": round(1000 * leader_cpu / served, 2) if served else None,
        "server_cpu_share": round(server_cpu / elapsed, 2),
        "client_cpu_share": round(client_cpu / elapsed, 2),
        "sent": {game: sent.figures() for game, sent in sorted(tally.sent.items())},
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
    }


def run(quick: bool = True) -> dict[str, Any]:
    """`make bench`: a short run (10 games, 8 s); `--full`: 50 games, 30 s."""
    figures = measure(games=10 if quick else 50, seconds=8.0 if quick else 30.0)
    print(json.dumps(figures, indent=1), flush=True)
    return figures


@contextlib.contextmanager
def scratch_database(database: str | None) -> Iterator[str]:
    """A fresh database for one run: a SQLite file in a temporary directory, or a new
    database on the PostgreSQL server `database` names (dropped afterwards)."""
    if database is None or "://" not in database:
        with tempfile.TemporaryDirectory() as tmp:
            yield database or str(Path(tmp) / "bench.sqlite")
        return
    import psycopg

    name = f"chaosgames_bench_{secrets.token_hex(4)}"
    with psycopg.connect(database, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield database.rsplit("/", 1)[0] + "/" + name
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def measure(
    games: int,
    seconds: float,
    database: str | None = None,
    workers: int = 2,
    think: float = 0.0,
    processes: int = 1,
    actions: int | None = None,
    over: str = "socket",
    table_news: bool = True,
) -> dict[str, Any]:
    """The load of `games` games for `seconds` (or until the people made `actions` actions),
    the people acting `over` their sockets or with POSTs ("http"), asking for the table's
    news (`table_news`) or not."""
    with scratch_database(database) as scratch:
        server = Server(scratch, workers, processes)
        try:
            tally, elapsed, cpu = asyncio.run(
                load(server.url, games, seconds, think, actions, server, over, table_news)
            )
        finally:
            server.stop()
    figures = report(tally, elapsed, games, workers, think, cpu)
    figures["server_processes"] = processes
    figures["actions_over"] = over
    figures["table_news"] = table_news
    figures["database"] = "postgresql" if database and "://" in database else "sqlite"
    return figures


async def game_versions(http: httpx.AsyncClient) -> dict[str, int]:
    lists = (await http.get("/api/games", params={"limit": 200})).json()
    return {g["id"]: g["version"] for g in lists["running"] + lists["finished"]}


async def create_games(url: str, games: int) -> dict[str, int]:
    """`games` computer-only games, each with its first decision pending."""
    async with httpx.AsyncClient(base_url=url, timeout=120) as http:
        await wait_ready(http)
        for i in range(games):
            table = {"game": "cardboard-machines", "seats": ["random", "random"], "seed": i}
            assert (await http.post("/api/games", json=table)).status_code == 201
        return await game_versions(http)


async def wait_resumed(url: str, before: dict[str, int], limit: float) -> float:
    """Seconds (from now) until the server answers, then until every game has moved past
    its version at the kill; returns the second."""
    start = time.monotonic()
    async with httpx.AsyncClient(base_url=url, timeout=120) as http:
        await wait_ready(http)
        while time.monotonic() - start < limit:
            now = await game_versions(http)
            if all(now.get(g, 0) > v for g, v in before.items()):
                return time.monotonic()
            await asyncio.sleep(0.1)
    raise SystemExit(f"Not every game resumed within {limit} s.")


def measure_resume(games: int, database: str | None, workers: int, processes: int) -> dict[str, Any]:
    """Start the servers with `games` games whose computer seats wait (a long pace), kill -9
    them all, start them again, and time until every game has moved again."""
    with scratch_database(database) as scratch:
        server = Server(scratch, workers, processes, pace=600.0)
        try:
            before = asyncio.run(create_games(server.url, games))
        finally:
            server.kill()
        started = time.monotonic()
        server = Server(scratch, workers, processes)
        try:
            resumed = asyncio.run(wait_resumed(server.url, before, 300.0))
        finally:
            server.stop()
    return {"resume_games": len(before), "resume_seconds": round(resumed - started, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="games played at once (default 50)")
    parser.add_argument(
        "--seconds", type=float, default=30.0, help="how long to keep them going (default 30)"
    )
    parser.add_argument("--database", help="a SQLite file or a database URL (default: a fresh SQLite file)")
    parser.add_argument("--workers", type=int, default=2, help="the server's computer-player processes")
    parser.add_argument("--think", type=float, default=0.0, help="a person's mean pause before acting, s")
    parser.add_argument("--processes", type=int, default=1, help="server processes (serve --workers)")
    parser.add_argument("--actions", type=int, help="stop once the people made this many actions")
    parser.add_argument(
        "--act",
        choices=("socket", "http"),
        default="socket",
        help="how the people act: on their WebSocket, as the game page does (default), or a POST each",
    )
    parser.add_argument(
        "--no-table",
        dest="table_news",
        action="store_false",
        help="the people's hello does not ask for the table's news (the game page's does)",
    )
    parser.add_argument(
        "--resume", type=int, default=0, help="also time the restart of a killed server with this many games"
    )
    args = parser.parse_args()
    if not 1 <= args.games <= 500 or not 0 < args.seconds <= 600 or not 0 <= args.think <= 10:
        parser.error("keep it bounded: 1-500 games, at most 600 seconds, a pause of at most 10 s")
    if not 1 <= args.processes <= 8 or not 0 <= args.resume <= 200:
        parser.error("keep it bounded: 1-8 server processes, at most 200 games to resume")
    figures = measure(
        args.games,
        args.seconds,
        args.database,
        args.workers,
        args.think,
        args.processes,
        args.actions,
        args.act,
        args.table_news,
    )
    if args.resume:
        figures |= measure_resume(args.resume, args.database, args.workers, args.processes)
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
