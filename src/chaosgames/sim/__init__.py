"""The simulation lab: matches, jobs of many games, storage, statistics and reports.

    from chaosgames.sim import simulate, report
    simulate("chaos-checkers", ["mcts:iterations=200", "greedy"], 100, db="lab.db", seed=1)
    report("lab.db", "report.html")

See docs/simulation.md.
"""

from chaosgames.sim.jobs import Job, Task, derive_seed, play_task
from chaosgames.sim.lab import LabInterrupted, SimulationSummary, simulate
from chaosgames.sim.match import DEFAULT_MAX_ACTIONS, MatchResult, play_match
from chaosgames.sim.report import Report, Summary, compare, report, summarise
from chaosgames.sim.stats import two_means, two_proportions, wilson
from chaosgames.sim.storage import LabError, Store
from chaosgames.sim.tournament import tournament

__all__ = [
    "DEFAULT_MAX_ACTIONS",
    "Job",
    "LabError",
    "LabInterrupted",
    "MatchResult",
    "Report",
    "SimulationSummary",
    "Store",
    "Summary",
    "Task",
    "compare",
    "derive_seed",
    "play_match",
    "play_task",
    "report",
    "simulate",
    "summarise",
    "tournament",
    "two_means",
    "two_proportions",
    "wilson",
]
