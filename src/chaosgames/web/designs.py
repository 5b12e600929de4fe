"""Designs: a Chaos Cruisers course or a Cardboard Machines track, checked, pictured, saved.

A design is an ordinary value of its game's option (`course`, `boards`): the check is the
game's own (`load_game` with that option), so the editor, the lobby, the command line and
the lab refuse the same designs with the same sentences. Where a sentence is about a place
(a tile, a gate, a board), the game's check names it (`InvalidOptionError.places`, in the
picture's `data-place` names) and the editor marks it. The picture is the game's own SVG of
the position before the first cruiser or car is placed.

Saved designs are rows of the `designs` table: a name (unique within its game), the game
and the option's value as JSON. Anyone may save one; nobody may change one (a link to a
design always shows what it showed).
"""

from __future__ import annotations

import functools
import json
import secrets
import time
from dataclasses import asdict, dataclass
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

import chaosgames
from chaosgames.core.errors import ChaosGamesError, InvalidOptionError
from chaosgames.core.game import State
from chaosgames.web.database import Database
from chaosgames.web.errors import Conflict, NotFound, Unprocessable
from chaosgames.web.tables import designs_table

DESIGNED: dict[str, str] = {"chaos-cruisers": "course", "cardboard-machines": "boards"}
"""The games a person designs in the browser, and the option a design is a value of."""
PRESET_COURSES = ("grand-loop", "figure-eight", "chicane")
"""The course option's preset names (its documentation lists them)."""
PRESET_TRACKS: dict[str, Any] = {
    # The game shuffles its track; these two are tracks to start from (the first is the one
    # the rules ledger's examples use).
    "boards 2, 0, 1, 3, 4, 5": [2, 0, 1, 3, 4, 5],
    "boards 8, 0, 7, 6, 5, 4": [8, 0, 7, 6, 5, 4],
}
NAME_LENGTH = 60
LIST_LIMIT = 200


@dataclass(frozen=True)
class Checked:
    """What the game's check said of a design: its value as the game keeps it (None when
    refused), the problem with the places it points at, and the game's picture."""

    value: Any
    problems: list[dict[str, Any]]
    svg: str | None

    def answer(self) -> dict[str, Any]:
        return {"ok": not self.problems, "value": self.value, "problems": self.problems, "svg": self.svg}


def option_of(game: str) -> str:
    """The option a design of `game` is a value of (Unprocessable for other games)."""
    try:
        return DESIGNED[game]
    except KeyError:
        raise Unprocessable(
            f"There is no designer for {game!r}; designs are made for {', '.join(sorted(DESIGNED))}."
        ) from None


def check(game: str, value: Any, players: int | None = None) -> Checked:
    """The game's own check of `value` as its design option, and the picture of a good one."""
    option = option_of(game)
    given: dict[str, Any] = {option: value}
    if players is not None:
        given["players"] = players
    try:
        loaded = chaosgames.load_game(game, **given)
    except InvalidOptionError as exc:
        return Checked(None, [{"message": str(exc), "places": list(exc.places)}], None)
    except ChaosGamesError as exc:
        return Checked(None, [{"message": str(exc), "places": []}], None)
    state = laid_out(loaded.new_initial_state())
    return Checked(loaded.options[option], [], loaded.render_svg(state, None, legend=False))


def laid_out(state: State[Any]) -> State[Any]:
    """The position once the course or track is on the table: chance nodes before the first
    decision (Cardboard Machines' starting player, who lays the given track) take their
    first outcome."""
    for _ in range(8):
        if state.current_player() != chaosgames.CHANCE:
            break
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def clean_name(name: str) -> str:
    name = " ".join(name.split())
    if not 1 <= len(name) <= NAME_LENGTH:
        raise Unprocessable(f"A design's name has 1 to {NAME_LENGTH} characters, not {len(name)}.")
    return name


def design_link(game: str, design_id: str) -> str:
    return f"/design/{game}/{design_id}"


def summary(row: Any) -> dict[str, Any]:
    return {
        "id": row.id,
        "game": row.game,
        "name": row.name,
        "value": json.loads(row.value),
        "link": design_link(row.game, row.id),
        "created": row.created,
    }


def save(db: Database, game: str, name: str, value: Any) -> dict[str, Any]:
    """Save a design the game's check takes (Unprocessable with its sentence if not); its
    name must be new in its game (Conflict). A course carries its name inside as well."""
    name = clean_name(name)
    if DESIGNED.get(game) == "course" and isinstance(value, str):
        value = presets(game).get(value, value)  # a preset saved under a name of its own
    if DESIGNED.get(game) == "course" and isinstance(value, dict):
        value = {**value, "name": name}
    checked = check(game, value)
    if checked.problems:
        raise Unprocessable(checked.problems[0]["message"], places=checked.problems[0]["places"])
    row = _Row(secrets.token_hex(6), game, name, json.dumps(checked.value), time.time())
    try:
        with db.writing() as conn:
            conn.execute(insert(designs_table).values(**asdict(row)))
    except IntegrityError:
        raise Conflict(f"A design of {game} is called {name!r} already; choose another name.") from None
    return summary(row)


@dataclass(frozen=True)
class _Row:
    id: str
    game: str
    name: str
    value: str
    created: float


def load(db: Database, design_id: str) -> dict[str, Any]:
    with db.engine.connect() as conn:
        row = conn.execute(select(designs_table).where(designs_table.c.id == design_id)).first()
    if row is None:
        raise NotFound(f"There is no saved design {design_id!r}.")
    return summary(row)


def by_name(db: Database, game: str, name: str) -> dict[str, Any] | None:
    """The saved design of `game` called `name` (spaces as saved), if any."""
    table = designs_table
    with db.engine.connect() as conn:
        row = conn.execute(
            select(table).where(table.c.game == game, table.c.name == " ".join(name.split()))
        ).first()
    return None if row is None else summary(row)


def listed(db: Database, game: str | None = None) -> list[dict[str, Any]]:
    """Saved designs, newest first (of one game, or of all)."""
    query = select(designs_table).order_by(designs_table.c.created.desc()).limit(LIST_LIMIT)
    if game is not None:
        query = query.where(designs_table.c.game == game)
    with db.engine.connect() as conn:
        return [summary(row) for row in conn.execute(query)]


@functools.cache
def presets(game: str) -> dict[str, Any]:
    """The ready-made designs a designer may start from, by name."""
    option_of(game)
    if game == "chaos-cruisers":
        # The game keeps a preset's document as `course_doc`: the editor starts from it.
        return {name: chaosgames.load_game(game, course=name).course_doc for name in PRESET_COURSES}  # type: ignore[attr-defined]
    return PRESET_TRACKS


def offered(game: str, saved: list[dict[str, Any]]) -> dict[str, Any]:
    """What the lobby's new-game form offers for the design option of `game`: the option's
    name, the presets and the saved designs (name and value as the option's JSON text)."""
    option = option_of(game)
    choices = [
        {"label": f"preset: {name}", "text": name if option == "course" else json.dumps(value)}
        for name, value in presets(game).items()
    ]
    choices += [
        {"label": f"saved: {d['name']}", "text": json.dumps(d["value"])} for d in saved if d["game"] == game
    ]
    return {"option": option, "choices": choices}
