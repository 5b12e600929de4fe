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
from typing import Any

from chaosgames.core.constants import CHANCE
from chaosgames.core.errors import ChaosGamesError, RecordError
from chaosgames.core.game import Game, State
from chaosgames.core.records import GameRecord

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
        for number, text in enumerate(record.actions, start=1):
            try:
                action = self.game.parse_action(state, text)
                actor = state.current_player()
                description = self.game.describe_action(state, action)
                state.apply_action(action)
            except ChaosGamesError as exc:
                raise RecordError(
                    f"Action {number} of the record, {text!r}, does not replay: {exc}"
                ) from None
            self.log.append(
                {
                    "seq": number,
                    "actor": actor,
                    "who": "chance" if actor == CHANCE else names[actor],
                    "notation": str(action),
                    "description": description,
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
            "svg": self.game.render_svg(state, reveal=True),
            "text": self.game.render_text(state, reveal=True),
        }


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
