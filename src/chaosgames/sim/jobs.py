"""A simulation job: what to play, how seats rotate and how every game's seed is derived.

Everything a game of the job needs is in its `Task`, a small picklable value, so any
worker (a local process, a Ray task) plays it the same way: the results depend only on
the job and the game number, never on which worker ran it or when.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chaosgames.agents import from_spec
from chaosgames.core import Game, game_class, load_game
from chaosgames.core.errors import quote
from chaosgames.sim.endings import describe_finish
from chaosgames.sim.match import DEFAULT_MAX_ACTIONS, PlayedMatch, play_match
from chaosgames.sim.storage import GameRow, LabError, canonical_json, database_path

OPENING_ACTIONS = 40
"""How many of a game's first actions (chance outcomes included) its opening digest covers.
A change that alters what is played in them shows; one that alters only later play does
not. Replaying them costs seconds where a whole game may cost minutes."""


LARGEST = 2**63 - 1
"""The largest whole number SQLite stores (a signed 64-bit integer): seeds and caps are
stored, so they lie between -LARGEST - 1 and LARGEST."""

MAX_WORKERS = 1_000
"""The most worker processes (or Ray tasks) at once: more than any machine has cores,
and not so many that a typing slip starts a million processes."""

BACKENDS = ("local", "ray")

MAX_GAMES = 10_000_000
"""The most games one job may have: far more than a study needs (at a hundred games a
second, more than a day of play), few enough that the numbers of the games already
stored fit in memory."""


def whole_number(value: object, what: str, low: int, high: int) -> int:
    """`value` if it is a whole number (an int, not a bool) from `low` to `high`; else a
    LabError that names `what` and the bound it broke."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise LabError(f"The {what} must be a whole number, not {quote(value)}.")
    if value < low:
        raise LabError(f"The {what} must be at least {low:,}, not {_number(value)}.")
    if value > high:
        raise LabError(f"The {what} must be at most {high:,}, not {_number(value)}.")
    return value


def _number(value: int) -> str:
    # Grouped digits read at a glance; a number of hundreds of digits is described instead.
    return f"{value:,}" if value.bit_length() <= 64 else quote(value)


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from the parts, the same on every machine and Python version."""
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True)
class LabSettings:
    """How the lab runs a job (or each job of a tournament): where, with which options.

    `options` are the game's options (`players` defaults to the number of seats), `seed`
    the job's seed, `max_actions` the lab's cap (a game still running after that many
    actions is stopped, with no result), `keep_records` stores every game's record.
    """

    db: str | Path
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)
    workers: int = 1
    backend: str = "local"
    max_actions: int = DEFAULT_MAX_ACTIONS
    keep_records: bool = False

    def __post_init__(self) -> None:
        # Checked when made, so a bad setting is refused before any database is touched
        # (a seed SQLite cannot store failed only when the job was written).
        database_path(self.db)
        whole_number(self.seed, "seed", -LARGEST - 1, LARGEST)
        if not isinstance(self.options, Mapping):
            raise LabError(f"The game options are a mapping of names to values, not {quote(self.options)}.")
        whole_number(self.workers, "number of workers", 1, MAX_WORKERS)
        if not isinstance(self.backend, str) or self.backend not in BACKENDS:
            raise LabError(f"There is no backend {quote(self.backend)}; choose {' or '.join(BACKENDS)}.")
        whole_number(self.max_actions, "action cap", 1, LARGEST)
        if not isinstance(self.keep_records, bool):
            raise LabError(f"keep_records is True or False, not {quote(self.keep_records)}.")


@dataclass(frozen=True)
class Job:
    """N games of one game with fixed options between a lineup of agents.

    Game `i` uses seed `derive_seed("game", seed, i)` for its chance outcomes (the same
    dice for every lineup, so lineups are compared on equal luck) and rotates the lineup
    by `i mod n`: player p is played by `lineup[(p + i) % n]`, so over any n consecutive
    games every agent sits in every seat once.

    A job with `reroll` k > 0 replays game `i` of the job with reroll 0 with other dice
    (`derive_seed("reroll", seed, i, k)`) and the same agents with the same seeds: what
    differs between the two games follows from the dice alone.
    """

    game: str
    options: Mapping[str, Any]
    lineup: tuple[str, ...]
    seed: int
    max_actions: int = DEFAULT_MAX_ACTIONS
    reroll: int = 0

    @classmethod
    def build(
        cls,
        game: str,
        seats: Sequence[str],
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        max_actions: int = DEFAULT_MAX_ACTIONS,
        reroll: int = 0,
    ) -> Job:
        """A checked job: the game loads with these options, the seats are valid agents,
        the seed and the cap are whole numbers the database stores."""
        whole_number(seed, "seed", -LARGEST - 1, LARGEST)
        whole_number(max_actions, "action cap", 1, LARGEST)
        whole_number(reroll, "reroll number", 0, LARGEST)
        if not seats:
            raise LabError("Give at least one seat (e.g. --seat mcts --seat greedy).")
        given = dict(options or {})
        if "players" not in given:
            given["players"] = len(seats)
        loaded = load_game(game, **given)
        if len(seats) != loaded.num_players:
            raise LabError(
                f"{loaded.title} is played here by {loaded.num_players} players but "
                f"{len(seats)} seats were given; give one --seat per player."
            )
        lineup = tuple(from_spec(spec, game=loaded.name).spec for spec in seats)
        return cls(loaded.name, dict(loaded.options), lineup, seed, max_actions, reroll)

    @property
    def key(self) -> str:
        """The job's identity in the database."""
        return job_key(self.game, self.options, self.lineup, self.seed, self.max_actions, self.reroll)

    def load(self) -> Game[Any, Any]:
        return load_game(self.game, **self.options)

    def task(self, idx: int, keep_record: bool = False) -> Task:
        n = len(self.lineup)
        rotation = idx % n
        game_seed = derive_seed("game", self.seed, idx)
        dice = derive_seed("reroll", self.seed, idx, self.reroll) if self.reroll else game_seed
        return Task(
            game_class=game_class(self.game),
            job=self.key,
            idx=idx,
            options=dict(self.options),
            lineup=self.lineup,
            rotation=rotation,
            seats=tuple(self.lineup[(p + rotation) % n] for p in range(n)),
            seed=dice,
            agent_seeds=agent_seeds(self.seed, idx, rotation, n),
            max_actions=self.max_actions,
            keep_record=keep_record,
        )


def job_key(
    game: str, options: Mapping[str, Any], lineup: Sequence[str], seed: int, cap: int, reroll: int = 0
) -> str:
    """A job's key: a hash of its game, options, lineup, seed and cap (and reroll number)."""
    ident: list[Any] = [game, dict(options), list(lineup), seed, cap]
    if reroll:  # appended only then: the keys of the jobs stored before stay the same
        ident.append(reroll)
    return hashlib.sha256(canonical_json(ident).encode()).hexdigest()[:16]


def is_reroll(row: GameRow, job_seed: int) -> bool:
    """Whether a stored game is a rerolled replay: its dice are not its game number's."""
    return row.seed != derive_seed("game", job_seed, row.idx)


def agent_seeds(job_seed: int, idx: int, rotation: int, players: int) -> tuple[int, ...]:
    """Each player's agent seed in game `idx` of a job: it follows the lineup entry, not the
    seat, and not the dice (a rerolled game's agents are seeded as the original's)."""
    game_seed = derive_seed("game", job_seed, idx)
    return tuple(derive_seed("agent", game_seed, (p + rotation) % players) for p in range(players))


@dataclass(frozen=True)
class Task:
    """One game of a job, ready to play anywhere."""

    game_class: type[Game[Any, Any]]
    job: str
    idx: int
    options: dict[str, Any]
    lineup: tuple[str, ...]
    rotation: int
    seats: tuple[str, ...]
    seed: int
    agent_seeds: tuple[int, ...]
    max_actions: int
    keep_record: bool


def play_task(task: Task) -> tuple[GameRow, float]:
    """Play one game of a job; the database row and the seconds it took."""
    start = time.perf_counter()
    played = _play(task, task.max_actions)
    result = played.result
    row = GameRow(
        job=task.job,
        idx=task.idx,
        game=task.game_class.name,
        options=dict(task.options),
        seats=list(task.seats),
        lineup=list(task.lineup),
        rotation=task.rotation,
        seed=task.seed,
        winner=result.winner,
        winner_agent=None if result.winner is None else task.seats[result.winner],
        returns=result.returns,
        rounds=result.rounds,
        actions=result.actions,
        lead_changes=result.lead_changes,
        leader_at_half=result.leader_at_half,
        capped=result.capped,
        record=canonical_json(played.record.to_json()) if task.keep_record else None,
        ended_by=result.ending,
        decisions=result.decisions,
        choices=result.choices,
        finish=describe_finish(played.state, result.ending),
        opening=opening_digest(played.record.actions),
        feel=result.feel,
    )
    return row, time.perf_counter() - start


def opening_now(task: Task) -> str:
    """The opening digest of the task's game as the code plays it now: only its first
    `OPENING_ACTIONS` actions are played."""
    return opening_digest(_play(task, min(task.max_actions, OPENING_ACTIONS)).record.actions)


def opening_digest(actions: Sequence[str]) -> str:
    return hashlib.sha256(canonical_json(list(actions[:OPENING_ACTIONS])).encode()).hexdigest()[:16]


def _play(task: Task, max_actions: int) -> PlayedMatch:
    game = task.game_class(**task.options)
    name = task.game_class.name
    agents = [
        from_spec(spec, seed=s, game=name) for spec, s in zip(task.seats, task.agent_seeds, strict=True)
    ]
    return play_match(game, agents, task.seed, max_actions=max_actions)
