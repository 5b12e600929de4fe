"""The balance book's pipeline on a tiny study: variants played, figures read back, pages written."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from chaosgames.sim import Job, LabError, LabStore
from chaosgames.sim.book import designer_notes, fairness_table, html_page, luck_figure, markdown, shape_table
from chaosgames.sim.study import (
    PLANS,
    Plan,
    StudySettings,
    Variant,
    analyse,
    own_plan,
    plan_for,
    study,
    variant_jobs,
)

pytestmark = pytest.mark.usefixtures("toy_games")

TOY = Plan(
    "toy-dice-race",
    (Variant("standard game"), Variant("a far goal", {"goal": 30})),
    {"rounds": 40},
)


@pytest.fixture
def toy_plan(monkeypatch: pytest.MonkeyPatch) -> Plan:
    monkeypatch.setitem(PLANS, "toy-dice-race", TOY)
    return TOY


def settings(db: Path, **given: object) -> StudySettings:
    sizes: dict[str, object] = {"games": 4, "skill_games": 2, "reroll_games": 2, "level": "random"}
    sizes.update(given)
    return StudySettings(db=db, **sizes)  # type: ignore[arg-type]


def test_a_tiny_study_plays_every_job_of_every_variant_and_reads_the_figures(
    toy_plan: Plan, tmp_path: Path
) -> None:
    chosen = settings(tmp_path / "b.db")
    assert study(["toy-dice-race"], chosen) is True
    with LabStore(chosen.db) as store:
        rows = store.rows()
    # Two variants, each: 4 games at the level, 2 of hard vs easy, 2 replayed with other dice.
    assert len(rows) == 2 * (4 + 2 + 2)
    (game,) = analyse(["toy-dice-race"], chosen)
    standard, far = game.variants
    assert standard.games == far.games == 4
    assert standard.skill is not None and standard.skill.games == 2
    assert standard.chance_pairs == 2 and 0 <= standard.chance_changed <= 2
    assert far.level is not None and far.level.options["goal"] == 30
    assert sum(standard.finishes.values()) == 4
    assert len(standard.decisions) == 4 and all(d > 0 for d in standard.decisions)
    # Running it again plays nothing: every job is full.
    played: list[int] = []
    assert study(["toy-dice-race"], chosen, on_pass=lambda n, _: played.append(n)) is True
    assert played and played[-1] == 0


def test_a_study_out_of_time_stops_between_jobs_and_resumes(toy_plan: Plan, tmp_path: Path) -> None:
    chosen = settings(tmp_path / "b.db", minutes=0)
    assert study(["toy-dice-race"], chosen) is False
    with LabStore(chosen.db) as store:
        assert store.rows() == []
    assert study(["toy-dice-race"], settings(tmp_path / "b.db")) is True
    # With every job full, a run with no time (to rewrite the book) says so.
    assert study(["toy-dice-race"], chosen) is True
    assert study(["toy-dice-race"], settings(tmp_path / "b.db", games=5, minutes=0)) is False


def test_the_time_running_out_in_the_middle_of_a_job_keeps_every_stored_game(
    toy_plan: Plan, tmp_path: Path
) -> None:
    slow = settings(tmp_path / "b.db", level="mcts:iterations=300", games=40, minutes=0.01)
    assert study(["toy-dice-race"], slow) is False
    with LabStore(slow.db) as store:
        stored = len(store.rows())
    assert stored < 2 * (40 + 2 + 2)
    # Nothing was lost: resuming with room plays exactly the games that are missing.
    smaller = settings(tmp_path / "b.db", level="mcts:iterations=300", games=2)
    study(["toy-dice-race"], smaller)
    with LabStore(slow.db) as store:
        assert len({(r.job, r.idx) for r in store.rows()}) == len(store.rows())


class _Ticking:
    """A clock for the study alone that moves one minute each time it is read."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        self.now += 60.0
        return self.now


def test_the_time_running_out_stops_the_job_right_after_a_stored_game(
    toy_plan: Plan, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Read at the start (minute 1, so the end is minute 3.5), before the first job (minute 2:
    # time left), after its first game (3: left) and after its second (4: out of time).
    monkeypatch.setattr("chaosgames.sim.study.time", _Ticking())
    chosen = settings(tmp_path / "b.db", games=8, batch=8, minutes=2.5)
    assert study(["toy-dice-race"], chosen) is False
    with LabStore(chosen.db) as store:
        assert sorted(r.idx for r in store.rows()) == [0, 1]


def test_the_chance_share_counts_replays_whose_winner_differs(toy_plan: Plan, tmp_path: Path) -> None:
    chosen = settings(tmp_path / "b.db", games=3, skill_games=0, reroll_games=3)
    study(["toy-dice-race"], chosen)
    first = Job.build("toy-dice-race", ["random", "random"], chosen.seed, {"rounds": 40})
    again = Job.build("toy-dice-race", ["random", "random"], chosen.seed, {"rounds": 40}, reroll=1)
    with LabStore(chosen.db) as store:
        originals = store.rows("WHERE job = ?", (first.key,))
        replays = store.rows("WHERE job = ?", (again.key,))
    assert [r.idx for r in originals] == [r.idx for r in replays] == [0, 1, 2]
    # Same agents with the same seeds, other dice.
    assert all(a.seats == b.seats and a.seed != b.seed for a, b in zip(originals, replays, strict=True))
    changed = sum(a.winner != b.winner for a, b in zip(originals, replays, strict=True))
    standard = analyse(["toy-dice-race"], chosen)[0].variants[0]
    assert (standard.chance_pairs, standard.chance_changed) == (3, changed)


def test_the_book_has_a_paragraph_and_two_tables_per_game(toy_plan: Plan, tmp_path: Path) -> None:
    chosen = settings(tmp_path / "b.db")
    study(["toy-dice-race"], chosen)
    figures = analyse(["toy-dice-race"], chosen)
    text = markdown(figures, chosen, "chaosgames study toy-dice-race", "today", "A test.")
    assert "## Toy Dice Race" in text and "**What a designer should know.**" in text
    # Four tables name each variant (length, seats, how it plays) and the claims a row per claim.
    assert text.count("| standard game |") >= 3 and text.count("| a far goal |") >= 3
    assert "Claims (Holm's correction over the section)" in text
    notes = designer_notes(figures[0])
    assert "8 games" in notes and "Hard against easy" in notes and "winner changed" in notes
    assert len(shape_table(figures[0]).rows) == len(fairness_table(figures[0]).rows) == 2


def test_a_variant_whose_seat_wins_clearly_more_than_its_share_is_named(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # A goal of 1 square: the first to roll anything but 0 wins, most often seat 1.
    sprint = Plan(
        "toy-dice-race", (Variant("standard game"), Variant("a sprint", {"goal": 1})), {"rounds": 40}
    )
    monkeypatch.setitem(PLANS, "toy-dice-race", sprint)
    # Forty games: enough for the seat-balance test, then seat 1's own, to hold after Holm.
    chosen = settings(tmp_path / "b.db", games=40, skill_games=0, reroll_games=0)
    study(["toy-dice-race"], chosen)
    (figures,) = analyse(["toy-dice-race"], chosen)
    fast = figures.variants[1]
    assert fast.level is not None
    first = fast.level.by_seat[0]
    assert first.interval[0] > fast.fair_share  # the situation: seat 1 clearly ahead
    assert "In the variant a sprint, seat 1 wins more than its share" in designer_notes(figures)


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"seed": 10**26}, "The seed must be at most 9,223,372,036,854,775,807"),
        ({"seed": "2026"}, "The seed must be a whole number, not '2026'"),
        ({"games": 0}, "number of games per variant must be at least 1, not 0"),
        ({"games": 10**9}, "number of games per variant must be at most 10,000,000"),
        ({"skill_games": -1}, "number of skill games per variant must be at least 0"),
        ({"reroll_games": 2.5}, "number of rerolled games per variant must be a whole number"),
        ({"batch": 0}, "The batch must be at least 1, not 0"),
        ({"workers": 0}, "number of workers must be at least 1"),
        ({"max_actions": 10**26}, "action cap must be at most"),
        ({"minutes": -1}, "minutes are a number of at least 0, not -1"),
        ({"minutes": float("nan")}, "minutes are a number of at least 0, not nan"),
        ({"level": None}, "level is a level or agent name, not None"),
        ({"db": None}, "A lab database is named by a file path, not by None"),
    ],
)
def test_bad_study_settings_are_refused_before_any_game(
    toy_plan: Plan, tmp_path: Path, given: dict[str, object], message: str
) -> None:
    with pytest.raises(LabError, match=message):
        study(["toy-dice-race"], settings(**{"db": tmp_path / "b.db", **given}))  # type: ignore[arg-type]
    assert list(tmp_path.iterdir()) == []


def test_every_game_has_a_plan_naming_its_variants() -> None:
    assert plan_for("chaos-cruisers").variants[0].label == "standard game"
    assert len(plan_for("chaos-cruisers").variants) == 11
    labels = [v.label for v in plan_for("chaos-checkers").variants]
    assert labels == [
        "standard game",
        "no chaos (plain checkers)",
        "pink Reclaim potions",
        "capture not forced",
    ]


def test_the_other_player_plays_every_variant_and_the_racing_games_say_why_not(
    toy_plan: Plan, tmp_path: Path
) -> None:
    chosen = settings(tmp_path / "b.db", cross_games=2, skill_games=0, reroll_games=0)
    study(["toy-dice-race"], chosen)
    (figures,) = analyse(["toy-dice-race"], chosen)
    for variant in figures.variants:
        # The level is random: the other kind of player is easy, greedy, in every seat.
        assert variant.cross is not None and variant.cross.games == 2
        assert set(variant.cross.by_lineup) == {("greedy", "greedy")}
    racing = StudySettings(db=tmp_path / "r.db", cross_games=4)
    for game in ("chaos-cruisers", "royal-racers"):
        plan = plan_for(game)
        jobs = [job.kind for v in plan.variants for job in variant_jobs(plan, v, racing)]
        assert plan.no_cross and "cross" not in jobs
    assert own_plan("chaos-cruisers", {"laps": 1}, "one lap").no_cross == plan_for("chaos-cruisers").no_cross
    said = replace(figures, plan=replace(TOY, no_cross="a reason"))
    assert "The other-player check is left out: a reason." in designer_notes(said)


def test_the_book_page_shows_a_designers_words_as_written(tmp_path: Path) -> None:
    # A note or an option with markup in it is text on the page, never markup (the templates escape).
    plan = own_plan("chaos-cruisers", {"laps": 1}, "Sam's one lap")
    (cruisers,) = analyse(["chaos-cruisers"], StudySettings(db=tmp_path / "c.db"), {"chaos-cruisers": plan})
    page = html_page(
        [cruisers], "chaosgames study -o 'x=<i>1</i>'", "today", "Ran <script>x</script> & more."
    )
    assert "<td>Sam&#39;s one lap</td>" in page
    assert "Ran &lt;script&gt;x&lt;/script&gt; &amp; more." in page and "<script" not in page
    assert "<code>chaosgames study -o &#39;x=&lt;i&gt;1&lt;/i&gt;&#39;</code>" in page and "<i>" not in page


def test_a_course_variant_shows_its_course_and_every_chart_names_its_variants(
    toy_plan: Plan, tmp_path: Path
) -> None:
    course = (Path(__file__).parents[2] / "docs/results/designer/long-oval.json").read_text()
    plan = own_plan("chaos-cruisers", {"course": course}, "long-oval")
    (cruisers,) = analyse(["chaos-cruisers"], StudySettings(db=tmp_path / "c.db"), {"chaos-cruisers": plan})
    standard, oval = cruisers.variants
    assert standard.picture is None and oval.picture is not None and "<svg" in oval.picture
    assert "long-oval: the first position" in html_page([cruisers], "chaosgames study", "today", "")
    # The luck-and-skill chart (issue 53: it had no variant labels) names each variant with its n.
    chosen = settings(tmp_path / "b.db")
    study(["toy-dice-race"], chosen)
    (toy,) = analyse(["toy-dice-race"], chosen)
    figure = luck_figure(toy)
    assert figure is not None
    length, luck = ([label.get_text() for label in axes.get_yticklabels()] for axes in figure.axes)
    assert length == ["standard game (n 4)", "a far goal (n 4)"], length
    assert luck == ["standard game (n 2 replays, 2 hard)", "a far goal (n 2 replays, 2 hard)"], luck
