"""The research benchmark script runs (tiny budgets; no figures are asserted)."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")

from benchmarks import rl_speed


def test_rl_speed_measures_the_engine_and_the_pettingzoo_env() -> None:
    assert rl_speed.engine_decisions_per_second("cardboard-machines", 0.05) > 0
    assert rl_speed.env_steps_per_second("cardboard-machines", 0.05) > 0
