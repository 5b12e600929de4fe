"""benchmarks/server.py still runs: a served process, scripted people, figures that add up.

The run ends after a number of the people's actions, not after a time, so a slow or busy
machine takes longer rather than measuring nothing (the time is only a bound)."""

from __future__ import annotations

from benchmarks import server

ACTIONS = 12


def test_the_server_benchmark_measures_actions_and_latency() -> None:
    figures = server.measure(games=2, seconds=240.0, workers=1, actions=ACTIONS)
    assert figures["games"] == 2 and figures["refused"] == 0
    # Both scripted people may be mid-action when the count is reached: one more each at most.
    assert ACTIONS <= figures["human_actions"] <= ACTIONS + 1
    assert figures["actions_served"] >= figures["human_actions"]
    assert 0 < figures["latency_ms_p50"] <= figures["latency_ms_p95"] <= figures["latency_ms_max"]
