"""How the table speaks of its things: flags, pawns, cards and die faces in plain words,
shared by the picture's titles, the legend and the story."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chaosgames.games.royal_racers import setup
from chaosgames.games.royal_racers.actions import DIE_FACES, Kind
from chaosgames.games.royal_racers.board import (
    LOWEST_FIXED_RANK,
    RANK_OF,
    SQUARE_NAMES,
    SUITS,
    card_words,
)
from chaosgames.games.royal_racers.table import HIDDEN, flag_touched, square_look

if TYPE_CHECKING:
    from chaosgames.games.royal_racers.state import RoyalRacersState

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


def capital(text: str) -> str:
    """The sentence's first letter in upper case (`the moons' 2 flag` -> `The moons' 2 flag`)."""
    return text[:1].upper() + text[1:]


def possessive(player: int) -> str:
    """`moons'`: every suit's name ends in s."""
    return f"{SUITS[player]}'"


def flag_name(state: RoyalRacersState, slot: int) -> str:
    """`the moons' ace flag`, `the suns' 4 flag`."""
    owner, index = divmod(slot, state.nflags)
    return f"the {possessive(owner)} {setup.flag_face_name(state.nflags, index)} flag"


def flag_role(state: RoyalRacersState, slot: int) -> str:
    """What a flag is for: `moons must touch it second of 5` or, for the last, that it
    lies under the start and ends the race."""
    owner, index = divmod(slot, state.nflags)
    if index == state.nflags - 1:
        return f"{SUITS[owner]} started on it and wins by coming back to it after the other flags"
    return f"{SUITS[owner]} must touch it {ORDINALS[index]} of {state.nflags}"


def flag_title(state: RoyalRacersState, slot: int) -> str:
    where = SQUARE_NAMES[state.flag_sq[slot]]
    touched = " It has been touched." if flag_touched(state, slot) else ""
    return f"{capital(flag_name(state, slot))} on {where}: {flag_role(state, slot)}.{touched}"


def next_flag(state: RoyalRacersState, player: int) -> str:
    """`next: the moons' 2 flag on e5`, or `finished` once every flag is touched."""
    touched = state.progress[player]
    if touched >= state.nflags:
        return "finished"
    slot = player * state.nflags + touched
    sq = state.flag_sq[slot]
    where = SQUARE_NAMES[sq] if sq >= 0 else "a square still to be chosen"
    if touched == state.nflags - 1:
        return f"next: home to {where}"
    return f"next: {flag_name(state, slot)} on {where}"


def pawn_title(state: RoyalRacersState, player: int) -> str:
    sq = SQUARE_NAMES[state.pawns[player]]
    progress = f"{state.progress[player]} of {state.nflags} flags touched"
    return f"The {possessive(player)} pawn on {sq}: {progress}; {next_flag(state, player)}."


def face_words(face: int) -> str:
    """A die face in a sentence: `null`, `an ace`, `a 2`."""
    name = DIE_FACES[face]
    return "an ace" if face == 1 else name if face == 0 else f"a {name}"


def card_title(state: RoyalRacersState, sq: int, reveal: bool = False) -> str:
    """A square's title: its card (as far as the table sees it), its flag and its pawn."""
    shown, down, wrong, slot, _, pawn = square_look(state, sq, reveal)
    name = SQUARE_NAMES[sq]
    if shown == -1:
        text = f"{name}: no card yet."
    elif wrong:
        text = (
            f"{name}: {card_words(shown)}, shown by a wrong guess this turn (the roll was "
            f"{DIE_FACES[state.roll]}): it stays face down, and the pawn went back."
        )
    elif shown == HIDDEN:
        text = (
            f"{name}: face down, its rank hidden (remember it!). No pawn may land here; "
            "on a roll of its rank a player may try to turn it face up."
        )
    elif down:
        why = "in the replay" if reveal and not state.memory_aid else "by the memory aid"
        text = f"{name}: face down ({card_words(shown)}, shown {why}). No pawn may land here."
    elif RANK_OF[shown] >= LOWEST_FIXED_RANK:
        text = f"{name}: {card_words(shown)}, face up; 6 to 9 never flip."
    else:
        roll = face_words(RANK_OF[shown])
        text = f"{name}: {card_words(shown)}, face up; a roll of {roll} may turn it face down."
    if slot >= 0:
        text += f" {capital(flag_name(state, slot))} lies here."
    if pawn >= 0:
        text += f" The {possessive(pawn)} pawn stands here."
    return text


def last_flip_line(state: RoyalRacersState) -> str | None:
    """The flip of the latest decision, as everyone saw it (None once the next decision or
    roll has come)."""
    flip = state.last_flip
    if flip is None:
        return None
    where = SQUARE_NAMES[flip.square]
    card = card_words(state.cards[flip.square])
    if flip.kind is Kind.DOWN:
        return f"Just turned face down: {card} on {where}."
    if flip.ok:
        return f"Just turned face up: {card} on {where}."
    return f"Wrong guess: {where} is {card}, not {face_words(state.roll)}; it stays face down."
