"""The story of a race: what each action tells the table, the places it changed, and the
key to the picture (see chaosgames.core.story).

What may be kept. Without the memory aid the players must remember which card went face
down where, so nothing a viewer keeps lets them look a face-down rank up later: the move
log (`Told.kept` and `Told.notation`) names no card a deal lays (`deal`), no die face
(`roll`), no card turned face down (`down:b4`, "suns turns b4 face down") and no rank a
guess found. What everyone saw for a moment (the die, the card turned down, the card of
a wrong guess) is said in `Told.now`, which the page shows only while the action belongs
to the latest turn, the last decision and the chance outcomes after it. With the memory
aid on everything is kept. Every seat and every spectator sees the same table, so what
is told does not depend on the viewer.
"""

from __future__ import annotations

from collections.abc import Callable

from chaosgames.core.story import LegendEntry, LegendSection, Told, slug
from chaosgames.games.royal_racers import board_morph, svg
from chaosgames.games.royal_racers.actions import DIE_FACES, Kind, RacerAction
from chaosgames.games.royal_racers.board import (
    DEAL_ORDER,
    QUADRANT_NAMES,
    QUADRANT_OF,
    RANK_OF,
    RANK_WORDS,
    SQUARE_NAMES,
    SQUARES,
    SUITS,
    a_rank,
    card_words,
)
from chaosgames.games.royal_racers.state import (
    DEAL_PHASE,
    FLAGS_PHASE,
    FLIP_PHASE,
    MOVE_PHASE,
    OVER,
    ROLL_PHASE,
    START_PHASE,
    RoyalRacersState,
)
from chaosgames.games.royal_racers.svg import DIE_LABELS
from chaosgames.games.royal_racers.table import square_look
from chaosgames.games.royal_racers.words import ORDINALS, capital, flag_name, last_flip_line, next_flag

Sentences = tuple[str, str]
"""(now, kept): the sentence while the action is in the latest turn, and the one the
viewer keeps (the same unless it names something the table must remember)."""


# -- telling one action -----------------------------------------------------------------


def tell(before: RoyalRacersState, action: RacerAction, after: RoyalRacersState) -> Told:
    """`Game.tell` (every viewer sees the same table)."""
    now, kept = TELLERS[action.kind](before, action, after)
    hidden = not before.memory_aid
    # Without the memory aid the log keeps only the word of a deal or a roll, never the card or the face.
    notation = action.kind.value if hidden and action.kind in (Kind.DEAL, Kind.ROLL) else str(action)
    return Told(notation, kept if hidden else now, now, changed_places(before, action, after))


def _deal(before: RoyalRacersState, action: RacerAction, after: RoyalRacersState) -> Sentences:
    where = SQUARE_NAMES[DEAL_ORDER[before.dealt]]
    now = f"{capital(card_words(action.arg))} is laid face up on {where}."
    kept = f"A card is laid face up on {where}."
    if after.phase == START_PHASE:
        last = f" The grid is laid out: {SUITS[after.current_player()]} chooses a starting square first."
        now, kept = now + last, kept + last
    return now, kept


def _start(before: RoyalRacersState, action: RacerAction, after: RoyalRacersState) -> Sentences:
    player = before.current_player()
    where = SQUARE_NAMES[action.arg]
    flag = flag_name(before, player * before.nflags + before.nflags - 1)
    text = (
        f"{SUITS[player]} starts on {where} ({QUADRANT_NAMES[QUADRANT_OF[action.arg]]} quadrant) "
        f"with {flag} under the pawn: the race ends there."
    )
    return text, text


def _place(before: RoyalRacersState, action: RacerAction, after: RoyalRacersState) -> Sentences:
    placer, owner, index = before.placement()
    slot = owner * before.nflags + index
    text = (
        f"{SUITS[placer]} places {flag_name(before, slot)} on {SQUARE_NAMES[action.arg]}: "
        f"{SUITS[owner]} must touch it {ORDINALS[index]}."
    )
    if after.phase == ROLL_PHASE:
        text += f" Every flag is placed: the race begins, {SUITS[after.mover()]} first."
    return text, text


def _roll(before: RoyalRacersState, action: RacerAction, after: RoyalRacersState) -> Sentences:
    player = SUITS[before.mover()]
    face = action.arg
    now = f"The die shows {DIE_FACES[face]} for {player}{_roll_means(face, player, after)}"
    kept = f"The die is rolled for {player}."
    more = _aftermath(before, after, forfeited=after.phase not in (FLIP_PHASE, MOVE_PHASE))
    return now + more, kept + more


def _roll_means(face: int, player: str, after: RoyalRacersState) -> str:
    """What the face lets the player do (the flips `after` offers)."""
    if face == 0:
        return ": no card flips this turn."
    rank = a_rank(face)
    if after.phase != FLIP_PHASE:
        return f", but no {RANK_WORDS[face]} can be flipped."
    kinds = {action.kind for action in after.legal_actions() if isinstance(action, RacerAction)}
    if kinds == {Kind.REVEAL}:
        return f": every {RANK_WORDS[face]} is under a pawn, so {player} turns any face-down card face up."
    if Kind.DOWN not in kinds:
        return (
            f": no {RANK_WORDS[face]} can go face down, so {player} must try to turn {rank} "
            "face up from memory."
        )
    if Kind.UP in kinds:
        return f": {player} turns {rank} face down, or tries to turn one face up from memory."
    return f": {player} must turn {rank} face down."


def _down(before: RoyalRacersState, action: RacerAction, after: RoyalRacersState) -> Sentences:
    player = SUITS[before.mover()]
    sq = action.arg
    where = SQUARE_NAMES[sq]
    flag = before.flag_at[sq]
    carries = f" It carries {flag_name(before, flag)}." if flag >= 0 else ""
    card = card_words(before.cards[sq])
    now = f"{player} turns {card} on {where} face down: no pawn may land there.{carries}"
    kept = f"{player} turns {where} face down: no pawn may land there.{carries}"
    more = _aftermath(before, after, forfeited=after.phase != MOVE_PHASE)
    return now + more, kept + more


def _up(before: RoyalRacersState, action: RacerAction, after: RoyalRacersState) -> Sentences:
    mover = before.mover()
    player = SUITS[mover]
    sq = action.arg
    where = SQUARE_NAMES[sq]
    card = card_words(before.cards[sq])
    more = _aftermath(before, after, forfeited=after.phase != MOVE_PHASE)
    if RANK_OF[before.cards[sq]] == before.roll:
        now = f"Right: {where} is {card}; {player} turns it face up."
        return now + more, f"{player} guessed {where} right and turned it face up.{more}"
    back = before.clone()
    board_morph.send_back(back, mover)
    to, target = back.pawns[mover], board_morph.send_back_target(before, mover)
    went = SQUARE_NAMES[to] if to >= 0 else "no free card"
    nearest = f", the nearest free card to {SQUARE_NAMES[target]}" if to != target else ""
    now = f"Wrong: {where} is {card}; {player} goes back to {went}{nearest}."
    return now + more, f"{player} guessed {where} wrong and went back to {went}{nearest}.{more}"


def _reveal(before: RoyalRacersState, action: RacerAction, after: RoyalRacersState) -> Sentences:
    player = SUITS[before.mover()]
    where = SQUARE_NAMES[action.arg]
    more = _aftermath(before, after, forfeited=after.phase != MOVE_PHASE)
    now = (
        f"Every {RANK_WORDS[before.roll]} is under a pawn, so {player} turns {where} face up: "
        f"{card_words(before.cards[action.arg])}."
    )
    kept = f"{player} turns {where} face up (every card of the rank rolled is under a pawn)."
    return now + more, kept + more


def _move(before: RoyalRacersState, action: RacerAction, after: RoyalRacersState) -> Sentences:
    mover = before.mover()
    player = SUITS[mover]
    frm, to = SQUARE_NAMES[before.pawns[mover]], SQUARE_NAMES[action.arg]
    slot = mover * before.nflags + before.progress[mover]
    if before.flag_at[action.arg] != slot:
        text = f"{player} moves from {frm} to {to}."
    elif before.progress[mover] + 1 == before.nflags:
        text = f"{player} comes home to {to}, touching the last flag, and wins the race!"
    else:
        touched = before.progress[mover] + 1
        text = (
            f"{player} moves from {frm} to {to} and touches {flag_name(before, slot)}: "
            f"{touched} of {before.nflags} flags."
        )
    text += _aftermath(before, after, forfeited=False)
    return text, text


def _stay(before: RoyalRacersState, action: RacerAction, after: RoyalRacersState) -> Sentences:
    mover = before.mover()
    text = f"{SUITS[mover]} stays on {SQUARE_NAMES[before.pawns[mover]]}."
    text += _aftermath(before, after, forfeited=False)
    return text, text


TELLERS: dict[Kind, Callable[[RoyalRacersState, RacerAction, RoyalRacersState], Sentences]] = {
    Kind.DEAL: _deal,
    Kind.START: _start,
    Kind.PLACE: _place,
    Kind.ROLL: _roll,
    Kind.DOWN: _down,
    Kind.UP: _up,
    Kind.REVEAL: _reveal,
    Kind.MOVE: _move,
    Kind.STAY: _stay,
}


def _aftermath(before: RoyalRacersState, after: RoyalRacersState, forfeited: bool) -> str:
    """What followed by itself: a forfeited move, a race stopped by the cap, a race's coins,
    the next race or the end of the match."""
    text = ""
    if forfeited:
        text += f" {SUITS[before.mover()]} has no legal move and forfeits it."
    if len(after.race_winners) == len(before.race_winners):
        return text
    if after.race_winners[-1] < 0:
        coin = after.coins[-1]
        leaders = [SUITS[p] for p in range(after.n) if coin[p] == max(coin)]
        text += (
            f" The race stops at the round cap ({before.max_rounds} rounds); most flags touched: "
            f"{' and '.join(leaders)} ({max(coin)})."
        )
    if after.races > 1:
        coins = ", ".join(f"{SUITS[p]} {c}" for p, c in enumerate(after.coins[-1]))
        text += f" Coins for the flags touched: {coins}."
    if after.phase == DEAL_PHASE:
        text += f" Race {after.race + 1} of {after.races} begins: the cards are gathered and shuffled."
    elif after.races > 1:
        totals = after.totals()
        best = [SUITS[p] for p in range(after.n) if totals[p] == max(totals)]
        text += f" The match is over: {' and '.join(best)} with the most coins ({max(totals)})."
    return text


# -- the places an action changed -------------------------------------------------------


def changed_places(before: RoyalRacersState, action: RacerAction, after: RoyalRacersState) -> tuple[str, ...]:
    """Every square whose drawing the action changed (card, face, mark, flag, pawn), and
    the squares the action names; in square order."""
    named = set(svg.action_places(action))
    return tuple(
        SQUARE_NAMES[sq]
        for sq in range(SQUARES)
        if SQUARE_NAMES[sq] in named or square_look(before, sq) != square_look(after, sq)
    )


# -- the list of choices and the rules --------------------------------------------------

CHOICES: dict[Kind, tuple[tuple[int, str], str]] = {
    # kind: ((order, heading) in a person's list of choices, the heading of rules.md it follows)
    Kind.DEAL: ((0, ""), "The deal"),  # chance's, as the roll: in no person's list
    Kind.START: ((0, "Choose your starting square"), "Starting squares"),
    Kind.PLACE: ((0, "Place the flag"), "Placing the flags"),
    Kind.ROLL: ((0, ""), "The die"),
    Kind.DOWN: ((0, "Turn a card face down"), "Turning a card face down"),
    Kind.UP: ((1, "Try to turn a card face up (from memory)"), "Turning a card face up from memory"),
    Kind.REVEAL: ((1, "Turn any face-down card face up"), "When every card of the rank is under a pawn"),
    Kind.MOVE: ((0, "Move one space"), "Moving"),
    Kind.STAY: ((1, "Stay where you are"), "Moving"),
}
"""Each kind of action's group in the list of choices (`Game.action_group`) and the
heading of rules.md that explains it (`Game.rules_section`)."""


def action_group(action: RacerAction) -> tuple[int, str]:
    return CHOICES[action.kind][0]


def rules_section(action: RacerAction) -> str:
    return slug(CHOICES[action.kind][1])


# -- the legend ---------------------------------------------------------------------------


def legend(state: RoyalRacersState) -> tuple[LegendSection, ...]:
    """The key to the picture: the turn and the die, the flags, the cards, the memory aid."""
    sections = [_turn_section(state), _flags_section(state), _cards_section(state), _die_section()]
    return tuple(sections)


def _turn_section(state: RoyalRacersState) -> LegendSection:
    heading = f"Race {state.race + 1} of {state.races}"
    entries = [LegendEntry(_turn_line(state))]
    roll = state.shown_roll()
    if roll >= 0 and state.phase in (FLIP_PHASE, MOVE_PHASE):
        die = f"The die shows {DIE_FACES[roll]} for {SUITS[state.mover()]}."
        entries.append(LegendEntry(die, symbol=DIE_LABELS[roll]))
    flip = last_flip_line(state)
    if flip:
        entries.append(LegendEntry(flip))
    return LegendSection(heading, tuple(entries))


def _turn_line(state: RoyalRacersState) -> str:
    phase = state.phase
    if phase == OVER:
        return "The game is over."
    if phase == DEAL_PHASE:
        return f"The cards are being laid out ({state.dealt} of 36)."
    if phase == START_PHASE:
        return f"{SUITS[state.current_player()]} chooses a starting square (c3, c4, d3 or d4)."
    if phase == FLAGS_PHASE:
        placer, owner, index = state.placement()
        slot = owner * state.nflags + index
        quadrant = QUADRANT_NAMES[state.flag_quadrant(owner, index)]
        return f"{SUITS[placer]} places {flag_name(state, slot)} in the {quadrant} quadrant."
    step = {ROLL_PHASE: "rolls the die", FLIP_PHASE: "flips a card", MOVE_PHASE: "moves"}[phase]
    return f"Round {state.round + 1}: {SUITS[state.mover()]} {step}."


def _flags_section(state: RoyalRacersState) -> LegendSection:
    entries = []
    totals = state.totals()
    for p in range(state.n):
        if state.pawns[p] < 0:
            line = f"{SUITS[p]} ({SUITS[p][0].upper()}): not started yet."
        else:
            line = (
                f"{SUITS[p]} ({SUITS[p][0].upper()}) on {SQUARE_NAMES[state.pawns[p]]}: "
                f"{state.progress[p]} of {state.nflags} flags touched; {next_flag(state, p)}."
            )
        if state.races > 1:
            line += f" Coins: {totals[p]}."
        entries.append(LegendEntry(line, colour=svg.SUIT_COLOURS[p]))
    entries.append(
        LegendEntry(
            "A pawn is a disc with its suit's initial; a flag is a square of its owner's colour with its "
            "number (A = ace, 0 = null), touched in order; the highest lies under the start. Faded: touched."
        )
    )
    return LegendSection("Pawns and flags", tuple(entries))


def _cards_section(state: RoyalRacersState) -> LegendSection:
    aid = (
        "Memory aid on: face-down cards show their rank, dimmed."
        if state.memory_aid
        else "Memory aid off: face-down ranks are not shown anywhere; remember them."
    )
    entries = (
        LegendEntry("Face up: rank and suit (A = ace); 6 to 9 never flip.", symbol="7♥"),
        LegendEntry("Face down (striped back): no pawn may land on it.", colour="#4a3c8c"),
        LegendEntry("The card a wrong guess showed, this turn only; it stays face down.", symbol="✗"),
        LegendEntry(aid),
    )
    return LegendSection("Cards", entries)


def _die_section() -> LegendSection:
    return LegendSection(
        "The die",
        (
            LegendEntry("null: no card flips; just move.", symbol="null"),
            LegendEntry(
                "ace to 5: flip one card of that rank: a face-up one face down, or name a face-down "
                "one to turn face up (wrong rank: your pawn goes back to your last flag touched).",
                symbol="A-5",
            ),
            LegendEntry("Then move one space up, down, left or right onto a face-up card with no pawn."),
        ),
    )
