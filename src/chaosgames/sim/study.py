"""The balance book: every variant a rulebook names, played by one level of computer player.

`study(games, settings)` plays, for each game and each variant of its plan, three jobs
in the lab's database (so a study resumes where it stopped and grows when run again):

- the level (`medium`) in every seat: seat advantage, how games end, their length,
  lead changes, comebacks and the branching factor;
- `hard` in one seat against `easy` in the others: luck against skill;
- the first games of the first job replayed with other dice and the same agents (a
  `reroll` job): the chance share, how often the winner changes with the dice alone.

Games are added in passes (`batch` more games to every job each pass) until the job
sizes are reached or the time is up, so a bounded run covers every variant a little
rather than the first ones fully. `analyse` reads the figures back from the database.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chaosgames.agents import from_spec, levels, resolve_level
from chaosgames.core import game_class, load_game
from chaosgames.core.errors import quote
from chaosgames.sim.feel import SECONDS_PER_DECISION
from chaosgames.sim.jobs import BACKENDS, LARGEST, MAX_GAMES, MAX_WORKERS, Job, LabSettings, whole_number
from chaosgames.sim.lab import LabInterrupted, simulate
from chaosgames.sim.match import DEFAULT_MAX_ACTIONS
from chaosgames.sim.render_html import PICTURED_OPTIONS, first_position
from chaosgames.sim.stats import mean, percentile, wilson
from chaosgames.sim.storage import LabError, LabStore, database_path
from chaosgames.sim.summary import Rate, Summary, same_game, summarise
from chaosgames.sim.variants import check_label, variant_key


@dataclass(frozen=True)
class Variant:
    """A way to play the game the rulebook names, as game options."""

    label: str
    options: Mapping[str, Any] = field(default_factory=dict)


STANDARD = Variant("standard game")


@dataclass(frozen=True)
class Plan:
    """The variants of one game and the length cap every study game gets as a safety net
    (an option, not a rule: games it decides are counted apart, never in win rates)."""

    game: str
    variants: tuple[Variant, ...]
    cap: Mapping[str, Any] = field(default_factory=dict)
    no_cross: str = ""
    """Why the other-player check (`StudySettings.cross_games`) is left out of this game's
    study, said in the book; empty where it is played."""


RACES_END_ONE_WAY = (
    "every game of a race that its rulebook ends is a race won (a campaign, scored), so there is "
    "no ending for the player to change; and the other player of a race is MCTS in every seat: in "
    "the balance book's skill jobs one MCTS seat against three greedy players took 18 s a game on "
    "average in Chaos Cruisers and 83 s in Royal Racers, so four would take hours a book on one core"
)
"""Why the racing games' books leave the other-player check out (see docs/simulation.md)."""


PLANS: dict[str, Plan] = {
    # Chaos Cruisers by Paul Elliot: "Variants" 1-5 of the rulebook.
    "chaos-cruisers": Plan(
        "chaos-cruisers",
        (
            STANDARD,
            Variant("1: course figure-eight", {"course": "figure-eight"}),
            Variant("1: course chicane", {"course": "chicane"}),
            Variant("2: no tiles moved", {"tiles_moved": 0}),
            Variant("2: six tiles moved", {"tiles_moved": 6}),
            Variant("3: coins back every chaos round", {"coin_retrieval": "every_chaos_round"}),
            Variant("3: coins never back", {"coin_retrieval": "never"}),
            Variant("4: one lap", {"laps": 1}),
            Variant("4: three laps", {"laps": 3}),
            Variant("5: two players, two cruisers each", {"players": 2, "two_cruisers": True}),
            Variant("two players, one cruiser each", {"players": 2, "two_cruisers": False}),
        ),
        {"max_rounds": 100},
        RACES_END_ONE_WAY,
    ),
    # Chaos Checkers by Blake Cetnar: chaos on or off, the pink potions, forced capture.
    "chaos-checkers": Plan(
        "chaos-checkers",
        (
            STANDARD,
            Variant("no chaos (plain checkers)", {"chaos": False}),
            Variant("pink Reclaim potions", {"pink": True}),
            Variant("capture not forced", {"forced_capture": False}),
        ),
        {"max_moves": 400},
    ),
    # Royal Racers by Robert Kouba: Flag Variant, a memory aid, Campaign Variant.
    "royal-racers": Plan(
        "royal-racers",
        (
            STANDARD,
            Variant("Flag Variant", {"flag_variant": True}),
            Variant("memory aid (face-down ranks shown)", {"memory_aid": True}),
            Variant("Campaign Variant, 3 races", {"races": 3}),
        ),
        {"max_rounds": 100},
        RACES_END_ONE_WAY,
    ),
    # Cardboard Machines by Andreas Frisch: the rules as first written against the revision.
    "cardboard-machines": Plan(
        "cardboard-machines",
        (
            Variant("first rules (stress overflow rerolls blanks)"),
            Variant("revised rules (stress overflow adds 1)", {"stress_overflow": "plus_one"}),
            Variant("revised rules with buy-off", {"stress_overflow": "plus_one", "buy_off_swerve": True}),
            Variant("2 round tokens", {"round_tokens": 2}),
            Variant("5 round tokens", {"round_tokens": 5}),
        ),
        {"max_turns": 200},
    ),
}


def plan_for(game: str, plans: Mapping[str, Plan] | None = None) -> Plan:
    """The game's plan (from `plans` first); a game without one is studied as its standard game."""
    name = game_class(game).name
    if plans:
        for given, plan in plans.items():
            if game_class(given).name == name:
                return plan
    return PLANS.get(name, Plan(name, (STANDARD,)))


def own_plan(game: str, options: Mapping[str, Any], label: str | None) -> Plan:
    """A designer's variant of `game` studied beside the standard game, with the safety cap of
    the game's plan. The options are checked now (an unknown option fails before any game)."""
    base = plan_for(game)
    loaded = load_game(base.game, **{**dict(base.cap), **dict(options)})
    name = check_label(label) if label is not None else f"v-{variant_key(loaded.name, loaded.options)}"
    return Plan(base.game, (base.variants[0], Variant(name, dict(options))), base.cap, base.no_cross)


@dataclass(frozen=True)
class StudySettings:
    """How big a study is and where it goes. Job sizes are per variant."""

    db: str | Path
    level: str = "medium"
    games: int = 8
    """Games with the level in every seat."""
    skill_games: int = 4
    """Games of `hard` in one seat against `easy` in the others."""
    reroll_games: int = 4
    """Games of the first job replayed with other dice."""
    batch: int = 2
    workers: int = 1
    seed: int = 2026
    minutes: float | None = None
    """Stop after this many minutes, after the next stored game: games still being played
    then are dropped, stored ones kept."""
    max_actions: int = DEFAULT_MAX_ACTIONS
    cross_games: int = 0
    """Games per variant with another kind of player in every seat (greedy where the level
    is MCTS, MCTS where it is greedy): where the player changes the verdict, the book says so.
    A plan with a `no_cross` reason gets none."""
    backend: str = "local"
    """Where games are played: local processes or Ray (`RAY_ADDRESS` names a cluster)."""

    def __post_init__(self) -> None:
        # Checked when made: a study refuses a bad setting before its first game, not
        # after an hour of play when the job that cannot be stored comes up.
        database_path(self.db)
        if not isinstance(self.level, str):
            raise LabError(f"A study's level is a level or agent name, not {quote(self.level)}.")
        whole_number(self.games, "number of games per variant", 1, MAX_GAMES)
        whole_number(self.skill_games, "number of skill games per variant", 0, MAX_GAMES)
        whole_number(self.reroll_games, "number of rerolled games per variant", 0, MAX_GAMES)
        whole_number(self.batch, "batch", 1, MAX_GAMES)
        whole_number(self.workers, "number of workers", 1, MAX_WORKERS)
        whole_number(self.seed, "seed", -LARGEST - 1, LARGEST)
        whole_number(self.max_actions, "action cap", 1, LARGEST)
        whole_number(self.cross_games, "number of cross-player games per variant", 0, MAX_GAMES)
        if not isinstance(self.backend, str) or self.backend not in BACKENDS:
            raise LabError(f"There is no backend {quote(self.backend)}; choose {' or '.join(BACKENDS)}.")
        if self.minutes is not None and not _duration(self.minutes):
            raise LabError(f"A study's minutes are a number of at least 0, not {quote(self.minutes)}.")


def _duration(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value < math.inf


@dataclass(frozen=True)
class StudyJob:
    """One job of a variant's study and how many games it is to have."""

    kind: str  # "level", "skill", "reroll" or "cross"
    seats: tuple[str, ...]
    size: int
    reroll: int = 0


def variant_jobs(plan: Plan, variant: Variant, settings: StudySettings) -> list[StudyJob]:
    players = _players(plan, variant)
    level = (settings.level,) * players
    skill = ("hard",) + ("easy",) * (players - 1)
    jobs = [
        StudyJob("level", level, settings.games),
        StudyJob("skill", skill, settings.skill_games),
        StudyJob("reroll", level, min(settings.reroll_games, settings.games), reroll=1),
    ]
    if settings.cross_games and not plan.no_cross:
        other = cross_level(plan.game, settings.level)
        jobs.append(StudyJob("cross", (other,) * players, settings.cross_games))
    return jobs


def cross_level(game: str, level: str) -> str:
    """A level played by another kind of player than `level` in `game` (greedy against MCTS)."""
    named = levels(game)
    kind = resolve_level(level, game).split(":")[0]
    for other in ("easy", "hard", "medium"):
        if named[other].split(":")[0] != kind:
            return other
    return "easy"


def _players(plan: Plan, variant: Variant) -> int:
    given = variant.options.get("players")
    return int(given) if given is not None else game_class(plan.game).default_players


def _options(plan: Plan, variant: Variant) -> dict[str, Any]:
    return {**dict(plan.cap), **dict(variant.options)}


def _job(plan: Plan, variant: Variant, job: StudyJob, settings: StudySettings) -> Job:
    return Job.build(
        plan.game, list(job.seats), settings.seed, _options(plan, variant), settings.max_actions, job.reroll
    )


def study(
    games: Sequence[str],
    settings: StudySettings,
    *,
    on_pass: Callable[[int, int], None] | None = None,
    plans: Mapping[str, Plan] | None = None,
) -> bool:
    """Play the studies of `games` into `settings.db`, in passes; True when every job is full,
    False when `settings.minutes` ran out first (every game stored so far is kept).

    `on_pass(games_stored_this_run, pass_number)` is called after each pass.
    """
    if not isinstance(settings, StudySettings):
        raise LabError(f"A study's settings are a StudySettings, not {quote(settings)}.")
    chosen = [plan_for(g, plans) for g in games]
    for plan in chosen:
        for spec in ("easy", "hard", settings.level):
            from_spec(spec, game=plan.game)  # an unknown level fails now, not after an hour of play
    _label_variants(chosen, settings)
    clock = _Clock(settings.minutes)
    try:
        if _play(chosen, settings, clock, on_pass):
            return True
    except LabInterrupted:
        if not clock.up:
            raise
    # Out of time: the jobs may still be full (a run to rewrite the book with --minutes 0).
    return _missing(chosen, settings) == 0


def _label_variants(plans: Sequence[Plan], settings: StudySettings) -> None:
    """Each variant of the study named in the database by its label in the book, so that
    `report` and `--compare` call it so too (a label taken by another variant is left)."""
    with LabStore(settings.db) as store:
        for plan in plans:
            for variant in plan.variants:
                loaded = load_game(plan.game, **_options(plan, variant))
                key = variant_key(loaded.name, loaded.options)
                if variant.label.startswith("v-"):
                    continue
                try:
                    store.set_label(key, loaded.name, loaded.options, check_label(variant.label))
                except LabError:
                    continue


def _missing(plans: Sequence[Plan], settings: StudySettings) -> int:
    """How many games the study's jobs still lack in the database."""
    with LabStore(settings.db) as store:
        missing = 0
        for plan, variant, job in _pass_order(plans, settings):
            done = store.done(_job(plan, variant, job, settings).key)
            missing += job.size - len({i for i in done if i < job.size})
        return missing


class _Clock:
    """The study's time. Checked between jobs and after each stored game, so the run stops
    at a point where the lab is between games (games still in flight are dropped). A timer
    signal would stop it sooner, but its Ctrl-C can land anywhere: in a finaliser or a gc
    callback, where Python drops it, or outside the lab's loop, where it is not the lab's
    to handle."""

    def __init__(self, minutes: float | None) -> None:
        self.end = None if minutes is None else time.monotonic() + 60 * minutes
        self.up = False

    def expired(self) -> bool:
        self.up = self.up or (self.end is not None and time.monotonic() >= self.end)
        return self.up

    def after_game(self, done: int, total: int) -> None:
        """The lab's `on_game`: out of time, stop the job here (every stored game is kept)."""
        if self.expired():
            raise LabInterrupted(f"The study's time ran out with {done} of {total} games of a job stored.")


KIND_ORDER = {"level": 0, "reroll": 1, "skill": 2, "cross": 3}


def _pass_order(plans: Sequence[Plan], settings: StudySettings) -> list[tuple[Plan, Variant, StudyJob]]:
    """The jobs of a pass: every game's standard game first (its level, reroll and skill
    jobs), then the other variants rank by rank, game by game, so a run cut short by its
    time still covers every game a little."""
    jobs = [
        ((rank > 0, KIND_ORDER[job.kind], rank, order), plan, variant, job)
        for order, plan in enumerate(plans)
        for rank, variant in enumerate(plan.variants)
        for job in variant_jobs(plan, variant, settings)
    ]
    return [(plan, variant, job) for _, plan, variant, job in sorted(jobs, key=lambda j: j[0])]


def _play(
    plans: Sequence[Plan],
    settings: StudySettings,
    clock: _Clock,
    on_pass: Callable[[int, int], None] | None,
) -> bool:
    played = 0
    target = 0
    checked: set[str] = set()  # each job's stored games are checked once a run, not every pass
    largest = max(settings.games, settings.skill_games, settings.reroll_games)
    while target < largest:
        target += settings.batch
        for plan, variant, job in _pass_order(plans, settings):
            if clock.expired():
                return False
            wanted = min(target, job.size)
            if wanted < 1:
                continue
            lab = LabSettings(
                db=settings.db,
                seed=settings.seed,
                options=_options(plan, variant),
                workers=settings.workers,
                backend=settings.backend,
                max_actions=settings.max_actions,
            )
            played += simulate(
                plan.game,
                list(job.seats),
                wanted,
                lab,
                reroll=job.reroll,
                on_game=clock.after_game,
                checked=checked,
            ).played
        if on_pass is not None:
            on_pass(played, target // settings.batch)
    return True


# -- the figures -------------------------------------------------------------------------


@dataclass
class VariantFigures:
    """What the study measured of one variant."""

    variant: Variant
    players: int
    level: Summary | None
    finishes: Counter[str]
    skill: Rate | None
    hard: str
    chance_pairs: int = 0
    chance_changed: int = 0
    chance_same: int = 0
    """Replays that played their original over move for move (all: the variant has no chance)."""
    decisions: list[int] = field(default_factory=list)
    cross: Summary | None = None
    """The variant played by another kind of player in every seat (`cross_games`)."""
    picture: str | None = None
    """The variant's first position drawn (SVG), where its options change the board (a course)."""

    @property
    def fair_share(self) -> float:
        return 1.0 / self.players

    @property
    def games(self) -> int:
        return self.level.games if self.level else 0

    @property
    def table_minutes(self) -> list[float]:
        return [d * SECONDS_PER_DECISION / 60 for d in self.decisions]

    @property
    def chance_share(self) -> float | None:
        return self.chance_changed / self.chance_pairs if self.chance_pairs else None

    @property
    def chance_interval(self) -> tuple[float, float]:
        return wilson(self.chance_changed, self.chance_pairs)

    @property
    def lottery_share(self) -> float:
        """How often the winner would change if the result were a fair lottery between the seats."""
        return 1.0 - 1.0 / self.players


@dataclass
class GameFigures:
    plan: Plan
    title: str
    variants: list[VariantFigures]


def analyse(
    games: Sequence[str], settings: StudySettings, plans: Mapping[str, Plan] | None = None
) -> list[GameFigures]:
    """The figures of every study in the database (whatever number of games it holds)."""
    out = []
    with LabStore(settings.db) as store:
        for game in games:
            plan = plan_for(game, plans)
            figures = [_variant_figures(store, plan, v, settings) for v in plan.variants]
            out.append(GameFigures(plan, game_class(plan.game).title, figures))
    return out


def _variant_figures(
    store: LabStore, plan: Plan, variant: Variant, settings: StudySettings
) -> VariantFigures:
    level_job, skill_job, reroll_job, *cross_job = (
        _job(plan, variant, j, settings) for j in variant_jobs(plan, variant, settings)
    )
    level_rows = store.rows("WHERE job = ?", (level_job.key,))
    cross_rows = store.rows("WHERE job = ?", (cross_job[0].key,)) if cross_job else []
    skill_rows = store.rows("WHERE job = ?", (skill_job.key,))
    reroll_rows = store.rows("WHERE job = ?", (reroll_job.key,))
    level = summarise(level_rows)[0] if level_rows else None
    hard = skill_job.lineup[0]
    skill = summarise(skill_rows)[0].by_agent.get(hard, Rate()) if skill_rows else None
    figures = VariantFigures(
        variant,
        _players(plan, variant),
        level,
        Counter(r.finish or r.ended_by or "" for r in level_rows),
        skill,
        hard,
        decisions=[r.decisions for r in level_rows if r.decisions is not None],
        cross=summarise(cross_rows)[0] if cross_rows else None,
        picture=_picture(plan, variant),
    )
    if level is not None:
        level.label = variant.label
    if figures.cross is not None:
        figures.cross.label = variant.label
    first = {r.idx: r for r in level_rows}
    for replay in reroll_rows:
        original = first.get(replay.idx)
        if original is None or not (original.ended_by_rules and replay.ended_by_rules):
            continue
        figures.chance_pairs += 1
        figures.chance_changed += original.winner != replay.winner
        figures.chance_same += same_game(original) == same_game(replay)
    return figures


def _picture(plan: Plan, variant: Variant) -> str | None:
    if not PICTURED_OPTIONS & set(variant.options):
        return None  # the standard board of a game is not drawn again for every variant
    return first_position(plan.game, _options(plan, variant))


def level_specs(game: str | None = None) -> dict[str, str]:
    """The levels as the book names them, with their specs in `game` (see `agents.levels`)."""
    return levels(game)


def length_summary(values: Sequence[float]) -> str:
    if not values:
        return "-"
    return f"{mean(values):.0f} (90%: {percentile(values, 0.9):.0f})"
