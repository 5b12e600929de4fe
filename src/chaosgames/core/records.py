"""Game records: who played what, with every action (chance outcomes included) as text.

A record replays exactly because all randomness in a game is explicit chance outcomes,
which the record holds like any other action.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import chaosgames.core.safejson as safejson
from chaosgames.core.document import Anything, Choice, Default, Dict, List, Nullable, Number, Object, Str
from chaosgames.core.errors import ChaosGamesError, RecordError, describe_exception, quote
from chaosgames.core.game import ENDINGS, Action, Game, State
from chaosgames.core.registry import list_games, load_game

FORMAT = "chaosgames-record"
VERSION = 1

_TEXT = Str(max_length=1000)
RECORD = Object(
    {
        "format": Choice([FORMAT]),
        "version": Default(Choice([VERSION]), VERSION),
        "game": Str(max_length=100),
        "options": Dict(_TEXT, Anything()),
        "players": List(_TEXT),
        "actions": List(_TEXT),
        "result": Default(Nullable(List(Number())), None),
        "meta": Default(Dict(_TEXT, Anything()), {}),
        # Records written before the field have none: they still load.
        "ended_by": Default(Nullable(Choice(ENDINGS)), None),
    },
    # Fields added by later versions of chaosgames are left alone, not refused.
    strict=False,
)
"""The record document (see docs/contract.md)."""


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
    def start(cls, game: Game[Any, Any], players: list[str], **meta: Any) -> GameRecord:
        """An empty record for a new game of `game`."""
        return cls(game.name, dict(game.options), list(players), meta=dict(meta))

    def append(self, action: Action) -> None:
        self.actions.append(str(action))

    def finish(self, state: State[Any]) -> None:
        """Store the result of a finished (or abandoned) game and how it ended."""
        over = state.is_terminal()
        self.result = list(state.returns()) if over else None
        self.ended_by = state.ended_by() if over else None

    def load_game(self) -> Game[Any, Any]:
        """The game the record was played with; RecordError when it cannot be loaded."""
        try:
            return load_game(self.game, **self.options)
        except ChaosGamesError as exc:
            raise RecordError(f"The record's game cannot be loaded: {exc}") from None

    def replay(
        self, upto: int | None = None, on_action: Callable[[int, State[Any], Action], None] | None = None
    ) -> State[Any]:
        """The state after the first `upto` actions (all by default), checking each one.

        `on_action(number, state, action)` is called before each action is applied (to
        show the game as it is replayed). A record that does not replay raises RecordError
        naming the first action that fails, or that `upto` is none of 0 .. the number of
        actions.
        """
        count = len(self.actions)
        if upto is not None and not (type(upto) is int and 0 <= upto <= count):
            raise RecordError(
                f"A record of {count} actions replays up to 0-{count} of them, not {quote(upto)}."
            )
        game = self.load_game()
        state: State[Any] = game.new_initial_state()
        for number, text in enumerate(self.actions[:upto], start=1):
            try:
                action = game.parse_action(state, text)
                if on_action is not None:
                    on_action(number, state, action)
                state.apply_action(action)
            except ChaosGamesError as exc:
                raise RecordError(
                    f"Action {number} of the record, {quote(text)}, does not replay: {exc}"
                ) from None
            except Exception as exc:  # a bug in a game must not look like a crash of the reader
                raise RecordError(
                    f"Action {number} of the record, {quote(text)}, could not be replayed "
                    f"({describe_exception(exc)})."
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
        """A record from `to_json()` output (a dict, or its JSON text or bytes); RecordError if
        it is malformed: not JSON, not a record, a version this chaosgames does not read, or a
        field of the wrong kind (the result must be null or one finite number per player)."""
        if isinstance(doc, str | bytes | bytearray):
            doc = safejson.loads(doc, what="record", error=RecordError)
        else:
            safejson.check(doc, what="record", error=RecordError)
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise RecordError("This is not a chaosgames record (its 'format' is not 'chaosgames-record').")
        fields = RECORD.read(doc, prefix="The record is malformed: ", error=RecordError)
        result = fields["result"]
        if result is not None and len(result) != len(fields["players"]):
            raise RecordError(
                f"The record is malformed: result must hold one number per player "
                f"({len(fields['players'])}), not {len(result)}."
            )
        return cls(
            game=fields["game"],
            options=fields["options"],
            players=fields["players"],
            actions=fields["actions"],
            result=result,
            meta=fields["meta"],
            ended_by=fields["ended_by"],
        )

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the record as JSON; RecordError when the file cannot be written."""
        text = json.dumps(self.to_json(), indent=1) + "\n"
        try:
            Path(path).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise RecordError(
                f"Cannot write the record to {quote(str(path))}: {exc.strerror or exc}."
            ) from None
        except ValueError as exc:  # a path with a NUL character, say
            raise RecordError(f"Cannot write the record to {quote(str(path))}: {exc}.") from None

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> GameRecord:
        """A record from a file; RecordError when it cannot be read or is malformed."""
        return cls.from_json(safejson.load_file(path, what="record", error=RecordError))


# -- other tools' record formats (PDN for checkers ...) ------------------------------------


@dataclass(frozen=True)
class RecordFormat:
    """A format of another tool that records travel to and from (`chaosgames export` and
    `import`): a game package registers one where its game has one (Chaos Checkers: PDN)."""

    name: str
    summary: str
    write: Callable[[list[GameRecord]], str]
    """Records as the format's text."""
    read: Callable[[str], list[GameRecord]]
    """Every game of a text of the format as a record (a RecordError names what fails)."""


_FORMATS: dict[str, RecordFormat] = {}


def register_format(form: RecordFormat) -> RecordFormat:
    """Make a record format known by its name (a game package does it when imported)."""
    _FORMATS[form.name] = form
    return form


def record_format(name: str) -> RecordFormat:
    """The record format called `name`, of whichever game brings it; RecordError if none."""
    list_games()  # every game package imported, so that each has registered its formats
    try:
        return _FORMATS[name]
    except KeyError:
        known = ", ".join(sorted(_FORMATS)) or "none"
        raise RecordError(f"There is no record format {quote(name)}; the formats are {known}.") from None
