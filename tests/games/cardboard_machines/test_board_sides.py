"""The boards option lays a track with each board's side chosen (a designed track): the
dark-edged gray side stays up where asked, and scrolls flip it as any board."""

from __future__ import annotations

import random

import pytest

import chaosgames
from chaosgames.core.errors import InvalidOptionError
from chaosgames.games.cardboard_machines.state import CardboardState

WHITE, GRAY = 0, 1


def test_a_board_laid_gray_side_up_shows_it_and_the_document_round_trips() -> None:
    game = chaosgames.load_game("cardboard-machines", boards=[3, 0, [5, "gray"], 1, [8, "white"], 2])
    assert game.options["boards"] == [3, 0, [5, "gray"], 1, 8, 2]
    state = game.new_initial_state()
    chaosgames.resolve_chance(state, random.Random(1))
    assert isinstance(state, CardboardState)
    assert state.board_ids == [3, 0, 5, 1, 8, 2]
    assert state.sides == [WHITE, WHITE, GRAY, WHITE, WHITE, WHITE]
    again = game.state_from_json(state.to_json())
    assert isinstance(again, CardboardState)
    assert again.sides == state.sides


def test_the_starting_board_must_show_its_white_side() -> None:
    with pytest.raises(InvalidOptionError) as caught:
        chaosgames.load_game("cardboard-machines", boards=[3, [0, "gray"], 5, 1, 8, 2])
    assert "with the starting board 0 second" in str(caught.value)
    assert caught.value.places == ("board:1",)


def test_a_board_twice_and_a_side_that_is_not_one_are_named_by_their_place() -> None:
    with pytest.raises(InvalidOptionError) as caught:
        chaosgames.load_game("cardboard-machines", boards=[3, 0, 5, 1, 5, 2])
    assert caught.value.places == ("board:4",)
    with pytest.raises(InvalidOptionError) as caught:
        chaosgames.load_game("cardboard-machines", boards=[3, 0, [5, "blue"], 1, 8, 2])
    assert str(caught.value) == (
        "Option 'boards': each board is an id or [id, \"white\" or \"gray\"], not [5, 'blue']."
    )
    assert caught.value.places == ("board:2",)


def test_the_story_says_which_boards_lie_gray_side_up() -> None:
    game = chaosgames.load_game("cardboard-machines", boards=[3, 0, [5, "gray"], 1, 8, 2])
    before = game.new_initial_state()
    after = before.clone()
    first = before.chance_outcomes()[0][0]
    after.apply_action(first)
    assert "boards 3, 0, 5, 1, 8, 2 from the back, 5 gray side up, the others white," in (
        game.tell(before, first, after).now
    )
