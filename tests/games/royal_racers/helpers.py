"""Build Royal Racers positions for rulebook situations.

The default deal lays the cards out in deck order, so the ranks sit in known places:

    row 6: As Ah Ad Ac 2s 2h      row 3: 5d 5c 6s 6h 6d 6c
    row 5: 2d 2c 3s 3h 3d 3c      row 2: 7s 7h 7d 7c 8s 8h
    row 4: 4s 4h 4d 4c 5s 5h      row 1: 8d 8c 9s 9h 9d 9c

(centre squares: c4 = 4d, d4 = 4c, c3 = 6h, d3 = 6d).
"""

from __future__ import annotations

from typing import Any

import chaosgames
from chaosgames.games.royal_racers.actions import RacerAction
from chaosgames.games.royal_racers.board import CARD_NAMES, SQUARE_BY_NAME
from chaosgames.games.royal_racers.game import RoyalRacersGame
from chaosgames.games.royal_racers.state import PHASE_NAMES, RoyalRacersState


def game(**options: Any) -> RoyalRacersGame:
    g = chaosgames.load_game("royal-racers", **options)
    assert isinstance(g, RoyalRacersGame)
    return g


def sq(name: str) -> int:
    return SQUARE_BY_NAME[name]


def play(state: RoyalRacersState, *texts: str) -> RoyalRacersState:
    """Apply actions given in notation, checking each is legal."""
    for text in texts:
        state.apply_action(state.game.parse_action(state, text))
    return state


def dealt(g: RoyalRacersGame, order: list[str] | None = None) -> RoyalRacersState:
    """A state right after the shuffle; `order` lists cards in reading order from a6."""
    state = g.new_initial_state()
    for name in order or list(CARD_NAMES):
        play(state, f"deal:{name}")
    return state


def raced(
    g: RoyalRacersGame,
    starts: list[str],
    placements: list[str] | None = None,
    order: list[str] | None = None,
) -> RoyalRacersState:
    """A state at the first roll: starts chosen in seat order, flags placed as given
    (or on the first free card of their quadrant)."""
    state = dealt(g, order)
    play(state, *[f"start:{s}" for s in starts])
    placements = list(placements or [])
    while PHASE_NAMES[state.phase] == "flags":
        if placements:
            play(state, f"place:{placements.pop(0)}")
        else:
            state.apply_action(state.legal_actions()[0])
    return state


def arrange(
    state: RoyalRacersState,
    *,
    pawns: list[str] | None = None,
    down: list[str] | None = None,
    progress: list[int] | None = None,
    flags: dict[int, list[str]] | None = None,
) -> RoyalRacersState:
    """Put pieces where a test wants them (fields set directly, caches invalidated)."""
    if pawns is not None:
        state.pawns = [sq(p) for p in pawns]
    if down is not None:
        state.down = 0
        for name in down:
            state.down |= 1 << sq(name)
    if progress is not None:
        state.progress = list(progress)
    if flags is not None:
        for owner, squares in flags.items():
            for index in range(len(squares)):
                old = state.flag_sq[owner * state.nflags + index]
                if old >= 0:
                    state.flag_at[old] = -1
            for index, name in enumerate(squares):
                state._put_flag(owner, index, sq(name))
    state._invalidate()
    return state


def rolled(state: RoyalRacersState, face: str) -> RoyalRacersState:
    return play(state, f"roll:{face}")


def texts(actions: list[Any]) -> list[str]:
    return [str(a) for a in actions]


def racer_actions(state: RoyalRacersState) -> list[RacerAction]:
    """The legal actions, in their order."""
    return [a for a in state.legal_actions() if isinstance(a, RacerAction)]


def kinds(state: RoyalRacersState) -> dict[str, list[str]]:
    """Legal actions grouped by the word of their kind, as square names."""
    found: dict[str, list[str]] = {}
    for action in state.legal_actions():
        assert isinstance(action, RacerAction)
        found.setdefault(action.kind.value, []).append(action.arg_name())
    return found
