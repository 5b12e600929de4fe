"""The story of a race as the table sees it (chaosgames.core.story): what each action did,
in plain sentences, the spaces it changed, and the legend to the picture.

Every action is told from the positions before and after it, the rules' own tables
answering why (the space in front it entered, the terrain it dodged, the die's face): a
gear change and its stress, each step and what it cost, the track scrolling, each stress
die and what its face does at that moment, every crash and why, lives lost and left, cars
put back, round tokens, laps, ghosts, whose turn is next and, at the end, who won and why.
Nothing at the table is hidden, so every viewer is told the same.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from chaosgames.core.story import LegendEntry, LegendSection, Told, slug
from chaosgames.games.cardboard_machines import words
from chaosgames.games.cardboard_machines.actions import (
    DIRECTIONS,
    NO_GHOST,
    SWERVE_SIDES,
    Kind,
    MachineAction,
    space_name,
)
from chaosgames.games.cardboard_machines.boards import (
    BOARD_SPACES,
    LANES,
    SIDE_NAMES,
    SIDES,
    START_BOARD,
    WHITE,
)
from chaosgames.games.cardboard_machines.end_of_game import ranking_key
from chaosgames.games.cardboard_machines.movement import GEAR_CHANGE_STRESS
from chaosgames.games.cardboard_machines.phases import (
    BONUS,
    LEFT,
    MALF,
    MOVE,
    OFF,
    OVER,
    RESOLVE,
    RETURN_STRESS,
    RIGHT,
    ROLL,
)
from chaosgames.games.cardboard_machines.stress_test import BLANK, FACES, MAX_DICE
from chaosgames.games.cardboard_machines.svg import CAR_COLOURS, ROAD, TERRAIN
from chaosgames.games.cardboard_machines.words import DIE_NAMES, FACE_NAMES, plural, who

if TYPE_CHECKING:
    from chaosgames.games.cardboard_machines.state import CardboardState

ORDINALS = ("first", "second", "third", "fourth")


def tell(before: CardboardState, action: MachineAction, after: CardboardState) -> Told:
    """The sentences of `action` (which took `before` to `after`) and the spaces it changed;
    the same for every viewer (nothing at this table is hidden)."""
    assert isinstance(action, MachineAction)
    sentences = [*TELLERS[action.kind](before, action.arg, after)]
    sentences += _aftermath(before, action, after)
    text = " ".join(sentences)
    return Told(str(action), text, text, changed_places(before, after))


# -- the action itself ---------------------------------------------------------------------


def _first(before: CardboardState, player: int, after: CardboardState) -> list[str]:
    return [f"{who(after, player)} is chosen at random to start.", *_laid(before, after)]


def _board(before: CardboardState, board: int, after: CardboardState) -> list[str]:
    place = len(before.drawn)
    where = "behind" if place == 0 else f"{ORDINALS[place - 1]} in front of"
    return [f"Board {board} is drawn to lie {where} the starting board.", *_laid(before, after)]


def _laid(before: CardboardState, after: CardboardState) -> list[str]:
    if before.board_ids or not after.board_ids:
        return []
    boards = ", ".join(str(b) for b in after.board_ids)
    gray = [str(b) for b, side in zip(after.board_ids, after.sides, strict=True) if side != WHITE]
    sides = "white sides up" if not gray else f"{' and '.join(gray)} gray side up, the others white"
    first = who(after, after.first)
    return [
        f"The track is laid, boards {boards} from the back, {sides}, and the cars go on "
        f"starting spaces 1 to {after.game.num_players} from {first} clockwise, in gear 1 with 3 lives."
    ]


def _gear(before: CardboardState, gear: int, after: CardboardState) -> list[str]:
    p = before.mover
    name, old = who(before, p), before.gear[p]
    cost = GEAR_CHANGE_STRESS[old][gear]
    if gear == old:
        return [f"{name} stays in gear {gear} and will move {plural(gear, 'space')}."]
    shift = "up" if gear > old else "down"
    why = ""
    if cost:
        reason = "1 for every step above 1" if gear > old else "a drop of more than 1"
        why = f" ({plural(cost, 'stress')}: {reason})"
    return [
        f"{name} shifts {shift} from gear {old} to gear {gear}{why} and will move {plural(gear, 'space')}."
    ]


def _move(before: CardboardState, direction: int, after: CardboardState) -> list[str]:
    p = before.mover
    name, here = who(before, p), before.pos[p]
    there = next(t for d, t in before.targets(here) if d == direction)
    costs = _step_costs(before, direction, there)
    if before.phase is BONUS:
        text = f"The malfunction moves {name}'s car {DIRECTIONS[direction]} from {before.name(here)} to "
    else:
        text = f"{name} moves {DIRECTIONS[direction]} from {before.name(here)} to "
    return [f"{text}{before.name(there)}{''.join(', ' + c for c in costs)}."]


def _step_costs(st: CardboardState, direction: int, there: int) -> list[str]:
    """What entering `there` costs (movement.enter's rules), in words."""
    p, here = st.mover, st.pos[st.mover]
    costs = []
    if direction and st.track.dodge[here - BOARD_SPACES * st.back]:
        ahead = next(t for d, t in st.targets(here) if d == 0)
        costs.append(f"barely dodging the terrain on {st.name(ahead)} (1 stress)")
    if there in st.ghosts:
        costs.append("into a ghost (1 stress)")
    other = st.car_at(there, p)
    if other >= 0:
        costs.append(f"through {who(st, other)}'s car (1 stress each)")
    return costs


def _scroll(before: CardboardState, _: int, after: CardboardState) -> list[str]:
    return [f"{who(before, before.mover)} drives off the front edge.", *_scrolled(before, after)]


def _scrolled(before: CardboardState, after: CardboardState) -> list[str]:
    """A scroll in words: the board that left, where it came in, its ghosts, the lap."""
    if after.back == before.back:
        return []
    board, side = after.board_ids[-1], after.sides[-1]
    dark = SIDES[board][side].dark_edges
    sentences = [
        f"The track scrolls: board {board} leaves the back, is flipped and comes in at the front, "
        f"{SIDE_NAMES[side]} side up{' (dark edges)' if dark else ''}."
    ]
    gone = (2 * after.back) * LANES
    lost = sum(1 for g in before.ghosts if g < gone)
    if lost:
        sentences.append(f"{plural(lost, 'ghost')} on it go{'es' if lost == 1 else ''} back to the box.")
    if after.lap > before.lap:
        text = f"Board {START_BOARD} is back in front: lap {after.lap} begins"
        if after.tokens_left:
            text += ", and the first car into its own starting row on it takes a round token"
        sentences.append(text + ".")
    return sentences


def _stop(before: CardboardState, _: int, after: CardboardState) -> list[str]:
    p = before.mover
    left = before.moves_left
    each = " (1 for each)" if left > 1 else ""
    return [
        f"{who(before, p)} stops on {before.name(before.pos[p])} with {plural(left, 'space')} not moved: "
        f"{left} stress{each}."
    ]


def _ghost(before: CardboardState, table_space: int, after: CardboardState) -> list[str]:
    name = who(before, before.mover)
    if table_space == NO_GHOST:
        return [f"{name} places no ghost on the new board."]
    return [f"{name} places a ghost on {space_name(table_space)}, on the new board."]


def _place(before: CardboardState, table_space: int, after: CardboardState) -> list[str]:
    player = before.pending[0]
    return [
        f"{who(before, player)} puts the crashed car back on {space_name(table_space)}, an edge space "
        "of the third board from the back."
    ]


def _return(before: CardboardState, _: int, after: CardboardState) -> list[str]:
    p = before.mover
    return [
        f"{who(before, p)} returns 1 stress to the supply (same gear and no stress this turn): "
        f"stress {after.stress[p]}."
    ]


def _keep(before: CardboardState, _: int, after: CardboardState) -> list[str]:
    p = before.mover
    return [f"{who(before, p)} keeps all {before.stress[p]} stress."]


def _roll(before: CardboardState, face: int, after: CardboardState) -> list[str]:
    """A stress die: its face, and what that face does at this moment of the test."""
    p = before.mover
    name = who(before, p)
    thrown = min(before.stress[p], MAX_DICE)
    plus_one = before.overflow and before.game.plus_one
    kind = FACES[min(face + 1, 6) - 1] if plus_one else FACES[face - 1]
    if before.to_roll:
        head = f"Stress die {thrown - before.to_roll + 1} of {thrown} shows {face}"
    else:
        head = f"A blank rolled again shows {face}"
    if plus_one:
        head += f", +1 for more than {MAX_DICE} stress: {face + 1}" if face < 6 else ", and a 6 stays a 6"
    return [
        f"{head} ({FACE_NAMES[kind]}): {_face_effect(before, kind, name)}.",
        *_all_in(before, kind, after),
    ]


def _face_effect(before: CardboardState, kind: int, name: str) -> str:
    if kind == BLANK:
        if before.to_roll and before.overflow and not before.game.plus_one:
            return f"with more than {MAX_DICE} stress a blank is rolled again"
        return "the driver is in control, and the die is removed"
    if kind == MALF:
        which = "the second" if before.dice[MALF] == 1 else "another"
        if before.dice[MALF]:
            return f"{which} malfunction: two malfunctions crash {name}'s car once all dice are in"
        return (
            f"after the roll, 1 stress and one space forward for {name}, unless a second "
            "malfunction crashes the car"
        )
    side, other = ("left", "right") if kind == LEFT else ("right", "left")
    return f"after the roll, {name}'s car swerves one space {side}, unless a swerve {other} cancels it"


def _all_in(before: CardboardState, kind: int, after: CardboardState) -> list[str]:
    """After the last die: the pairs that cancel and the dice left to resolve."""
    if after.phase is ROLL or _crashed(before, after):
        return []
    dice = before.dice[:]
    if kind != BLANK:
        dice[kind] += 1
    pairs = min(dice[LEFT], dice[RIGHT])
    text = "All dice are in"
    if pairs == 1:
        text += ": a swerve left and a swerve right cancel"
    elif pairs:
        text += f": {pairs} pairs of a swerve left and a swerve right cancel"
    rest = _dice_left(after) if after.phase is RESOLVE else ""
    if rest:
        return [f"{text}; left to resolve, in the order {who(before, before.mover)} chooses: {rest}."]
    return [f"{text}: nothing is left to resolve."]


def _dice_left(st: CardboardState) -> str:
    return ", ".join(
        DIE_NAMES[kind] if st.dice[kind] == 1 else f"{st.dice[kind]} {FACE_NAMES[kind]} dice"
        for kind in (LEFT, RIGHT, MALF)
        if st.dice[kind]
    )


def _swerve(before: CardboardState, side: int, after: CardboardState) -> list[str]:
    p = before.mover
    name, here = who(before, p), before.pos[p]
    word = SWERVE_SIDES[side]
    col = here % LANES + (-1 if side == LEFT else 1)
    if not 0 <= col < LANES:
        return [f"{name} swerves {word} from {before.name(here)} into the wall."]
    there = here - here % LANES + col
    other = before.car_at(there, p)
    if other >= 0:
        return [
            f"{name} cannot swerve {word}: {who(before, other)}'s car is on {before.name(there)} and a "
            f"swerve cannot end on a car, so {name} stays on {before.name(here)}."
        ]
    ghost = ", into a ghost (1 stress)" if there in before.ghosts else ""
    return [f"{name} swerves {word} from {before.name(here)} to {before.name(there)}{ghost}.", *_left(after)]


def _left(after: CardboardState) -> list[str]:
    if after.phase is RESOLVE:
        return [f"Left to resolve: {_dice_left(after)}."]
    return []


def _malfunction(before: CardboardState, _: int, after: CardboardState) -> list[str]:
    p = before.mover
    name = who(before, p)
    sentences = [f"{name}'s malfunction: 1 stress (now {after.stress[p]}) and one space forward."]
    if after.back != before.back:
        sentences.append(f"{name}'s car is on the front row, so it drives off the front edge.")
        sentences += _scrolled(before, after)
    if after.phase is not BONUS and after.lives[p] == before.lives[p] and after.phase is not OVER:
        sentences.append(f"No free space in front: {name}'s car stays where it is.")
        sentences += _left(after)
    return sentences


def _buy_off(before: CardboardState, side: int, after: CardboardState) -> list[str]:
    p = before.mover
    return [
        f"{who(before, p)} takes 1 stress (now {after.stress[p]}) to cancel a swerve "
        f"{SWERVE_SIDES[side]} die.",
        *_left(after),
    ]


TELLERS: dict[Kind, Callable[[CardboardState, int, CardboardState], list[str]]] = {
    Kind.FIRST: _first,
    Kind.BOARD: _board,
    Kind.GEAR: _gear,
    Kind.MOVE: _move,
    Kind.SCROLL: _scroll,
    Kind.STOP: _stop,
    Kind.GHOST: _ghost,
    Kind.PLACE: _place,
    Kind.RETURN: _return,
    Kind.KEEP: _keep,
    Kind.ROLL: _roll,
    Kind.SWERVE: _swerve,
    Kind.MALFUNCTION: _malfunction,
    Kind.BUYOFF: _buy_off,
}


# -- what follows from it: round tokens, crashes, the end, the stress test, the next turn --


def _aftermath(before: CardboardState, action: MachineAction, after: CardboardState) -> list[str]:
    if not before.board_ids:
        return []
    sentences = _tokens(before, after)
    for p in _crashed(before, after):
        sentences += _crash(before, action, after, p)
    if after.phase is OVER and before.phase is not OVER:
        sentences += _the_end(before, after)
        return sentences
    sentences += _next_in_move(before, action, after)
    sentences += _stress_test(before, action, after)
    if after.turn > before.turn:
        sentences.append(f"Next: {who(after, after.mover)}'s turn.")
    return sentences


def _next_in_move(before: CardboardState, action: MachineAction, after: CardboardState) -> list[str]:
    """What the mover does next within the move: a ghost to place, spaces to go, the
    malfunction's space forward to pick."""
    name, kind = who(after, after.mover), action.kind
    sentences = []
    if after.ghost_pending and not before.ghost_pending:
        sentences.append(f"{name} may place a ghost on an empty space of the new board.")
    if after.mover != before.mover or after.phase is OVER:
        return sentences
    if after.phase is MOVE and kind in (Kind.MOVE, Kind.SCROLL):
        free = "The scroll costs no movement: " if kind is Kind.SCROLL else ""
        sentences.append(f"{free}{plural(after.moves_left, 'space')} to go.")
    if after.phase is BONUS and kind is Kind.MALFUNCTION:
        sentences.append(f"{name} picks the space in front.")
    return sentences


def _tokens(before: CardboardState, after: CardboardState) -> list[str]:
    return [
        f"{who(after, p)} takes a round token, the first car into its own starting row on board "
        f"{START_BOARD} in lap {after.lap} ({after.tokens_left} left)."
        for p in range(after.game.num_players)
        if after.tokens[p] > before.tokens[p]
    ]


def _crashed(before: CardboardState, after: CardboardState) -> list[int]:
    """The players who lost a life, in the order the rules crashed them (clockwise from the
    mover, the mover last: a scroll's victims crash before a car can end its move)."""
    n = after.game.num_players
    order = [(before.mover + i) % n for i in range(1, n + 1)]
    return [p for p in order if after.lives[p] < before.lives[p]]


def _crash(before: CardboardState, action: MachineAction, after: CardboardState, p: int) -> list[str]:
    name = who(after, p)
    last, why = _why(before, action, after, p)
    if last is None:
        ghost = "No ghost takes its place (its space left the table)"
    elif last in after.ghosts:
        ghost = f"A ghost takes its place on {_named(before, after, last)}"
    else:
        ghost = "No ghost is left in the box to take its place"
    gear = (
        f"{name}'s gear drops from {before.gear[p]} to {after.gear[p]}"
        if after.gear[p] != before.gear[p]
        else f"{name}'s gear stays at 1"
    )
    lives = after.lives[p]
    lost = (
        f"{name} loses a life ({plural(lives, 'life')} left)"
        if lives
        else f"{name} loses the last life and is out of the race"
    )
    sentences = [f"{name} crashes: {why}.", f"{ghost}; {gear}, stress goes to 1, and {lost}."]
    if lives and p in after.pending and after.phase is not OVER:
        sentences.append(f"{name} puts the car back on an edge space of the third board from the back.")
    return sentences


def _why(
    before: CardboardState, action: MachineAction, after: CardboardState, p: int
) -> tuple[int | None, str]:
    """Where the car last stood (its ghost's space; None: the space left the table) and why
    it crashed."""
    here = before.pos[p]
    if p != before.mover or action.kind in (Kind.SCROLL, Kind.MALFUNCTION):
        return None, "its board left the back of the track with the car on it"
    kind = action.kind
    if kind is Kind.ROLL:
        return here, "two malfunctions"
    if kind is Kind.SWERVE:
        col = here % LANES + (-1 if action.arg == LEFT else 1)
        if not 0 <= col < LANES:
            return here, f"it hit the wall beside {before.name(here)}, where its ghost appears"
        there = here - here % LANES + col
        return there, f"the swerve ends in terrain on {before.name(there)}"
    if kind is Kind.MOVE:
        there = next(t for d, t in before.targets(here) if d == action.arg)
        what = "the malfunction's move" if before.phase is BONUS else "the move"
        return there, f"{what} ends in terrain on {before.name(there)}"
    return here, f"the move ends in terrain on {before.name(here)}"


def _named(before: CardboardState, after: CardboardState, space: int) -> str:
    return after.name(space) if after.on_table(space) else before.name(space)


def _the_end(before: CardboardState, after: CardboardState) -> list[str]:
    result = after.result or []
    winners = [p for p, share in enumerate(result) if share > 0]
    names = " and ".join(who(after, p) for p in winners)
    alive = after.alive()
    if len(alive) == 1:
        return [f"{names} is the last car in the race and wins."]
    cap = after.game.max_turns
    if after.tokens_left == 0:
        head = "That was the last round token: the race is over."
    elif cap and after.turn >= cap:
        head = (
            f"The turn limit of {cap} turns is reached: the race is scored as if all round tokens were taken."
        )
    else:
        head = "The race is over."
    verb = "wins" if len(winners) == 1 else "share the win"
    return [head, f"{names} {verb} with {_why_won(after, winners, alive)}."]


def _why_won(st: CardboardState, winners: list[int], alive: list[int]) -> str:
    """The ranking's reason: most lives and round tokens, then most round tokens, then least stress."""
    best = winners[0]
    key = ranking_key(st, best)
    score = f"{plural(st.lives[best], 'life')} and {plural(st.tokens[best], 'round token')}"
    others = [ranking_key(st, p) for p in alive if p not in winners]
    if not others:
        return f"{score} each, tied on round tokens and stress"
    runner = max(others)
    if runner[0] != key[0]:
        return f"{score}, the most lives and round tokens together ({key[0]} against {runner[0]})"
    if runner[1] != key[1]:
        return (
            f"{score}: tied on lives and round tokens, the most round tokens ({key[1]} against {runner[1]})"
        )
    return f"{score}: tied on lives and round tokens, the least stress ({-key[2]} against {-runner[2]})"


def _stress_test(before: CardboardState, action: MachineAction, after: CardboardState) -> list[str]:
    """The stress test's start, once the move is over: the return of 1 stress, the dice to roll,
    or no dice at all."""
    p = before.mover
    if _crashed(before, after):
        return []
    name = who(after, p)
    if after.phase is RETURN_STRESS and before.phase is not RETURN_STRESS:
        return [f"{name} kept the gear and took no stress this turn, so {name} may return 1 stress first."]
    if after.phase is ROLL and before.phase is not ROLL:
        stress = after.stress[p]
        text = f"{name} rolls {plural(after.to_roll, 'stress die')}, one for each stress"
        if after.overflow:
            more = "each blank is rolled again" if not after.game.plus_one else "every die counts 1 more"
            text += f" (at most {MAX_DICE}; with {stress} stress, {more})"
        return [text + "."]
    ended_move = before.phase in (MOVE, RETURN_STRESS) and action.kind is not Kind.GHOST
    if ended_move and after.turn > before.turn:
        return [f"{name} has no stress, so no stress dice."]
    return []


# -- the spaces it changed -----------------------------------------------------------------


def changed_places(before: CardboardState, after: CardboardState) -> tuple[str, ...]:
    """The spaces whose cars or ghosts changed (a car's gear and stress included), and every
    space of a board that came in at the front, by their names in the picture after."""
    if not after.board_ids:
        return ()
    was, now = _marks(before), _marks(after)
    first = BOARD_SPACES * after.back
    new = (
        set(
            range(
                BOARD_SPACES * (before.back + len(before.board_ids)),
                first + BOARD_SPACES * len(after.board_ids),
            )
        )
        if before.board_ids
        else set()
    )
    changed = {s for s in was.keys() | now.keys() if was.get(s) != now.get(s)} | new
    return tuple(after.name(s) for s in sorted(changed) if after.on_table(s))


def _marks(st: CardboardState) -> dict[int, tuple[object, ...]]:
    """What the picture draws on each space that holds something: cars (with their gear and
    stress) and ghosts."""
    marks: dict[int, tuple[object, ...]] = {g: ("ghost",) for g in st.ghosts}
    for p, space in enumerate(st.pos):
        if space != OFF:
            marks[space] = (*marks.get(space, ()), p, st.gear[p], st.stress[p])
    return marks


# -- the legend ----------------------------------------------------------------------------


def legend(st: CardboardState) -> tuple[LegendSection, ...]:
    if not st.board_ids:
        return (_symbols(), _stress_dice(st))
    return (_cars(st), _race(st), _stress_dice(st), _symbols())


def _cars(st: CardboardState) -> LegendSection:
    entries = []
    for p in range(st.game.num_players):
        text = f"{who(st, p)}: "
        if st.lives[p] == 0:
            text += "out of the race"
        else:
            text += f"gear {st.gear[p]}, stress {st.stress[p]}, ♥ {st.lives[p]}"
            text += f", {plural(st.tokens[p], 'round token')}"
            text += ", crashed: to be put back" if st.pos[p] == OFF else f", on {st.name(st.pos[p])}"
        if p == words.acting(st) and st.result is None:
            text += " (to act)"
        entries.append(LegendEntry(text, colour=CAR_COLOURS[p]))
    return LegendSection("Cars", tuple(entries))


def _race(st: CardboardState) -> LegendSection:
    total = st.game.options["round_tokens"]
    entries = [
        LegendEntry(f"Round tokens left: {st.tokens_left} of {total}", symbol="◆"),
        LegendEntry(
            f"Lap {st.lap} (a new lap each time board {START_BOARD} comes back to the front)", symbol="↻"
        ),
        LegendEntry(f"Turn {st.turn + 1}", symbol="#"),
    ]
    if st.result is not None:
        winners = " and ".join(who(st, p) for p, share in enumerate(st.result) if share > 0)
        entries.append(LegendEntry(f"Winner: {winners}", symbol="★"))
    else:
        entries.append(LegendEntry(_now(st), symbol="▶"))
    return LegendSection("Race", tuple(entries))


def _now(st: CardboardState) -> str:
    """Who acts and at what point of the turn."""
    name = who(st, words.acting(st))
    if st.pending:
        return f"{name} puts the crashed car back"
    if st.ghost_pending:
        return f"{name} may place a ghost on the new board"
    doing = {
        MOVE: f"moves ({plural(st.moves_left, 'space')} to go)",
        BONUS: "makes the malfunction's move forward",
        RETURN_STRESS: "may return 1 stress",
        ROLL: f"rolls the stress dice ({st.to_roll + st.rerolls} to go)",
        RESOLVE: f"resolves the stress dice: {_dice_left(st)}",
    }
    return f"{name} {doing.get(st.phase, 'changes gear')}"


def _stress_dice(st: CardboardState) -> LegendSection:
    overflow = (
        "more than 6 stress: every die counts 1 more (a 6 stays a malfunction)"
        if st.game.plus_one
        else "more than 6 stress: blanks are rolled again, once"
    )
    entries = [
        LegendEntry("One die per stress after the move, at most 6", symbol="⚄"),
        LegendEntry("1 blank: the driver is in control", symbol="1"),
        LegendEntry("2-3 swerve left: one space left (past the outer lane: the wall, a crash)", symbol="2-3"),
        LegendEntry("4-5 swerve right: one space right", symbol="4-5"),
        LegendEntry("6 malfunction: 1 stress and one space forward; two malfunctions crash", symbol="6"),
        LegendEntry("A swerve left and a swerve right cancel", symbol="⇄"),
        LegendEntry(overflow, symbol="+"),
    ]
    if st.game.buy_off_swerve:
        entries.append(LegendEntry("With 6 or fewer stress, 1 stress cancels a swerve die", symbol="$"))
    return LegendSection("Stress dice", tuple(entries))


def _symbols() -> LegendSection:
    return LegendSection(
        "Track",
        (
            LegendEntry("Cars drive up the page; the front board is at the top", symbol="↑"),
            LegendEntry("On a car: its gear; on its red badge: its stress", symbol="3"),
            LegendEntry("Road", colour=ROAD),
            LegendEntry(
                "Terrain: ending a move here crashes; passing beside it with 3 spaces in front: 1 stress",
                colour=TERRAIN,
            ),
            LegendEntry("Ghost (a pale shape on a space): 1 stress to drive into", colour="#f2efe6"),
            LegendEntry(
                "Gray board with dark edges: its car may place a ghost as it comes in", colour="#c9c9c9"
            ),
            LegendEntry("Crashed cars go back on the third board from the back", symbol="↺"),
        ),
    )


# -- the list of choices and the rules -----------------------------------------------------

GROUPS = {
    Kind.GEAR: (0, "Gear"),
    Kind.MOVE: (0, "Move"),
    Kind.SCROLL: (0, "Move"),
    Kind.STOP: (1, "Stop early"),
    Kind.GHOST: (0, "Ghost"),
    Kind.PLACE: (0, "Put the crashed car back"),
    Kind.RETURN: (0, "Stress test"),
    Kind.KEEP: (0, "Stress test"),
    Kind.SWERVE: (0, "Stress dice"),
    Kind.MALFUNCTION: (0, "Stress dice"),
    Kind.BUYOFF: (1, "Buy off a swerve"),
}


def action_group(action: MachineAction) -> tuple[int, str]:
    assert isinstance(action, MachineAction)
    return GROUPS.get(action.kind, (0, ""))


SECTIONS = {
    Kind.FIRST: "Setup",
    Kind.BOARD: "Setup",
    Kind.GEAR: "Change gear",
    Kind.MOVE: "Move",
    Kind.STOP: "Move",
    Kind.SCROLL: "Off the front edge: the track scrolls",
    Kind.GHOST: "Ghosts",
    Kind.PLACE: "Crashing",
    Kind.RETURN: "Test for stress",
    Kind.KEEP: "Test for stress",
    Kind.ROLL: "The stress dice",
    Kind.SWERVE: "The stress dice",
    Kind.MALFUNCTION: "The stress dice",
    Kind.BUYOFF: "The stress dice",
}
"""The heading of rules.md each kind of action follows."""


def rules_section(st: CardboardState, action: MachineAction) -> str:
    assert isinstance(action, MachineAction)
    if action.kind is Kind.MOVE and st.phase is BONUS:
        return slug(SECTIONS[Kind.MALFUNCTION])
    return slug(SECTIONS[action.kind])
