"""The core helpers on their own: options, chance, records, errors."""

from __future__ import annotations

import random

import pytest

from chaosgames import GameRecord, InvalidOptionError, RecordError
from chaosgames.core.chance import exact_total, sample_outcome, uniform, weighted
from chaosgames.core.grid import bfs_distances, connected
from chaosgames.core.options import Option, validate_options

SPEC = (
    Option("laps", int, 2, "laps to race", minimum=1, maximum=9),
    Option("pink", bool, False, "use pink potions"),
    Option("mode", str, "sun", "when coins return", choices=("sun", "never")),
)


def test_defaults_are_filled_in() -> None:
    assert validate_options("g", SPEC, {}) == {"laps": 2, "pink": False, "mode": "sun"}


def test_command_line_text_is_coerced_to_the_option_kind() -> None:
    assert validate_options("g", SPEC, {"laps": "3", "pink": "true"})["laps"] == 3
    assert validate_options("g", SPEC, {"pink": "no"})["pink"] is False


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"lapz": 1}, "has no option lapz; its options are laps, mode or pink"),
        ({"laps": 0}, "at least 1"),
        ({"laps": 10}, "at most 9"),
        ({"laps": "many"}, "takes a whole number"),
        ({"pink": 2}, "takes true or false"),
        ({"mode": "moon"}, "choose sun or never"),
    ],
)
def test_bad_options_say_what_is_accepted(given: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        validate_options("g", SPEC, given)


def test_weighted_draw_from_a_bag_follows_the_counts() -> None:
    outcomes = weighted({"red": 3, "blue": 1, "none": 0})
    assert outcomes == [("red", 0.75), ("blue", 0.25)]
    assert exact_total(uniform(list(range(6)))) == 1


def test_sampling_is_deterministic_for_a_seed() -> None:
    outcomes = uniform(list("abcdef"))
    a = [sample_outcome(outcomes, random.Random(7)) for _ in range(5)]
    b = [sample_outcome(outcomes, random.Random(7)) for _ in range(5)]
    assert a == b


def test_grid_distance_goes_round_walls() -> None:
    free = {(0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2)}
    dist = bfs_distances([(0, 0)], free.__contains__)
    assert dist[(0, 2)] == 6
    assert connected(free)
    assert not connected({(0, 0), (2, 2)})


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[]",
        '{"format": "other"}',
        '{"format": "chaosgames-record", "game": 3}',
        '{"format": "chaosgames-record", "game": "x", "options": {}, "players": [], "actions": [1]}',
    ],
)
def test_malformed_records_are_refused(text: str) -> None:
    with pytest.raises(RecordError):
        GameRecord.from_json(text)


def test_missing_record_file_is_a_clear_error(tmp_path: object) -> None:
    with pytest.raises(RecordError, match="Cannot read the record"):
        GameRecord.load("/nonexistent/record.json")
