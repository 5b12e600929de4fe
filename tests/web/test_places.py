"""Clickable pictures: every place an action names is on the picture of its position, and
the picture shows each seat only what it may see."""

from __future__ import annotations

import random
import re

import pytest

import chaosgames
from chaosgames.core.chance import sample_outcome
from chaosgames.games.royal_racers.board import (
    CARD_BY_NAME,
    CARD_SUIT_SYMBOLS,
    RANK_NAMES,
    RANK_OF,
    SQUARE_NAMES,
)

PLACE = re.compile(r'data-place="([^"]*)"')


@pytest.mark.parametrize("name", chaosgames.list_games())
def test_every_place_of_every_legal_action_is_on_the_picture(name: str) -> None:
    game = chaosgames.load_game(name)
    rng = random.Random(7)
    state = game.new_initial_state()
    decisions = placed = 0
    while not state.is_terminal() and decisions < 150:
        player = state.current_player()
        if player == chaosgames.CHANCE:
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
            continue
        on_picture = set(PLACE.findall(game.render_svg(state, player)))
        legal = state.legal_actions()
        for action in legal:
            places = game.action_places(state, action)
            assert set(places) <= on_picture, (str(action), places)
            placed += bool(places)
        decisions += 1
        state.apply_action(rng.choice(legal))
    assert placed > 0


def test_checkers_moves_are_the_squares_they_visit() -> None:
    game = chaosgames.load_game("chaos-checkers", chaos=False)
    state = game.new_initial_state()
    assert game.action_places(state, game.parse_action(state, "11-15")) == ("11", "15")
    for action in ("11-15", "22-18", "15x22"):
        state.apply_action(game.parse_action(state, action))
    assert game.action_places(state, game.parse_action(state, "26x17")) == ("26", "17")


def test_royal_racers_pictures_hide_face_down_ranks_unless_revealed() -> None:
    game = chaosgames.load_game("royal-racers", players=2)
    state = game.new_initial_state()
    rng = random.Random(2)
    while not state.to_json()["face_down"]:
        if state.current_player() == chaosgames.CHANCE:
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    doc = state.to_json()
    square = doc["face_down"][0]
    number = CARD_BY_NAME[doc["cards"][SQUARE_NAMES.index(square)].casefold()]
    label = f"{RANK_NAMES[RANK_OF[number]]}{CARD_SUIT_SYMBOLS[number % 4]}"  # e.g. 3♥
    shown = [game.render_svg(state, viewer) for viewer in (None, 0, 1)]
    assert shown[0] == shown[1] == shown[2]  # the face-down cards are hidden from everyone
    assert f"{square}: face down" in shown[0]
    assert label not in shown[0]
    assert label in game.render_svg(state, reveal=True)
