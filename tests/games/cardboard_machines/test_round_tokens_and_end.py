"""Round tokens (NOTES.md item 3, the lap reading) and the end of the game."""

from __future__ import annotations

import random
from typing import Any

from chaosgames.core.chance import sample_outcome
from chaosgames.games.cardboard_machines import end_of_game
from chaosgames.games.cardboard_machines.phases import GEAR
from chaosgames.games.cardboard_machines.state import CardboardState
from tests.games.cardboard_machines.helpers import (
    cautious_action,
    legal,
    new_state,
    play,
    put,
    table,
    turn_of,
    where,
)


def lap_ahead(players: int = 3, **options: Any) -> CardboardState:
    """Board 0 lies at the back: the next scroll brings it (gray) to the front: lap 1."""
    st = table([2, 0, 1, 3, 4, 5], players=players, **options)
    st.board_ids = [0, 2, 1, 3, 4, 5]
    put(st, 0, "12c", gear=2)
    put(st, 1, "9a")
    if players > 2:
        put(st, 2, "9f")
    turn_of(st, 0)
    return st


def test_board_zero_coming_to_the_front_starts_a_lap() -> None:
    st = lap_ahead()
    assert st.lap == 0
    play(st, "gear:2", "scroll")
    assert st.lap == 1 and st.board_ids[-1] == 0 and st.sides[-1] == 1


def test_the_first_player_through_her_starting_row_takes_a_round_token() -> None:
    st = lap_ahead()
    assert st.start_row[0] == 0  # player 1 started on space 1, in the back row of board 0
    play(st, "gear:2", "scroll", "ghost:none", "move:left")  # into 11c: board 0, back row
    assert st.tokens == [1, 0, 0] and st.tokens_left == 2 and st.lap_claimed


def test_only_one_token_per_lap() -> None:
    st = lap_ahead()
    play(st, "gear:2", "scroll", "ghost:none", "move:left", "move:ahead")
    assert where(st, 0) == "12c"
    # player 2 (also started in the back row) reaches it later in the same lap: no token
    turn_of(st, 1)
    put(st, 1, "10b", gear=1)
    play(st, "gear:1", "move:right")
    assert st.table_row(st.pos[1]) == 10 and st.tokens == [1, 0, 0]


def test_each_new_lap_offers_a_new_token() -> None:
    st = lap_ahead()
    play(st, "gear:2", "scroll", "ghost:none", "move:left", "move:ahead")
    assert st.tokens == [1, 0, 0] and st.mover == 1
    # Six scrolls later board 0 lies at the back again (built directly), gray side up.
    st.board_ids = [0, 2, 1, 3, 4, 5]
    st.sides = [1, 0, 0, 0, 0, 0]
    put(st, 0, "7c")
    put(st, 1, "12d", gear=2)
    put(st, 2, "9f")
    turn_of(st, 1)
    play(st, "gear:2", "scroll")
    assert st.lap == 2 and not st.lap_claimed
    play(st, "move:left")  # into 11d: board 0's back row, where player 2 started
    assert st.tokens == [1, 1, 0] and st.tokens_left == 1


def test_the_front_row_of_board_zero_counts_only_for_players_who_started_there() -> None:
    st = lap_ahead()
    assert st.start_row[2] == 1  # player 3 started on space 3, in the front row
    play(st, "gear:2", "scroll", "ghost:none")
    # player 3 drives into board 0's back row first: not her row
    turn_of(st, 2)
    put(st, 2, "10e", gear=2)
    play(st, "gear:2", "move:left")
    assert st.tokens == [0, 0, 0]
    play(st, "move:ahead")  # into board 0's front row: her starting row
    assert st.tokens == [0, 0, 1]


def test_no_token_on_the_starting_lap() -> None:
    st = table([2, 0, 1, 3, 4, 5], players=3)
    put(st, 0, "2c", gear=1)
    turn_of(st, 0)
    play(st, "gear:1", "move:ahead")  # back into board 0's back row before any lap
    assert st.tokens == [0, 0, 0]


def test_claiming_the_last_token_ends_the_game_and_lives_plus_tokens_win() -> None:
    st = lap_ahead(round_tokens=1)
    play(st, "gear:2", "scroll", "ghost:none", "move:left")
    assert st.is_terminal()
    assert st.returns() == [1.0, 0.0, 0.0]  # 3 lives + 1 token beat 3 lives


def lap_one_begun(**options: Any) -> CardboardState:
    """The track [2, 0, 1, 3, 4, 5] after two scrolls: board 0 (gray) in front, lap 1 on."""
    st = table([2, 0, 1, 3, 4, 5], players=3, **options)
    st.back, st.lap = 2, 1
    st.board_ids = [1, 3, 4, 5, 2, 0]
    st.sides = [0, 0, 0, 0, 1, 1]
    return st


def test_the_last_token_taken_while_driving_through_a_car_ends_the_game_there() -> None:
    st = lap_one_begun(round_tokens=1)
    put(st, 0, "10c", gear=1)
    put(st, 1, "9b")
    put(st, 2, "11c")  # player 3 started in the front row: board 0's back row is not hers
    turn_of(st, 0)
    play(st, "gear:2", "move:ahead")  # player 1 drives through player 3 and takes the token
    assert st.is_terminal() and where(st, 0) == where(st, 2) == "11c"
    assert st.stress == [1, 0, 1] and st.returns() == [1.0, 0.0, 0.0]
    assert st.game.state_from_json(st.to_json()).to_json() == st.to_json()


def finished(lives: list[int], tokens: list[int], stress: list[int]) -> list[float]:
    st = table([2, 0, 1, 3, 4, 5], players=len(lives), round_tokens=sum(tokens) or 1)
    st.lives, st.tokens, st.stress = lives[:], tokens[:], stress[:]
    end_of_game.finish_by_score(st)
    return st.returns()


def test_most_lives_plus_round_tokens_wins() -> None:
    assert finished([3, 1, 2], [0, 1, 0], [0, 0, 0]) == [1.0, 0.0, 0.0]


def test_ties_are_broken_by_round_tokens() -> None:
    assert finished([3, 2], [0, 1], [0, 0]) == [0.0, 1.0]


def test_then_by_least_stress() -> None:
    assert finished([2, 2], [1, 1], [3, 1]) == [0.0, 1.0]


def test_a_tie_after_both_tie_breaks_shares_the_win() -> None:
    assert finished([2, 2, 1], [1, 1, 0], [2, 2, 0]) == [0.5, 0.5, 0.0]


def test_players_out_of_the_race_cannot_win_on_tokens() -> None:
    assert finished([0, 1, 1], [2, 0, 0], [1, 3, 2]) == [0.0, 0.0, 1.0]


def test_the_turn_cap_scores_the_game_like_the_last_token() -> None:
    st = table([2, 0, 1, 3, 4, 5], players=2, max_turns=1)
    put(st, 0, "3c", gear=1)
    st.tokens_left = st.game.options["round_tokens"]
    play(st, "gear:1", "move:ahead")
    assert st.is_terminal() and st.returns() == [0.5, 0.5]
    assert st.ended_by() == "cap" and st.observation(0)["ended_by"] == "cap"


def test_turns_pass_clockwise() -> None:
    st = table([2, 0, 1, 3, 4, 5], players=2)
    play(st, "gear:1", "move:ahead")
    assert st.mover == 1 and st.phase == GEAR and legal(st)[0] == "gear:1"


def test_whole_careful_games_end_on_round_tokens_or_with_one_car_left() -> None:
    endings = set()
    for seed in range(12):
        state = new_state(players=2, round_tokens=1)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_outcome(state.chance_outcomes(), rng))
            else:
                state.apply_action(cautious_action(state, rng))
        assert state.ended_by() == "rules"
        if len(state.alive()) == 1:
            endings.add("last car")
            assert state.returns()[state.alive()[0]] == 1.0
        else:
            endings.add("tokens")
            assert state.tokens_left == 0 and sum(state.tokens) == 1 and state.lap >= 1
            best = max(end_of_game.ranking_key(state, p) for p in state.alive())
            winners = [p for p in state.alive() if end_of_game.ranking_key(state, p) == best]
            assert state.returns() == [1 / len(winners) if p in winners else 0.0 for p in range(2)]
    assert endings == {"last car", "tokens"}
