"""Build Cardboard Machines positions on the real boards, the way a rulebook example does."""

from __future__ import annotations

import random
from typing import Any

import chaosgames
from chaosgames.games.cardboard_machines.actions import MachineAction
from chaosgames.games.cardboard_machines.phases import GEAR, MOVE
from chaosgames.games.cardboard_machines.state import CardboardState


def new_state(players: int = 2, **options: Any) -> CardboardState:
    """A game with these options before any setup randomness."""
    st = chaosgames.load_game("cardboard-machines", players=players, **options).new_initial_state()
    assert isinstance(st, CardboardState)
    return st


def table(boards: list[int], players: int = 2, **options: Any) -> CardboardState:
    """A game whose track is `boards` (back to front, board 0 second), player 1 starting."""
    st = new_state(players, boards=boards, **options)
    st.apply_action(st.game.parse_action(st, "first:1"))
    return st


def space(st: CardboardState, name: str) -> int:
    return st._space_named(name)


def put(
    st: CardboardState, player: int, name: str, gear: int | None = None, stress: int | None = None
) -> None:
    st.pos[player] = space(st, name)
    if gear is not None:
        st.gear[player] = gear
    if stress is not None:
        st.stress[player] = stress
    st._invalidate()


def turn_of(st: CardboardState, player: int) -> None:
    """Start `player`'s turn (gear change next)."""
    st.mover = player
    st.phase = GEAR
    st.changed_gear = st.stressed = st.must_continue = False
    st._invalidate()


def play(st: CardboardState, *texts: str) -> None:
    for text in texts:
        st.apply_action(st.game.parse_action(st, text))


def legal(st: CardboardState) -> list[str]:
    return [str(a) for a in st.legal_actions()]


def where(st: CardboardState, player: int) -> str:
    return st.name(st.pos[player])


def cautious_action(st: CardboardState, rng: random.Random) -> Any:
    """A simple careful driver, to play whole games further than random play gets: gear up
    to 3 while stress is low, scroll when it can, avoid ending in terrain and ghosts,
    return stress, buy off swerves."""
    actions = st.legal_actions()
    names = [str(a) for a in actions]
    p = st.mover
    if st.current_player() == p and names[0].startswith("gear:"):
        gear = min(st.gear[p] + 1, 3) if st.stress[p] < 3 else st.gear[p]
        return actions[gear - 1]
    for wanted in ("scroll", "return", "buyoff:left", "buyoff:right"):
        if wanted in names:
            return actions[names.index(wanted)]
    steps = [a for a in actions if isinstance(a, MachineAction) and str(a).startswith("move:")]
    if steps:
        last = st.phase != MOVE or st.moves_left == 1
        ranked = []
        for a in steps:
            target = next(t for d, t in st.targets(st.pos[p]) if d == a.arg)
            risk = int(st.terrain_at(target) and last) + int(target in st.ghosts)
            ranked.append((risk, rng.random(), a))
        ranked.sort(key=lambda r: (r[0], r[1]))
        if ranked[0][0] and "stop" in names:
            return actions[names.index("stop")]
        return ranked[0][2]
    return rng.choice(actions)
