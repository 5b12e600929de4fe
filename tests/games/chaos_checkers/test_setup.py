"""Setup (seed, "Setup"): colours, random arrangement, shield bags, the potion pouch."""

from __future__ import annotations

import random

import pytest

import chaosgames
from chaosgames import CHANCE, InvalidOptionError
from chaosgames.core.chance import sample_outcome
from chaosgames.games.chaos_checkers.colours import CODE
from chaosgames.games.chaos_checkers.state import ChaosState
from tests.games.chaos_checkers.helpers import new_chaos


def _setup(seed: int = 3, **options: object) -> ChaosState:
    state = chaosgames.load_game("chaos-checkers", **options).new_initial_state()
    chaosgames.resolve_chance(state, random.Random(seed))
    assert isinstance(state, ChaosState)
    return state


def test_the_first_draw_places_square_12_with_the_first_players_three_colours() -> None:
    state = chaosgames.load_game("chaos-checkers").new_initial_state()
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert [str(a) for a, _ in outcomes] == ["place:12=red", "place:12=orange", "place:12=yellow"]
    assert [p for _, p in outcomes] == [pytest.approx(1 / 3)] * 3


def test_four_pieces_of_each_colour_are_arranged_at_random() -> None:
    state = chaosgames.load_game("chaos-checkers").new_initial_state()
    for _ in range(4):
        state.apply_action(state.game.parse_action(state, f"place:{12 - _}=red"))
    # Red is used up: the next piece is orange or yellow, one half each.
    assert [str(a) for a, _ in state.chance_outcomes()] == ["place:8=orange", "place:8=yellow"]


def test_after_setup_every_piece_has_one_shield_of_opposing_colour_and_one_potion() -> None:
    state = _setup()
    assert state.phase == "turn" and state.current_player() == 0
    first, second = (
        {CODE[c] for c in ("red", "orange", "yellow")},
        {CODE[c] for c in ("blue", "lightblue", "purple")},
    )
    for square in range(32):
        piece = state.board[square]
        if square < 12 or square >= 20:
            assert piece is not None and piece.potion >= 0
            assert piece.colour in (first if square < 12 else second)
            assert piece.shield in (second if square < 12 else first)
        else:
            assert piece is None
    # Fifteen 2-pips per bag, twelve on the pieces; 50 potions, 24 on the pieces.
    assert sum(state.bags[0]) == 3 and sum(state.bags[1]) == 3
    assert sum(state.pouch) == 26 and state.pouch[CODE["pink"]] == 0


def test_the_pink_option_adds_five_reclaim_potions() -> None:
    state = _setup(pink=True)
    assert sum(state.pouch) == 31


def test_players_take_turns_drawing_potions() -> None:
    state = new_chaos()
    rng = random.Random(1)
    while state.phase != "potion":
        state.apply_action(sample_outcome(state.chance_outcomes(), rng))
    order = []
    for _ in range(4):
        action = state.chance_outcomes()[0][0]
        order.append(str(action).split("=")[0])
        state.apply_action(action)
    assert order == ["potion:12", "potion:21", "potion:11", "potion:22"]


def test_colour_choices_are_options() -> None:
    state = _setup(first_colours="black,white,clear", second_colours="green, Blue ,orange")
    game = state.game
    assert game.options["second_colours"] == "green,blue,orange"
    assert game.player_names() == ["black/white/clear", "green/blue/orange"]
    assert state.board[0] is not None and state.board[0].colour in {
        CODE["black"],
        CODE["white"],
        CODE["clear"],
    }


@pytest.mark.parametrize(
    "options",
    [
        {"first_colours": "red,orange"},
        {"first_colours": "red,red,orange"},
        {"first_colours": "red,orange,pink"},
        {"first_colours": "red,orange,teal"},
        {"first_colours": "red,orange,yellow", "second_colours": "red,blue,green"},
        {"max_moves": -1},
        {"chaos": "maybe"},
        {"repetition": "twice"},
    ],
)
def test_bad_options_are_refused_with_what_is_accepted(options: dict[str, object]) -> None:
    with pytest.raises(InvalidOptionError):
        chaosgames.load_game("chaos-checkers", **options)
