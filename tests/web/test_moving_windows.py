"""The moving window behind each rate per address (`limits.MovingWindows`): a period holds
at most the rate's amount of hits, and a hit leaves the window one period after it."""

from __future__ import annotations

import time

import pytest

import chaosgames.web.limits as limits
from chaosgames.web.limits import MovingWindows, rate


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(time, "time", fake)
    return fake


def test_three_actions_a_minute_the_fourth_waits_for_the_first_to_leave_the_window(clock: Clock) -> None:
    windows, three = MovingWindows(), rate("3/minute")
    counted = []
    for _ in range(4):
        counted.append(windows.hit(three, "actions", "203.0.113.9"))
        clock.now += 10
    assert counted == [True, True, True, False]
    assert windows.reset("actions", "203.0.113.9") == 1_000_060.0
    clock.now = 1_000_060.0  # the first hit leaves the window exactly a minute later
    assert windows.hit(three, "actions", "203.0.113.9") is True
    assert windows.hit(three, "actions", "203.0.113.9") is False


def test_each_address_and_each_rate_has_its_own_window(clock: Clock) -> None:
    windows, one = MovingWindows(), rate("1/minute")
    assert [
        windows.hit(one, "actions", "203.0.113.9"),
        windows.hit(one, "actions", "198.51.100.2"),
        windows.hit(one, "chat", "203.0.113.9"),
        windows.hit(one, "actions", "203.0.113.9"),
    ] == [True, True, True, False]


def test_a_flood_of_addresses_is_forgotten_once_their_windows_are_empty(
    clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "SWEEP", 4)
    windows, one = MovingWindows(), rate("1/second")
    for n in range(3):
        windows.hit(one, "actions", f"203.0.113.{n}")
    clock.now += 5
    windows.hit(one, "actions", "198.51.100.2")  # the fourth new address: a sweep
    assert windows.hit(one, "actions", "203.0.113.0") is True
    assert len(windows._hits) == 2
