"""The simulation lab: matches, jobs of many games, storage, statistics and reports.

    from chaosgames.sim import LabSettings, simulate, report
    simulate("chaos-checkers", ["mcts:iterations=200", "greedy"], 100, LabSettings(db="lab.db", seed=1))
    report("lab.db", "report.html")

See docs/simulation.md.
"""

from chaosgames.sim.compare import CompareResult, compare_variants
from chaosgames.sim.jobs import Job, LabSettings, Task, derive_seed, play_task
from chaosgames.sim.lab import LabInterrupted, SimulationSummary, simulate
from chaosgames.sim.match import DEFAULT_MAX_ACTIONS, MatchResult, PlayedMatch, play_match
from chaosgames.sim.report import Report, report
from chaosgames.sim.stats import two_means, two_proportions, wilson
from chaosgames.sim.storage import GameRow, LabError, LabStore
from chaosgames.sim.summary import Summary, summarise
from chaosgames.sim.tournament import tournament
from chaosgames.sim.variants import VariantName, variant_key
from chaosgames.sim.verify import Verification, verify

__all__ = [
    "DEFAULT_MAX_ACTIONS",
    "CompareResult",
    "GameRow",
    "Job",
    "LabError",
    "LabInterrupted",
    "LabSettings",
    "LabStore",
    "MatchResult",
    "PlayedMatch",
    "Report",
    "SimulationSummary",
    "Summary",
    "Task",
    "VariantName",
    "Verification",
    "compare_variants",
    "derive_seed",
    "play_match",
    "play_task",
    "report",
    "simulate",
    "summarise",
    "tournament",
    "two_means",
    "two_proportions",
    "variant_key",
    "verify",
    "wilson",
]
