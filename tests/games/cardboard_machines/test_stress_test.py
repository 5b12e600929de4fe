"""Testing for stress: dice as chance nodes, blanks, pairs, swerves, malfunctions, options."""

from __future__ import annotations

from typing import Any

import pytest

from chaosgames.core.chance import exact_total
from chaosgames.games.cardboard_machines import stress_test
from chaosgames.games.cardboard_machines.phases import BONUS, GEAR, LEFT, MALF, OFF, RESOLVE, RIGHT, ROLL
from chaosgames.games.cardboard_machines.state import CardboardState
from tests.games.cardboard_machines.helpers import legal, play, put, space, table, turn_of, where

TRACK = [2, 0, 1, 3, 4, 5]


def rolling(at: str, stress: int, other: str = "1c", **options: Any) -> CardboardState:
    """Player 1 on `at` with `stress`, about to roll the stress dice."""
    st = table(TRACK, **options)
    put(st, 0, at, stress=stress)
    put(st, 1, other)
    turn_of(st, 0)
    stress_test.start_roll(st)
    st._invalidate()
    return st


def test_one_die_per_stress_each_a_uniform_chance_node() -> None:
    st = rolling("8b", stress=3)
    assert st.phase == ROLL and st.to_roll == 3
    outcomes = st.chance_outcomes()
    assert [str(a) for a, _ in outcomes] == [f"roll:{f}" for f in range(1, 7)]
    assert exact_total(outcomes) == 1


def test_at_most_six_dice() -> None:
    assert rolling("8b", stress=9).to_roll == 6


@pytest.mark.parametrize(("face", "kind"), [(1, -1), (2, LEFT), (3, LEFT), (4, RIGHT), (5, RIGHT), (6, MALF)])
def test_the_revisions_faces(face: int, kind: int) -> None:
    assert stress_test.face_kind(face, plus_one=False) == kind


def test_blanks_go_and_left_right_pairs_cancel() -> None:
    st = rolling("8b", stress=4)
    play(st, "roll:1", "roll:2", "roll:4", "roll:3")
    assert st.dice == [1, 0, 0] and st.phase == RESOLVE
    assert legal(st) == ["swerve:left"]


def test_nothing_left_after_cancelling_ends_the_turn() -> None:
    st = rolling("8b", stress=2)
    play(st, "roll:2", "roll:5")
    assert st.phase == GEAR and st.mover == 1 and where(st, 0) == "8b"


def test_two_malfunctions_crash_at_once() -> None:
    st = rolling("8b", stress=3)
    play(st, "roll:6", "roll:6", "roll:2")
    assert st.pos[0] == OFF and st.lives[0] == 2 and st.stress[0] == 1
    assert space(st, "8b") in st.ghosts


def test_a_swerve_moves_one_space_sideways() -> None:
    st = rolling("8b", stress=1)
    play(st, "roll:2")
    play(st, "swerve:left")
    assert where(st, 0) == "8a" and st.mover == 1


def test_swerving_into_the_wall_crashes_with_the_ghost_on_the_last_space() -> None:
    st = rolling("8a", stress=1)
    play(st, "roll:3", "swerve:left")
    assert st.pos[0] == OFF and st.lives[0] == 2 and st.ghosts == {space(st, "8a")}


def test_swerving_into_terrain_crashes() -> None:
    st = rolling("8b", stress=1)
    play(st, "roll:4", "swerve:right")  # 8c is terrain
    assert st.pos[0] == OFF and st.lives[0] == 2 and st.ghosts == {space(st, "8c")}


def test_a_swerve_cannot_end_on_another_car() -> None:
    st = rolling("8b", stress=1, other="8a")
    play(st, "roll:2", "swerve:left")
    assert where(st, 0) == "8b" and st.stress == [1, 0]


def test_swerving_into_a_ghost_costs_one_stress() -> None:
    st = rolling("8b", stress=1)
    st.ghosts.add(space(st, "8a"))
    play(st, "roll:2", "swerve:left")
    assert where(st, 0) == "8a" and st.stress[0] == 2


def test_a_malfunction_gives_one_stress_and_one_space_forward() -> None:
    st = rolling("6c", stress=2)
    play(st, "roll:6", "roll:1")
    assert legal(st) == ["malfunction"]
    play(st, "malfunction")
    assert st.stress[0] == 3 and st.phase == BONUS
    assert legal(st) == ["move:left", "move:right"]  # 7b or 7c (staggered)
    play(st, "move:left")
    assert where(st, 0) == "7b" and st.mover == 1


def test_a_malfunction_forward_move_cannot_end_on_a_car() -> None:
    st = rolling("6c", stress=1, other="7b")
    play(st, "roll:6", "malfunction")
    assert legal(st) == ["move:right"]


def test_a_malfunction_into_terrain_crashes() -> None:
    st = rolling("6c", stress=1)
    play(st, "roll:6", "malfunction", "move:right")  # 7c is terrain
    assert st.pos[0] == OFF and st.lives[0] == 2


def test_a_malfunction_on_the_front_row_scrolls_the_track() -> None:
    st = rolling("12c", stress=1, other="3a")
    play(st, "roll:6", "malfunction")
    assert st.board_ids[-1] == 2 and st.ghost_pending
    play(st, "ghost:none")
    assert st.phase == BONUS and where(st, 0) == "10c"


def test_the_player_chooses_the_order_of_the_remaining_dice() -> None:
    st = rolling("8b", stress=3)
    play(st, "roll:3", "roll:2", "roll:6")
    assert legal(st) == ["swerve:left", "malfunction"]
    play(st, "malfunction")
    assert legal(st) == ["move:left", "move:ahead", "move:right"]  # 9a, 9b, 9c
    play(st, "move:left")  # around the terrain on 9b: barely dodging
    assert where(st, 0) == "9a" and st.stress[0] == 5  # 3 + malfunction + dodge
    assert st.phase == RESOLVE and legal(st) == ["swerve:left"]


def test_more_than_six_stress_rerolls_blanks_in_the_seed() -> None:
    st = rolling("8b", stress=7)
    play(st, "roll:1", "roll:2", "roll:1", "roll:4", "roll:5", "roll:4")
    assert st.phase == ROLL and st.rerolls == 2  # two blanks are rolled again
    play(st, "roll:1", "roll:3")  # a blank again is just removed
    # left 1 + 1 rerolled, right 3: two pairs cancel
    assert st.dice == [0, 1, 0]


def test_plus_one_adds_one_to_every_die_with_more_than_six_stress() -> None:
    st = rolling("8b", stress=7, stress_overflow="plus_one")
    play(st, "roll:1", "roll:2", "roll:3", "roll:4", "roll:5", "roll:4")
    # 1->left, 2->left, 3->right, 4->right, 5->malfunction, 4->right; pairs cancel
    assert st.dice == [0, 1, 1]
    assert stress_test.face_kind(6, plus_one=True) == MALF


def test_plus_one_does_not_apply_at_six_stress_or_fewer() -> None:
    st = rolling("8b", stress=6, stress_overflow="plus_one")
    play(st, *["roll:1"] * 6)
    assert st.dice == [0, 0, 0] and st.mover == 1


def test_buying_off_a_swerve_is_an_option_of_the_revision() -> None:
    st = rolling("8b", stress=1, buy_off_swerve=True)
    play(st, "roll:2")
    assert legal(st) == ["swerve:left", "buyoff:left"]
    play(st, "buyoff:left")
    assert st.stress[0] == 2 and where(st, 0) == "8b" and st.mover == 1


def test_no_buying_off_with_more_than_six_stress() -> None:
    st = rolling("8b", stress=7, buy_off_swerve=True)
    play(st, "roll:2", "roll:6", "roll:5", "roll:5", "roll:5", "roll:3")
    assert "buyoff:right" not in legal(st)


def test_no_buying_off_by_default() -> None:
    st = rolling("8b", stress=1)
    play(st, "roll:2")
    assert legal(st) == ["swerve:left"]


def test_a_blocked_malfunction_still_gives_its_stress() -> None:
    # From 6b both spaces in front (7a, 7b) hold cars: the forward move cannot end anywhere,
    # so it does not happen, but the malfunction's 1 stress is taken.
    st = table(TRACK, players=3)
    put(st, 0, "6b", stress=1)
    put(st, 1, "7a")
    put(st, 2, "7b")
    turn_of(st, 0)
    stress_test.start_roll(st)
    st._invalidate()
    play(st, "roll:6", "malfunction")
    assert where(st, 0) == "6b" and st.stress == [2, 0, 0] and st.mover == 1
