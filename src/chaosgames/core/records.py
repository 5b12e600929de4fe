"""Game records: who played what, with every action (chance outcomes included) as text.

A record replays exactly because all randomness in a game is explicit chance outcomes,
which the record holds like any other action.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chaosgames.core.errors import ChaosGamesError, RecordError
from chaosgames.core.game import ENDINGS, Action, Game, State
from chaosgames.core.registry import load_game

FORMAT = "chaosgames-record"
VERSION = 1


@dataclass
class GameRecord:
    """Game name, options, player labels, action notations and the result."""

    game: str
    options: dict[str, Any]
    players: list[str]
    actions: list[str] = field(default_factory=list)
    result: list[float] | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    ended_by: str | None = None
    """How the game ended (`State.ended_by()`): "rules", "cap" (a length cap, not a
    rule), or None for an unfinished game or a record older than the field."""

    @classmethod
    def start(cls, game: Game, players: list[str], **meta: Any) -> GameRecord:
        """An empty record for a new game of `game`."""
        return cls(game.name, dict(game.options), list(players), meta=dict(meta))

    def append(self, action: Action) -> None:
        self.actions.append(str(action))

    def finish(self, state: State) -> None:
        """Store the result of a finished (or abandoned) game and how it ended."""
        over = state.is_terminal()
        self.result = list(state.returns()) if over else None
        self.ended_by = state.ended_by() if over else None

    def load_game(self) -> Game:
        return load_game(self.game, **self.options)

    def replay(self, upto: int | None = None) -> State:
        """The state after the first `upto` actions (all by default), checking each one."""
        game = self.load_game()
        state = game.new_initial_state()
        for number, text in enumerate(self.actions[:upto], start=1):
            try:
                state.apply_action(game.parse_action(state, text))
            except ChaosGamesError as exc:
                raise RecordError(
                    f"Action {number} of the record, {text!r}, does not replay: {exc}"
                ) from None
        return state

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "options": self.options,
            "players": self.players,
            "actions": self.actions,
            "result": self.result,
            "ended_by": self.ended_by,
            "meta": self.meta,
        }

    @classmethod
    def from_json(cls, doc: Any) -> GameRecord:
        """A record from `to_json()` output (a dict or JSON text); RecordError if malformed."""
        if isinstance(doc, str | bytes):
            try:
                doc = json.loads(doc)
            except json.JSONDecodeError as exc:
                raise RecordError(f"The record is not valid JSON: {exc}.") from None
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise RecordError("This is not a chaosgames record (its 'format' is not 'chaosgames-record').")
        try:
            record = cls(
                game=_typed(doc, "game", str),
                options=_typed(doc, "options", dict),
                players=[str(p) for p in _typed(doc, "players", list)],
                actions=[_action_text(a) for a in _typed(doc, "actions", list)],
                result=doc.get("result"),
                meta=doc.get("meta") or {},
                ended_by=_ending(doc.get("ended_by")),
            )
        except (TypeError, ValueError) as exc:
            raise RecordError(f"The record is malformed: {exc}") from None
        return record

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"Cannot read the record {str(path)!r}: {exc.strerror}.") from None
        return cls.from_json(text)


def _typed(doc: dict[str, Any], key: str, kind: type) -> Any:
    value = doc.get(key)
    if not isinstance(value, kind):
        raise TypeError(f"field {key!r} should be a {kind.__name__}")
    return value


def _ending(value: Any) -> str | None:
    # Records written before the field have none: they still load.
    if value is not None and value not in ENDINGS:
        raise ValueError(f"field 'ended_by' should be one of {', '.join(ENDINGS)} or null, not {value!r}")
    return value  # type: ignore[no-any-return]


def _action_text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError("every action must be a string of notation")
    return value
