"""Research interfaces: our games in PettingZoo, Gymnasium and OpenSpiel (the `rl` extra).

    from chaosgames.rl import pettingzoo, gymnasium, openspiel
    env = pettingzoo.env("royal-racers", players=3)          # AEC environment, agents player_0..
    single = gymnasium.ChaosGamesEnv("chaos-checkers", opponents="greedy", chaos=False)
    openspiel.register(); pyspiel.load_game("chaosgames_chaos_checkers(chaos=false)")

Each module imports its library (numpy, pettingzoo, gymnasium, pyspiel) when it is
imported itself, so `import chaosgames` and `import chaosgames.rl` need none of them.
The adapters see games only through the contract and `Game.encoding()` (action indices
and observation vectors, see `chaosgames.core.encoding` and docs/research.md).
"""
