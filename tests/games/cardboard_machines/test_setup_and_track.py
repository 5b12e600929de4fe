"""Setup and the track's geometry, on the real boards of boards.json."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

import chaosgames
from chaosgames.core.chance import exact_total
from chaosgames.games.cardboard_machines.boards import FRONT, SIDES, START_SPACES
from chaosgames.games.cardboard_machines.phases import GEAR
from chaosgames.games.cardboard_machines.state import CardboardState
from tests.games.cardboard_machines.helpers import new_state, play, space, table


def _names(st: CardboardState, spaces: Iterable[tuple[int, int]]) -> list[str]:
    return sorted(st.name(t) for _, t in spaces)


def test_setup_chooses_the_starting_player_by_a_uniform_chance_node() -> None:
    st = new_state(players=3)
    outcomes = st.chance_outcomes()
    assert [str(a) for a, _ in outcomes] == ["first:1", "first:2", "first:3"]
    assert exact_total(outcomes) == 1 and len({p for _, p in outcomes}) == 1


def test_setup_shuffles_one_board_behind_and_four_in_front_leaving_three_in_the_box() -> None:
    st = new_state(players=4)
    play(st, "first:2")
    assert sorted(str(a) for a in st.legal_actions()) == [f"board:{b}" for b in range(1, 9)]
    play(st, "board:7", "board:3", "board:8", "board:1")
    assert len(st.chance_outcomes()) == 4  # boards already drawn cannot be drawn again
    play(st, "board:5")
    assert st.board_ids == [7, 0, 3, 8, 1, 5]
    assert st.sides == [0] * 6  # white side up
    assert st.unused == [2, 4, 6]
    assert st.phase == GEAR and st.mover == 1


def test_cars_go_on_starting_spaces_from_the_starting_player_clockwise() -> None:
    st = new_state(players=4, boards=[2, 0, 1, 3, 4, 5])
    play(st, "first:3")
    # player 3 starts: space 1, player 4 space 2, player 1 space 3, player 2 space 4
    for player, number in ((2, 1), (3, 2), (0, 3), (1, 4)):
        col, row = START_SPACES[number]
        assert st.pos[player] == space(st, f"{3 + row}{'abcdef'[col]}")
        assert st.start_row[player] == row
    assert st.gear == [1, 1, 1, 1] and st.lives == [3, 3, 3, 3] and st.stress == [0, 0, 0, 0]
    assert st.tokens_left == 3 and st.mover == 2


def test_a_given_board_order_skips_the_shuffle() -> None:
    st = table([6, 0, 2, 4, 8, 1])
    assert st.board_ids == [6, 0, 2, 4, 8, 1] and st.phase == GEAR


@pytest.mark.parametrize(
    "boards",
    [[1, 2, 0, 3, 4, 5], [1, 0, 1, 3, 4, 5], [1, 0, 3], [1, 0, 2, 3, 4, 9], "three", [1, 0, 2, 3, 4, True]],
)
def test_a_bad_board_order_is_refused(boards: object) -> None:
    with pytest.raises(chaosgames.InvalidOptionError):
        chaosgames.load_game("cardboard-machines", boards=boards)


@pytest.mark.parametrize(
    "options",
    [{"stress_overflow": "explode"}, {"round_tokens": 0}, {"players": 5}, {"players": 1}, {"turbo": True}],
)
def test_bad_options_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(chaosgames.InvalidOptionError):
        chaosgames.load_game("cardboard-machines", **options)


def test_board_data_is_the_nine_double_sided_boards() -> None:
    assert len(SIDES) == 9
    assert all(not white.dark_edges and gray.dark_edges for white, gray in SIDES)
    assert START_SPACES == {1: (1, 0), 2: (3, 0), 3: (4, 1), 4: (2, 1)}


def test_rows_that_line_up_give_three_spaces_in_front() -> None:
    st = table([2, 0, 1, 3, 4, 5])
    assert _names(st, st.targets(space(st, "4c"))) == ["5b", "5c", "5d"]
    assert [step for step, _ in FRONT[(0, 0)][2]] == [-2, 0, 2]


def test_the_wall_cuts_the_diagonal_off_at_the_outer_lanes() -> None:
    st = table([2, 0, 1, 3, 4, 5])
    assert _names(st, st.targets(space(st, "4a"))) == ["5a", "5b"]
    assert _names(st, st.targets(space(st, "4f"))) == ["5e", "5f"]


def test_staggered_rows_give_two_spaces_in_front() -> None:
    st = table([2, 0, 1, 3, 4, 5])
    # board 1 (offset 0) to board 3 (half a space to the right)
    assert _names(st, st.targets(space(st, "6c"))) == ["7b", "7c"]
    # at the left edge the stagger leaves a single space in front
    assert _names(st, st.targets(space(st, "6a"))) == ["7a"]


def test_boards_shifted_a_whole_space_line_up_again() -> None:
    st = table([2, 0, 3, 6, 4, 5])
    # board 3 (offset +1) to board 6 (offset -1): lateral steps -2, 0, +2
    assert _names(st, st.targets(space(st, "6c"))) == ["7c", "7d", "7e"]


def test_every_board_side_leaves_room_to_place_a_crashed_car() -> None:
    # Placement needs a space without terrain or car on the third board: with at most
    # 3 other cars, 4 spaces without terrain on every side are enough.
    assert min(sum(not t for t in side.terrain) for pair in SIDES for side in pair) >= 4
