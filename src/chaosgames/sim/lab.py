"""`simulate`: play N games of a job into a database, resumably, with a progress bar."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from chaosgames.core.errors import quote
from chaosgames.sim.backends import run_tasks
from chaosgames.sim.jobs import MAX_GAMES, OPENING_ACTIONS, Job, LabSettings, opening_now, whole_number
from chaosgames.sim.storage import LabError, LabStore
from chaosgames.sim.variants import check_label, variant_key


class LabInterrupted(LabError):
    """The run was stopped (Ctrl-C); every finished game is stored, run again to resume."""


@dataclass
class SimulationSummary:
    job: str
    database: str
    requested: int
    already_stored: int
    played: int
    seconds: float
    """Wall-clock time of this run."""

    @property
    def games_per_second(self) -> float:
        return self.played / self.seconds if self.seconds > 0 else 0.0


def simulate(
    game: str,
    seats: Sequence[str],
    games: int,
    settings: LabSettings,
    *,
    reroll: int = 0,
    show_progress: bool = False,
    on_game: Callable[[int, int], None] | None = None,
    console: Console | None = None,
    checked: set[str] | None = None,
    label: str | None = None,
) -> SimulationSummary:
    """Play games 0..games-1 of the job not yet in `settings.db`, storing each as it ends.

    `seats` are agent specs, one per player ('mcts:iterations=200'); seats rotate from
    game to game. The same arguments give the same rows, whatever `workers` and
    `backend`. `reroll` k > 0 replays the job's games with other dice (see `Job`).
    `on_game(done, total)` is called after each stored game.

    Before adding games to a job that has some stored, the lab replays the opening of
    one stored game (see `check_stored_games`); `checked` holds the keys of the jobs
    already checked in this run, which are not checked again. `label` names the job's
    variant (its game and options) in the database (see `sim.variants`).
    """
    whole_number(games, "number of games", 1, MAX_GAMES)
    if not isinstance(settings, LabSettings):
        raise LabError(f"The lab's settings are a LabSettings, not {quote(settings)}.")
    job = Job.build(game, seats, settings.seed, settings.options, settings.max_actions, reroll)
    if label is not None:
        label = check_label(label)
    db = settings.db
    with LabStore(db) as store:
        if label is not None:
            store.set_label(variant_key(job.game, job.options), job.game, job.options, label)
        store.add_job(job.key, job.game, job.options, list(job.lineup), job.seed, job.max_actions)
        stored = store.done(job.key)
        already = sum(1 for i in stored if i < games)
        # Tasks are made as they are handed out: a job of millions of games holds only the
        # numbers of its stored games in memory, never a task per game.
        todo = (job.task(i, settings.keep_records) for i in range(games) if i not in stored)
        missing = games - already
        if missing and stored and (checked is None or job.key not in checked):
            check_stored_games(store, job)
            if checked is not None:
                checked.add(job.key)
        start = time.perf_counter()
        played = 0
        description = f"{job.game}: {lineup_text(job.lineup)}" + (" (other dice)" if reroll else "")
        with progress_steps(show_progress and missing > 0, console, description, games, already) as step:
            try:
                for row, seconds in run_tasks(todo, settings.workers, settings.backend):
                    store.add_game(row, seconds)
                    played += 1
                    step()
                    if on_game is not None:
                        on_game(already + played, games)
            except KeyboardInterrupt:
                raise LabInterrupted(
                    f"Interrupted: {already + played} of {games} games are stored in {store.name}; "
                    "run the same command again to play the rest."
                ) from None
        return SimulationSummary(job.key, str(db), games, already, played, time.perf_counter() - start)


def check_stored_games(store: LabStore, job: Job) -> None:
    """Refuse to add games to a job whose stored games the code no longer plays the same way.

    The job's key names its game, options, agents and seeds, not the code that played it:
    after a change to an agent or to the rules, the same command would otherwise resume the
    job and mix games of the old code with games of the new. The first stored game that has
    an opening digest is replayed for its first `OPENING_ACTIONS` actions; games stored
    before digests were kept cannot be checked.
    """
    found = store.first_opening(job.key)
    if found is None:
        return
    idx, stored = found
    if opening_now(job.task(idx)) != stored:
        raise LabError(
            f"The games stored for this job in {store.name} were played by other code: "
            f"game {idx} no longer opens as stored (its first {OPENING_ACTIONS} actions differ). "
            "Nothing was added; play into a new database, or give another --seed."
        )


class _RateColumn(ProgressColumn):
    """Games per second, as Rich measures it over the last few updates."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("-- games/s" if speed is None else f"{speed:.2f} games/s", style="cyan")


@contextmanager
def progress_steps(
    show: bool, console: Console | None, description: str, total: int, completed: int = 0
) -> Iterator[Callable[[], None]]:
    """The lab's bar over `total` games when `show` (games done of all, games a second,
    time spent and left), else none: gives the step to call after each game."""
    if not show:
        yield lambda: None
        return
    with _progress_bar(console) as shown:
        task_id = shown.add_task(description, total=total, completed=completed)
        yield lambda: shown.advance(task_id)


def _progress_bar(console: Console | None) -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        _RateColumn(),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=console,
    )


def lineup_text(lineup: Sequence[str]) -> str:
    """A lineup as a progress bar names it, runs of one agent counted ('4 x greedy',
    'mcts:iterations=200 vs 3 x greedy:blunders=0.3'), so the agents' options are not cut
    off at the end of a terminal's line."""
    runs: list[tuple[str, int]] = []
    for spec in lineup:
        if runs and runs[-1][0] == spec:
            runs[-1] = (spec, runs[-1][1] + 1)
        else:
            runs.append((spec, 1))
    return " vs ".join(spec if count == 1 else f"{count} x {spec}" for spec, count in runs)


def skill_lineup(game: str, players: int) -> list[str]:
    """Hard in one seat against easy in the others: the lineup of the luck-against-skill games."""
    return ["hard"] + ["easy"] * (players - 1)


def luck_and_skill(
    game: str,
    seats: Sequence[str],
    settings: LabSettings,
    *,
    reroll_games: int = 0,
    skill_games: int = 0,
    show_progress: bool = False,
    console: Console | None = None,
) -> list[SimulationSummary]:
    """The games that measure a variant's luck and skill, besides its job of `seats`: its
    first `reroll_games` games replayed with other dice and the same players (the chance
    share), and `skill_games` games of hard in one seat against easy in the others."""
    whole_number(reroll_games, "number of rerolled games", 0, MAX_GAMES)
    whole_number(skill_games, "number of skill games", 0, MAX_GAMES)
    done = []
    if reroll_games:
        done.append(
            simulate(
                game, seats, reroll_games, settings, reroll=1, show_progress=show_progress, console=console
            )
        )
    if skill_games:
        lineup = skill_lineup(game, len(seats))
        done.append(
            simulate(game, lineup, skill_games, settings, show_progress=show_progress, console=console)
        )
    return done
