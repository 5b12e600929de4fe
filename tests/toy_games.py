"""Two tiny games for testing agents and the lab through the contract alone.

- `toy-dice-race` (2-4 players): on each turn the mover picks a die, `safe` (1 or 2)
  or `risky` (0, 3 or 4); the die is a chance node. First to reach `goal` wins; after
  `rounds` rounds the leaders share the win. Its steps left are the leader's squares to go.
- `toy-nim` (2 players): one pile; take 1, 2 or 3; whoever takes the last stone wins.
  From a pile of n the forced win is to take n mod 4 (when it is not 0).

They are registered only for the duration of a test (see `registered_toy_games`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import chaosgames
from chaosgames import CHANCE, TERMINAL, Game, Option, State
from chaosgames.core import registry
from chaosgames.core.chance import uniform

DICE = {"safe": (1, 2), "risky": (0, 3, 4)}


class DiceRace(Game[Any, Any]):
    name = "toy-dice-race"
    title = "Toy Dice Race"
    min_players = 2
    max_players = 4
    default_players = 2
    option_spec = (
        Option("goal", int, 12, "squares to reach", minimum=1),
        Option("rounds", int, 30, "rounds before the leaders share the win", minimum=1),
    )

    def new_initial_state(self) -> DiceRaceState:
        return DiceRaceState(self)

    def _state_from_doc(self, doc: dict[str, Any]) -> DiceRaceState:
        state = DiceRaceState(self)
        state.positions = [int(p) for p in doc["positions"]]
        state.turn = int(doc["turn"])
        state.die = doc["die"]
        return state

    def player_names(self) -> list[str]:
        return ["red", "blue", "green", "yellow"][: self.num_players]

    def heuristic(self, state: State[Any]) -> list[float]:
        if state.is_terminal():
            return list(state.returns())
        assert isinstance(state, DiceRaceState)
        weights = [1.0 + p for p in state.positions]
        total = sum(weights)
        return [w / total for w in weights]

    def steps_left(self, state: State[Any]) -> float | None:
        assert isinstance(state, DiceRaceState)
        return float(self.options["goal"] - max(state.positions))


class DiceRaceState(State[Any]):
    __slots__ = ("die", "positions", "turn")

    def __init__(self, game: DiceRace) -> None:
        super().__init__(game)
        self.positions = [0] * game.num_players
        self.turn = 0
        self.die: str | None = None

    @property
    def _race(self) -> DiceRace:
        assert isinstance(self.game, DiceRace)
        return self.game

    def _over(self) -> bool:
        goal: int = self._race.options["goal"]
        rounds: int = self._race.options["rounds"]
        return max(self.positions) >= goal or self.turn >= rounds * len(self.positions)

    def current_player(self) -> int:
        if self._over():
            return TERMINAL
        if self.die is not None:
            return CHANCE
        return self.turn % len(self.positions)

    def _legal_actions(self) -> list[Any]:
        return ["safe", "risky"]

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if self.current_player() != CHANCE:
            return []
        assert self.die is not None
        return uniform([f"roll:{n}" for n in DICE[self.die]])

    def _apply_action(self, action: Any) -> None:
        if self.die is None:
            self.die = action
            return
        mover = self.turn % len(self.positions)
        self.positions[mover] += int(action.split(":")[1])
        self.die = None
        self.turn += 1

    def clone(self) -> DiceRaceState:
        new = object.__new__(DiceRaceState)
        new.game = self.game
        self._copy_caches_to(new)
        new.positions = list(self.positions)
        new.turn = self.turn
        new.die = self.die
        return new

    def returns(self) -> list[float]:
        if not self._over():
            return [0.0] * len(self.positions)
        best = max(self.positions)
        leaders = [i for i, p in enumerate(self.positions) if p == best]
        return [1.0 / len(leaders) if i in leaders else 0.0 for i in range(len(self.positions))]

    def round_number(self) -> int:
        return self.turn // len(self.positions) + 1

    def _observation(self, player: int | None) -> dict[str, Any]:
        return self.to_json()

    def to_json(self) -> dict[str, Any]:
        return {**self.game.doc_header(), "positions": self.positions, "turn": self.turn, "die": self.die}


class Nim(Game[Any, Any]):
    name = "toy-nim"
    title = "Toy Nim"
    min_players = 2
    max_players = 2
    default_players = 2
    option_spec = (Option("pile", int, 13, "stones at the start", minimum=1),)

    def new_initial_state(self) -> NimState:
        return NimState(self, self.options["pile"], 0)

    def _state_from_doc(self, doc: dict[str, Any]) -> NimState:
        return NimState(self, int(doc["pile"]), int(doc["mover"]))


class NimState(State[Any]):
    __slots__ = ("mover", "pile")

    def __init__(self, game: Nim, pile: int, mover: int) -> None:
        super().__init__(game)
        self.pile = pile
        self.mover = mover

    def current_player(self) -> int:
        return TERMINAL if self.pile == 0 else self.mover

    def _legal_actions(self) -> list[Any]:
        return [f"take:{n}" for n in (1, 2, 3) if n <= self.pile]

    def _apply_action(self, action: Any) -> None:
        self.pile -= int(action.split(":")[1])
        self.mover = 1 - self.mover

    def clone(self) -> NimState:
        new = object.__new__(NimState)
        new.game = self.game
        self._copy_caches_to(new)
        new.pile = self.pile
        new.mover = self.mover
        return new

    def returns(self) -> list[float]:
        if self.pile:
            return [0.0, 0.0]
        # The player who took the last stone is the one before the current mover.
        winner = 1 - self.mover
        return [1.0 if i == winner else 0.0 for i in range(2)]

    def round_number(self) -> int:
        return 1

    def _observation(self, player: int | None) -> dict[str, Any]:
        return self.to_json()

    def to_json(self) -> dict[str, Any]:
        return {**self.game.doc_header(), "pile": self.pile, "mover": self.mover}


TOY_GAMES: tuple[type[Game[Any, Any]], ...] = (DiceRace, Nim)


@contextmanager
def registered_toy_games() -> Iterator[None]:
    """Register the toy games for the duration of a `with` block, then remove them."""
    for cls in TOY_GAMES:
        chaosgames.core.register(cls)
    try:
        yield
    finally:
        for cls in TOY_GAMES:
            registry._GAMES.pop(cls.name, None)
