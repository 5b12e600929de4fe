"""The rulebook's three worked examples, rebuilt as positions."""

from __future__ import annotations

from chaosgames import CHANCE
from chaosgames.games.chaos_cruisers.actions import COLOURS, Move, Reenter
from chaosgames.games.chaos_cruisers.race import lead_groups
from chaosgames.games.chaos_cruisers.state import Phase

from .helpers import end_square, load, moves, open_field, position, squares

RED, BLACK, YELLOW, BLUE = range(4)


def test_lead_order_tied_on_distance_is_broken_by_speed() -> None:
    """Crown next for all; yellow and blue 3 squares from it, blue faster (4 to 3): blue
    first, yellow second, then red, and black last."""
    game = load()
    # Grand loop: the crown tile covers squares (6..7, 10..11) on the top straight.
    state = position(
        game,
        {
            "red": ((12, 10), 0, 1),
            "black": ((14, 8), 5, 1),
            "yellow": ((10, 11), 3, 1),
            "blue": ((10, 10), 4, 1),
        },
    )
    assert game.chart[1] == "crown"
    assert state.distance_to_next_gate(YELLOW) == state.distance_to_next_gate(BLUE) == 3
    assert lead_groups(state.lead_order_keys()) == ((BLUE,), (YELLOW,), (RED,), (BLACK,))
    # A new cruising round uses exactly that order, with no roll needed.
    state._begin_cruising_round()
    assert state.order == (BLUE, YELLOW, RED, BLACK)
    assert state.current_player() == BLUE


def test_the_cruiser_with_more_gates_leads_even_if_further_from_its_next_gate() -> None:
    """Rule 1 before rule 2: red has the crown already and is far from the arms; blue,
    3 squares from the crown, still comes second."""
    game = load()
    state = position(
        game,
        {
            "red": ((12, 10), 0, 2),
            "black": ((14, 8), 5, 1),
            "yellow": ((10, 11), 3, 1),
            "blue": ((10, 10), 4, 1),
        },
    )
    assert state.distance_to_next_gate(RED) > state.distance_to_next_gate(BLUE)
    assert lead_groups(state.lead_order_keys()) == ((RED,), (BLUE,), (YELLOW,), (BLACK,))


def test_tie_on_distance_and_speed_is_rolled_for() -> None:
    """Rule 4: still tied after speed, a chance node picks who leads, each equally likely."""
    game = load()
    state = position(
        game,
        {
            "red": ((12, 10), 0, 1),
            "black": ((14, 8), 5, 1),
            "yellow": ((10, 11), 4, 1),
            "blue": ((10, 10), 4, 1),
        },
    )
    state._begin_cruising_round()
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert [str(a) for a, _ in outcomes] == ["lead:yellow", "lead:blue"]
    assert [p for _, p in outcomes] == [0.5, 0.5]
    state.apply_action(outcomes[1][0])
    assert state.order == (BLUE, YELLOW, RED, BLACK)


def test_squares_reachable_at_speed_three_with_one_turn() -> None:
    """Black at speed 3 may end on exactly 12 squares: 3 straight in four directions and
    the eight knight-like squares of one 90-degree turn."""
    game = load(course=open_field())
    state = position(
        game, {"black": ((3, 3), 3), "red": ((7, 7), 0), "yellow": ((0, 7), 0), "blue": ((7, 0), 0)}
    )
    state.phase = Phase.MOVE
    state._invalidate()
    legal = moves(state)
    assert len(legal) == 20  # 4 directions x (straight + 2 turn points x 2 turn directions)
    ends = {end_square(state, m) for m in legal}
    expected = {(3 + dx, 3 + dy) for dx in range(-3, 4) for dy in range(-3, 4) if abs(dx) + abs(dy) == 3}
    assert {square for square, outcome in ends if outcome == "stop"} == expected
    assert len(expected) == 12
    # No diagonal moves, nothing shorter, no U-turns.
    assert all(s is not None and abs(s[0] - 3) + abs(s[1] - 3) == 3 for s, _ in ends)


def test_ramming_stops_the_rammer_slows_it_and_pushes_the_rammed_cruiser() -> None:
    """Black (speed 3) rams yellow two squares ahead: black stops there at speed 2 and
    yellow moves one square on in the direction of travel."""
    game = load(course=open_field())
    state = position(
        game, {"black": ((1, 3), 3), "yellow": ((3, 3), 2), "red": ((7, 7), 0), "blue": ((7, 0), 0)}
    )
    state.phase = Phase.MOVE
    state._invalidate()
    state.apply_action(game.parse_action(state, "move:E3"))
    assert state.pos[BLACK] == (3, 3)
    assert state.speed[BLACK] == 2
    assert state.pos[YELLOW] == (4, 3)
    assert state.speed[YELLOW] == 2  # the rammed cruiser keeps its speed


def test_ramming_a_cruiser_off_the_course_sends_it_back_to_its_last_gate() -> None:
    game = load(course=open_field())
    # Yellow sits on the east edge (x = 7); black rams it eastwards.
    state = position(
        game,
        {"black": ((5, 5), 3), "yellow": ((7, 5), 4, 1), "red": ((0, 7), 0), "blue": ((1, 7), 0)},
    )
    state.phase = Phase.MOVE
    state._invalidate()
    state.apply_action(Move(1, 2, 0, 1))  # E2N1: rams yellow after two squares
    assert state.pos[BLACK] == (7, 5) and state.speed[BLACK] == 2
    assert state.pos[YELLOW] is None and state.speed[YELLOW] == 0
    # Yellow's player (not the mover) picks a square of the moon tile, yellow's last gate.
    assert state.current_player() == YELLOW
    moon = game.gate_tile["moon"]
    assert {a.square for a in state.legal_actions() if isinstance(a, Reenter)} == {
        (moon[0] * 2 + dx, moon[1] * 2 + dy) for dx in (0, 1) for dy in (0, 1)
    }
    state.apply_action(Reenter((6, 1)))
    assert state.pos[YELLOW] == (6, 1)


def test_ramming_a_cruiser_into_an_obstacle_sends_it_back() -> None:
    game = load(course=open_field())
    state = position(
        game,
        {"black": ((2, 4), 2), "yellow": ((4, 4), 3), "red": ((0, 7), 0), "blue": ((1, 7), 0)},
        obstacles={(5, 4): "red"},
    )
    state.phase = Phase.MOVE
    state._invalidate()
    state.apply_action(game.parse_action(state, "move:E2"))
    assert state.pos[BLACK] == (4, 4) and state.speed[BLACK] == 1
    assert state.pos[YELLOW] is None and state.phase == "reenter"
    assert COLOURS[state.reentering] == "yellow"
    # No gate passed yet: back to the sun gate tile.
    sun = game.gate_tile["sun"]
    assert all(s[0] // 2 == sun[0] and s[1] // 2 == sun[1] for s in squares(state))
