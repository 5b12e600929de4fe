"""The search settings Royal Racers advises (issue 14): plain UCB, which weighs every choice."""

from __future__ import annotations

from chaosgames.agents.mcts import MctsAgent
from tests.games.royal_racers.helpers import game, play, raced


def test_the_search_weighs_every_step_of_a_move_with_the_games_advice() -> None:
    # Two princes at c4 and d3; the suns rolled a null and must step: up, down, left or right.
    state = play(raced(game(players=2), ["c4", "d3"]), "roll:null")
    steps = state.legal_actions()
    assert len(steps) >= 2
    advised = MctsAgent(seed=3, iterations=200)
    advised.choose(state)
    assert advised._root is not None
    # Every step earns playouts beyond the 5 virtual ones of its prior.
    assert all(child.visits > 5 for child in advised._root.children.values())
    # Normalised (the default elsewhere), the worst child sits at 0 and the best at 1, and
    # with few children the runner-up's bonus never makes up the gap: some keep their prior.
    normalised = MctsAgent(seed=3, iterations=200, normalise=True)
    normalised.choose(state)
    assert normalised._root is not None
    assert any(child.visits == 5 for child in normalised._root.children.values())
