"""Taking decisions back, after Board Game Arena's undo policy.

**Undo.** A person may take back their own latest decision, alone, while the turn is
still theirs in the move log's sense (`Step.turn`: no other seat has decided since), no
chance outcome has been drawn since (a die roll, a shuffle, a draw: chance actions are in
the log with actor CHANCE) and nothing hidden has been revealed. Pressed again, it takes
back the decision before, on the same conditions.

**Takeback.** Anything further back is a request: back to just before the asker's last
decision, every action after it removed, every other person at the table accepting.
A takeback never crosses a chance outcome. Computer seats answer at the table's setting
(`takebacks`, chosen at creation: "accept", the default, or "never").

**Reveals.** Whether a decision revealed something hidden is read conservatively: in a
game that hides information (`Game.hides_information`: Royal Racers without its memory
aid) any decision may show a card (a flip to everyone, a peek to one seat), so nothing is
taken back there, as the terminal's `undo` refuses such games.

**Versions.** Actions taken back move from `actions` to `undone` in one transaction that
raises the game's version by their number (checked as a commit is: of an undo and a move
decided on the same version, one wins), so the version only grows: a client never sees
it go back, `Store.commit`'s check holds across server processes, and the next action is
stored after a gap of sequence numbers. The move log (`LiveGame.length`) shrinks; a viewer
whose last view came before the undo is sent its log anew (`LiveGame.rewound`), and another
server process that reads the game's new version finds it rewound and reads it anew.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, delete, insert, select

from chaosgames.core.constants import CHANCE
from chaosgames.core.game import State
from chaosgames.web.database import Database
from chaosgames.web.errors import Conflict
from chaosgames.web.live import LiveGame, Step
from chaosgames.web.seats import acting_seat
from chaosgames.web.stored import RUNNING
from chaosgames.web.tables import actions_table, takebacks_table, undone_table

if TYPE_CHECKING:
    from chaosgames.web.service import GameService

POLICIES = ("accept", "never")
DEFAULT_POLICY = "accept"


def policy(live: LiveGame) -> str:
    """How the table's computer seats answer a takeback."""
    found = live.meta.get("takebacks", DEFAULT_POLICY)
    return found if found in POLICIES else DEFAULT_POLICY


def _open_to_takebacks(live: LiveGame, seat: int | None) -> bool:
    return (
        seat is not None
        and live.status == RUNNING
        and not live.is_computer(seat)
        and not live.game.hides_information()
    )


def may_undo(live: LiveGame, seat: int | None) -> bool:
    """Whether `seat` may take back its latest decision alone now."""
    if not _open_to_takebacks(live, seat) or not live.steps:
        return False
    last = live.steps[-1]
    return last.actor == seat and last.turn == live.turn


def takeback_span(live: LiveGame, seat: int | None) -> int:
    """The actions a takeback for `seat` would remove (from its last decision on); 0 when
    it may ask for none (a chance outcome since, a hidden game, no decision yet)."""
    if not _open_to_takebacks(live, seat):
        return 0
    for at in range(live.length - 1, -1, -1):
        actor = live.steps[at].actor
        if actor == CHANCE:
            return 0
        if actor == seat:
            return live.length - at
    return 0


def offer(live: LiveGame, viewer: int | None) -> dict[str, Any]:
    """What the viewer's page offers: undo (alone), or a takeback of so many actions."""
    alone = may_undo(live, viewer)
    return {"undo": alone, "takeback": 0 if alone else takeback_span(live, viewer)}


# -- the database --------------------------------------------------------------------------


@dataclass(frozen=True)
class Request:
    """A takeback waiting for answers: who asked, on which version, of how many actions."""

    seat: int
    version: int
    count: int
    accepted: tuple[int, ...]


def pending(db: Database, game_id: str) -> Request | None:
    with db.engine.connect() as conn:
        row = conn.execute(select(takebacks_table).where(takebacks_table.c.game_id == game_id)).first()
    if row is None:
        return None
    return Request(int(row.seat), int(row.version), int(row.span), tuple(json.loads(row.accepted)))


def keep_request(db: Database, game_id: str, request: Request | None) -> None:
    """Store the waiting takeback (None: there is none), committed when this returns."""
    with db.writing() as conn:
        conn.execute(delete(takebacks_table).where(takebacks_table.c.game_id == game_id))
        if request is not None:
            conn.execute(
                insert(takebacks_table).values(
                    game_id=game_id,
                    seat=request.seat,
                    version=request.version,
                    span=request.count,
                    accepted=json.dumps(list(request.accepted)),
                    created=time.time(),
                )
            )


def record_undo(db: Database, game_id: str, version: int, count: int) -> bool:
    """Move the game's last `count` actions to `undone` and raise its version by `count`;
    False when the game is no longer at `version` (nothing written)."""
    with db.writing() as conn:
        if not db.take_version(conn, game_id, at=version, version=version + count, updated=time.time()):
            return False
        rows = conn.execute(
            select(actions_table)
            .where(actions_table.c.game_id == game_id)
            .order_by(actions_table.c.seq.desc())
            .limit(count)
        ).all()
        conn.execute(
            insert(undone_table),
            [
                {
                    "game_id": game_id,
                    "seq": r.seq,
                    "notation": r.notation,
                    "actor": r.actor,
                    "created": r.created,
                    "undone_at": version + count,
                }
                for r in rows
            ],
        )
        seqs = [r.seq for r in rows]
        conn.execute(
            delete(actions_table).where(
                and_(actions_table.c.game_id == game_id, actions_table.c.seq.in_(seqs))
            )
        )
        conn.execute(delete(takebacks_table).where(takebacks_table.c.game_id == game_id))
    return True


# -- taking back ---------------------------------------------------------------------------


def _replayed(live: LiveGame, steps: list[Step]) -> State[Any]:
    state: State[Any] = live.game.new_initial_state()
    for step in steps:
        state.apply_action(live.game.parse_action(state, step.notation))
    return state


def _check_version(live: LiveGame, version: int) -> None:
    if version != live.version:
        raise Conflict(
            f"The game has moved on: this was decided at version {version}, the game is at "
            f"version {live.version}. Look at the board again.",
            version=live.version,
        )


async def _take_back(service: GameService, live: LiveGame, count: int) -> None:
    """Take back the last `count` actions (the game's lock held)."""
    keep = live.steps[: live.length - count]
    state = await asyncio.to_thread(_replayed, live, keep)
    if not await asyncio.to_thread(record_undo, service.store, live.id, live.version, count):
        service.cluster.background(service.refresh(live.id))
        raise Conflict("Another action was accepted first; look at the board again.")
    live.take_back(state, count, time.time())


async def undo(service: GameService, live: LiveGame, seat: int | None, version: int) -> LiveGame:
    """`seat` takes back its latest decision alone (see the module's policy)."""
    seat = acting_seat(seat)
    async with service.lock(live.id):
        live = service.cached(live.id) or live
        _check_version(live, version)
        if not may_undo(live, seat):
            raise Conflict(_why_not(live, seat), version=live.version)
        await _take_back(service, live, 1)
    service.changed(live)
    return live


def _why_not(live: LiveGame, seat: int, *, asking: bool = False) -> str:
    if live.status != RUNNING:
        return "The game is over; nothing can be taken back."
    if live.game.hides_information():
        return f"Nothing is taken back in {live.game.title}: a decision may have shown a hidden card."
    if not asking and takeback_span(live, seat):
        return "Another seat has acted since your decision: ask the others for a takeback instead."
    return "You have made no decision since the last chance outcome (a roll or a draw): nothing to take back."


async def ask(service: GameService, live: LiveGame, seat: int | None, version: int) -> Request | None:
    """`seat` asks to take back everything since its last decision; done at once when no
    other person has to answer. The request waiting, or None when done."""
    seat = acting_seat(seat)
    async with service.lock(live.id):
        live = service.cached(live.id) or live
        _check_version(live, version)
        count = takeback_span(live, seat)
        if not count:
            raise Conflict(_why_not(live, seat, asking=True), version=live.version)
        computers = [i for i in range(len(live.seats)) if i != seat and live.is_computer(i)]
        if computers and policy(live) == "never":
            raise Conflict("This table's computer seats do not accept takebacks (chosen when it was made).")
        waiting = await asyncio.to_thread(pending, service.store, live.id)
        if waiting is not None and waiting.version == live.version:
            raise Conflict("A takeback is already waiting for answers.")
        request: Request | None = Request(seat, live.version, count, ())
        if _answered(live, Request(seat, live.version, count, ())):
            await _take_back(service, live, count)
            request = None
        else:
            await asyncio.to_thread(keep_request, service.store, live.id, request)
    service.changed(live)
    return request


def people_to_answer(live: LiveGame, request: Request) -> list[int]:
    """The other people at the table, who answer a takeback (computer seats answer by the
    table's setting)."""
    return [i for i in range(len(live.seats)) if i != request.seat and not live.is_computer(i)]


def _answered(live: LiveGame, request: Request) -> bool:
    return all(i in request.accepted for i in people_to_answer(live, request))


async def answer(service: GameService, live: LiveGame, seat: int | None, version: int, accept: bool) -> None:
    """Another person accepts or declines the waiting takeback (the asker may withdraw it);
    the last acceptance takes the actions back."""
    seat = acting_seat(seat)
    async with service.lock(live.id):
        live = service.cached(live.id) or live
        _check_version(live, version)
        request = await asyncio.to_thread(pending, service.store, live.id)
        if request is None or request.version != live.version:
            raise Conflict("No takeback is waiting for an answer.", version=live.version)
        if accept and seat == request.seat:
            raise Conflict("You asked for this takeback: the others answer it.")
        if accept and seat in request.accepted:
            return
        if not accept:
            await asyncio.to_thread(keep_request, service.store, live.id, None)
            return
        request = Request(request.seat, request.version, request.count, (*request.accepted, seat))
        if not _answered(live, request):
            await asyncio.to_thread(keep_request, service.store, live.id, request)
            return
        await _take_back(service, live, request.count)
    service.changed(live)


def news(live: LiveGame, request: Request | None) -> dict[str, Any] | None:
    """The waiting takeback as the table's news tells it (None: none waits)."""
    if request is None or request.version != live.version:
        return None
    names = live.game.player_names()
    waiting = [i for i in people_to_answer(live, request) if i not in request.accepted]
    return {
        "seat": request.seat,
        "name": names[request.seat],
        "count": request.count,
        "version": request.version,
        "accepted": list(request.accepted),
        "waiting": waiting,
    }
