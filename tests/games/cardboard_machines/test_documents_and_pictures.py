"""State documents, observations, text and SVG pictures, the heuristic, random play."""

from __future__ import annotations

import json
import random
import xml.dom.minidom
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st_

import chaosgames
from chaosgames.core.chance import sample_outcome
from chaosgames.games.cardboard_machines.phases import MOVE, OFF, Phase
from chaosgames.games.cardboard_machines.state import CardboardState
from tests.games.cardboard_machines.helpers import new_state, play, put, table, turn_of

Document = dict[str, Any]
"""A state document (`to_json`), spoiled by the tests below."""


def playout(seed: int, steps: int = 10_000, **options: Any) -> Iterator[CardboardState]:
    state = new_state(**options)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        yield state


def test_a_state_document_round_trips() -> None:
    st = table([2, 0, 1, 3, 4, 5])
    doc = st.to_json()
    again = st.game.state_from_json(json.dumps(doc))
    assert again.to_json() == doc
    assert again.phase is Phase.GEAR  # read back as the phase itself, not its number


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("phase", "dance"),
        ("mover", 7),
        ("tokens_left", 2),
        ("ghosts", [-5]),
        ("boards", [[1, 0], [1, 0], [2, 0], [3, 0], [4, 0], [5, 0]]),
        ("result", [1.0, 0.0]),
        ("cars", []),
        ("phase", "move"),  # a move with no point left
        ("phase", "resolve"),  # no die left to resolve
        ("phase", "first"),  # the starting player is already known
        ("pending", [0]),  # player 1's car is on the track
        ("ghost_pending", True),  # nobody is driving onto a new board
        ("unused", [1, 2, 3]),  # board 1 is on the table
        ("lap_claimed", "yes"),
        ("turn", -1),
    ],
)
def test_impossible_documents_are_refused(field: str, value: object) -> None:
    st = table([2, 0, 1, 3, 4, 5])
    doc = st.to_json()
    doc[field] = value
    with pytest.raises(chaosgames.InvalidStateError):
        st.game.state_from_json(doc)


def _flip_a_board(doc: Document) -> None:
    doc["boards"][3][1] = 1  # no scroll yet, yet board 3 shows its gray side


def _board_zero_at_the_back(doc: Document) -> None:
    doc["boards"][0], doc["boards"][1] = doc["boards"][1], doc["boards"][0]


def _car_in_terrain(doc: Document) -> None:
    doc["cars"][1]["pos"] = (2 * 2) * 6  # 5a: terrain of board 1, and not the mover's car


def _pair_left_to_resolve(doc: Document) -> None:
    doc["phase"], doc["dice"] = "resolve", {"left": 1, "right": 1, "malfunction": 0}


def _ghost_from_a_white_board(doc: Document) -> None:
    doc["phase"], doc["moves_left"], doc["ghost_pending"] = "move", 1, True


IMPOSSIBLE: dict[str, Callable[[Document], object]] = {
    "a side flipped without a scroll": _flip_a_board,
    "board 0 out of its place": _board_zero_at_the_back,
    "a lap before board 0 came to the front": lambda doc: doc.update(lap=1),
    "a lap's token claimed on the starting lap": lambda doc: doc.update(lap_claimed=True),
    "a round token before any lap": lambda doc: (doc["cars"][0].update(tokens=1), doc.update(tokens_left=2)),
    "a starting row against the starting player": lambda doc: doc["cars"][0].update(start_row=1),
    "a car resting in terrain": _car_in_terrain,
    "a left/right pair left to resolve": _pair_left_to_resolve,
    "a ghost from a white board": _ghost_from_a_white_board,
    "more points than the gear": lambda doc: doc.update(phase="move", moves_left=3),
    "continuing after a scroll outside a move": lambda doc: doc.update(must_continue=True),
}


@pytest.mark.parametrize("spoil", IMPOSSIBLE.values(), ids=IMPOSSIBLE.keys())
def test_positions_no_game_can_reach_are_refused(spoil: Callable[[Document], object]) -> None:
    st = table([2, 0, 1, 3, 4, 5])
    doc = st.to_json()
    st.game.state_from_json(doc)  # the untouched document is fine
    spoil(doc)
    with pytest.raises(chaosgames.InvalidStateError):
        st.game.state_from_json(doc)


def test_a_document_after_scrolls_round_trips() -> None:
    st = table([2, 0, 1, 3, 4, 5])
    put(st, 0, "12c", gear=2)
    put(st, 1, "7c")
    turn_of(st, 0)
    play(st, "gear:2", "scroll", "ghost:none", "move:left", "move:ahead")
    put(st, 1, "12d", gear=1)
    turn_of(st, 1)
    play(st, "gear:1", "scroll")
    assert st.back == 2 and st.lap == 1 and st.sides == [0, 0, 0, 0, 1, 1]
    assert st.game.state_from_json(st.to_json()).to_json() == st.to_json()


def test_a_finished_game_must_carry_the_result_the_rules_give() -> None:
    st = table([2, 0, 1, 3, 4, 5])
    st.stress[1] = 2
    doc = st.to_json()
    doc["phase"] = "over"
    doc["result"] = [0.0, 1.0]  # equal lives and tokens: the least stress (player 1) wins
    with pytest.raises(chaosgames.InvalidStateError):
        st.game.state_from_json(doc)
    doc["result"] = [1.0, 0.0]
    assert st.game.state_from_json(doc).returns() == [1.0, 0.0]


def test_two_resting_cars_on_one_space_are_refused() -> None:
    st = table([2, 0, 1, 3, 4, 5])
    doc = st.to_json()
    doc["cars"][1]["pos"] = doc["cars"][0]["pos"]
    with pytest.raises(chaosgames.InvalidStateError):
        st.game.state_from_json(doc)


def test_a_car_driving_through_another_may_share_its_space() -> None:
    st = table([2, 0, 1, 3, 4, 5])
    put(st, 0, "4c", gear=2)
    put(st, 1, "5c")
    turn_of(st, 0)
    play(st, "gear:2", "move:ahead")
    assert st.phase == MOVE
    assert st.game.state_from_json(st.to_json()).to_json() == st.to_json()


def test_a_car_without_lives_cannot_be_on_the_track() -> None:
    st = table([2, 0, 1, 3, 4, 5])
    doc = st.to_json()
    doc["cars"][1]["lives"] = 0
    with pytest.raises(chaosgames.InvalidStateError):
        st.game.state_from_json(doc)


def test_malformed_json_is_refused() -> None:
    game = chaosgames.load_game("cardboard-machines")
    with pytest.raises(chaosgames.InvalidStateError):
        game.state_from_json("{not json")
    with pytest.raises(chaosgames.InvalidStateError):
        game.state_from_json({**game.doc_header(), "phase": "gear"})


def test_text_shows_the_track_and_the_players() -> None:
    st = table([2, 0, 1, 3, 4, 5])
    text = str(st)
    assert "board 0 white" in text and "board 5 white" in text
    assert "red: gear 1, stress 0, lives 3, round tokens 0, at 3b" in text
    assert "[##]" in text and "[1 ]" in text


def test_svg_is_a_well_formed_picture_of_the_table() -> None:
    st = table([2, 0, 1, 3, 4, 5])
    st.ghosts.add(st._space_named("6c"))
    svg = st.game.render_svg(st)
    doc = xml.dom.minidom.parseString(svg)
    assert doc.documentElement is not None and doc.documentElement.tagName == "svg"
    assert ">board 0 white<" in svg and "A ghost on 6c" in svg and "red: gear 1, stress 0" in svg
    assert "♥ 3 · round tokens 0" in svg


def test_svg_of_setup_and_of_a_finished_game() -> None:
    game = chaosgames.load_game("cardboard-machines", players=2)
    xml.dom.minidom.parseString(game.render_svg(game.new_initial_state()))
    last = list(playout(5, players=2))[-1]
    assert last.is_terminal()
    assert "winner" in game.render_svg(last)


def test_heuristic_favours_lives_and_tokens() -> None:
    st = table([2, 0, 1, 3, 4, 5])
    even = st.game.heuristic(st)
    assert abs(sum(even) - 1) < 1e-9
    st.lives[1] = 1
    st.tokens[0] = 1
    st.tokens_left -= 1
    shares = st.game.heuristic(st)
    assert shares[0] > shares[1] and abs(sum(shares) - 1) < 1e-9


def test_describe_action_says_what_happens() -> None:
    st = table([2, 0, 1, 3, 4, 5])
    assert st.game.describe_action(st, st.legal_actions()[3]) == "change to gear 4"


@given(seed=st_.integers(min_value=0, max_value=10**6))
def test_random_play_keeps_the_invariants(seed: int) -> None:
    for state in playout(seed, players=4, buy_off_swerve=True):
        n = state.game.num_players
        assert sum(state.tokens) + state.tokens_left == state.game.options["round_tokens"]
        assert all(s >= 0 for s in state.stress) and all(0 <= lv <= 3 for lv in state.lives)
        assert all(1 <= g <= 6 for g in state.gear)
        assert len(state.ghosts) <= 10 and all(state.on_table(g) for g in state.ghosts)
        for p in range(n):
            if state.pos[p] != OFF:
                assert state.on_table(state.pos[p])
        shares = state.game.heuristic(state)
        assert abs(sum(shares) - 1) < 1e-9 and all(0 <= s <= 1 for s in shares)
    assert state.is_terminal()


def test_setup_actions_are_described_with_the_players_colours() -> None:
    game = chaosgames.load_game("cardboard-machines", players=3)
    st = game.new_initial_state()
    assert [game.describe_action(st, a) for a in st.legal_actions()] == [
        "red starts",
        "blue starts",
        "green starts",
    ]
