"""One two-person Chaos Checkers game as issue 51 measured it: the server's CPU per move.

Issue 51 ("A move costs the server ten times less") opened with one figure: in a
two-person Chaos Checkers game played through the API, with both seats on WebSockets, a
move cost the server 15.7 ms of CPU (the POST, its answer, and both seats' views). This
benchmark takes that measurement again, on one server with no other load: it starts
`chaosgames serve`, opens both seats' WebSockets as the game page does (patches and the
table's news asked for; a server that knows neither sends whole views), and plays
seeded random moves, each by the seat whose turn it is, by POST (`--act http`, the
issue's way) or on the seat's socket (`--act socket`, the page's way), waiting after each
until both seats have seen it. Games follow one another until `--moves` moves are made.

It prints the server's CPU milliseconds per committed action (every process of the
server, read from /proc, over the versions the games advanced: the draws the server makes
count as actions, as in `benchmarks/server.py`) and per person's move, and the bytes each
seat was sent per move.

    PYTHONPATH=src python benchmarks/server_two_seats.py --moves 300 --act http
    PYTHONPATH=src python benchmarks/server_two_seats.py --moves 300 --act socket
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from server import Reader, Sent, Server, cpu_seconds, wait_quiet, wait_ready
from websockets.asyncio.client import connect

TABLE = {"game": "chaos-checkers", "seats": ["human", "human"]}


async def play(url: str, group: int, moves: int, over: str, seed: int) -> dict[str, Any]:
    """Games of two people until `moves` moves are made, after a first game of a few moves
    that warms the server up (its first game of a kind imports the game); the figures."""
    rng = random.Random(seed)
    sent = Sent()
    made = served = 0
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        await wait_ready(http)
        await wait_quiet(group)
        warm_up = (await http.post("/api/games", json={**TABLE, "seed": rng.randrange(2**31)})).json()
        await play_one(url, http, warm_up, 4, over, rng, Sent())
        before, started = cpu_seconds(group), time.monotonic()
        while made < moves:
            created = (await http.post("/api/games", json={**TABLE, "seed": rng.randrange(2**31)})).json()
            game_made, game_served = await play_one(url, http, created, moves - made, over, rng, sent)
            made, served = made + game_made, served + game_served
        elapsed, after = time.monotonic() - started, cpu_seconds(group)
    return {"moves": made, "actions_served": served, "seconds": elapsed, "sent": sent, "cpu": (before, after)}


async def play_one(
    url: str,
    http: httpx.AsyncClient,
    created: dict[str, Any],
    moves: int,
    over: str,
    rng: random.Random,
    sent: Sent,
) -> tuple[int, int]:
    """One game, both seats on their sockets: (moves made, versions the game advanced)."""
    ws_url = url.replace("http", "ws", 1) + f"/api/games/{created['id']}/ws"
    tokens = [seat["token"] for seat in created["seats"]]
    async with connect(ws_url, max_size=2**24) as first, connect(ws_url, max_size=2**24) as second:
        readers: list[Reader] = []
        for ws, token in zip((first, second), tokens, strict=True):
            await ws.send(json.dumps({"token": token, "patches": True, "table": True}))
            reader = Reader(ws, await whole_view(ws, sent), sent)
            readers.append(reader)
        start = readers[0].view["version"]
        made = 0
        while made < moves and readers[0].view["status"] != "finished":
            seat = readers[0].view["to_act"]
            reader = readers[seat]
            decided = reader.view["version"]
            action = rng.choice(reader.view["legal"])["notation"]
            if over == "socket":
                status = await reader.act(action, decided)
            else:
                status = await post(http, created["id"], tokens[seat], action, decided, sent)
            if status != 200:
                raise SystemExit(f"An action was refused ({status}).")
            made += 1
            for each in readers:  # both seats see the move (and any draws after it)
                while each.view["version"] <= decided or each.view["to_act"] not in (0, 1, None):
                    await each.take()
            await settle(readers)
        return made, readers[0].view["version"] - start


async def post(http: httpx.AsyncClient, game_id: str, token: str, action: str, at: int, sent: Sent) -> int:
    """The action as a POST, asking the short answer (as the page does); its status."""
    headers = {"Authorization": f"Bearer {token}", "Prefer": "return=minimal"}
    body = {"action": action, "version": at}
    answer = await http.post(f"/api/games/{game_id}/actions", json=body, headers=headers)
    sent.answers.append(len(answer.content))
    return answer.status_code


async def whole_view(ws: Any, sent: Sent) -> dict[str, Any]:
    """The first view on a socket (a table's news that comes first is passed over)."""
    while True:
        text = await ws.recv()
        message = json.loads(text)
        if message.get("type") == "view":
            sent.whole.append(len(text))
            return dict(message["view"])


async def settle(readers: list[Reader]) -> None:
    """Read until both seats are at the same version (a draw the server made after a move
    reaches both)."""
    while readers[0].view["version"] != readers[1].view["version"]:
        behind = min(readers, key=lambda r: r.view["version"])
        await behind.take()


def measure(moves: int, over: str, seed: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(str(Path(tmp) / "bench.sqlite"), workers=1)
        try:
            run = asyncio.run(play(server.url, server.process.pid, moves, over, seed))
        finally:
            server.stop()
    before, after = run["cpu"]
    sent: Sent = run["sent"]
    cpu, leader = after[0] - before[0], after[1] - before[1]
    return {
        "moves": run["moves"],
        "actions_served": run["actions_served"],
        "act": over,
        "server_cpu_ms_per_action": round(1000 * cpu / run["actions_served"], 2),
        "server_process_cpu_ms_per_action": round(1000 * leader / run["actions_served"], 2),
        "server_cpu_ms_per_move": round(1000 * cpu / run["moves"], 2),
        "whole_view_bytes_p50": int(statistics.median(sent.whole)),
        "update_bytes_p50": int(statistics.median(sent.updates)) if sent.updates else None,
        "bytes_to_both_seats_per_move": round((sum(sent.updates) + sum(sent.answers)) / run["moves"]),
        "seconds": round(run["seconds"], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300, help="moves the two people make in all")
    parser.add_argument(
        "--act", choices=("http", "socket"), default="http", help="by POST (the issue's way) or on the socket"
    )
    parser.add_argument("--seed", type=int, default=51)
    args = parser.parse_args()
    if not 1 <= args.moves <= 100_000:
        raise SystemExit("--moves is from 1 to 100000.")
    print(json.dumps(measure(args.moves, args.act, args.seed), indent=1))


if __name__ == "__main__":
    main()
