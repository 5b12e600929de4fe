"""The simulation lab: deterministic, resumable, seats rotated, games stored once."""

from __future__ import annotations

import multiprocessing
import sqlite3
from pathlib import Path

import pytest

import chaosgames
from chaosgames import agents
from chaosgames.sim import (
    Job,
    LabError,
    LabInterrupted,
    LabSettings,
    LabStore,
    Task,
    derive_seed,
    play_match,
    simulate,
    tournament,
)
from chaosgames.sim.match import _LeadTracker, leader_of, winner_of

pytestmark = pytest.mark.usefixtures("toy_games")

SEATS = ["mcts:iterations=20", "greedy", "random"]


def _rows(db: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as connection:
        return connection.execute("SELECT * FROM games ORDER BY job, idx").fetchall()


def test_same_command_same_database_content_whatever_the_workers(tmp_path: Path) -> None:
    one, two = tmp_path / "one.db", tmp_path / "two.db"
    simulate("toy-dice-race", SEATS, 9, LabSettings(db=one, seed=5, workers=1, keep_records=True))
    simulate("toy-dice-race", SEATS, 9, LabSettings(db=two, seed=5, workers=2, keep_records=True))
    assert _rows(one) == _rows(two)
    assert len(_rows(one)) == 9
    other = tmp_path / "other.db"
    simulate("toy-dice-race", SEATS, 9, LabSettings(db=other, seed=6))
    assert [r[7] for r in _rows(other)] != [r[7] for r in _rows(one)]


def test_an_interrupted_run_resumes_without_losing_or_duplicating_games(tmp_path: Path) -> None:
    db = tmp_path / "lab.db"

    def stop_after_four(done: int, total: int) -> None:
        if done == 4:
            raise KeyboardInterrupt

    with pytest.raises(LabInterrupted, match="4 of 10 games are stored"):
        simulate("toy-dice-race", SEATS, 10, LabSettings(db=db, seed=2), on_game=stop_after_four)
    assert len(_rows(db)) == 4
    summary = simulate("toy-dice-race", SEATS, 10, LabSettings(db=db, seed=2))
    assert (summary.already_stored, summary.played) == (4, 6)
    straight = tmp_path / "straight.db"
    simulate("toy-dice-race", SEATS, 10, LabSettings(db=straight, seed=2))
    assert _rows(db) == _rows(straight)
    # Running the finished job again plays nothing; asking for more plays only the new ones.
    assert simulate("toy-dice-race", SEATS, 10, LabSettings(db=db, seed=2)).played == 0
    assert simulate("toy-dice-race", SEATS, 12, LabSettings(db=db, seed=2)).played == 2
    assert [r[1] for r in _rows(db)] == list(range(12))


def test_an_interruption_names_a_long_database_path_shortened(tmp_path: Path) -> None:
    folder = tmp_path / ("d" * 200)
    folder.mkdir()

    def stop(done: int, total: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(LabInterrupted, match=r"1 of 2 games are stored in '.*…d*/lab\.db'") as stopped:
        simulate("toy-dice-race", SEATS, 2, LabSettings(db=folder / "lab.db"), on_game=stop)
    assert "d" * 61 not in str(stopped.value)


def test_an_interruption_with_worker_processes_keeps_every_stored_game(tmp_path: Path) -> None:
    db = tmp_path / "lab.db"

    def stop_after_three(done: int, total: int) -> None:
        if done == 3:
            raise KeyboardInterrupt

    with pytest.raises(LabInterrupted):
        simulate("toy-dice-race", SEATS, 12, LabSettings(db=db, seed=4, workers=2), on_game=stop_after_three)
    assert len(_rows(db)) == 3
    # The workers were stopped, not left playing the games in flight.
    assert multiprocessing.active_children() == []
    simulate("toy-dice-race", SEATS, 12, LabSettings(db=db, seed=4, workers=2))
    assert [r[1] for r in _rows(db)] == list(range(12))


@pytest.mark.parametrize("workers", [1, 2])
def test_a_long_job_makes_each_games_task_only_when_it_is_handed_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    made: list[int] = []
    real = Job.task

    def counted(job: Job, idx: int, keep_record: bool = False) -> Task:
        made.append(idx)
        return real(job, idx, keep_record)

    monkeypatch.setattr(Job, "task", counted)

    def stop_after_two(done: int, total: int) -> None:
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(LabInterrupted, match="2 of 100000 games are stored"):
        simulate(
            "toy-dice-race",
            SEATS,
            100_000,
            LabSettings(db=tmp_path / "lab.db", workers=workers),
            on_game=stop_after_two,
        )
    # The games played and those waiting in the workers' pipes, not a task per game of the job.
    assert len(made) <= 2 + 2 * workers


def test_a_job_of_more_games_than_the_lab_takes_is_refused_before_the_database_is_made(
    tmp_path: Path,
) -> None:
    db = tmp_path / "lab.db"
    with pytest.raises(LabError, match="number of games must be at most 10,000,000, not 1,000,000,000"):
        simulate("toy-dice-race", ["random", "random"], 1_000_000_000, LabSettings(db=db))
    assert not db.exists()


def test_seats_rotate_so_every_agent_plays_every_seat_equally(tmp_path: Path) -> None:
    db = tmp_path / "lab.db"
    simulate("toy-dice-race", ["greedy", "random", "mcts:iterations=10"], 6, LabSettings(db=db, seed=1))
    with LabStore(db) as store:
        rows = store.rows()
    for row in rows:
        n = len(row.lineup)
        assert row.rotation == row.idx % n
        assert row.seats == [row.lineup[(p + row.idx) % n] for p in range(n)]
    for seat in range(3):
        assert sorted(row.seats[seat] for row in rows) == sorted(
            ["greedy", "random", "mcts:iterations=10"] * 2
        )


def test_game_seeds_derive_from_the_job_seed_and_the_game_number() -> None:
    job = Job.build("toy-dice-race", ["greedy", "random"], seed=7)
    assert job.task(3).seed == derive_seed("game", 7, 3)
    assert job.task(3).seed != job.task(4).seed
    # Other agents meet the same dice: the chance seed does not depend on the lineup.
    assert Job.build("toy-dice-race", ["random", "random"], seed=7).task(3).seed == job.task(3).seed
    assert Job.build("toy-dice-race", ["random", "random"], seed=7).key != job.key


def test_players_follow_the_number_of_seats_and_specs_are_normalised() -> None:
    job = Job.build("toy-dice-race", ["greedy", "mcts:iterations=0", "random"], options={"goal": "20"})
    assert job.options == {"players": 3, "goal": 20, "rounds": 30}
    assert job.lineup == ("greedy", "mcts", "random")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"game": "no-such-game"}, "There is no game called 'no-such-game'"),
        ({"seats": ["greedy", "deep-blue"]}, "no agent or level called 'deep-blue'"),
        ({"seats": ["greedy", "mcts:budget=3"]}, "no parameter budget"),
        ({"seats": ["greedy"] * 5}, "must be at most 4"),
        ({"options": {"players": 3}}, "3 players but 2 seats"),
        ({"options": {"goal": "far"}}, "Option 'goal' takes a whole number"),
        ({"options": {"colour": "red"}}, "has no option colour"),
        ({"games": 0}, "at least 1"),
        ({"workers": 0}, "at least 1"),
        ({"backend": "slurm"}, "no backend 'slurm'"),
        # Whole numbers are ints (not floats, text or bools) in the range the database stores.
        ({"seed": 10**26}, "seed must be at most 9,223,372,036,854,775,807, not 100000000000000000000000000"),
        ({"seed": -(2**63) - 1}, "seed must be at least -9,223,372,036,854,775,808"),
        ({"seed": None}, "seed must be a whole number, not None"),
        ({"seed": 1.5}, "seed must be a whole number, not 1.5"),
        ({"seed": "x"}, "seed must be a whole number, not 'x'"),
        ({"seed": True}, "seed must be a whole number, not True"),
        ({"max_actions": 1.5}, "action cap must be a whole number, not 1.5"),
        ({"max_actions": 10**26}, "action cap must be at most 9,223,372,036,854,775,807"),
        ({"max_actions": 0}, "action cap must be at least 1, not 0"),
        ({"workers": 1.5}, "number of workers must be a whole number, not 1.5"),
        ({"workers": "2"}, "number of workers must be a whole number, not '2'"),
        ({"workers": 10**6}, "number of workers must be at most 1,000"),
        ({"games": 1.5}, "number of games must be a whole number, not 1.5"),
        ({"games": True}, "number of games must be a whole number, not True"),
        ({"options": [("goal", 5)]}, "options are a mapping of names to values"),
        ({"keep_records": "yes"}, "keep_records is True or False, not 'yes'"),
        ({"db": None}, "A lab database is named by a file path, not by None"),
    ],
)
def test_bad_input_is_refused_with_a_sentence_and_makes_no_database(
    tmp_path: Path, args: dict[str, object], message: str
) -> None:
    call: dict[str, object] = {"game": "toy-dice-race", "seats": ["greedy", "random"], "games": 2}
    call.update({"db": tmp_path / "x.db", **args})
    with pytest.raises(chaosgames.ChaosGamesError, match=message):
        game, seats, games = call.pop("game"), call.pop("seats"), call.pop("games")
        simulate(game, seats, games, LabSettings(**call))  # type: ignore[arg-type]
    assert list(tmp_path.iterdir()) == []


def test_a_rerolled_job_needs_a_whole_reroll_number() -> None:
    with pytest.raises(LabError, match="reroll number must be at least 0, not -1"):
        Job.build("toy-dice-race", ["greedy", "random"], reroll=-1)


def test_a_match_records_every_action_and_chance_outcome() -> None:
    game = chaosgames.load_game("toy-dice-race", players=3)
    seats = [agents.make("greedy", seed=p) for p in range(3)]
    played = play_match(game, seats, seed=9)
    record, metrics = played.record, played.result
    assert any(a.startswith("roll:") for a in record.actions)
    assert record.replay().returns() == record.result == played.state.returns()
    assert metrics.actions == len(record.actions)
    assert metrics.rounds == record.replay().round_number()
    assert metrics.capped is False and metrics.ended_by == record.ended_by == "rules"
    assert metrics.winner == winner_of(record.result or [])
    # Every decision is counted with the legal actions the player had.
    assert metrics.decisions == sum(1 for a in record.actions if not a.startswith("roll:"))
    assert metrics.choices == 2 * metrics.decisions  # safe or risky, every turn


def test_a_game_that_runs_out_of_actions_is_capped() -> None:
    game = chaosgames.load_game("toy-dice-race", players=2, goal=100)
    played = play_match(
        game, [agents.make("random", seed=1), agents.make("random", seed=2)], seed=1, max_actions=10
    )
    record, metrics = played.record, played.result
    assert metrics.capped is True and metrics.returns is None and metrics.winner is None
    assert len(record.actions) == 10 and record.result is None
    # Stopped by the lab, not finished: no ending by the rules nor by a game's own cap.
    assert metrics.ended_by is None and record.ended_by is None and metrics.ending == "lab"


def test_a_game_ended_by_its_own_cap_says_so_in_the_metrics() -> None:
    game = chaosgames.load_game("chaos-checkers", chaos=False, max_moves=4)
    played = play_match(game, [agents.make("random", seed=1), agents.make("random", seed=2)], seed=1)
    metrics = played.result
    assert metrics.capped is False and metrics.returns == [0.5, 0.5]
    assert metrics.ended_by == played.record.ended_by == "cap"


def test_capped_and_shared_games_are_stored_as_such(tmp_path: Path) -> None:
    db = tmp_path / "lab.db"
    simulate(
        "toy-dice-race", ["random", "random"], 4, LabSettings(db=db, options={"goal": 100}, max_actions=6)
    )
    with LabStore(db) as store:
        assert all(r.capped and r.winner is None and r.returns is None for r in store.rows())
    # One round, goal never reached: the leaders share, often a draw.
    simulate(
        "toy-dice-race", ["random", "random"], 20, LabSettings(db=db, options={"goal": 100, "rounds": 1})
    )
    with LabStore(db) as store:
        shared = [r for r in store.rows("WHERE capped = 0") if r.winner is None]
    assert shared and all(r.returns == [0.5, 0.5] for r in shared)


def test_leaders_lead_changes_and_half_time() -> None:
    assert leader_of([0.2, 0.5, 0.3]) == 1
    assert leader_of([0.4, 0.4, 0.2]) is None
    game = chaosgames.load_game("toy-dice-race", players=2)
    tracker = _LeadTracker(game)
    # Leader 0, then level (not a change), 0 again, then 1, then 0: two changes.
    tracker.samples = [(0, 0), (4, None), (8, 0), (12, 1), (16, 0)]
    state = game.new_initial_state()
    result = tracker.result(state, played=20)
    assert result.lead_changes == 2
    assert result.leader_at_half == 0  # the sample at 8 actions is the last in the first half
    tracker.samples = [(0, None), (6, 1), (11, 0)]
    assert tracker.result(state, played=12).leader_at_half == 1


def test_tournament_plays_every_lineup(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    summaries = tournament(
        "toy-dice-race", ["greedy", "random", "mcts:iterations=10"], 2, LabSettings(db=db, seed=1)
    )
    assert len(summaries) == 3
    with LabStore(db) as store:
        assert len({tuple(r.lineup) for r in store.rows()}) == 3


def test_ray_backend_gives_the_same_rows(tmp_path: Path) -> None:
    ray = pytest.importorskip("ray")
    local, remote = tmp_path / "local.db", tmp_path / "ray.db"
    simulate("toy-dice-race", SEATS, 6, LabSettings(db=local, seed=3))
    try:
        simulate("toy-dice-race", SEATS, 6, LabSettings(db=remote, seed=3, workers=2, backend="ray"))
    finally:
        ray.shutdown()
    assert _rows(local) == _rows(remote)


def test_stored_records_replay_to_the_stored_result(tmp_path: Path) -> None:
    db = tmp_path / "lab.db"
    summary = simulate("toy-dice-race", SEATS, 3, LabSettings(db=db, seed=8, keep_records=True))
    simulate("toy-dice-race", ["random", "random"], 1, LabSettings(db=db, seed=8))
    with LabStore(db) as store:
        for row in store.rows("WHERE job = ?", (summary.job,)):
            record = store.record(summary.job, row.idx)
            assert record.players == row.seats
            assert record.replay().returns() == row.returns
            assert len(record.actions) == row.actions
        other = store.rows("WHERE job != ?", (summary.job,))[0]
        with pytest.raises(LabError, match="without its record"):
            store.record(other.job, 0)
        with pytest.raises(LabError, match="not in"):
            store.record(summary.job, 99)


def test_without_rounds_the_leader_is_sampled_every_n_decisions(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.toy_games import DiceRaceState

    monkeypatch.setattr(DiceRaceState, "round_number", lambda self: 0)
    game = chaosgames.load_game("toy-dice-race", players=2)
    played = play_match(game, [agents.make("greedy", seed=0), agents.make("random", seed=0)], seed=3)
    record = played.record
    decisions = sum(1 for a in record.actions if not a.startswith("roll:"))
    tracker = _LeadTracker(game)
    state = game.new_initial_state()
    for text in record.actions:
        if not state.is_chance_node():
            tracker.sample(state, 0)
        state.apply_action(text)
    assert len(tracker.samples) == (decisions + 1) // 2
    assert played.result.rounds == 0


def test_the_ray_backend_without_ray_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(LabError, match=r"pip install 'chaosgames\[ray\]'"):
        simulate("toy-dice-race", ["greedy", "random"], 2, LabSettings(db=tmp_path / "x.db", backend="ray"))


OLD_SCHEMA = """
CREATE TABLE jobs (job TEXT PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL,
    lineup TEXT NOT NULL, seed INTEGER NOT NULL, max_actions INTEGER NOT NULL);
CREATE TABLE games (job TEXT NOT NULL, idx INTEGER NOT NULL, game TEXT NOT NULL,
    options TEXT NOT NULL, seats TEXT NOT NULL, lineup TEXT NOT NULL, rotation INTEGER NOT NULL,
    seed INTEGER NOT NULL, winner INTEGER, winner_agent TEXT, returns TEXT, rounds INTEGER NOT NULL,
    actions INTEGER NOT NULL, lead_changes INTEGER NOT NULL, leader_at_half INTEGER,
    capped INTEGER NOT NULL, record TEXT, PRIMARY KEY (job, idx));
CREATE TABLE timings (job TEXT NOT NULL, idx INTEGER NOT NULL, seconds REAL NOT NULL,
    PRIMARY KEY (job, idx));
"""


def test_a_database_written_before_endings_were_stored_is_still_read_and_extended(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    with sqlite3.connect(db) as connection:
        connection.executescript(OLD_SCHEMA)
        old = (
            "INSERT INTO games VALUES ('old', ?, 'toy-dice-race', ?, '[\"a\",\"b\"]', '[\"a\",\"b\"]', "
            "0, 1, ?, 'a', ?, ?, 50, 0, NULL, ?, NULL)"
        )
        connection.execute(old, (0, '{"max_rounds":30}', 0, "[1.0,0.0]", 30, 0))  # ran to its round cap
        connection.execute(old, (1, '{"max_rounds":30}', 0, "[1.0,0.0]", 12, 0))  # won before it
        connection.execute(old, (2, "{}", None, None, 99, 1))  # stopped by the lab
    with LabStore(db) as store:
        assert [r.ended_by for r in store.rows()] == ["cap", "rules", "lab"]
        assert all(r.decisions is None and r.branching is None for r in store.rows())
    # Writing to it adds the new columns; the old rows keep reading as before.
    simulate("toy-dice-race", ["greedy", "random"], 2, LabSettings(db=db, seed=1))
    with LabStore(db) as store:
        rows = store.rows()
    assert [r.ended_by for r in rows] == ["rules", "rules", "cap", "rules", "lab"]
    new = [r for r in rows if r.job != "old"]
    assert all(r.decisions is not None and r.decisions > 0 for r in new)


def test_a_rerolled_job_replays_the_same_games_with_other_dice_and_the_same_agents() -> None:
    job = Job.build("toy-dice-race", ["mcts:iterations=10", "greedy"], seed=3)
    again = Job.build("toy-dice-race", ["mcts:iterations=10", "greedy"], seed=3, reroll=1)
    assert again.key != job.key
    first, replay = job.task(5), again.task(5)
    assert replay.seed != first.seed and replay.seed == derive_seed("reroll", 3, 5, 1)
    assert replay.agent_seeds == first.agent_seeds and replay.seats == first.seats


def test_a_job_whose_stored_games_the_code_no_longer_plays_is_not_resumed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "lab.db"
    simulate("toy-dice-race", SEATS, 4, LabSettings(db=db, seed=3))
    before = _rows(db)
    # The same command after the random agent was rewritten to always take the safe die
    # (in game 0 it had taken the risky one): its games would differ.
    monkeypatch.setattr(agents.RandomAgent, "choose", lambda self, state, progress=None: "safe")
    with pytest.raises(LabError, match="played by other code: game 0 no longer opens as stored"):
        simulate("toy-dice-race", SEATS, 8, LabSettings(db=db, seed=3))
    assert _rows(db) == before
    # A new database (or another seed) takes the new code's games.
    assert simulate("toy-dice-race", SEATS, 8, LabSettings(db=tmp_path / "new.db", seed=3)).played == 8


def test_a_job_is_resumed_when_the_code_plays_its_stored_openings_alike(tmp_path: Path) -> None:
    db = tmp_path / "lab.db"
    simulate("toy-dice-race", SEATS, 4, LabSettings(db=db, seed=3))
    with LabStore(db) as store:
        openings = [row.opening for row in store.rows()]
    assert all(isinstance(o, str) and len(o) == 16 for o in openings)
    assert len(set(openings)) == 4  # each game opens its own way: the digest tells them apart
    checked: set[str] = set()
    summary = simulate("toy-dice-race", SEATS, 6, LabSettings(db=db, seed=3), checked=checked)
    assert (summary.already_stored, summary.played) == (4, 2)
    assert checked == {summary.job}


def test_games_stored_before_openings_were_kept_are_resumed_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "lab.db"
    simulate("toy-dice-race", SEATS, 3, LabSettings(db=db, seed=3))
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE games SET opening = NULL")
    monkeypatch.setattr(agents.RandomAgent, "choose", lambda self, state, progress=None: "safe")
    assert simulate("toy-dice-race", SEATS, 5, LabSettings(db=db, seed=3)).played == 2
