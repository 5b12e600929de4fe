"""benchmarks/server.py still runs: a served process, scripted people, figures that add up."""

from __future__ import annotations

from benchmarks import server


def test_the_server_benchmark_measures_actions_and_latency() -> None:
    figures = server.measure(games=2, seconds=6.0, workers=1)
    assert figures["games"] == 2 and figures["refused"] == 0
    assert figures["human_actions"] > 0 and figures["actions_served"] >= figures["human_actions"]
    assert 0 < figures["latency_ms_p50"] <= figures["latency_ms_p95"] <= figures["latency_ms_max"]
