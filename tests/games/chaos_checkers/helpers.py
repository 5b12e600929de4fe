"""Build Chaos Checkers positions directly, the way a rulebook diagram shows them."""

from __future__ import annotations

from typing import Any

import chaosgames
from chaosgames.games.chaos_checkers.actions import Piece
from chaosgames.games.chaos_checkers.colours import CODE, TRIOS_PER_COLOUR
from chaosgames.games.chaos_checkers.moves import PlainMove
from chaosgames.games.chaos_checkers.phases import Phase
from chaosgames.games.chaos_checkers.plain import PlainState
from chaosgames.games.chaos_checkers.state import ChaosState


def piece(
    colour: str, king: bool = False, shield: str | None = None, potion: str | None = None
) -> dict[str, Any]:
    return {"colour": colour, "king": king, "shield": shield, "potion": potion}


def new_chaos(**options: Any) -> ChaosState:
    """A game of Chaos Checkers with these options, before the setup's draws."""
    state = chaosgames.load_game("chaos-checkers", **options).new_initial_state()
    assert isinstance(state, ChaosState)
    return state


def new_plain() -> PlainState:
    """A game of plain checkers (chaos=False) at its start."""
    state = chaosgames.load_game("chaos-checkers", chaos=False).new_initial_state()
    assert isinstance(state, PlainState)
    return state


def plain_moves(state: PlainState) -> list[PlainMove]:
    """The legal moves of plain checkers, in their order."""
    return [a for a in state.legal_actions() if isinstance(a, PlainMove)]


def chaos_position(pieces: dict[int, dict[str, Any]], turn: int = 0, **options: Any) -> ChaosState:
    """A chaos state in the `turn` phase; squares are 1-32, owners follow the colours.

    Bags, pouch and the eliminated piles hold everything not on the board.
    """
    game = chaosgames.load_game("chaos-checkers", **options)
    state = game.new_initial_state()
    assert isinstance(state, ChaosState)
    colours = game.colours  # type: ignore[attr-defined]
    board: list[Piece | None] = [None] * 32
    for square, spec in pieces.items():
        colour = CODE[spec["colour"]]
        owner = 0 if colour in colours[0] else 1
        board[square - 1] = Piece(
            owner,
            colour,
            spec["king"],
            CODE[spec["shield"]] if spec["shield"] else -1,
            CODE[spec["potion"]] if spec["potion"] else -1,
        )
    bags = []
    eliminated = []
    for player in (0, 1):
        bag = [0] * 10
        for c in colours[1 - player]:
            bag[c] = TRIOS_PER_COLOUR
        gone = [0] * 10
        for c in colours[player]:
            gone[c] = 4
        for p in board:
            if p is not None and p.owner == player:
                if p.shield >= 0:
                    bag[p.shield] -= 1
                gone[p.colour] -= 1
        bags.append(tuple(bag))
        eliminated.append(tuple(gone))
    pouch = list(state.pouch)
    for p in board:
        if p is not None and p.potion >= 0:
            pouch[p.potion] -= 1
    state.board = board
    state.bags = (bags[0], bags[1])
    state.eliminated = (eliminated[0], eliminated[1])
    state.pouch = tuple(pouch)
    state.phase = Phase.TURN
    state.turn = turn
    state._invalidate()
    state._after()
    again = game.state_from_json(state.to_json())  # checks the position is possible
    assert isinstance(again, ChaosState)
    return again


def plain_position(
    men: dict[int, int], kings: dict[int, int] | None = None, turn: int = 0, **options: Any
) -> PlainState:
    """A plain checkers position: {square: owner} for men and for kings."""
    game = chaosgames.load_game("chaos-checkers", chaos=False, **options)
    p0 = p1 = k = 0
    for square, owner in men.items():
        if owner == 0:
            p0 |= 1 << (square - 1)
        else:
            p1 |= 1 << (square - 1)
    for square, owner in (kings or {}).items():
        bit = 1 << (square - 1)
        k |= bit
        if owner == 0:
            p0 |= bit
        else:
            p1 |= bit
    return PlainState.from_position(game, p0, p1, k, turn, 0, ())  # type: ignore[arg-type]


def names(state: chaosgames.State[Any]) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def play(state: chaosgames.State[Any], *texts: str) -> None:
    for text in texts:
        state.apply_action(state.game.parse_action(state, text))
