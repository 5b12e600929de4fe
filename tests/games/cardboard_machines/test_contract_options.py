"""The generic contract checks under every option value."""

from __future__ import annotations

import pytest

import chaosgames
from tests.core.contract import check_random_game

OPTION_SETS = [
    {},
    {"players": 2},
    {"players": 3, "stress_overflow": "plus_one"},
    {"buy_off_swerve": True, "round_tokens": 1},
    {"boards": [3, 0, 5, 1, 8, 2], "max_turns": 8},
    {"stress_overflow": "plus_one", "buy_off_swerve": True, "max_turns": 0},
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=[str(o) for o in OPTION_SETS])
@pytest.mark.parametrize("seed", [3, 4])
def test_random_games_honour_the_contract(options: dict[str, object], seed: int) -> None:
    game = chaosgames.load_game("cardboard-machines", **options)
    check_random_game(game, seed)
