"""Same seed, same agents, same game: also across processes whose string hashing differs.

Python salts the hash of text per process (PYTHONHASHSEED), which changes the order of
sets of strings; a game or agent that let such an order decide would play differently
from one run to the next. Two interpreters with different salts play the same seeded
games of every game (random, greedy and MCTS seats, chance sampled) and must write the
same records.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import chaosgames

PLAY = """
import json, random, sys
import chaosgames
from chaosgames import agents
records = {}
for name in chaosgames.list_games():
    game = chaosgames.load_game(name)
    seats = ["mcts:iterations=8", "greedy", "random", "greedy"][: game.num_players]
    players = [agents.from_spec(spec, seed=7 + i) for i, spec in enumerate(seats)]
    record = chaosgames.GameRecord.start(game, seats, seed=5)
    state, rng = game.new_initial_state(), random.Random(5)
    for _ in range(150):
        if state.is_terminal():
            break
        mover = state.current_player()
        if mover == chaosgames.CHANCE:
            action = chaosgames.sample_outcome(state.chance_outcomes(), rng)
        else:
            action = players[mover].choose(state)
        for player in players:
            player.observe(state, action)
        state.apply_action(action)
        record.append(action)
    record.finish(state)
    records[name] = record.to_json()
json.dump(records, sys.stdout)
"""


def play_with_hash_seed(salt: str) -> dict[str, object]:
    env = {**os.environ, "PYTHONHASHSEED": salt}
    done = subprocess.run([sys.executable, "-c", PLAY], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_seeded_games_are_the_same_whatever_the_hash_seed() -> None:
    first, second = play_with_hash_seed("1"), play_with_hash_seed("2")
    assert sorted(first) == chaosgames.list_games()
    for name in first:
        assert first[name] == second[name], f"{name} plays differently under another PYTHONHASHSEED"
