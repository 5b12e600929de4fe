"""Strength: `mcts` (1 s per move) against `greedy` in every registered game.

Each game is played at its default number of players: one `mcts` seat, the others
`greedy`; seats rotate, so every agent plays every seat equally. The target is that
`mcts` wins clearly more than its fair share (1/players), with the Wilson 95% interval
above it. Full runs write `docs/results/strength.md` and `.json` with the command, and
keep their games in `docs/results/strength.db` (so a run can be resumed).

    python benchmarks/strength.py                      # full budgets: time=1.0, 20 games each
    python benchmarks/strength.py --games 40 --workers 2 --mcts mcts:time=1.0
    python benchmarks/strength.py --quick              # tiny budgets (what make bench runs)
    python benchmarks/strength.py --game royal-racers --players 2 --mcts mcts:iterations=1000

A run at another number of players than the game's default is kept as a row of its own
(keyed `game@Np` in strength.json).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import sys
import tempfile
from pathlib import Path
from typing import Any

import chaosgames
from chaosgames.sim import GameRow, Job, LabSettings, LabStore, simulate, summarise
from chaosgames.sim.storage import ENDED_BY_CAP, STOPPED_BY_LAB

try:
    from benchmarks.caps import capped_options  # imported as a package (the tests)
except ImportError:  # run as a script: benchmarks/ is on the path
    from caps import capped_options  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "docs" / "results"
FULL_MCTS = "mcts:time=1.0"
QUICK_MCTS = "mcts:iterations=30"
MORE = "<!-- other benchmarks: kept when this table is rewritten -->"
"""strength.md below this line holds the figures of the other strength benchmarks
(vs_openspiel.py, race_length.py, the ladder), each with its command."""


def measure(
    games: list[str],
    mcts: str,
    per_game: int,
    db: Path,
    workers: int = 1,
    seed: int = 2026,
    opponent: str = "greedy",
    players: int | None = None,
) -> dict[str, Any]:
    """Play every game; the figures of `mcts` in each (win rate, interval, fair share),
    at `players` players (each game's default when None)."""
    results: dict[str, Any] = {}
    for name in games:
        default = chaosgames.core.game_class(name).default_players
        count_players = players or default
        seats = [mcts] + [opponent] * (count_players - 1)
        # A whole number of rotations, so each agent sits in every seat as often.
        count = max(count_players, per_game - per_game % count_players)
        options = capped_options(name, players=count_players)
        simulate(
            name,
            seats,
            count,
            LabSettings(db=db, seed=seed, options=options, workers=workers),
            show_progress=True,
        )
        job = Job.build(name, seats, seed, options)
        with LabStore(db) as store:
            rows = store.rows("WHERE job = ? AND idx < ?", (job.key, count))
        summary = summarise(rows)[0]
        label = job.lineup[0]
        rate = summary.by_agent[label]
        low, high = rate.interval
        results[name if count_players == default else f"{name}@{count_players}p"] = {
            "game": name,
            "players": count_players,
            "games": summary.games,
            "capped": summary.endings[STOPPED_BY_LAB],
            "at_round_cap": at_round_cap(rows),
            "mcts": label,
            "opponent": opponent,
            "win_rate": rate.rate,
            "interval95": [low, high],
            "fair_share": summary.fair_share,
            "clearly_above_fair_share": low > summary.fair_share,
            "mean_rounds": sum(summary.rounds) / len(summary.rounds),
        }
        print(
            f"{name:22s} {count_players}p {summary.games:4d} games  mcts {100 * rate.rate:5.1f}% "
            f"[{100 * low:5.1f}, {100 * high:5.1f}]  fair {100 * summary.fair_share:4.1f}%"
            f"  {'ABOVE' if low > summary.fair_share else 'not clearly above'}"
        )
    return results


def at_round_cap(rows: list[GameRow]) -> int:
    """How many games their own length cap (an option such as `max_rounds`) decided."""
    return sum(1 for row in rows if row.ended_by == ENDED_BY_CAP)


def write_results(results: dict[str, Any], command: str) -> None:
    """Merge the games measured by `command` into docs/results/strength.json and rewrite
    strength.md from all of them (each game keeps the command that measured it)."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / "strength.json"
    merged: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))["results"] if path.exists() else {}
    measured_on = {
        "date": datetime.date.today().isoformat(),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
    }
    for name, figures in results.items():
        merged[name] = {**figures, "command": command, "measured_on": measured_on}
    doc = {"results": dict(sorted(merged.items()))}
    path.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    page = RESULTS / "strength.md"
    kept = page.read_text(encoding="utf-8").partition(MORE)[2] if page.exists() else ""
    page.write_text(markdown(doc["results"]) + ("\n" + MORE + kept if kept else ""), encoding="utf-8")


def markdown(results: dict[str, Any]) -> str:
    lines = [
        "# Strength: mcts against greedy",
        "",
        "One mcts seat, the others greedy, at each game's default number of players; seats rotate,",
        "so the mcts seat sits in every seat equally often. Win rate counts a shared win as a share;",
        "the interval is Wilson 95%. The games are kept in `strength.db` (the lab's database: run",
        "`chaosgames report --db docs/results/strength.db` for the full report). `capped` counts games",
        "stopped by the lab's action cap (no result); `at round cap` counts finished games that ran",
        "to their own round cap (`max_rounds`) and were decided as their options say (in Chaos",
        "Cruisers, by the lead order).",
        "",
        "| game | players | games | capped | at round cap | mcts win rate | 95% interval | fair share "
        "| clearly above | mean rounds |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name, r in results.items():
        low, high = r["interval95"]
        lines.append(
            f"| {r.get('game', name)} | {r['players']} | {r['games']} | {r['capped']} "
            f"| {r.get('at_round_cap', '-')} "
            f"| {100 * r['win_rate']:.1f}% "
            f"| {100 * low:.1f}-{100 * high:.1f}% | {100 * r['fair_share']:.1f}% "
            f"| {'yes' if r['clearly_above_fair_share'] else 'no'} | {r['mean_rounds']:.1f} |"
        )
    lines += ["", "Commands (from the repository root, after `make test` or `make bench`):", ""]
    for name, r in results.items():
        where = r.get("measured_on")
        on = f"; {where['date']}, {where['cpus']} cores, Python {where['python']}" if where else ""
        label = f"{r['game']} ({r['players']} players)" if "@" in name else name
        lines.append(f"- {label}: `{r['command']}` ({r['mcts']} against {r['opponent']}{on})")
    return "\n".join(lines) + "\n"


def run(quick: bool) -> dict[str, Any]:
    """The entry point of benchmarks/run.py; quick budgets play a few tiny games."""
    games = chaosgames.list_games()
    if not games:
        print("no registered games")
        return {}
    if quick:
        with tempfile.TemporaryDirectory() as tmp:
            return measure(games, QUICK_MCTS, 2, Path(tmp) / "strength.db")
    results = measure(games, FULL_MCTS, 20, RESULTS / "strength.db", workers=2)
    write_results(results, ".venv/bin/python benchmarks/strength.py")
    return results


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="tiny budgets; nothing written")
    parser.add_argument("--games", type=int, default=20, help="games per game (rounded to whole rotations)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--mcts", default=FULL_MCTS, help="the mcts spec (default %(default)s)")
    parser.add_argument("--opponent", default="greedy")
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--players", type=int, help="players per game (default: each game's own default)")
    args = parser.parse_args()
    if args.quick:
        run(quick=True)
        return 0
    games = args.game or chaosgames.list_games()
    db = RESULTS / "strength.db"
    RESULTS.mkdir(parents=True, exist_ok=True)
    results = measure(games, args.mcts, args.games, db, args.workers, args.seed, args.opponent, args.players)
    write_results(results, " ".join([".venv/bin/python", "benchmarks/strength.py", *sys.argv[1:]]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
