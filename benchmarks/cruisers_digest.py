"""A digest of Chaos Cruisers' behaviour, to compare before and after a speed change.

    python benchmarks/cruisers_digest.py            # prints one hash per part and a total

Hashed: every action (chance outcomes included) of 20 seeded random games on each preset
course with 2, 3 and 4 players (`max_rounds=200`, as `speed_vs_old` plays them); the
heuristic's values (repr of the floats) at every decision of the first 2 of those games
per setting; and the choices of seeded `mcts:iterations=300` searches from seeded
positions (3 per setting; random play never passes a gate, so these are cruising rounds).
With `--greedy`, also one seeded 3-player race of `greedy` seats per course to the end
(through several chaos rounds: lifts, lays, obstacles), hashing its actions and the
heuristic's values at every decision (about 80 s more). The same code gives the same
hashes; any change in the rules, the legal actions or their order, the heuristic or the
search shows."""

from __future__ import annotations

import hashlib
import random
import sys
from typing import Any

import chaosgames
from chaosgames import agents
from chaosgames.core.chance import sample_outcome

COURSES = ("grand-loop", "figure-eight", "chicane")
PLAYERS = (2, 3, 4)
GAMES = 20
SEARCHES = 3


def step(state: chaosgames.State[Any], rng: random.Random) -> object:
    if state.current_player() == chaosgames.CHANCE:
        action = sample_outcome(state.chance_outcomes(), rng)
    else:
        action = rng.choice(state.legal_actions())
    state.apply_action(action)
    return action


def games_digest(course: str, players: int, quick: bool) -> tuple[str, str]:
    game = chaosgames.load_game("chaos-cruisers", players=players, course=course, max_rounds=200)
    actions, values = hashlib.sha256(), hashlib.sha256()
    for number in range(2 if quick else GAMES):
        rng = random.Random(f"{course}/{players}/{number}")
        state = game.new_initial_state()
        while not state.is_terminal():
            if number < 2 and state.current_player() >= 0:
                values.update(repr(game.heuristic(state)).encode())
            actions.update(str(step(state, rng)).encode() + b";")
        actions.update(repr(state.returns()).encode() + b"|")
    return actions.hexdigest()[:16], values.hexdigest()[:16]


def search_digest(course: str, players: int, iterations: int) -> str:
    game = chaosgames.load_game("chaos-cruisers", players=players, course=course, max_rounds=200)
    digest = hashlib.sha256()
    for number in range(SEARCHES):
        rng = random.Random(f"search/{course}/{players}/{number}")
        state = game.new_initial_state()
        # Positions early (cruising) and later (often at or after a chaos round).
        for _ in range(rng.randrange(5, 60) + 100 * number):
            if state.is_terminal():
                break
            step(state, rng)
        while state.current_player() == chaosgames.CHANCE:
            step(state, rng)
        if state.is_terminal():
            continue
        agent = agents.from_spec(f"mcts:iterations={iterations}", seed=number)
        choice = agent.choose(state.clone())
        digest.update(f"{state.to_json()['phase']}:{choice};".encode())
    return digest.hexdigest()[:16]


def greedy_digest(course: str) -> str:
    game = chaosgames.load_game("chaos-cruisers", players=3, course=course, max_rounds=40)
    seats = [agents.from_spec("greedy", seed=seat) for seat in range(3)]
    rng = random.Random(f"greedy/{course}")
    digest = hashlib.sha256()
    state = game.new_initial_state()
    while not state.is_terminal():
        player = state.current_player()
        if player == chaosgames.CHANCE:
            action = sample_outcome(state.chance_outcomes(), rng)
        else:
            digest.update(repr(game.heuristic(state)).encode())
            action = seats[player].choose(state.clone())
        digest.update(str(action).encode() + b";")
        state.apply_action(action)
    digest.update(repr(state.returns()).encode())
    return digest.hexdigest()[:16]


def main() -> int:
    quick = "--quick" in sys.argv
    total = hashlib.sha256()
    for course in COURSES:
        for players in PLAYERS:
            actions, values = games_digest(course, players, quick)
            searches = search_digest(course, players, 100 if quick else 300)
            line = f"{course:13s} {players}p actions {actions} values {values} searches {searches}"
            print(line, flush=True)
            total.update(line.encode())
    if "--greedy" in sys.argv:
        for course in COURSES:
            line = f"{course:13s} greedy race {greedy_digest(course)}"
            print(line, flush=True)
            total.update(line.encode())
    print("total", total.hexdigest()[:16])
    return 0


if __name__ == "__main__":
    sys.exit(main())
