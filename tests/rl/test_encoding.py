"""Every game's encoding: fixed action indices and observation vectors (chaosgames.core.encoding)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import chaosgames
from chaosgames import CHANCE, IllegalActionError
from chaosgames.core.chance import sample_outcome
from chaosgames.core.encoding import ActionIndexRangeError, ActionIndexTypeError
from tests.rl.cases import CASES, IDS


def play_randomly(game: chaosgames.Game[Any, Any], seed: int, decisions: int) -> list[chaosgames.State[Any]]:
    """The states where a player decided in one seeded random game (at most `decisions`)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    seen: list[chaosgames.State[Any]] = []
    while not state.is_terminal() and len(seen) < decisions:
        if state.current_player() == CHANCE:
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
            continue
        seen.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    return seen


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_every_legal_action_has_its_own_index_and_comes_back(name: str, options: dict[str, Any]) -> None:
    game = chaosgames.load_game(name, **options)
    encoding = game.encoding()
    for state in play_randomly(game, seed=3, decisions=400):
        legal = encoding.legal_indices(state)
        assert len(legal) == len(state.legal_actions()), "every legal action is reachable"
        assert list(legal) == sorted(legal) and all(0 <= i < encoding.num_actions for i in legal)
        for index, action in legal.items():
            assert encoding.action_index(state, action) == index
            assert encoding.action_at(state, index) == action


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_observation_vectors_hold_numbers_in_the_unit_interval(name: str, options: dict[str, Any]) -> None:
    game = chaosgames.load_game(name, **options)
    encoding = game.encoding()
    assert encoding.observation_size > 0
    for state in play_randomly(game, seed=5, decisions=120)[::7]:
        for seat in range(game.num_players):
            vector = encoding.observation_vector(state.observation(seat), seat)
            assert len(vector) == encoding.observation_size
            assert all(0.0 <= v <= 1.0 for v in vector) and any(vector)


def test_an_illegal_index_names_what_it_stands_for() -> None:
    game = chaosgames.load_game("chaos-checkers", chaos=False)
    state = game.new_initial_state()
    encoding = game.encoding()
    index = encoding.action_index(state, game.parse_action(state, "11-15"))
    assert encoding.slot_name(index) == "11-15"
    state.apply_action(game.parse_action(state, "11-15"))
    with pytest.raises(IllegalActionError, match=r"\(11-15\) is not legal here"):
        encoding.action_at(state, index)


def test_plain_checkers_numbers_steps_then_whole_capture_paths() -> None:
    from chaosgames.games.chaos_checkers.encoding import PATH_INDEX, PATHS

    encoding = chaosgames.load_game("chaos-checkers", chaos=False).encoding()
    assert encoding.num_actions == len(PATHS) == 98 + 1328
    assert PATH_INDEX[(0, 4)] == 0  # 1-5, the first step
    # A double jump 15x22x29 is one index of its own, after every step.
    assert PATH_INDEX[(14, 21, 28)] > PATH_INDEX[(31, 27)]
    assert encoding.slot_name(PATH_INDEX[(14, 21, 28)]) == "15x22x29"


def test_royal_racers_numbers_each_kind_of_action_by_square() -> None:
    game = chaosgames.load_game("royal-racers", players=2)
    encoding = game.encoding()
    assert encoding.num_actions == 6 * 36 + 1
    assert [encoding.slot_name(i) for i in (0, 35, 36, 5 * 36 + 2, 216)] == [
        "start:a1",
        "start:f6",
        "place:a1",
        "move:c1",
        "stay",
    ]


def test_cardboard_machines_numbers_spaces_by_table_row_and_lane() -> None:
    encoding = chaosgames.load_game("cardboard-machines", players=2).encoding()
    names = [encoding.slot_name(i) for i in range(encoding.num_actions)]
    gears = [f"gear:{g}" for g in range(1, 7)]
    assert names[:11] == [*gears, "move:left", "move:ahead", "move:right", "scroll", "stop"]
    assert names[11] == "ghost:1a" and names[11 + 71] == "ghost:12f" and names[83] == "ghost:none"
    assert len(set(names)) == encoding.num_actions == 163


def test_chaos_cruisers_frame_follows_the_course() -> None:
    from chaosgames.games.chaos_cruisers import ChaosCruisersGame
    from chaosgames.games.chaos_cruisers.actions import Start
    from chaosgames.games.chaos_cruisers.encoding import CruisersEncoding, frame_origin

    game = chaosgames.load_game("chaos-cruisers", players=3)
    encoding = game.encoding()
    assert isinstance(game, ChaosCruisersGame) and isinstance(encoding, CruisersEncoding)
    tiles = len(game.course_doc["tiles"])
    assert encoding.observation_shape == (12 * (2 * tiles + 4) ** 2 + 108,)
    state = game.new_initial_state()
    chaosgames.resolve_chance(state, random.Random(1))
    first = state.legal_actions()[0]  # start:x,y on the sun gate tile
    assert isinstance(first, Start)
    x0, y0 = (2 * t for t in frame_origin(state.observation(None)["tiles"]))
    across = 2 * tiles + 4
    expected = encoding.offsets["start"] + (first.square[1] - y0) * across + (first.square[0] - x0)
    assert encoding.action_index(state, first) == expected


def test_royal_racers_vectors_never_show_a_face_down_rank() -> None:
    """Two positions that differ only in which face-down cards lie where look the same."""
    game = chaosgames.load_game("royal-racers", players=3)
    encoding = game.encoding()
    states = play_randomly(game, seed=11, decisions=300)
    state = next(s for s in states if len(s.observation(0)["face_down"]) >= 4)
    doc = state.to_json()
    down = [sq for sq in doc["face_down"] if doc["last_flip"] is None or doc["last_flip"]["square"] != sq]
    names = ["abcdef".index(sq[0]) + 6 * (int(sq[1]) - 1) for sq in down]
    a, b = next(
        (i, j) for i in names for j in names if doc["cards"][i][0] != doc["cards"][j][0]
    )  # two face-down cards of different ranks
    doc["cards"][a], doc["cards"][b] = doc["cards"][b], doc["cards"][a]
    other = game.state_from_json(doc)
    assert json.dumps(other.to_json()) != json.dumps(state.to_json())
    for seat in range(3):
        assert other.observation(seat) == state.observation(seat)
        assert encoding.observation_vector(other.observation(seat), seat) == encoding.observation_vector(
            state.observation(seat), seat
        )


def test_games_without_an_encoding_refuse_research_tools() -> None:
    class Bare(chaosgames.Game[Any, Any]):
        name = "bare"
        title = "Bare"
        min_players = max_players = default_players = 2

        def new_initial_state(self) -> chaosgames.State[Any]:
            raise NotImplementedError

        def _state_from_doc(self, doc: dict[str, Any]) -> chaosgames.State[Any]:
            raise NotImplementedError

    with pytest.raises(chaosgames.ChaosGamesError, match="Bare has no encoding for research tools"):
        Bare().encoding()


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_an_index_outside_the_action_space_names_nothing(name: str, options: dict[str, Any]) -> None:
    """-1 used to wrap round to the last slot's name, num_actions to fail with an IndexError."""
    game = chaosgames.load_game(name, **options)
    encoding = game.encoding()
    state = game.new_initial_state()
    chaosgames.resolve_chance(state, random.Random(0))
    for index in (-1, -encoding.num_actions, encoding.num_actions, 10**6, 2**70):
        with pytest.raises(ActionIndexRangeError, match=f"indices run from 0 to {encoding.num_actions - 1}"):
            encoding.slot_name(index)
        with pytest.raises(ActionIndexRangeError, match="outside the action space"):
            encoding.action_at(state, index)


@pytest.mark.parametrize("value", [1.5, 14.0, float("nan"), float("inf"), "3", None, True, [1]])
def test_an_index_must_be_an_integer(value: Any) -> None:
    """True used to name slot 1 (start:b1); 1.5, "3" and None failed with a bare TypeError."""
    game = chaosgames.load_game("royal-racers", players=2)
    encoding = game.encoding()
    state = game.new_initial_state()
    chaosgames.resolve_chance(state, random.Random(0))
    with pytest.raises(ActionIndexTypeError, match="An action index is an integer"):
        encoding.slot_name(value)
    with pytest.raises(ActionIndexTypeError, match="An action index is an integer"):
        encoding.action_at(state, value)


def test_numpy_integers_are_indices_and_numpy_floats_and_bools_are_not() -> None:
    np = pytest.importorskip("numpy")
    game = chaosgames.load_game("royal-racers", players=2)
    encoding = game.encoding()
    state = game.new_initial_state()
    chaosgames.resolve_chance(state, random.Random(0))
    index = next(iter(encoding.legal_indices(state)))
    assert encoding.slot_name(np.int64(216)) == encoding.slot_name(np.array(216, dtype=np.int16)) == "stay"
    assert encoding.action_at(state, np.uint16(index)) == encoding.action_at(state, index)
    for value in (np.float64(2.0), np.bool_(True), np.array([2])):
        with pytest.raises(ActionIndexTypeError):
            encoding.slot_name(value)
