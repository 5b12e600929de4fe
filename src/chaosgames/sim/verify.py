"""`verify`: replay a database's stored games with the code as it is now.

A job's key names its game, options, agents and seeds, not the code that played them. A
resume checks one game's opening (see `lab.check_stored_games`); this checks every game to
its end. Each stored game is played again from what its row and its job hold (the dice
seed, the seats, the agents' seeds, the cap) and compared with the row on everything the
game determines. A game that differs was played by other code (an agent, its search
advice or the rules changed since); with `drop`, it is deleted, so that resuming the job
plays it again with the code as it is now. A game that reproduces and was stored before
opening digests were kept gets its digest.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console

from chaosgames.core import game_class
from chaosgames.sim.backends import run_tasks
from chaosgames.sim.jobs import MAX_WORKERS, Task, agent_seeds, whole_number
from chaosgames.sim.lab import progress_steps
from chaosgames.sim.storage import GameRow, LabStore

COMPARED = tuple(f.name for f in dataclasses.fields(GameRow) if f.name not in ("record", "opening"))
"""What a replay must give again: every column the game determines; besides, the opening
digest and the record where the row has them (older rows lack the one, and the other is
kept only on request)."""

ADDED_LATER = frozenset(("decisions", "choices", "finish", "feel"))
"""Columns that rows written before them hold as NULL."""


@dataclass
class Verification:
    """What `verify` found."""

    database: str
    checked: int = 0
    reproduced: int = 0
    differ: list[tuple[str, int, list[str]]] = field(default_factory=list)
    """(job, game number, the columns that differ) of each game played otherwise now."""
    dropped: int = 0
    openings_added: int = 0
    jobless: list[tuple[str, int]] = field(default_factory=list)
    """(job, game number) of each game whose job has no row in `jobs`: it cannot be replayed
    (its agents' seeds and its cap come from that row), and it is left as it is."""


def verify(
    db: str | Path,
    *,
    game: str | None = None,
    workers: int = 1,
    drop: bool = False,
    show_progress: bool = False,
    on_game: Callable[[int, int], None] | None = None,
    console: Console | None = None,
) -> Verification:
    """Replay every stored game (of `game` only, if given) and compare it with its row.
    A replay of a whole database takes as long as playing it did: `show_progress` shows the
    lab's bar, and `on_game(done, total)` is called after each game compared."""
    whole_number(workers, "number of workers", 1, MAX_WORKERS)
    found = Verification(str(db))
    with LabStore(db, create=False) as store:
        jobs = store.job_seeds()
        rows = store.rows("WHERE game = ?", (game,)) if game is not None else store.rows()
        stored = {(row.job, row.idx): row for row in rows}
        found.jobless = [(row.job, row.idx) for row in rows if row.job not in jobs]
        tasks = [task_of(row, *jobs[row.job]) for row in rows if row.job in jobs]
        with progress_steps(
            show_progress and bool(tasks), console, f"replaying {found.database}", len(tasks)
        ) as step:
            for new, _ in run_tasks(tasks, workers):
                _compare(store, found, stored[(new.job, new.idx)], new, drop)
                step()
                if on_game is not None:
                    on_game(found.checked, len(tasks))
    found.differ.sort()
    return found


def _compare(store: LabStore, found: Verification, old: GameRow, new: GameRow, drop: bool) -> None:
    """Count one replayed game: reproduced (and given its opening digest if it had none),
    or played otherwise (and deleted with `drop`)."""
    found.checked += 1
    changed = _changed(old, new)
    if changed:
        found.differ.append((new.job, new.idx, changed))
        if drop:
            store.drop_game(new.job, new.idx)
            found.dropped += 1
        return
    found.reproduced += 1
    if old.opening is None and new.opening is not None:
        store.set_opening(new.job, new.idx, new.opening)
        found.openings_added += 1


def _changed(old: GameRow, new: GameRow) -> list[str]:
    # A column added after the row was written reads as None there: nothing to compare.
    names = [n for n in COMPARED if getattr(old, n) is not None or n not in ADDED_LATER]
    if old.opening is not None:
        names.append("opening")  # the first moves themselves, which the counts may not show
    if old.record is not None:
        names.append("record")  # kept on request: every action, the strictest test
    return [n for n in names if getattr(new, n) != getattr(old, n)]


def task_of(row: GameRow, job_seed: int, max_actions: int) -> Task:
    """The task that plays a stored game again: its row holds the dice seed actually used
    (a rerolled game's too) and the seats; the agents' seeds derive from the job's seed."""
    return Task(
        game_class=game_class(row.game),
        job=row.job,
        idx=row.idx,
        options=dict(row.options),
        lineup=tuple(row.lineup),
        rotation=row.rotation,
        seats=tuple(row.seats),
        seed=row.seed,
        agent_seeds=agent_seeds(job_seed, row.idx, row.rotation, len(row.seats)),
        max_actions=max_actions,
        keep_record=row.record is not None,
    )
