"""Plain American checkers (`chaos=False`): exact move generation, notation, end of game."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import chaosgames
from chaosgames import IllegalActionError, InvalidStateError, NotationError
from chaosgames.core.perft import perft
from chaosgames.games.chaos_checkers.board import index_at
from chaosgames.games.chaos_checkers.plain import PlainState
from chaosgames.games.chaos_checkers.state import ChaosState
from tests.core.contract import check_random_game
from tests.games.chaos_checkers.helpers import (
    chaos_position,
    names,
    new_plain,
    piece,
    plain_moves,
    plain_position,
    play,
)

PERFT = [7, 49, 302, 1469, 7361, 36768]


@pytest.mark.parametrize("depth", range(1, 7))
def test_perft_matches_the_published_counts(depth: int) -> None:
    state = chaosgames.load_game("chaos-checkers", chaos=False).new_initial_state()
    assert perft(state, depth) == PERFT[depth - 1]


def test_first_moves_in_standard_notation() -> None:
    state = chaosgames.load_game("chaos-checkers", chaos=False).new_initial_state()
    assert sorted(names(state)) == ["10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"]


def test_capture_is_mandatory_and_a_multi_jump_is_one_move() -> None:
    # Black man on 15, white men on 18 and 25: the only move is 15x22x29 (crowned on 29).
    state = plain_position({15: 0, 18: 1, 25: 1, 32: 1, 1: 0})
    assert names(state) == ["15x22x29"]
    play(state, "15x22x29")
    assert state.board()[28] == "B"  # crowned on the far row
    assert state.board()[17] == "." and state.board()[24] == "."


def test_a_man_crowned_during_a_capture_stops_there() -> None:
    # From 22 over 26 to 31 crowns; the new king may not go on over 27 that move.
    state = plain_position({22: 0, 26: 1, 27: 1, 1: 0})
    assert "22x31" in names(state)
    assert not any(n.startswith("22x31x") for n in names(state))


def test_men_move_forward_only_and_kings_both_ways() -> None:
    state = plain_position({14: 0}, {23: 0}, turn=0)
    state_names = names(state)
    assert "14-17" in state_names and "14-18" in state_names and "14-9" not in state_names
    assert {"23-18", "23-19", "23-26", "23-27"} <= set(state_names)


def test_without_forced_capture_steps_stay_legal() -> None:
    state = plain_position({14: 0, 18: 1, 32: 1}, forced_capture=False)
    assert "14x23" in names(state) and "14-17" in names(state)
    forced = plain_position({14: 0, 18: 1, 32: 1})
    assert names(forced) == ["14x23"]


def test_a_player_with_no_legal_move_loses() -> None:
    # Black's only man on 4 is blocked by white men on 8 and 11.
    state = plain_position({4: 0, 8: 1, 11: 1}, turn=0)
    assert state.is_terminal() and state.returns() == [0.0, 1.0]


def test_capturing_the_last_piece_wins() -> None:
    state = plain_position({14: 0, 18: 1})
    play(state, "14x23")
    assert state.is_terminal() and state.returns() == [1.0, 0.0]


BACK_AND_FORTH = ("1-5", "32-28", "5-1", "28-32")


def test_the_same_king_moves_three_times_running_are_a_draw() -> None:
    state = plain_position({}, {1: 0, 32: 1})
    play(state, *BACK_AND_FORTH, *BACK_AND_FORTH, *BACK_AND_FORTH[:3])
    assert not state.is_terminal()
    play(state, "28-32")
    assert state.is_terminal() and state.returns() == [0.5, 0.5]


def test_threefold_repetition_of_the_position_is_a_draw_with_that_option() -> None:
    state = plain_position({}, {1: 0, 32: 1}, repetition="position")
    play(state, *BACK_AND_FORTH, *BACK_AND_FORTH[:3])
    assert not state.is_terminal()
    play(state, "28-32")
    assert state.is_terminal() and state.returns() == [0.5, 0.5]
    doc = state.to_json()
    assert state.game.state_from_json(doc).is_terminal()  # the document remembers the positions


def test_max_moves_ends_the_game_drawn() -> None:
    game = chaosgames.load_game("chaos-checkers", chaos=False, max_moves=2)
    state = game.new_initial_state()
    play(state, "11-15", "22-18")
    assert state.is_terminal() and state.returns() == [0.5, 0.5] and state.ended_by() == "cap"


def test_a_plain_draw_by_repetition_is_ended_by_the_rules() -> None:
    state = plain_position({}, {1: 0, 32: 1}, max_moves=500)
    play(state, *BACK_AND_FORTH, *BACK_AND_FORTH, *BACK_AND_FORTH)
    assert state.is_terminal() and state.returns() == [0.5, 0.5] and state.ended_by() == "rules"


def test_illegal_and_unparsable_moves_are_refused_and_change_nothing() -> None:
    state = chaosgames.load_game("chaos-checkers", chaos=False).new_initial_state()
    before = json.dumps(state.to_json())
    with pytest.raises(IllegalActionError, match="legal actions are"):
        state.game.parse_action(state, "9-18")
    with pytest.raises(NotationError, match="1-32"):
        state.game.parse_action(state, "e3-d4")
    with pytest.raises(IllegalActionError):
        state.apply_action("11-15")  # text is not an action object
    assert json.dumps(state.to_json()) == before


@pytest.mark.parametrize(
    "change",
    [
        {"board": "x" * 32},
        {"board": "b" * 13 + "." * 19},
        {"board": "." * 28 + "b..."},
        {"turn": 2},
        {"ply": -1},
        {"repetition": [{"board": "b" + "." * 30 + "w", "turn": 1}]},
    ],
)
def test_impossible_plain_states_are_refused(change: dict[str, object]) -> None:
    game = chaosgames.load_game("chaos-checkers", chaos=False)
    doc = {**game.new_initial_state().to_json(), **change}
    with pytest.raises(InvalidStateError):
        game.state_from_json(doc)


def test_text_and_svg_show_the_numbered_board() -> None:
    game = chaosgames.load_game("chaos-checkers", chaos=False)
    state = game.new_initial_state()
    assert " 13 " in str(state) and "Black" in str(state)
    svg = game.render_svg(state)
    assert svg.startswith("<svg") and ">32<" in svg


@pytest.mark.parametrize("forced", [True, False])
def test_random_plain_games_honour_the_contract(forced: bool) -> None:
    rule = "moves" if forced else "position"
    game = chaosgames.load_game("chaos-checkers", chaos=False, forced_capture=forced, repetition=rule)
    check_random_game(game, seed=7)


@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_plain_games_keep_the_pieces_apart(seed: int) -> None:
    import random

    rng = random.Random(seed)
    state = new_plain()
    while not state.is_terminal():
        mover = state.side
        before = state.pieces()
        move = rng.choice(plain_moves(state))
        state.apply_action(move)
        p0, p1 = state.pieces()
        assert p0 & p1 == 0 and state.kings & ~(p0 | p1) == 0
        # The mover keeps every piece; the other side loses exactly the captured ones.
        after = (p0, p1)
        assert after[mover].bit_count() == before[mover].bit_count()
        assert after[1 - mover] == before[1 - mover] & ~move.captured
        assert p0.bit_count() <= 12 and p1.bit_count() <= 12
    heuristic = state.game.heuristic(state)
    assert heuristic == state.returns()


# A white king on 15 jumps the black men on 18, 26, 27 and 19 and lands where it began.
CIRCLE = "....b.........W..bb......bb....."


def circle_position() -> PlainState:
    game = chaosgames.load_game("chaos-checkers", chaos=False)
    doc = {**game.new_initial_state().to_json(), "board": CIRCLE, "turn": 1, "ply": 0, "repetition": []}
    state = game.state_from_json(doc)
    assert isinstance(state, PlainState)
    return state


def test_a_king_whose_multi_jump_ends_where_it_began_stays_on_the_board() -> None:
    state = circle_position()
    assert "15x22x31x24x15" in names(state)
    play(state, "15x22x31x24x15")
    assert state.board() == "....b.........W................."
    assert not state.is_terminal()
    play(state, "5-9")
    assert not state.is_terminal() and state.pieces() == (1 << 8, 1 << 14)


def test_perft_through_the_circular_jump() -> None:
    # White goes round either way and keeps its king on 15; Black's man on 5 has one
    # step (5-9); the king then has its four steps: 2 x 1 x 4 = 8 leaves at depth 3.
    # Had the king vanished, Black would have won and depth 3 would count 0.
    state = circle_position()
    assert sorted(names(state)) == ["15x22x31x24x15", "15x24x31x22x15"]
    assert [perft(state, depth) for depth in (1, 2, 3)] == [2, 2, 8]


def _random_position(rng: random.Random) -> tuple[dict[int, int], dict[int, int]]:
    """Men and kings ({square: owner}) of a random position with 1-12 pieces a side.

    One position in three plants a ring: a king on a corner of a diamond whose four
    sides hold opposing pieces, with the other corners empty, so it may jump round.
    """
    owner_of: dict[int, int] = {}
    king_at: set[int] = set()
    empty: set[int] = set()
    if rng.random() < 1 / 3:
        row, col = rng.choice([(r, c) for r in range(2, 6) for c in range(2, 6) if (r + c) % 2])
        corners = [index_at(row + dr, col + dc) + 1 for dr, dc in ((-2, 0), (0, 2), (2, 0), (0, -2))]
        sides = [index_at(row + dr, col + dc) + 1 for dr in (-1, 1) for dc in (-1, 1)]
        owner = rng.randint(0, 1)
        start = rng.choice(corners)
        owner_of[start] = owner
        king_at.add(start)
        empty.update(c for c in corners if c != start)
        for square in sides:
            owner_of[square] = 1 - owner
    for square in rng.sample(range(1, 33), rng.randint(2, 24)):
        owner = len(owner_of) % 2 if len(owner_of) < 2 else rng.randint(0, 1)
        if square in owner_of or square in empty or list(owner_of.values()).count(owner) == 12:
            continue
        owner_of[square] = owner
    men: dict[int, int] = {}
    kings: dict[int, int] = {}
    for square, owner in owner_of.items():
        far_row = square >= 29 if owner == 0 else square <= 4
        if square in king_at or far_row or rng.random() < 0.4:
            kings[square] = owner  # a man on its far row would have been crowned
        else:
            men[square] = owner
    return men, kings


def _chaos_twin(men: dict[int, int], kings: dict[int, int], turn: int) -> ChaosState:
    """The same position in chaos mode, every piece without shield or potion."""
    colours = (("red", "orange", "yellow"), ("blue", "lightblue", "purple"))
    pieces: dict[int, dict[str, object]] = {}
    count = [0, 0]
    placed = [(s, o, False) for s, o in men.items()] + [(s, o, True) for s, o in kings.items()]
    for square, owner, king in placed:
        pieces[square] = piece(colours[owner][count[owner] // 4], king=king)
        count[owner] += 1
    return chaos_position(pieces, turn=turn)


def _chaos_board(state: ChaosState) -> str:
    return "".join(
        "." if p is None else ("bw"[p.owner].upper() if p.king else "bw"[p.owner]) for p in state.board
    )


def test_plain_and_chaos_without_shields_or_potions_make_the_same_moves_and_boards() -> None:
    rng = random.Random(18)
    circles = 0
    for number in range(400):
        men, kings = _random_position(rng)
        turn = number % 2
        plain = plain_position(men, kings, turn=turn)
        chaos = _chaos_twin(men, kings, turn)
        assert plain.board() == _chaos_board(chaos)
        assert plain.is_terminal() == chaos.is_terminal()
        moves = {str(a): a for a in plain_moves(plain)}
        assert sorted(moves) == sorted(names(chaos))
        for text, move in moves.items():
            after_plain = plain.clone()
            after_plain.apply_action(move)
            after_chaos = chaos.clone()
            play(after_chaos, text)
            assert after_plain.board() == _chaos_board(after_chaos), (plain.board(), text)
            circles += move.path[0] == move.path[-1] and len(move.path) > 1
    assert circles  # the generator reaches multi-jumps that end where they began
