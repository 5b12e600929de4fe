"""Setup a)-e): the 36-card shuffle, starting squares, flags and their placement."""

from __future__ import annotations

import pytest

from chaosgames import CHANCE, IllegalActionError, InvalidOptionError
from chaosgames.games.royal_racers.actions import RacerAction
from chaosgames.games.royal_racers.board import CENTRE, QUADRANT_OF, RANK_OF, SQUARE_NAMES
from chaosgames.games.royal_racers.setup import flag_face_name, placement_order
from chaosgames.games.royal_racers.state import PHASE_NAMES
from tests.games.royal_racers.helpers import dealt, game, kinds, play, raced, sq, texts


def test_the_deck_is_ace_to_nine_of_four_suits_dealt_one_card_per_chance_node() -> None:
    state = game().new_initial_state()
    outcomes = state.chance_outcomes()
    assert state.current_player() == CHANCE
    assert len(outcomes) == 36
    assert sorted(RANK_OF[a.arg] for a, _ in outcomes if isinstance(a, RacerAction)) == sorted(
        list(range(1, 10)) * 4
    )
    assert all(p == pytest.approx(1 / 36) for _, p in outcomes)
    play(state, "deal:7h")
    assert len(state.chance_outcomes()) == 35
    assert "deal:7h" not in texts([a for a, _ in state.chance_outcomes()])


def test_the_shuffle_fills_the_six_by_six_grid_face_up_in_reading_order() -> None:
    state = game().new_initial_state()
    play(state, "deal:9c", "deal:Ah")
    assert state.cards[sq("a6")] >= 0 and state.cards[sq("b6")] >= 0
    state = dealt(game())
    assert sorted(state.cards) == list(range(36))
    assert state.down == 0
    assert PHASE_NAMES[state.phase] == "start"


def test_each_player_chooses_one_of_the_centre_four_squares_in_seat_order() -> None:
    state = dealt(game(players=3))
    assert state.current_player() == 0
    assert kinds(state) == {"start": ["c4", "d4", "c3", "d3"]}  # reading order
    play(state, "start:d4")
    assert state.current_player() == 1
    assert "start:d4" not in texts(state.legal_actions())
    with pytest.raises(IllegalActionError):
        play(state, "start:a1")
    play(state, "start:c3", "start:c4")
    assert [SQUARE_NAMES[p] for p in state.pawns] == ["d4", "c3", "c4"]
    assert PHASE_NAMES[state.phase] == "flags"


def test_the_highest_flag_lies_under_the_starting_pawn() -> None:
    state = play(dealt(game(players=2)), "start:c4", "start:d3")
    assert state.flag_sq[0 * 5 + 4] == sq("c4")
    assert state.flag_sq[1 * 5 + 4] == sq("d3")
    assert flag_face_name(5, 4) == "5"


def test_flags_are_passed_left_and_placed_lowest_first_alternating_who_begins() -> None:
    # Player 1 places the first ace (for the player on his right), player 2 the first 2 ...
    order = placement_order(4, 5, 0)
    assert order[:4] == ((0, 3, 0), (1, 0, 0), (2, 1, 0), (3, 2, 0))
    assert order[4:8] == ((1, 0, 1), (2, 1, 1), (3, 2, 1), (0, 3, 1))
    assert next(placer for placer, _, index in order if index == 2) == 2
    assert len(placement_order(2, 5, 0)) == 8


def test_the_first_flag_goes_in_the_owners_quadrant_the_next_ones_clockwise() -> None:
    state = play(dealt(game(players=2)), "start:c4", "start:d3")
    # Player 1 (suns) places the moons' ace in the moons' (south-east) quadrant.
    assert state.current_player() == 0
    assert kinds(state)["place"] == ["d3", "e3", "f3", "d2", "e2", "f2", "d1", "e1", "f1"][1:]
    play(state, "place:f1")
    # Player 2 (moons) places the suns' ace in the north-west quadrant.
    assert state.current_player() == 1
    assert set(kinds(state)["place"]) == {"a6", "b6", "c6", "a5", "b5", "c5", "a4", "b4"}
    with pytest.raises(IllegalActionError):
        play(state, "place:f6")
    play(state, "place:a6")
    # The 2 flags: moons place first now, the suns' 2 goes one quadrant clockwise (north-east).
    assert state.current_player() == 1
    assert all(QUADRANT_OF[sq(s)] == 1 for s in kinds(state)["place"])


def test_the_crowns_flags_are_placed_by_the_player_on_their_left_in_the_crowns_quadrant() -> None:
    # "if the crown player is to the right of you and you are placing his flags, you would
    # place the first one in the same quadrant as the crown player's pawn."
    state = play(dealt(game(players=4)), "start:c4", "start:d4", "start:d3", "start:c3")
    # Suns, moons, crowns, arms sit on c4, d4, d3, c3 (north-west ... south-west).
    play(state, "place:a1")  # the suns place the arms' ace in the arms' quadrant
    play(state, "place:a6", "place:e6")  # moons place the suns' ace, crowns the moons' ace
    assert state.placement() == (3, 2, 0)  # the arms (seat 4) place the crowns' (seat 3) ace
    assert kinds(state)["place"] == ["e3", "f3", "d2", "e2", "f2", "d1", "e1", "f1"]


def test_normal_game_gives_one_flag_per_quadrant_plus_the_start() -> None:
    state = raced(game(players=4), ["c4", "d4", "d3", "c3"])
    assert PHASE_NAMES[state.phase] == "roll"
    for owner in range(4):
        placed = [state.flag_sq[owner * 5 + i] for i in range(4)]
        assert sorted(QUADRANT_OF[s] for s in placed) == [0, 1, 2, 3]
        assert QUADRANT_OF[placed[0]] == QUADRANT_OF[state.pawns[owner]]
    squares = [s for s in state.flag_sq if s >= 0]
    assert len(squares) == len(set(squares)) == 20  # one flag per card


def test_one_flag_per_card_start_squares_included() -> None:
    state = play(dealt(game(players=2)), "start:c4", "start:d3")
    play(state, "place:f1")
    assert "place:c4" not in texts(state.legal_actions())  # the suns' start flag is there


def test_six_flags_run_null_to_five_and_wrap_round_the_quadrants() -> None:
    state = raced(game(players=2, flags=6), ["c4", "d3"])
    assert flag_face_name(6, 0) == "null" and flag_face_name(6, 5) == "5"
    quadrants = [QUADRANT_OF[state.flag_sq[i]] for i in range(5)]
    assert quadrants == [0, 1, 2, 3, 0]
    assert state.flag_sq[5] == sq("c4")


def test_fewer_flags_mean_fewer_placements() -> None:
    state = raced(game(players=3, flags=2), ["c4", "d4", "c3"])
    assert PHASE_NAMES[state.phase] == "roll"
    assert flag_face_name(2, 0) == "ace" and flag_face_name(2, 1) == "2"
    assert sum(1 for s in state.flag_sq if s >= 0) == 6


@pytest.mark.parametrize(
    "options",
    [
        {"flags": 1},
        {"flags": 7},
        {"players": 1},
        {"players": 5},
        {"races": 0},
        {"max_rounds": -1},
        {"memory_aid": "x"},
    ],
)
def test_bad_options_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(InvalidOptionError):
        game(**options)


def test_options_from_the_command_line_are_coerced() -> None:
    g = game(players="2", flags="3", memory_aid="true", flag_variant="yes", races="3")
    assert g.options["flags"] == 3 and g.options["memory_aid"] is True and g.options["races"] == 3
    assert g.player_names() == ["suns", "moons"]
    assert game().player_names() == ["suns", "moons", "crowns", "arms"]
    assert (sq("c4"), sq("d4"), sq("c3"), sq("d3")) == CENTRE
