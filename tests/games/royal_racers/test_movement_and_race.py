"""Turn step 2 (movement), flags in order, the end of the race, turn order and the cap.

Standard position as in test_board_morph: suns (seat 0) start on c4, moons on d3.
Suns' flags: ace a6, 2 d6, 3 f3, 4 b3, 5 c4. Moons' flags: ace e3, 2 a3, 3 b6, 4 e6, 5 d3.
"""

from __future__ import annotations

import pytest

from chaosgames import IllegalActionError
from chaosgames.games.royal_racers.board import SQUARE_NAMES
from chaosgames.games.royal_racers.state import PHASE_NAMES, RoyalRacersState
from tests.games.royal_racers.helpers import arrange, game, kinds, play, raced, rolled


def standard(**options: object) -> RoyalRacersState:
    return raced(game(players=2, **options), ["c4", "d3"])


def test_the_pawn_moves_one_space_orthogonally() -> None:
    state = rolled(standard(), "null")
    assert kinds(state) == {"move": ["c3", "b4", "d4", "c5"]}  # in square order a1, b1 ... f6
    corner = rolled(arrange(standard(), pawns=["a1", "f6"]), "null")
    assert kinds(corner) == {"move": ["b1", "a2"]}


def test_only_one_pawn_per_space() -> None:
    state = rolled(arrange(standard(), pawns=["c4", "d4"]), "null")
    assert "d4" not in kinds(state)["move"]


def test_a_pawn_may_not_land_on_a_face_down_card() -> None:
    state = rolled(arrange(standard(), pawns=["c4", "f1"], down=["c5", "b4"]), "null")
    assert kinds(state) == {"move": ["c3", "d4"]}


def test_with_no_legal_move_the_move_is_forfeited() -> None:
    # Suns on a6, boxed in by a face-down b6... and a5 under the moons' pawn.
    state = arrange(standard(), pawns=["a6", "a5"], down=["b6"])
    rolled(state, "null")
    assert PHASE_NAMES[state.phase] == "roll"
    assert state.mover() == 1 and SQUARE_NAMES[state.pawns[0]] == "a6"


def test_moving_is_compulsory_unless_optional_move_is_on() -> None:
    assert "stay" not in [str(a) for a in rolled(standard(), "null").legal_actions()]
    state = rolled(standard(optional_move=True), "null")
    assert str(state.legal_actions()[-1]) == "stay"
    play(state, "stay")
    assert SQUARE_NAMES[state.pawns[0]] == "c4" and state.mover() == 1


def test_moves_off_the_board_or_diagonal_are_illegal() -> None:
    state = rolled(standard(), "null")
    for text in ("move:d5", "move:c6", "move:b3"):
        with pytest.raises(IllegalActionError):
            play(state, text)


def test_player_one_starts_and_the_first_player_rotates_each_round() -> None:
    state = raced(game(players=3), ["c4", "d4", "c3"])
    seen = []
    for _ in range(9):
        seen.append(state.mover())
        rolled(state, "null")
        state.apply_action(state.legal_actions()[0])
    assert seen == [0, 1, 2, 1, 2, 0, 2, 0, 1]
    assert state.round_number() == 4


def test_flags_count_only_in_order() -> None:
    # The suns step onto their 2 flag before touching the ace: it does not count.
    state = arrange(standard(), pawns=["d5", "f1"])
    rolled(state, "null")
    play(state, "move:d6")
    assert state.progress[0] == 0
    state = arrange(standard(), pawns=["a5", "f1"])
    rolled(state, "null")
    play(state, "move:a6")
    assert state.progress[0] == 1


def test_stepping_back_onto_the_start_early_does_not_finish() -> None:
    state = arrange(standard(), pawns=["b4", "f1"], progress=[3, 0])
    rolled(state, "null")
    play(state, "move:c4")
    assert state.progress[0] == 3 and not state.is_terminal()


def test_whoever_touches_the_last_flag_first_wins() -> None:
    state = arrange(standard(), pawns=["b4", "f1"], progress=[4, 3])
    rolled(state, "null")
    play(state, "move:c4")
    assert state.is_terminal()
    assert state.returns() == [1.0, 0.0]
    assert state.coins == [[5, 3]] and state.race_winners == [0]
    assert state.ended_by() == "rules" and state.observation(None)["ended_by"] == "rules"


def test_the_cap_ends_the_race_and_most_flags_touched_wins_it() -> None:
    state = arrange(standard(max_rounds=1), pawns=["f1", "a1"], progress=[2, 1])
    for _ in range(2):
        rolled(state, "null")
        state.apply_action(state.legal_actions()[0])
    assert state.is_terminal()
    assert state.returns() == [1.0, 0.0]
    assert state.race_winners == [-1]
    assert state.ended_by() == "cap" and state.observation(1)["ended_by"] == "cap"


def test_a_tie_at_the_cap_is_shared() -> None:
    state = arrange(standard(max_rounds=1), pawns=["f1", "a1"], progress=[2, 2])
    for _ in range(2):
        rolled(state, "null")
        state.apply_action(state.legal_actions()[0])
    assert state.returns() == [0.5, 0.5]


class TestFlagVariant:
    def test_a_pawn_may_not_step_onto_an_opponents_flag_while_another_path_exists(self) -> None:
        # Suns on b5 head for their ace on a6; b6 carries the moons' 3 flag.
        state = arrange(standard(flag_variant=True), pawns=["b5", "f1"])
        rolled(state, "null")
        assert "b6" not in kinds(state)["move"]
        assert "a5" in kinds(state)["move"]
        without = rolled(arrange(standard(), pawns=["b5", "f1"]), "null")
        assert "b6" in kinds(without)["move"]

    def test_when_every_other_path_is_blocked_the_opponents_flag_may_be_crossed(self) -> None:
        # a5 face down and the moons' pawn on a4 leave b6 as the only way to a6.
        state = arrange(standard(flag_variant=True), pawns=["b5", "a4"], down=["a5"])
        rolled(state, "null")
        assert "b6" in kinds(state)["move"]

    def test_a_next_flag_face_down_or_under_a_pawn_cannot_be_reached_so_nothing_is_restricted(
        self,
    ) -> None:
        # Suns on b5 head for their ace on a6; b6 carries the moons' 3 flag.
        state = arrange(standard(flag_variant=True), pawns=["b5", "f1"], down=["a6"])
        assert "b6" in kinds(rolled(state, "null"))["move"]
        state = arrange(standard(flag_variant=True), pawns=["b5", "a6"])
        assert "b6" in kinds(rolled(state, "null"))["move"]

    def test_a_pawn_standing_on_its_next_flag_is_not_restricted(self) -> None:
        # Put on the ace flag (a6) by a penalty, the suns have not touched it yet.
        state = arrange(standard(flag_variant=True), pawns=["a6", "f1"])
        assert kinds(rolled(state, "null"))["move"] == ["a5", "b6"]

    def test_an_opponents_start_counts_as_a_flag_space(self) -> None:
        # Suns on d4 head for their 3 on f3 (by e4, f4); the moons' start (5 flag) is on d3.
        state = arrange(standard(flag_variant=True), pawns=["d4", "a1"], progress=[2, 0])
        rolled(state, "null")
        assert "d3" not in kinds(state)["move"]


class TestCampaign:
    def test_each_race_scores_coins_for_flags_touched_and_a_new_race_is_dealt(self) -> None:
        state = arrange(raced(game(players=2, races=2), ["c4", "d3"]), pawns=["b4", "f1"], progress=[4, 2])
        rolled(state, "null")
        play(state, "move:c4")
        assert not state.is_terminal()
        assert state.coins == [[5, 2]]
        assert PHASE_NAMES[state.phase] == "deal" and state.race == 1
        assert len(state.chance_outcomes()) == 36
        # The second race is started by player 2.
        for _ in range(36):
            state.apply_action(state.chance_outcomes()[0][0])
        assert state.current_player() == 1

    def test_the_player_who_scored_the_most_wins_the_campaign(self) -> None:
        state = arrange(raced(game(players=2, races=2), ["c4", "d3"]), pawns=["b4", "f1"], progress=[4, 2])
        rolled(state, "null")
        play(state, "move:c4")
        state.coins = [[5, 2]]
        state.race_winners = [0]
        finish_race_two(state, winner=1, loser_flags=1)
        assert state.is_terminal()
        assert state.coins == [[5, 2], [1, 5]]
        assert state.totals() == [6, 7]
        assert state.returns() == [0.0, 1.0]

    def test_a_campaign_tie_is_shared(self) -> None:
        state = arrange(raced(game(players=2, races=2), ["c4", "d3"]), pawns=["b4", "f1"], progress=[4, 2])
        rolled(state, "null")
        play(state, "move:c4")
        finish_race_two(state, winner=1, loser_flags=2)
        assert state.totals() == [7, 7]
        assert state.returns() == [0.5, 0.5]


def finish_race_two(state: RoyalRacersState, winner: int, loser_flags: int) -> None:
    """Deal and set up race two, then let `winner` step onto his start with all flags."""
    for _ in range(36):
        state.apply_action(state.chance_outcomes()[0][0])
    while PHASE_NAMES[state.phase] in ("start", "flags"):
        state.apply_action(state.legal_actions()[0])
    start = state.flag_sq[winner * 5 + 4]
    beside = next(n for n in (start - 1, start + 1) if n not in state.pawns and n != start)
    pawns = [SQUARE_NAMES[p] for p in state.pawns]
    pawns[winner] = SQUARE_NAMES[beside]
    progress = [loser_flags, loser_flags]
    progress[winner] = 4
    arrange(state, pawns=pawns, progress=progress)
    while state.mover() != winner:
        rolled(state, "null")
        state.apply_action(state.legal_actions()[0])
    rolled(state, "null")
    play(state, f"move:{SQUARE_NAMES[start]}")
