"""How a game ends at the table (issue 50): the rules' own end, a resignation, a win claimed
over an absent person, time; and the short story of a finished game for its game-over panel.

A game the table ends is not over for the engine (the contract's `returns` are the rules'):
the table's ending is stored beside it (`table_rows.end_game`, the games row's `result`
and an `endings` row, in one transaction) and the game's status, result, lobby line,
record (`meta.ending`) and view say so.

Resigning (docs/web.md, "Table rules"): in a game of two players the other player wins.
With more, the game goes on and a computer level (`TAKEOVER_LEVEL`) takes the resigned
seat for the rest of the game: no rulebook of ours has a player leave a race in the middle
(each game's ledger says so), and a seat played on keeps the race the others were in.
"""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any, Protocol

from chaosgames.core.game import Game
from chaosgames.sim.match import decided_at, lead_changes, lead_samples, winner_of
from chaosgames.web.errors import Conflict
from chaosgames.web.live import LiveGame
from chaosgames.web.seats import acting_seat
from chaosgames.web.stored import CLAIMED, RESIGNED, Ending, SeatChange
from chaosgames.web.table_rows import change_seat, end_game

TAKEOVER_LEVEL = "medium"
"""The computer level that takes a seat its person left (resigned, out of time, handed)."""


class Table(Protocol):
    """What the table's rules ask of the service (see `service.GameService`)."""

    store: Any

    def lock(self, game_id: str) -> Any: ...

    def keep(self, live: LiveGame) -> None: ...

    def changed(self, live: LiveGame) -> None: ...


def check_running(live: LiveGame) -> None:
    if live.over:
        raise Conflict("The game is over; nothing more can be played.", version=live.version)


async def finish(
    table: Table, live: LiveGame, returns: list[float], how: str, seat: int, sentence: str
) -> None:
    """End the game off the rules: committed, then the game's own."""
    ending = Ending(how, seat, sentence, time.time())
    ok = await asyncio.to_thread(end_game, table.store, live.id, live.version, returns, ending)
    if not ok:
        raise Conflict("The game changed meanwhile; look at the board again.", version=live.version)
    live.table.ending = ending
    live.table_seen += 1
    live.returns = returns
    live.thinking = None
    live.updated = ending.created
    live.table_changed()
    table.keep(live)


async def hand_over(table: Table, live: LiveGame, seat: int, who: str, why: str) -> None:
    """Give a seat to `who` (a computer level, or back to its person): committed first."""
    change = SeatChange(seat, who, why, live.version, time.time())
    ok = await asyncio.to_thread(change_seat, table.store, live.id, change)
    if not ok:
        raise Conflict("The game changed meanwhile; look at the board again.", version=live.version)
    live.seats[seat] = who
    live.table_seen += 1
    live.table.changes.append(change)
    live.thinking = None
    live.table_changed()


def two_sided_win(live: LiveGame, loser: int) -> list[float]:
    return [0.0 if s == loser else 1.0 for s in range(live.game.num_players)]


async def resign(table: Table, live: LiveGame, seat: int | None) -> LiveGame:
    """The person of `seat` resigns: with two players the other wins; with more, a computer
    level plays the seat on."""
    seat = acting_seat(seat)
    async with table.lock(live.id):
        check_running(live)
        if resigned(live, seat):
            raise Conflict("This seat has resigned already.", version=live.version)
        names = live.game.player_names()
        if live.game.num_players == 2:
            other = names[1 - seat]
            sentence = f"{names[seat]} resigned: {other} wins."
            await finish(table, live, two_sided_win(live, seat), RESIGNED, seat, sentence)
        else:
            await hand_over(table, live, seat, TAKEOVER_LEVEL, RESIGNED)
    table.changed(live)
    return live


def resigned(live: LiveGame, seat: int) -> bool:
    return any(c.seat == seat and c.why == RESIGNED for c in live.table.changes)


async def claim(table: Table, live: LiveGame, seat: int | None, absent: int) -> LiveGame:
    """In a two-person game, the present person claims the win over the absent one (the
    absence itself is checked by `absences`)."""
    seat = acting_seat(seat)
    names = live.game.player_names()
    sentence = f"{names[absent]} was away too long: {names[seat]} claimed the win."
    await finish(table, live, two_sided_win(live, absent), CLAIMED, absent, sentence)
    return live


def ending_view(live: LiveGame) -> dict[str, Any] | None:
    """How the game ended, for the game-over panel (None while it runs)."""
    if not live.over:
        return None
    ending = live.table.ending
    if ending is not None:
        return {"how": ending.how, "seat": ending.seat, "sentence": ending.sentence}
    # Ended by the rules: the game's own story of the last turn says how (a race won, the
    # last car left, the round tokens), told as everyone saw it; its sentence of the win.
    told = " ".join(s.told_to(None).kept for s in live.steps[live.last_decision() :])
    sentences = [t for t in re.split(r"(?<=[.!?])\s+", told.strip()) if t]
    winning = [t for t in sentences if "win" in t]
    how = live.state.ended_by() or "rules"
    return {"how": how, "seat": None, "sentence": (winning or sentences or [""])[-1]}


def story(live: LiveGame) -> dict[str, Any]:
    """A finished game's short story: its length (turns, decisions, minutes), the lead
    changes and the turning point by the game's heuristic (as the lab measures them,
    `sim.match`). Replays the game: call it off the event loop."""
    decisions = sum(1 for s in live.steps if s.actor >= 0)
    minutes = max(0.0, (live.updated - live.created) / 60)
    samples, played = _samples(live.game, [s.notation for s in live.steps])
    returns = live.result()
    winner = None if returns is None else winner_of(returns)
    turning = None
    if winner is not None and samples:
        at = round(decided_at(samples, winner, played) * played)
        if 0 < at < played:
            turning = {"turn": live.steps[at].turn, "seq": at + 1, "who": live.game.player_names()[winner]}
    return {
        "turns": live.turn,
        "decisions": decisions,
        "minutes": round(minutes, 1),
        "lead_changes": lead_changes(samples),
        "turning_point": turning,
        "record": f"/api/games/{live.id}/record",
        "replay": f"/games/{live.id}/replay",
    }


def _samples(game: Game[Any, Any], actions: list[str]) -> tuple[list[tuple[int, int | None]], int]:
    state = game.new_initial_state()
    return lead_samples(game, state, actions), len(actions)


def is_person(live: LiveGame, seat: int) -> bool:
    """Whether a person holds the seat's link (even if a computer plays it now)."""
    return live.token_hashes[seat] is not None


def people(live: LiveGame) -> list[int]:
    return [s for s in range(len(live.seats)) if is_person(live, s)]
