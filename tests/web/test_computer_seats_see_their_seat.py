"""A computer seat in the browser decides from what its seat may know (issue 52).

The worker rebuilds the whole position from the game's actions; it must hand the agent a
position the seat cannot tell from the real one, drawn from the seat's recollection, with
that recollection, and never the real position itself.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import pytest

import chaosgames
from chaosgames import agents
from chaosgames.core.information import Recollection, follow
from chaosgames.web import workers


def racing_actions(seed: int, decisions: int) -> tuple[chaosgames.State[Any], list[str]]:
    game = chaosgames.load_game("royal-racers", players=2)
    state = game.new_initial_state()
    rng = random.Random(seed)
    texts: list[str] = []
    made = 0
    while True:
        if state.is_chance_node():
            action = chaosgames.sample_outcome(state.chance_outcomes(), rng)
        else:
            if made >= decisions:
                break
            action = rng.choice(state.legal_actions())
            made += 1
        texts.append(str(action))
        state.apply_action(action)
    return state, texts


class Spy(agents.Agent):
    """Records what the worker hands it, then plays the first legal action."""

    name = "spy"
    seen: ClassVar[list[tuple[Recollection[Any, Any] | None, chaosgames.State[Any]]]] = []

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.told: Recollection[Any, Any] | None = None

    def tell(self, recollection: Recollection[Any, Any], state: chaosgames.State[Any]) -> None:
        self.told = recollection

    def choose(self, state: chaosgames.State[Any], progress: Any = None) -> Any:
        Spy.seen.append((self.told, state))
        return state.legal_actions()[0]


def test_the_agent_gets_a_position_drawn_from_its_seats_recollection(monkeypatch: pytest.MonkeyPatch) -> None:
    real, texts = racing_actions(5, 120)
    assert real.current_player() >= 0 and real.down  # type: ignore[attr-defined]
    monkeypatch.setattr(agents, "from_spec", lambda spec, seed=None, game=None: Spy(seed))
    Spy.seen = []
    request = workers.Decision("g-honest", "royal-racers", real.game.options, tuple(texts), "spy", 3)
    assert workers.decide(request) == str(real.legal_actions()[0])
    told, handed = Spy.seen[0]
    seat = real.current_player()
    assert told is not None and told.seat == seat
    assert handed is not real and handed.observation(seat) == real.observation(seat)
    _, expected = follow(
        real.game, seat, [real.game.parse_action(s, t) for s, t in _states(real.game, texts)]
    )
    assert told.key(handed, 0) == expected.key(real, 0) and told.key(handed) == expected.key(real)


def _states(game: chaosgames.Game[Any, Any], texts: list[str]) -> list[tuple[chaosgames.State[Any], str]]:
    """Each action's text with the state it is read in (a copy), for `parse_action`."""
    state = game.new_initial_state()
    pairs = []
    for text in texts:
        pairs.append((state.clone(), text))
        state.apply_action(game.parse_action(state, text))
    return pairs


def test_a_level_in_the_browser_decides_as_it_does_when_told_every_action() -> None:
    """The hard level (ismcts, every card remembered) chooses in the worker what it
    chooses having followed the game action by action, as the lab's seats do."""
    real, texts = racing_actions(8, 90)
    request = workers.Decision("g-hard", "royal-racers", real.game.options, tuple(texts), "hard", 7)
    chosen = workers.decide(request)
    player = agents.from_spec("hard", seed=7, game="royal-racers")
    state = real.game.new_initial_state()
    for text in texts:
        action = real.game.parse_action(state, text)
        player.observe(state, action)
        state.apply_action(action)
    assert chosen == str(player.choose(state))
