"""The replay viewer's positions: any position of a record, shown in full.

A record holds every action, chance outcomes included, so its replay shows everything
(`reveal=True`): face-down cards too. The server therefore replays a game of a game with
hidden information only once it is over (see `app`). Positions are rebuilt from
checkpoints kept every few actions, for the few records viewed last.
"""

from __future__ import annotations

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

CHECKPOINT_EVERY = 50
CACHED_RECORDS = 8


class Replay:
    """A record, checked action by action, with a copy of its state every few actions."""

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        self.game: Game = record.load_game()
        state = self.game.new_initial_state()
        names = self.game.player_names()
        self.checkpoints: list[State] = [state.clone()]
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
            if actor >= 0 and actor != decider:
                turn, decider = turn + 1, actor
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

    def state_at(self, at: int) -> State:
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
        start = at
        while start > 0 and self.log[start - 1]["turn"] == turn:
            start -= 1
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
        key = hashlib.sha256(json.dumps(record.to_json(), sort_keys=True).encode()).hexdigest()
        replay = self._replays.pop(key, None)
        if replay is None:
            replay = Replay(record)
        self._replays[key] = replay
        while len(self._replays) > self.size:
            self._replays.popitem(last=False)
        return replay
