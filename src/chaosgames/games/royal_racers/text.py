"""The position and the actions as text for players (what everyone at the table can see).

Face-down cards show as `##`: their ranks are what the players must remember. With the
memory_aid option (or for the replay of a record, `reveal`) they show as `#` followed by
the card (`#3h`). The card a wrong guess showed shows as `!` and the card (`!Ah`) while
that guess is the latest decision.
"""

from __future__ import annotations

from collections.abc import Callable

from chaosgames.games.royal_racers import setup
from chaosgames.games.royal_racers.actions import DIE_FACES, Kind, RacerAction
from chaosgames.games.royal_racers.board import (
    CARD_NAMES,
    COLUMNS,
    DEAL_ORDER,
    QUADRANT_NAMES,
    QUADRANT_OF,
    SIZE,
    SQUARE_NAMES,
    SUITS,
    card_label,
)
from chaosgames.games.royal_racers.state import PHASE_NAMES, Phase, RoyalRacersState
from chaosgames.games.royal_racers.table import wrong_guess_square
from chaosgames.games.royal_racers.words import last_flip_line

INITIALS = "".join(suit[0].upper() for suit in SUITS)


def cell(state: RoyalRacersState, sq: int, reveal: bool = False) -> str:
    card = state.cards[sq]
    if card < 0:
        face = ".."
    elif sq == wrong_guess_square(state):
        face = f"!{CARD_NAMES[card]}"  # shown by a wrong guess, this turn only
    elif state.down >> sq & 1:
        face = f"#{CARD_NAMES[card]}" if state.memory_aid or reveal else "##"
    else:
        face = CARD_NAMES[card]
    slot = state.flag_at[sq]
    flag = ""
    if slot >= 0:
        owner, index = divmod(slot, state.nflags)
        flag = f"{INITIALS[owner]}{setup.flag_face(state.nflags, index)}"
    pawn = ""
    if sq in state.pawns:
        pawn = "@" + INITIALS[state.pawns.index(sq)]
    return f"{face:<4}{flag:<3}{pawn:<2}"


def grid_lines(state: RoyalRacersState, reveal: bool = False) -> list[str]:
    lines = ["    " + "".join(f"{c:<10}" for c in COLUMNS)]
    for y in range(SIZE - 1, -1, -1):
        row = " ".join(cell(state, y * SIZE + x, reveal) for x in range(SIZE))
        lines.append(f" {y + 1}  {row}")
    return lines


def describe_action(state: RoyalRacersState, action: RacerAction) -> str:
    """A short sentence for a player choosing among actions (`Game.describe_action`)."""
    return DESCRIBERS[action.kind](state, action.arg)


def _deal(state: RoyalRacersState, card: int) -> str:
    return f"The {card_label(card)} is laid on {SQUARE_NAMES[DEAL_ORDER[state.dealt]]}."


def _start(state: RoyalRacersState, sq: int) -> str:
    return f"Start on {SQUARE_NAMES[sq]} ({QUADRANT_NAMES[QUADRANT_OF[sq]]} quadrant)."


def _up(state: RoyalRacersState, sq: int) -> str:
    rank = "an ace" if state.roll == 1 else f"a {state.roll}"
    return f"Try to flip the card on {SQUARE_NAMES[sq]} face up (it must be {rank})."


def _move(state: RoyalRacersState, sq: int) -> str:
    player = state.mover()
    flag_slot = state.flag_at[sq]
    if flag_slot == player * state.nflags + state.progress[player]:
        face = setup.flag_face_name(state.nflags, flag_slot % state.nflags)
        return f"Move to {SQUARE_NAMES[sq]}, touching your {face} flag."
    return f"Move to {SQUARE_NAMES[sq]}."


DESCRIBERS: dict[Kind, Callable[[RoyalRacersState, int], str]] = {
    Kind.DEAL: _deal,
    Kind.ROLL: lambda state, face: f"The die shows {DIE_FACES[face]}.",
    Kind.STAY: lambda state, _: "Stay where you are.",
    Kind.START: _start,
    Kind.PLACE: lambda state, sq: f"Place the {flag_being_placed(state)} flag on {SQUARE_NAMES[sq]}.",
    Kind.DOWN: lambda state, sq: f"Flip the {card_label(state.cards[sq])} on {SQUARE_NAMES[sq]} face down.",
    Kind.UP: _up,
    Kind.REVEAL: lambda state, sq: f"Turn the card on {SQUARE_NAMES[sq]} face up.",
    Kind.MOVE: _move,
}
"""How each kind of action reads to the player choosing it, from the state and its `arg`."""


def flag_being_placed(state: RoyalRacersState) -> str:
    """During setup e): whose flag is being placed, and which ("moons' ace")."""
    _, owner, index = state.placement()
    return f"{SUITS[owner]}' {setup.flag_face_name(state.nflags, index)}"


def status_line(state: RoyalRacersState) -> str:
    phase = state.phase
    head = f"Royal Racers, race {state.race + 1} of {state.races}"
    if phase == Phase.OVER:
        return f"{head}: the match is over."
    if phase == Phase.DEAL:
        return f"{head}: dealing the cards ({state.dealt} of 36 laid out)."
    player = SUITS[state.current_player()] if phase in (Phase.START, Phase.FLAGS) else SUITS[state.mover()]
    if phase == Phase.START:
        return f"{head}: {player} chooses a starting square (c3, c4, d3 or d4)."
    if phase == Phase.FLAGS:
        return f"{head}: {player} places the {flag_being_placed(state)} flag."
    rolled = f", rolled {DIE_FACES[state.roll]}" if phase != Phase.ROLL and state.roll >= 0 else ""
    return f"{head}, round {state.round + 1}: {player} to {PHASE_NAMES[phase]}{rolled}."


def player_lines(state: RoyalRacersState) -> list[str]:
    lines = []
    totals = state.totals()
    for p in range(state.n):
        where = SQUARE_NAMES[state.pawns[p]] if state.pawns[p] >= 0 else "-"
        touched = state.progress[p]
        if touched < state.nflags:
            sq = state.flag_sq[p * state.nflags + touched]
            face = setup.flag_face_name(state.nflags, touched)
            target = f"next the {face} flag on {SQUARE_NAMES[sq] if sq >= 0 else '?'}"
        else:
            target = "finished"
        coins = f", coins {totals[p]}" if state.races > 1 else ""
        pawn = f"{SUITS[p]:<7} (@{INITIALS[p]}) on {where:<3}"
        lines.append(f"  {pawn} flags touched {touched}/{state.nflags}, {target}{coins}")
    return lines


def render_text(state: RoyalRacersState, reveal: bool = False) -> str:
    """The table as every player sees it; `reveal` shows face-down ranks too (`#3h`)."""
    lines = [status_line(state), "", *grid_lines(state, reveal), ""]
    flip = last_flip_line(state)
    if flip:
        lines.append(flip)
    lines += player_lines(state)
    if state.coins:
        results = []
        for number, winner in enumerate(state.race_winners, start=1):
            results.append(f"race {number}: {SUITS[winner] if winner >= 0 else 'stopped at the cap'}")
        lines.append("Finished races: " + "; ".join(results) + ".")
    lines.append(
        "Cards: rank+suit (s h d c), ## face down, ! and a card: a wrong guess's card (this turn only); "
        "S2: suns' 2 flag; @M: moons' pawn."
    )
    return "\n".join(lines)
