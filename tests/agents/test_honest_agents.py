"""Computer players that decide from what their seat may know (issue 52).

In Royal Racers without the memory aid a seat knows the face-down cards it saw go down and
remembers (`memory`); `greedy` and `ismcts` decide from that, never from the real layout.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import chaosgames
from chaosgames import agents
from chaosgames.agents.base import Witness
from chaosgames.core.information import follow
from chaosgames.games.royal_racers.actions import Kind, RacerAction
from chaosgames.games.royal_racers.state import FLIP_PHASE, RoyalRacersState
from chaosgames.sim import play_match


def guessing_position(seed: int, compulsory: bool = False) -> tuple[RoyalRacersState, list[Any]]:
    """A two-player race played by greedy seats up to a flip where a face-up guess is
    legal (`compulsory`: the only choice) and several cards lie face down; the position
    and the actions that led there."""
    game = chaosgames.load_game("royal-racers", players=2, max_rounds=200)
    state = game.new_initial_state()
    rng = random.Random(seed)
    players = [agents.make("greedy", seed=seed + p) for p in range(2)]
    actions: list[object] = []
    while True:
        if state.is_terminal():  # the race ended first: the next seed's
            return guessing_position(seed + 100, compulsory)
        if state.is_chance_node():
            action = chaosgames.sample_outcome(state.chance_outcomes(), rng)
        else:
            assert isinstance(state, RoyalRacersState)
            kinds = {a.kind for a in state.legal_actions() if isinstance(a, RacerAction)}
            guess = kinds == {Kind.UP} if compulsory else Kind.UP in kinds
            if state.phase == FLIP_PHASE and guess and bin(state.down).count("1") >= 4:
                return state, actions
            action = players[state.current_player()].choose(state)
        for player in players:
            player.observe(state, action)
        actions.append(action)
        state.apply_action(action)


def shuffled_face_down(state: RoyalRacersState, seed: int) -> RoyalRacersState:
    """The same position with the face-down cards lying elsewhere among themselves."""
    other = state.clone()
    squares = [
        sq
        for sq in range(36)
        if state.down >> sq & 1 and (not state.last_flip or sq != state.last_flip.square)
    ]
    cards = [state.cards[sq] for sq in squares]
    random.Random(seed).shuffle(cards)
    for sq, card in zip(squares, cards, strict=True):
        other.cards[sq] = card
        other.where[card] = sq
    other._invalidate()
    assert other.cards != state.cards
    return other


@pytest.mark.parametrize(
    "spec", ["greedy:memory=0", "ismcts:iterations=40,memory=0", "greedy", "ismcts:iterations=40"]
)
def test_a_seat_that_has_not_seen_the_cards_go_down_decides_alike_whatever_lies_there(spec: str) -> None:
    """Handed the position without its history (it has just sat down), or forgetting every
    card, an honest player's decision does not depend on the hidden layout."""
    for seed in (1, 2, 3):
        state, _ = guessing_position(seed)
        other = shuffled_face_down(state, seed)
        first = agents.from_spec(spec, seed=9).choose(state)
        second = agents.from_spec(spec, seed=9).choose(other)
        assert first == second


def test_a_careful_seat_remembers_the_cards_it_saw_and_guesses_right() -> None:
    """Told the whole game, greedy remembers where each card went down: its face-up
    guesses are right; forgetting them all, it guesses no better than chance allows."""
    right = {"greedy": 0, "greedy:memory=0": 0}
    guesses = {"greedy": 0, "greedy:memory=0": 0}
    for seed in range(1, 7):
        state, actions = guessing_position(seed, compulsory=True)
        for spec in right:
            player = agents.from_spec(spec, seed=4)
            replay = state.game.new_initial_state()
            for action in actions:
                player.observe(replay, action)
                replay.apply_action(action)
            choice = player.choose(state)
            assert isinstance(choice, RacerAction)
            if choice.kind is Kind.UP:
                guesses[spec] += 1
                right[spec] += state.rank_at(choice.arg) == state.roll
    assert right["greedy"] == guesses["greedy"] == 6
    assert guesses["greedy:memory=0"] == 6 and right["greedy:memory=0"] < 6


def test_ismcts_that_knows_everything_is_mcts() -> None:
    """With every card remembered (a careful seat told the whole game) there is one world,
    the position itself, and ismcts plays mcts's game move for move."""
    game = chaosgames.load_game("royal-racers", players=2, max_rounds=40)
    games = [
        play_match(game, [agents.from_spec(spec, seed=3), agents.from_spec("greedy", seed=4)], seed=11)
        for spec in ("mcts:iterations=30", "ismcts:iterations=30")
    ]
    assert games[0].record.actions == games[1].record.actions


def test_ismcts_searches_drawn_worlds_where_the_seat_forgot() -> None:
    state, actions = guessing_position(2)
    player = agents.from_spec("ismcts:iterations=40,memory=0,worlds=4", seed=1)
    replay = state.game.new_initial_state()
    for action in actions:
        player.observe(replay, action)
        replay.apply_action(action)
    assert player.choose(state) in state.legal_actions()
    assert isinstance(player, agents.IsmctsAgent) and player.last_worlds == 4 and player.last_iterations == 40


def test_a_witness_that_followed_the_game_gives_the_seats_recollection() -> None:
    state, actions = guessing_position(3)
    witness = Witness()
    replay = state.game.new_initial_state()
    for action in actions:
        witness.observe(replay, action)
        replay.apply_action(action)
    _, followed = follow(state.game, 1, actions)
    assert witness.recollection(state, 1).key(state, 2) == followed.key(state, 2)
    assert witness.recollection(state, 1).complete(state)
    # Another position than the one followed: only what the table shows.
    assert not witness.recollection(shuffled_face_down(state, 1), 1).complete(shuffled_face_down(state, 1))


def test_royal_racers_levels_remember_more_as_they_get_harder() -> None:
    levels = agents.levels("royal-racers")
    memories = [
        agents.from_spec(levels[name], game="royal-racers").settings["memory"]
        for name in ("easy", "medium", "hard")
    ]
    assert memories == [0, 4, -1]
    assert levels["hard"].startswith("ismcts:")
    assert agents.levels("chaos-cruisers")["hard"] == "mcts:iterations=200"  # hides nothing: unchanged


def test_the_honesty_benchmark_plays_a_seeded_game_of_each_pairing() -> None:
    from benchmarks.honesty import one_game

    first = one_game("ismcts:iterations=4,memory=0", "greedy:memory=0", 3, 2, 52)
    again = one_game("ismcts:iterations=4,memory=0", "greedy:memory=0", 3, 2, 52)
    assert first == again and first[0] == 1  # game 3 of two players: the first spec sits in seat 1
    assert first[1] in ("rules", "cap") and sum(first[2]) == 1.0
