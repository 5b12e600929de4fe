"""benchmarks/abuse.py still runs: the quiet run and the flooded one, figures that add up,
and the stranger held to its limits (figures only, no timing is asserted)."""

from __future__ import annotations

from benchmarks import abuse


def test_the_abuse_benchmark_floods_and_measures() -> None:
    figures = abuse.measure(games=1, seconds=4.0)
    for run in ("quiet", "flood"):
        assert figures[run]["games_started"] >= 1
        assert (
            0
            <= figures[run]["latency_ms_p50"]
            <= figures[run]["latency_ms_p95"]
            <= figures[run]["latency_ms_max"]
        )
    assert figures["quiet"]["flood"] == {}
    flood = figures["flood"]["flood"]
    assert flood.get("create 429", 0) > 0  # refused once over its rate
    assert flood.get("unbounded spec 201", 0) == 0  # never taken
