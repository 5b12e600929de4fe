"""Turn step 1, the board morph: the die and every flip restriction of the rulebook.

Standard position (see helpers): two players, suns start on c4 and moons on d3.
Suns' flags: ace a6, 2 d6, 3 f3, 4 b3, 5 c4. Moons' flags: ace e3, 2 a3, 3 b6, 4 e6, 5 d3.
Aces lie on a6 b6 c6 d6, twos on e6 f6 a5 b5, fours on a4 b4 c4 d4, fives on e4 f4 a3 b3.
"""

from __future__ import annotations

import pytest

from chaosgames import IllegalActionError
from chaosgames.games.royal_racers.actions import DIE_FACES, Flip, Kind
from chaosgames.games.royal_racers.board import RANK_OF, SQUARE_NAMES
from chaosgames.games.royal_racers.board_morph import flip_options
from chaosgames.games.royal_racers.state import PHASE_NAMES, RoyalRacersState
from tests.games.royal_racers.helpers import arrange, game, kinds, play, raced, rolled, sq


def standard(**options: object) -> RoyalRacersState:
    state = raced(game(players=2, **options), ["c4", "d3"])
    assert [SQUARE_NAMES[s] for s in state.flag_sq] == [
        *["a6", "d6", "f3", "b3", "c4"],
        *["e3", "a3", "b6", "e6", "d3"],
    ]
    return state


def test_the_die_has_six_equally_likely_faces() -> None:
    state = standard()
    outcomes = state.chance_outcomes()
    assert [str(a) for a, _ in outcomes] == [f"roll:{f}" for f in DIE_FACES]
    assert all(p == pytest.approx(1 / 6) for _, p in outcomes)


def test_null_does_nothing_and_goes_to_movement() -> None:
    state = rolled(standard(), "null")
    assert PHASE_NAMES[state.phase] == "move"
    assert state.down == 0


def test_ace_to_five_forces_a_flip_of_that_rank() -> None:
    state = rolled(standard(), "ace")
    assert PHASE_NAMES[state.phase] == "flip"
    # c6 is the only ace without a flag; nothing is face down, so no face-up attempt.
    assert kinds(state) == {"down": ["c6"]}
    play(state, "down:c6")
    assert state.down == 1 << sq("c6")
    assert PHASE_NAMES[state.phase] == "move"  # one flip per turn


def test_cards_six_to_nine_never_flip() -> None:
    state = arrange(standard(), down=["c6", "e6", "f6", "a5", "b5", "c5", "a4"])
    for rank in range(1, 6):
        state.roll = rank
        for action in flip_options(state, rank):
            assert RANK_OF[state.cards[action.arg]] <= 5
    assert "roll:6" not in [str(a) for a, _ in state.chance_outcomes()]


def test_flagged_cards_go_face_down_only_when_no_unflagged_card_of_that_value_is_face_up() -> None:
    state = arrange(standard(), down=["c6"])
    rolled(state, "ace")
    # The three aces left face up all carry flags, so any of them may now go face down;
    # c6 is face down, so the player may also try to turn a card up.
    assert kinds(state) == {"down": ["a6", "b6", "d6"], "up": ["c6"]}
    play(state, "down:d6")
    assert state.flag_at[sq("d6")] >= 0  # the flag stays on top of the face-down card


def test_a_card_under_a_pawn_is_never_flipped() -> None:
    state = rolled(standard(), "4")
    assert kinds(state) == {"down": ["a4", "b4", "d4"]}  # c4 holds the suns' pawn


def test_an_unflagged_card_under_a_pawn_does_not_protect_the_flagged_ones() -> None:
    # Reading chosen: "no cards of that value without flags left face-up" counts the ones
    # that could be flipped; e4 and f4 are under pawns, so the flagged fives may go down.
    state = arrange(standard(), pawns=["e4", "f4"])
    rolled(state, "5")
    assert kinds(state) == {"down": ["a3", "b3"]}


def test_the_player_may_try_to_turn_a_card_up_instead_when_one_of_that_rank_is_down() -> None:
    state = arrange(standard(), down=["a5", "c6"])
    rolled(state, "2")
    # Any face-down card may be designated: which one is a 2 is for the player to remember.
    assert kinds(state) == {"down": ["b5", "f6"], "up": ["a5", "c6"]}
    play(state, "up:a5")
    assert not state.down >> sq("a5") & 1
    assert state.last_flip == Flip(Kind.UP, sq("a5"), True)


def test_when_all_cards_of_the_rank_are_face_down_a_face_up_attempt_is_compulsory() -> None:
    state = arrange(standard(), down=["e6", "f6", "a5", "b5", "c6"])
    rolled(state, "2")
    assert kinds(state) == {"up": ["a5", "b5", "c6", "e6", "f6"]}


def test_a_wrong_guess_leaves_the_card_down_and_sends_the_pawn_to_the_start() -> None:
    state = arrange(standard(), pawns=["b4", "d3"], down=["a5", "c6"])
    rolled(state, "2")
    play(state, "up:c6")  # c6 is an ace, not a 2
    assert state.down >> sq("c6") & 1
    assert state.pawns[0] == sq("c4")  # no flag touched yet: back to start
    assert state.last_flip == Flip(Kind.UP, sq("c6"), False)
    assert PHASE_NAMES[state.phase] == "move"  # the move of step 2 still follows
    # Everyone saw the card when it was turned: the observation says what it was.
    assert state.observation(1)["last_flip"] == {"kind": "up", "square": "c6", "ok": False, "card": "Ad"}
    assert state.observation(1)["cards"][sq("c6")] is None


def test_a_wrong_guess_sends_the_pawn_back_to_the_last_flag_touched() -> None:
    state = arrange(standard(), pawns=["f4", "d3"], down=["a5", "c6"], progress=[2, 0])
    rolled(state, "2")
    play(state, "up:c6")
    assert SQUARE_NAMES[state.pawns[0]] == "d6"  # the suns' 2 flag
    assert state.progress == [2, 0]  # flags already touched stay touched


def test_sent_back_to_an_occupied_flag_the_pawn_takes_the_nearest_free_face_up_card() -> None:
    state = arrange(standard(), pawns=["f4", "d6"], down=["a5", "c6"], progress=[2, 0])
    rolled(state, "2")
    play(state, "up:c6")
    # d6 holds the moons' pawn; c6 (face down) is skipped, e6 comes next in reading order.
    assert SQUARE_NAMES[state.pawns[0]] == "e6"


def test_sent_back_to_a_face_down_flag_the_pawn_takes_the_nearest_free_face_up_card() -> None:
    state = arrange(standard(), pawns=["f4", "d3"], down=["a5", "d6"], progress=[2, 0])
    rolled(state, "2")
    play(state, "up:d6")  # d6 is an ace
    assert SQUARE_NAMES[state.pawns[0]] == "c6"


def test_a_pawn_sent_onto_its_next_flag_by_a_penalty_has_not_touched_it() -> None:
    # Suns touched their ace (c5) and head for their 2 (d5); the moons' pawn stands on c5.
    state = arrange(
        standard(),
        pawns=["f1", "c5"],
        down=["c6", "b5"],
        progress=[1, 0],
        flags={0: ["c5", "d5", "f3", "b3", "c4"]},
    )
    rolled(state, "2")
    play(state, "up:c6")  # an ace: the suns go back towards c5, taken, so to d5
    assert SQUARE_NAMES[state.pawns[0]] == "d5"
    assert state.progress == [1, 0]  # being put on a flag is not touching it
    play(state, "move:d4", "roll:null", "move:c4")  # the moons end round 1 ...
    play(state, "roll:null", "move:b4")  # ... and begin round 2
    play(state, "roll:null", "move:d5")
    assert state.progress == [2, 0]  # stepping onto it is


def test_when_every_card_of_the_rank_is_under_a_pawn_any_face_down_card_turns_up() -> None:
    state = raced(game(players=4), ["c4", "d4", "c3", "d3"])
    arrange(state, pawns=["a4", "b4", "c4", "d4"], down=["c6", "f6"])
    rolled(state, "4")
    assert kinds(state) == {"reveal": ["c6", "f6"]}
    play(state, "reveal:f6")  # a 2: the rank is not checked
    assert state.down == 1 << sq("c6")


def test_with_every_card_of_the_rank_under_a_pawn_and_none_face_down_nothing_flips() -> None:
    state = raced(game(players=4), ["c4", "d4", "c3", "d3"])
    arrange(state, pawns=["a4", "b4", "c4", "d4"])
    rolled(state, "4")
    assert PHASE_NAMES[state.phase] == "move"


def test_illegal_flips_are_refused_and_change_nothing() -> None:
    state = rolled(standard(), "ace")
    before = state.to_json()
    for text in ("down:a6", "down:e5", "up:c6", "down:c4"):
        with pytest.raises(IllegalActionError):
            play(state, text)
    assert state.to_json() == before


def test_face_up_attempts_reveal_nothing_hidden_in_the_legal_actions() -> None:
    # Two tables that differ only in which face-down card is which offer the same choices.
    a = arrange(standard(), down=["a5", "c6"])
    b = arrange(standard(), down=["a5", "c6"])
    b.cards[sq("a5")], b.cards[sq("c6")] = b.cards[sq("c6")], b.cards[sq("a5")]
    b.where[b.cards[sq("a5")]], b.where[b.cards[sq("c6")]] = sq("a5"), sq("c6")
    g = a.game
    for face in ("ace", "2"):
        x, y = rolled(a.clone(), face), rolled(b.clone(), face)
        assert [str(t) for t in x.legal_actions()] == [str(t) for t in y.legal_actions()]
        assert [g.describe_action(x, t) for t in x.legal_actions()] == [
            g.describe_action(y, t) for t in y.legal_actions()
        ]
        assert x.observation(0) == y.observation(0)
        assert g.render_text(x, 0) == g.render_text(y, 0) and str(x) == str(y)
        assert g.render_svg(x) == g.render_svg(y)
    assert a.to_json() != b.to_json()
