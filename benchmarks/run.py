"""`make bench`: throughput of every registered game, then each extra benchmark.

For every game: random playouts per second, actions per second (chance outcomes
included) and the cost of `clone()`, measured on seeded random playouts. Then every
`benchmarks/game_*.py`, `speed_vs_old.py` (issue 17's ratios against the 2026-11-22 code),
`vs_openspiel.py`, `strength.py`, `lab_speed.py`, `server.py`, `server_views.py`, `abuse.py`,
`rl_speed.py` and `soak.py` (100,000 random actions per game with every contract invariant
checked; it prints the actions checked and the failures) that exposes `run(quick)` is
called, each in a fresh interpreter. All figures go to `benchmarks/results/latest.json` (and a dated copy).

    python benchmarks/run.py            # quick budgets (make bench)
    python benchmarks/run.py --full     # the budgets quoted in docs/results/
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import json
import platform
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import chaosgames
from chaosgames.core.chance import sample_outcome

try:
    from benchmarks.caps import capped_options  # imported as a package (the tests)
except ImportError:  # run as a script: benchmarks/ is on the path
    from caps import capped_options  # type: ignore[no-redef]

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
EXTRAS = (
    "game_*.py",
    "speed_vs_old.py",
    "vs_openspiel.py",
    "strength.py",
    "lab_speed.py",
    "server.py",
    "server_views.py",
    "abuse.py",
    "rl_speed.py",
    "soak.py",
)


def random_playout(state: chaosgames.State[Any], rng: random.Random, cap: int) -> int:
    """Play to the end (or `cap` actions) at random; returns the number of actions."""
    steps = 0
    while not state.is_terminal() and steps < cap:
        if state.current_player() == chaosgames.CHANCE:
            action = sample_outcome(state.chance_outcomes(), rng)
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        steps += 1
    return steps


def measure_game(name: str, seconds: float, cap: int = 20000) -> dict[str, Any]:
    game = chaosgames.load_game(name, **capped_options(name))
    rng = random.Random(12345)
    playouts = actions = finished = 0
    samples: list[chaosgames.State[Any]] = []
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or playouts == 0:
        state = game.new_initial_state()
        n = random_playout(state, rng, cap)
        actions += n
        playouts += 1
        finished += state.is_terminal()
        if len(samples) < 20:
            mid = game.new_initial_state()
            random_playout(mid, rng, max(1, n // 2))
            samples.append(mid)
    elapsed = time.perf_counter() - start
    return {
        "playouts_per_second": playouts / elapsed,
        "actions_per_second": actions / elapsed,
        "mean_actions_per_playout": actions / playouts,
        "playouts": playouts,
        "finished_playouts": finished,
        "clone_microseconds": clone_cost(samples),
    }


def clone_cost(states: list[chaosgames.State[Any]], repeat: int = 2000) -> float:
    start = time.perf_counter()
    for state in states:
        for _ in range(repeat):
            state.clone()
    return (time.perf_counter() - start) / (len(states) * repeat) * 1e6


def run_extras(quick: bool) -> dict[str, Any]:
    """Every extra benchmark, each in a fresh interpreter: one benchmark's heap and caches
    (a big heap slows every fork and garbage collection after it) never colour another's
    figures."""
    results: dict[str, Any] = {}
    for pattern in EXTRAS:
        for path in sorted(HERE.glob(pattern)):
            with tempfile.TemporaryDirectory() as tmp:
                out = Path(tmp) / "figures.json"
                command = [sys.executable, __file__, "--extra", str(path), "--out", str(out)]
                subprocess.run(command + ([] if quick else ["--full"]), check=True)
                if out.exists():
                    results[path.stem] = json.loads(out.read_text(encoding="utf-8"))
    return results


def run_extra(path: Path, quick: bool, out: Path) -> None:
    """One extra benchmark in this interpreter; its figures go to `out` as JSON."""
    spec = importlib.util.spec_from_file_location(f"bench_{path.stem}", path)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    # Registered, so its functions can be handed to worker processes by name.
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    if hasattr(module, "run"):
        print(f"\n== {path.name}", flush=True)
        out.write_text(json.dumps(module.run(quick)), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--full", action="store_true", help="full budgets instead of quick ones")
    parser.add_argument("--seconds", type=float, default=None, help="time per game for throughput")
    parser.add_argument("--no-extras", action="store_true", help="only the throughput table")
    parser.add_argument("--extra", type=Path, help=argparse.SUPPRESS)  # run_extras' child
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    quick = not args.full
    if args.extra is not None:
        run_extra(args.extra, quick, args.out)
        return 0
    seconds = args.seconds if args.seconds is not None else (3.0 if quick else 20.0)
    report: dict[str, Any] = {
        "when": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "quick": quick,
        "games": {},
    }
    print(f"{'game':22s} {'playouts/s':>11s} {'actions/s':>11s} {'actions/game':>13s} {'clone µs':>9s}")
    for name in chaosgames.list_games():
        figures = measure_game(name, seconds)
        report["games"][name] = figures
        print(
            f"{name:22s} {figures['playouts_per_second']:11.1f} {figures['actions_per_second']:11.0f} "
            f"{figures['mean_actions_per_playout']:13.1f} {figures['clone_microseconds']:9.1f}"
        )
    if not args.no_extras:
        report["extras"] = run_extras(quick)
    RESULTS.mkdir(exist_ok=True)
    text = json.dumps(report, indent=1, sort_keys=True)
    (RESULTS / "latest.json").write_text(text + "\n", encoding="utf-8")
    stamp = report["when"][:10]
    (RESULTS / f"{stamp}{'' if quick else '-full'}.json").write_text(text + "\n", encoding="utf-8")
    print(f"\nFigures written to {RESULTS / 'latest.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
