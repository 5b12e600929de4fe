"""Test it: a design played by computer players on the server, beside a preset.

A trial plays `games` games of the design at the easy level and as many of a preset, with
the same seeds, in one worker process of its own (`workers.Worker`, at the workers' lower
priority), never on the event loop, a few games per call so that the page sees progress.
Each call has a time limit (a call past it stops the trial with the games it has) and the
whole trial a budget of games: at most MAX_GAMES a design, one trial running at a time, a
few waiting, one per client address (429 beyond, with when to try again).

Figures (`figures`): the length in rounds, the share of games that finished by the rules
(not by the length cap a trial puts on them), each seat's share of the wins with its Wilson
interval (`sim.stats.wilson`), how the games ended, and, for a course, where cruisers went
out of bounds (crash), rammed, or waited at speed 0 (a heat map of squares). The events
are read from the game through the contract (`action_group`, `action_places`, the public
observation), not kept by the engine.
"""

from __future__ import annotations

import asyncio
import secrets
import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import chaosgames
from chaosgames import agents
from chaosgames.core.game import Action, Game, State
from chaosgames.sim.endings import describe_finish
from chaosgames.sim.match import play_match
from chaosgames.sim.stats import wilson
from chaosgames.web.errors import NotFound, TooMany
from chaosgames.web.workers import Overrun, Worker, WorkerDied

MAX_GAMES = 100
CHUNK = 5
"""Games a worker call plays: the page's progress moves at least this often."""
CHUNK_LIMIT = 240.0
"""Seconds a call may take (five easy games of a long race take a minute on a busy machine)."""
WAITING = 3
"""Trials that may wait for the one running; more are answered 429."""
BUSY_RETRY = 60.0
LEVEL = "easy"
CAPS: dict[str, dict[str, int]] = {
    "chaos-cruisers": {"max_rounds": 200},
    "cardboard-machines": {"max_turns": 400},
}
"""A trial's games end at this length cap (not a rule: the share that reach it is said)."""
KEPT = 50
"""Finished trials kept for their pages to read."""


class Events:
    """Where cruisers crash, ram and wait, read as a game is played (the `on_action` hook)."""

    def __init__(self) -> None:
        self.places: list[tuple[str, str]] = []
        self._waiting: tuple[str, str] | None = None

    def __call__(self, state: State[Any], action: Action) -> None:
        game = state.game
        if self._waiting is not None:  # the last speed choice: did it leave speed 0?
            colour, square = self._waiting
            self._waiting = None
            if _cruiser(state, colour).get("speed") == 0:
                self.places.append(("wait", square))
        if state.current_player() < 0:
            return
        heading = game.action_group(state, action)[1]
        if heading == "Rams":
            self.places += [("ram", place) for place in game.action_places(state, action)]
        elif heading == "Out of bounds":
            self.places.append(("crash", _deciding_square(state)))
        elif heading.startswith("Speed"):
            self._waiting = (_deciding_colour(state), _deciding_square(state))


def _deciding_colour(state: State[Any]) -> str:
    doc = state.observation(None)
    return str(doc["order"][doc["turn"]])


def _cruiser(state: State[Any], colour: str) -> dict[str, Any]:
    found: dict[str, Any] = next(c for c in state.observation(None)["cruisers"] if c["colour"] == colour)
    return found


def _deciding_square(state: State[Any]) -> str:
    square = _cruiser(state, _deciding_colour(state)).get("square")
    return "" if square is None else f"{square[0]},{square[1]}"


def play_games(game_name: str, options: dict[str, Any], seeds: list[int]) -> list[dict[str, Any]]:
    """Play one game a seed at the easy level (runs in the worker)."""
    game = chaosgames.load_game(game_name, **options, **CAPS.get(game_name, {}))
    return [_one_game(game, seed) for seed in seeds]


def _one_game(game: Game[Any, Any], seed: int) -> dict[str, Any]:
    players = [agents.from_spec(LEVEL, seed=seed * 10 + p, game=game.name) for p in range(game.num_players)]
    events = Events() if game.name == "chaos-cruisers" else None
    played = play_match(game, players, seed, on_action=events)
    result = played.result
    return {
        "rounds": result.rounds,
        "by_rules": result.ending == "rules",
        "finish": describe_finish(played.state, result.ending),
        "returns": result.returns,
        "events": [] if events is None else [list(e) for e in events.places if e[1]],
    }


def figures(games: list[dict[str, Any]], players: int) -> dict[str, Any]:
    """What a page shows of a trial's games (see the module's docstring)."""
    n = len(games)
    rounds = [g["rounds"] for g in games]
    finished = sum(g["by_rules"] for g in games)
    seats = []
    for seat in range(players):
        wins = sum(g["returns"][seat] for g in games if g["returns"] is not None)
        low, high = wilson(wins, n)
        seats.append(
            {"seat": seat + 1, "wins": wins, "share": wins / n if n else 0.0, "low": low, "high": high}
        )
    heat: dict[str, Counter[str]] = {}
    for g in games:
        for kind, place in g["events"]:
            heat.setdefault(place, Counter())[kind] += 1
    low, high = wilson(finished, n)
    return {
        "games": n,
        "rounds": {
            "mean": statistics.fmean(rounds) if rounds else None,
            "median": statistics.median(rounds) if rounds else None,
            "least": min(rounds, default=None),
            "most": max(rounds, default=None),
        },
        "completion": {"finished": finished, "share": finished / n if n else 0.0, "low": low, "high": high},
        "seats": seats,
        "endings": dict(Counter(g["finish"] for g in games).most_common()),
        "heat": [{"place": place, **dict(counts)} for place, counts in sorted(heat.items())],
    }


@dataclass
class Trial:
    """One trial: a design and a preset, played and counted as the games come in."""

    id: str
    game: str
    client: str
    options: dict[str, Any]
    preset: dict[str, Any]
    games: int
    players: int
    played: dict[str, list[dict[str, Any]]] = field(default_factory=lambda: {"design": [], "preset": []})
    status: str = "waiting"
    note: str | None = None

    def answer(self) -> dict[str, Any]:
        done = len(self.played["design"]) + len(self.played["preset"])
        return {
            "id": self.id,
            "status": self.status,
            "note": self.note,
            "done": done,
            "total": 2 * self.games,
            "level": LEVEL,
            "design": figures(self.played["design"], self.players),
            "preset": figures(self.played["preset"], self.players),
        }


class Trials:
    """The trials of one server: one running at a time in a worker process of its own."""

    def __init__(self, kind: str = "process") -> None:
        self.worker = Worker(kind)
        self.trials: dict[str, Trial] = {}
        self._turn = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()

    def start(
        self, game: str, options: dict[str, Any], preset: dict[str, Any], games: int, client: str
    ) -> Trial:
        """A new trial of `options` (the design's) beside `preset`, queued; TooMany when the
        client has one unfinished or too many wait."""
        unfinished = [t for t in self.trials.values() if t.status in ("waiting", "running")]
        if any(t.client == client for t in unfinished):
            raise TooMany("A test of yours is still running; wait for it to finish.", BUSY_RETRY)
        if len(unfinished) > WAITING:
            raise TooMany("The server is testing other designs; try again in a minute.", BUSY_RETRY)
        players = int(options.get("players", chaosgames.load_game(game).num_players))
        trial = Trial(secrets.token_hex(6), game, client, options, preset, min(games, MAX_GAMES), players)
        self.trials[trial.id] = trial
        self._forget_old()
        task = asyncio.get_running_loop().create_task(self._run(trial))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return trial

    def get(self, trial_id: str) -> Trial:
        try:
            return self.trials[trial_id]
        except KeyError:
            raise NotFound(
                f"There is no test {trial_id!r} on this server (tests are kept a while)."
            ) from None

    async def _run(self, trial: Trial) -> None:
        async with self._turn:
            trial.status = "running"
            try:
                for start in range(0, trial.games, CHUNK):
                    seeds = list(range(start + 1, min(start + CHUNK, trial.games) + 1))
                    for which, options in (("design", trial.options), ("preset", trial.preset)):
                        trial.played[which] += await self._call(trial.game, options, seeds)
            except Overrun:
                trial.note = f"Some games took over {CHUNK_LIMIT:g} s; the test stopped with what it had."
            except Exception as exc:  # a game's own error: said on the page, the server goes on
                trial.note = f"The test stopped: {exc}"
            trial.status = "finished"

    async def _call(self, game: str, options: dict[str, Any], seeds: list[int]) -> list[dict[str, Any]]:
        try:
            return await self.worker.call(play_games, game, options, seeds, limit=CHUNK_LIMIT)
        except WorkerDied:
            return await self.worker.call(play_games, game, options, seeds, limit=CHUNK_LIMIT)

    def _forget_old(self) -> None:
        finished = [t for t in self.trials.values() if t.status == "finished"]
        for old in finished[: max(0, len(finished) - KEPT)]:
            del self.trials[old.id]

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        self.worker.kill()
