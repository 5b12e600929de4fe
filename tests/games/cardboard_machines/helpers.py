"""Build Cardboard Machines positions on the real boards, the way a rulebook example does."""

from __future__ import annotations

from typing import Any

import chaosgames
from chaosgames.games.cardboard_machines.phases import GEAR
from chaosgames.games.cardboard_machines.state import CardboardState


def table(boards: list[int], players: int = 2, **options: Any) -> CardboardState:
    """A game whose track is `boards` (back to front, board 0 second), player 1 starting."""
    game = chaosgames.load_game("cardboard-machines", players=players, boards=boards, **options)
    st = game.new_initial_state()
    assert isinstance(st, CardboardState)
    st.apply_action(game.parse_action(st, "first:1"))
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
