"""The replay viewer's positions: any position of a record, shown in full.

A record holds every action, chance outcomes included, so its replay shows everything
(`reveal=True`): face-down cards too. The server therefore replays a game of a game with
hidden information only once it is over (see `app`). Positions are rebuilt from
checkpoints kept every few actions, for the few records viewed last.

Replaying a record of 20,000 actions takes a second of CPU: `Replays` does it in a worker
process (see `workers`), never on the server's event loop, with a time limit (a record
that takes longer is refused) and a short queue (beyond it the server says it is busy).
The worker keeps the replays it built, so stepping through a record costs a checkpoint
and at most CHECKPOINT_EVERY actions per position.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import OrderedDict
from dataclasses import asdict
from typing import Any

from chaosgames.core.constants import CHANCE
from chaosgames.core.errors import ChaosGamesError, RecordError
from chaosgames.core.game import Game, State
from chaosgames.core.records import GameRecord
from chaosgames.core.story import Told
from chaosgames.web.errors import TooMany, Unprocessable
from chaosgames.web.live import next_turn, story_start
from chaosgames.web.workers import Overrun, Worker, WorkerDied

CHECKPOINT_EVERY = 50
CACHED_RECORDS = 8
REPLAY_LIMIT = 10.0
"""Seconds a replay may take in the worker (the longest record allowed takes about one)."""
QUEUE = 8
"""Replays that may wait for the worker; more are answered 429 (the server is busy)."""
BUSY_RETRY = 5.0


class Replay:
    """A record, checked action by action, with a copy of its state every few actions."""

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        self.game: Game[Any, Any] = record.load_game()
        state = self.game.new_initial_state()
        names = self.game.player_names()
        self.checkpoints: list[State[Any]] = [state.clone()]
        self.log: list[dict[str, Any]] = []
        self.told: list[Told] = []
        turn, decider = 0, CHANCE
        for number, text in enumerate(record.actions, start=1):
            try:
                action = self.game.parse_action(state, text)
                actor = state.current_player()
                before = state.clone()
                state.apply_action(action)
                # The record shows everything (the game is over, or hides nothing): each
                # action is told as in its own turn.
                told = self.game.tell(before, action, state, None)
            except ChaosGamesError as exc:
                raise RecordError(
                    f"Action {number} of the record, {text!r}, does not replay: {exc}"
                ) from None
            turn = next_turn(self.game, before, action, turn, decider)
            decider = actor if actor >= 0 else decider
            self.told.append(told)
            self.log.append(
                {
                    "seq": number,
                    "actor": actor,
                    "who": "chance" if actor == CHANCE else names[actor],
                    "notation": str(action),
                    "description": told.now,
                    "turn": turn,
                }
            )
            if number % CHECKPOINT_EVERY == 0:
                self.checkpoints.append(state.clone())

    @property
    def count(self) -> int:
        return len(self.record.actions)

    def state_at(self, at: int) -> State[Any]:
        state = self.checkpoints[at // CHECKPOINT_EVERY].clone()
        for text in self.record.actions[at - at % CHECKPOINT_EVERY : at]:
            state.apply_action(self.game.parse_action(state, text))
        return state

    def summary(self) -> dict[str, Any]:
        return {
            "game": self.game.name,
            "title": self.game.title,
            "players": [
                {"seat": i, "name": name, "who": who}
                for i, (name, who) in enumerate(
                    zip(self.game.player_names(), self.record.players, strict=False)
                )
            ],
            "count": self.count,
            "log": self.log,
            "result": self.record.result,
            "ending": _ending(self.record.meta),
        }

    def frame(self, at: int) -> dict[str, Any]:
        if not 0 <= at <= self.count:
            raise RecordError(f"The record has positions 0 to {self.count}, not {at}.")
        state = self.state_at(at)
        return {
            "at": at,
            "count": self.count,
            "svg": self.game.render_svg(state, reveal=True, legend=False),
            "text": self.game.render_text(state, reveal=True),
            "legend": [
                {"title": section.title, "entries": [asdict(entry) for entry in section.entries]}
                for section in self.game.legend(state, None)
            ],
            "turn": self.turn_to(at),
        }

    def turn_to(self, at: int) -> dict[str, Any]:
        """The turn that ends at position `at` (see `live.Step.turn`): its events, the
        places they changed and the things they moved."""
        turn = self.log[at - 1]["turn"] if at else 0
        start = story_start([(e["turn"], e["actor"]) for e in self.log[:at]])
        events, places, moves = [], [], []
        for entry, told in zip(self.log[start:at], self.told[start:at], strict=True):
            events.append(
                {key: entry[key] for key in ("seq", "actor", "who", "notation")} | {"text": told.now}
            )
            places += [p for p in told.places if p not in places]
            moves += [list(m) for m in told.moves]
        return {"number": turn, "start": start, "events": events, "places": places, "moves": moves}


class ReplayCache:
    """The replays of the last few records asked for, by the record's content."""

    def __init__(self, size: int = CACHED_RECORDS) -> None:
        self.size = size
        self._replays: OrderedDict[str, Replay] = OrderedDict()

    def get(self, record: GameRecord) -> Replay:
        key = record_key(record)
        replay = self._replays.pop(key, None)
        if replay is None:
            replay = Replay(record)
        self._replays[key] = replay
        while len(self._replays) > self.size:
            self._replays.popitem(last=False)
        return replay


def record_key(record: GameRecord) -> str:
    return hashlib.sha256(json.dumps(record.to_json(), sort_keys=True).encode()).hexdigest()


_replays = ReplayCache()
"""The worker's replays (in the worker process; in thread mode, shared by the server's threads)."""


def replay_summary(doc: dict[str, Any]) -> str:
    """The move log of a record, as JSON (runs in the worker, which encodes it too: a long
    record's log is megabytes)."""
    return json.dumps(_replays.get(GameRecord.from_json(doc)).summary())


def replay_frame(doc: dict[str, Any], at: int) -> str:
    """A record's position after `at` actions, as JSON (runs in the worker)."""
    return json.dumps(_replays.get(GameRecord.from_json(doc)).frame(at))


class Replays:
    """Replays built in one worker process, one at a time, each within `limit` seconds."""

    def __init__(self, kind: str = "process", limit: float = REPLAY_LIMIT) -> None:
        self.worker = Worker(kind)
        self.limit = limit
        self._turn = asyncio.Lock()
        self._waiting = 0
        self._known: OrderedDict[str, None] = OrderedDict()

    def known(self, key: str) -> bool:
        """Whether the worker replayed the record `key` names lately (a position is then cheap)."""
        return key in self._known

    async def summary(self, record: GameRecord, key: str) -> str:
        """The record's move log as JSON; `key` names the record (see `known`)."""
        return await self._call(key, replay_summary, record.to_json())

    async def frame(self, record: GameRecord, at: int, key: str) -> str:
        """The record's position after `at` actions as JSON."""
        return await self._call(key, replay_frame, record.to_json(), at)

    async def _call(self, key: str, fn: Any, *args: Any) -> str:
        if self._waiting >= QUEUE:
            raise TooMany(
                "The server is busy replaying other records; try again in a few seconds.", BUSY_RETRY
            )
        self._waiting += 1
        try:
            async with self._turn:
                try:
                    answer: str = await self.worker.call(fn, *args, limit=self.limit)
                except WorkerDied:
                    answer = await self.worker.call(fn, *args, limit=self.limit)
        except Overrun:
            self._known.clear()  # the worker was replaced: it knows no replay any more
            raise Unprocessable(
                f"The record took more than {self.limit:g} s to replay on this server; it was given up."
            ) from None
        finally:
            self._waiting -= 1
        self._known[key] = None
        while len(self._known) > CACHED_RECORDS:
            self._known.popitem(last=False)
        return answer

    def stop(self) -> None:
        self.worker.kill()


def _ending(meta: dict[str, Any]) -> str | None:
    """How the table ended the game, if it did (`meta.ending` of this site's records)."""
    ending = meta.get("ending")
    sentence = ending.get("sentence") if isinstance(ending, dict) else None
    return sentence[:300] if isinstance(sentence, str) else None
