"""What the page is told of the table (issue 50), beside the game's own view: the rules the
table chose, how the game ended, who plays each seat now and why, since when an absent
person is awaited, and the rematch. Nothing in it comes from a seat's hidden information."""

from __future__ import annotations

import functools
import json
from dataclasses import asdict
from typing import Any
from urllib.parse import urlencode

from chaosgames.web.absences import waiting_since
from chaosgames.web.clocks import clock_view
from chaosgames.web.endings import ending_view, is_person, resigned
from chaosgames.web.live import HUMAN, LiveGame


def seat_line(live: LiveGame, seat: int) -> dict[str, Any]:
    last = next((c for c in reversed(live.table.changes) if c.seat == seat), None)
    return {
        "seat": seat,
        "person": is_person(live, seat),
        "played_by": live.seats[seat],
        "resigned": resigned(live, seat),
        "handed": is_person(live, seat) and live.seats[seat] != HUMAN,
        "why": None if last is None else last.why,
        "waiting_since": waiting_since(live, seat),
    }


def table_view(live: LiveGame) -> dict[str, Any]:
    """The table's part of every viewer's view (the same for all of them)."""
    return {
        "rules": asdict(live.table.rules),
        "ending": ending_view(live),
        "seats": [seat_line(live, s) for s in range(len(live.seats))],
        "rematch": {"offers": sorted(live.table.offers), "game": live.table.rematch},
        "new_game": new_game_query(live),
        "clock": clock_view(live),
    }


def new_game_query(live: LiveGame) -> str:
    """The lobby's form filled in with this game's settings ("New game with these settings")."""
    options = {k: v for k, v in live.game.options.items() if k != "players"}
    seats = [HUMAN if live.token_hashes[s] is not None else who for s, who in enumerate(live.seats)]
    query = {"game": live.game.name, "seats": ",".join(seats), "options": json.dumps(options)}
    rules = live.table.rules
    if rules.patience is not None:
        query["patience"] = f"{rules.patience:g}"
    if rules.clock is not None:
        query.update(
            clock=f"{rules.clock:g}", increment=f"{rules.increment:g}", out_of_time=rules.out_of_time
        )
    if "takebacks" in live.meta:  # see `undo`: only a table's choice other than the default
        query["takebacks"] = str(live.meta["takebacks"])
    return _query(tuple(query.items()))


@functools.lru_cache(maxsize=1024)
def _query(pairs: tuple[tuple[str, str], ...]) -> str:
    # Encoded once for a table's settings (every view of every move carries it).
    return "/?" + urlencode(pairs)
