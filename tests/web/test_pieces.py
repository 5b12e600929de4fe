"""A picture compared element by element: the tokens it is read as are the page's.

The page splits the old picture with `TOKENS`; the server reads a picture that keeps its
elements (`Drawing`) from the elements' own tokens, kept by element. For random positions
of all four games, seen by each seat and a spectator, the tokens read are what `TOKENS`
finds in the whole picture, and the pieces between any two pictures rebuild the new one.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from chaosgames.core.registry import load_game
from chaosgames.core.svg import Drawing, drawing
from chaosgames.web.patches import rebuilt
from chaosgames.web.pieces import TOKENS, text_pieces, tokens_of

TABLES: dict[str, tuple[dict[str, Any], int]] = {
    "chaos-checkers": ({}, 2),
    "chaos-cruisers": ({"laps": 1}, 3),
    "royal-racers": ({}, 2),
    "cardboard-machines": ({}, 2),
}


def pictures(name: str, seed: int, moves: int = 50) -> list[Drawing]:
    """The pictures of a random game, after each move, for each viewer and both layouts."""
    options, players = TABLES[name]
    game = load_game(name, players=players, **options)
    state, rng = game.new_initial_state(), random.Random(seed)
    drawn: list[Drawing] = []
    for _move in range(moves):
        if state.is_terminal():
            break
        for viewer in [None, *range(players)]:
            for legend in (False, True):
                picture = game.render_svg(state, viewer, legend=legend)
                assert isinstance(picture, Drawing)
                drawn.append(picture)
        state.apply_action(rng.choice(state.legal_actions()))  # chance's moves as the seats'
    return drawn


@pytest.mark.parametrize("name", sorted(TABLES))
@pytest.mark.parametrize("seed", [1, 2])
def test_a_pictures_tokens_read_by_element_are_the_pages(name: str, seed: int) -> None:
    drawn = pictures(name, seed)
    rng = random.Random(seed)
    for picture in drawn:
        assert tokens_of(picture) == TOKENS.findall(picture)
    # Pictures one after another (a move), and any two (a page that was far behind).
    pairs = list(itertools.pairwise(drawn)) + [(rng.choice(drawn), rng.choice(drawn)) for _ in range(40)]
    for old, new in pairs:
        assert rebuilt(old, text_pieces(old, new)) == new


@pytest.mark.parametrize(
    "parts, joiner",
    [
        (["<svg>", "text", "<rect/>", "</svg>"], ""),  # a text between tags runs into the tag before
        (["<svg>", "a\n", "", "b", "</svg>"], "\n"),
        (["<svg>", "<g>x", "<title>t</title>\n", "</svg>"], ""),
        (["lead", "<a>", "<b/>"], ""),
    ],
)
def test_any_picture_is_read_as_the_page_reads_it(parts: list[str], joiner: str) -> None:
    picture = drawing(parts, joiner)
    assert tokens_of(picture) == TOKENS.findall(picture)
    plain = '<svg>\n<g data-piece="a">old</g>\n<title>t</title>'
    assert rebuilt(plain, text_pieces(plain, picture)) == picture
    assert rebuilt(picture, text_pieces(picture, plain)) == plain
