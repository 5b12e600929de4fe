"""The state document: written from a position, and read back with every check the rules
rely on, so that an accepted document is a position the game can carry on from.

The shape and range of each field is the schema below (errors name the field); what the
rules need beyond that (the boards keep their order as they scroll, cars rest on free
spaces, each phase has what it needs) is checked after reading, and a position where
nobody could act is refused.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from chaosgames.core.document import Bool, Choice, Document, Int, List, Nullable, Number, Object, Tuple
from chaosgames.core.errors import InvalidStateError
from chaosgames.games.cardboard_machines.boards import (
    BOARD_IDS,
    BOARD_SPACES,
    LANES,
    SIDES,
    START_BOARD,
    START_SPACES,
    TABLE_BOARDS,
    TABLE_ROWS,
    WHITE,
    laid_boards,
)
from chaosgames.games.cardboard_machines.end_of_game import final_result
from chaosgames.games.cardboard_machines.phases import GHOST_SUPPLY, LEFT, MALF, OFF, RIGHT, Phase
from chaosgames.games.cardboard_machines.setup import DRAWN_BOARDS, START_INDEX, times_scrolled_away
from chaosgames.games.cardboard_machines.stress_test import MAX_DICE

if TYPE_CHECKING:
    from chaosgames.games.cardboard_machines.rules_in_force import MachinesRules
    from chaosgames.games.cardboard_machines.table import Table

T = TypeVar("T", bound="Table")
"""The game's own state type: `read` gives what the game's `new_initial_state` makes."""

PREFIX = "Impossible Cardboard Machines position: "
DICE = ("left", "right", "malfunction")
BOARD = Int(0, max(BOARD_IDS))


def write(st: Table) -> dict[str, Any]:
    """The position as a document (everything at the table is open: the observation too)."""
    return {
        "phase": st.phase.label,
        "first": st.first,
        "drawn": list(st.drawn),
        "back": st.back,
        "boards": [[b, s] for b, s in zip(st.board_ids, st.sides, strict=True)],
        "unused": list(st.unused),
        "cars": [
            {
                "pos": st.pos[p],
                "start_row": st.start_row[p],
                "gear": st.gear[p],
                "stress": st.stress[p],
                "lives": st.lives[p],
                "tokens": st.tokens[p],
            }
            for p in range(st.game.num_players)
        ],
        "ghosts": sorted(st.ghosts),
        "tokens_left": st.tokens_left,
        "lap": st.lap,
        "lap_claimed": st.lap_claimed,
        "mover": st.mover,
        "turn": st.turn,
        "moves_left": st.moves_left,
        "changed_gear": st.changed_gear,
        "stressed": st.stressed,
        "must_continue": st.must_continue,
        "overflow": st.overflow,
        "to_roll": st.to_roll,
        "rerolls": st.rerolls,
        "dice": {"left": st.dice[LEFT], "right": st.dice[RIGHT], "malfunction": st.dice[MALF]},
        "pending": list(st.pending),
        "ghost_pending": st.ghost_pending,
        "result": st.result,
    }


def schema(game: MachinesRules[Any, Any]) -> Document:
    """The shape and range of every field, for `game`'s players and round tokens."""
    n = game.num_players
    tokens = game.options["round_tokens"]
    car = Object(
        {
            "pos": Int(OFF),
            "start_row": Int(0, 1),
            "gear": Int(1, 6),
            "stress": Int(0),
            "lives": Int(0, 3),
            "tokens": Int(0, tokens),
        }
    )
    return Document(
        {
            "phase": Choice({phase.label: phase for phase in Phase}),
            "first": Int(-1, n - 1),
            "drawn": List(Int(1, max(BOARD_IDS)), max_length=DRAWN_BOARDS, unique=True),
            "back": Int(0),
            "boards": List(Tuple(BOARD, Int(0, 1)), length=(0, TABLE_BOARDS)),
            "unused": List(BOARD, max_length=len(BOARD_IDS)),
            "cars": List(car, length=n),
            "ghosts": List(Int(0), max_length=GHOST_SUPPLY, unique=True),
            "tokens_left": Int(0, tokens),
            "lap": Int(0),
            "lap_claimed": Bool(),
            "mover": Int(0, n - 1),
            "turn": Int(0),
            "moves_left": Int(0, 6),
            "changed_gear": Bool(),
            "stressed": Bool(),
            "must_continue": Bool(),
            "overflow": Bool(),
            "to_roll": Int(0, MAX_DICE),
            "rerolls": Int(0, MAX_DICE),
            "dice": Object({name: Int(0, MAX_DICE) for name in DICE}),
            "pending": List(Int(0, n - 1), unique=True),
            "ghost_pending": Bool(),
            "result": Nullable(List(Number(0, 1), length=n)),
        }
    )


def refuse(message: str) -> InvalidStateError:
    """The error for a document whose fields fit the schema but no game reaches."""
    return InvalidStateError(f"{PREFIX}{message}")


def read(game: MachinesRules[T, Any], doc: dict[str, Any]) -> T:
    """A state from its document, refusing positions the rules cannot carry on from."""
    fields = schema(game).read(doc, prefix=PREFIX)
    st = game.new_initial_state()
    _fill(st, fields)
    if st.phase in (Phase.FIRST, Phase.BOARDS):
        _check_setup(st)
        return st
    _check_track(st)
    _check_round_tokens(st)
    _check_places(st)
    if st.phase is Phase.OVER:
        _check_over(st)
    else:
        _check_turn(st)
        if not st.legal_actions():
            raise refuse(f"nobody can act in phase {st.phase.label}.")
    return st


def _fill(st: Table, fields: dict[str, Any]) -> None:
    st.phase = fields["phase"]
    st.first = fields["first"]
    st.drawn = fields["drawn"]
    st.back = fields["back"]
    st.board_ids = [b for b, _ in fields["boards"]]
    st.sides = [s for _, s in fields["boards"]]
    st.unused = fields["unused"]
    for p, car in enumerate(fields["cars"]):
        st.pos[p] = car["pos"]
        st.start_row[p] = car["start_row"]
        st.gear[p] = car["gear"]
        st.stress[p] = car["stress"]
        st.lives[p] = car["lives"]
        st.tokens[p] = car["tokens"]
    st.ghosts = set(fields["ghosts"])
    for name in (
        "tokens_left",
        "lap",
        "lap_claimed",
        "mover",
        "turn",
        "moves_left",
        "changed_gear",
        "stressed",
        "must_continue",
        "overflow",
        "to_roll",
        "rerolls",
        "pending",
        "ghost_pending",
        "result",
    ):
        setattr(st, name, fields[name])
    st.dice = [fields["dice"][name] for name in DICE]
    if len(set(st.board_ids)) != len(st.board_ids):
        raise refuse("a board cannot lie on the table twice.")
    st.retrack()


def _check_setup(st: Table) -> None:
    """Before the track is laid only the starting player and the boards drawn are known:
    every other field is as the game began."""
    if (st.first < 0) != (st.phase is Phase.FIRST):
        raise refuse("the starting player is known exactly when the first chance node is over.")
    if st.phase is Phase.FIRST and st.drawn:
        raise refuse("boards are drawn once the starting player is known.")
    if st.phase is Phase.BOARDS and len(st.drawn) >= DRAWN_BOARDS:
        raise refuse(f"setup draws {DRAWN_BOARDS} boards; the track is laid after the last one.")
    if st.phase is Phase.BOARDS and st.game.options["boards"] is not None:
        raise refuse("the boards option lays the track: no boards are drawn.")
    fresh = st.game.new_initial_state()
    fresh.phase, fresh.first, fresh.drawn = st.phase, st.first, st.drawn
    expected, found = write(fresh), write(st)
    for key, value in expected.items():
        if found[key] != value:
            raise refuse(f"during setup {key} must be {value!r}, not {found[key]!r}.")


def _laid(st: Table) -> tuple[list[int], list[int]]:
    """The boards as setup laid them, back to front, and the sides they showed."""
    given = st.game.options["boards"]
    if given is not None:
        if st.drawn:
            raise refuse("the boards option lays the track: no boards are drawn.")
        return laid_boards(given)
    if len(st.drawn) != DRAWN_BOARDS:
        raise refuse(f"setup draws {DRAWN_BOARDS} boards before the race, not {len(st.drawn)}.")
    return [st.drawn[0], START_BOARD, *st.drawn[1:]], [WHITE] * TABLE_BOARDS


def _check_track(st: Table) -> None:
    """The boards keep the cyclic order they were laid in, and each scroll flips the back
    board to the front: `back` fixes where every board lies, its side, and the lap."""
    if len(st.board_ids) != TABLE_BOARDS:
        raise refuse("once setup is over the table holds six boards.")
    if st.first < 0:
        raise refuse("once setup is over the starting player is known.")
    (laid, first_sides), back = _laid(st), st.back
    for place, board in enumerate(st.board_ids):
        at = (place + back) % TABLE_BOARDS
        if board != laid[at]:
            raise refuse(f"after {back} scrolls the boards {laid} cannot lie as {st.board_ids}.")
        if st.sides[place] != (first_sides[at] + times_scrolled_away(at, back)) % 2:
            raise refuse(f"after {back} scrolls board {board} shows its other side.")
    if st.unused != [b for b in BOARD_IDS if b not in laid]:
        raise refuse("the unused boards are the three not on the table, in order.")
    laps = times_scrolled_away(START_INDEX, back)
    if st.lap != laps:
        raise refuse(f"after {back} scrolls board 0 has come back to the front {laps} times, not {st.lap}.")


def _check_round_tokens(st: Table) -> None:
    """At most one token a lap, none before the first lap; the last one ends the game."""
    claimed = sum(st.tokens)
    if claimed + st.tokens_left != st.game.options["round_tokens"]:
        raise refuse("claimed and unclaimed round tokens must add up to the round_tokens option.")
    if st.lap_claimed and (st.lap == 0 or claimed == 0):
        raise refuse("a lap's token can only be claimed once board 0 has come to the front.")
    if claimed > max(st.lap - 1, 0) + st.lap_claimed:
        raise refuse(f"{claimed} round tokens cannot be claimed in {st.lap} laps.")


def _check_places(st: Table) -> None:
    """Cars and ghosts on the six boards; a car rests alone and outside terrain (only the
    mover passes through, or stands where the last round token ended the game)."""
    base = BOARD_SPACES * st.back
    for g in st.ghosts:
        if not base <= g < base + TABLE_ROWS * LANES:
            raise refuse(f"ghost {g} is not on one of the six boards on the table.")
    resting: set[int] = set()
    for p, space in enumerate(st.pos):
        if st.start_row[p] != START_SPACES[(p - st.first) % st.game.num_players + 1][1]:
            raise refuse(f"player {p + 1}'s starting row does not match the starting player.")
        if space == OFF:
            if st.lives[p] > 0 and p not in st.pending and st.phase is not Phase.OVER:
                raise refuse(f"player {p + 1}'s car is off the track but she is not placing it.")
            continue
        if st.lives[p] == 0:
            raise refuse(f"player {p + 1} has no life left and cannot have a car on the track.")
        if not base <= space < base + TABLE_ROWS * LANES:
            raise refuse(f"player {p + 1}'s car at {space} is not on one of the six boards on the table.")
        if p == st.mover and st.phase in (Phase.MOVE, Phase.OVER):
            continue
        if space in resting:
            raise refuse("two cars cannot stand on the same space at rest.")
        resting.add(space)
        if st.terrain_at(space):
            raise refuse(f"player {p + 1}'s car cannot stand in terrain.")
    for p in st.pending:
        if st.pos[p] != OFF or st.lives[p] == 0:
            raise refuse("only crashed players with lives left wait to place their car.")


def _check_over(st: Table) -> None:
    """A finished game's result is what the lives, round tokens and stress give."""
    if not st.alive():
        raise refuse("the last player in the race cannot have lost her last life.")
    if st.pending or st.ghost_pending:
        raise refuse("nothing is placed once the game is over.")
    if st.result is None or st.result != final_result(st):
        raise refuse("a finished game's result is what the lives, round tokens and stress give.")


def _check_turn(st: Table) -> None:
    """What the phase of a game in progress needs, as the rules reach it."""
    phase, p = st.phase, st.mover
    cap = st.game.options["max_turns"]
    if st.result is not None:
        raise refuse("a game in progress has no result.")
    if len(st.alive()) < 2:
        raise refuse("the game is over once only one player is left in the race.")
    if st.tokens_left == 0:
        raise refuse("the game is over once the last round token is claimed.")
    if cap and st.turn >= cap:
        raise refuse(f"the game is over after {cap} turns (max_turns).")
    if st.lives[p] == 0:
        raise refuse("a player out of the race cannot be the one taking a turn.")
    if phase is not Phase.TURN_OVER and st.pos[p] == OFF:
        raise refuse("the player taking her turn must have her car on the track.")
    if st.pending and phase not in (Phase.MOVE, Phase.BONUS, Phase.RESOLVE, Phase.TURN_OVER):
        raise refuse("crashed cars wait to be placed only after a scroll or a crash.")
    if phase is Phase.TURN_OVER and not st.pending:
        raise refuse("a finished turn waits only for crashed cars to be placed.")
    if st.ghost_pending and (
        phase not in (Phase.MOVE, Phase.BONUS) or not SIDES[st.board_ids[-1]][st.sides[-1]].dark_edges
    ):
        raise refuse("a ghost is placed only while a car moves onto a new board with dark edges.")
    if st.must_continue and (phase is not Phase.MOVE or st.table_row(st.pos[p]) != TABLE_ROWS - 3):
        raise refuse("only a move that just drove off the front edge must continue.")
    if phase is Phase.MOVE and (st.pending or st.ghost_pending) and not st.must_continue:
        raise refuse("crashed cars and ghosts wait only right after a scroll.")
    _check_move(st)
    _check_dice(st)


def _check_move(st: Table) -> None:
    phase, p = st.phase, st.mover
    if phase is Phase.GEAR and (st.moves_left or st.changed_gear or st.stressed or st.overflow):
        raise refuse("a turn that has not changed gear yet has moved nothing.")
    if phase is Phase.MOVE and not 1 <= st.moves_left <= st.gear[p]:
        raise refuse("a move in progress has between 1 and its gear's points left.")
    if phase is not Phase.MOVE and st.moves_left:
        raise refuse("movement points are left only during the move.")
    if phase is Phase.RETURN_STRESS and (st.changed_gear or st.stressed or st.stress[p] == 0):
        raise refuse("stress is returned only by a player with stress who kept her gear and took none.")
    if phase is Phase.BONUS and st.table_row(st.pos[p]) == TABLE_ROWS - 1:
        raise refuse("a bonus move from the front row comes after the track scrolls.")


def _check_dice(st: Table) -> None:
    """Dice are rolled one by one (blanks rerolled once with more than 6 stress); those
    left to resolve have lost blanks and left/right pairs."""
    phase, dice = st.phase, st.dice
    if phase in (Phase.GEAR, Phase.MOVE, Phase.RETURN_STRESS) and (st.overflow or any(dice)):
        raise refuse("the stress dice are rolled after the move.")
    if phase is not Phase.ROLL and (st.to_roll or st.rerolls):
        raise refuse("dice are left to roll only while rolling.")
    if phase is Phase.ROLL:
        stress = st.stress[st.mover]
        rolled = min(stress, MAX_DICE) - st.to_roll
        rerolling = st.overflow and st.game.options["stress_overflow"] == "reroll_blanks"
        if st.overflow != (stress > MAX_DICE) or rolled < 0 or st.to_roll + st.rerolls < 1:
            raise refuse("a roll in progress has a die per stress (at most 6) and one left to roll.")
        if (st.rerolls and not rerolling) or sum(dice) + st.rerolls > rolled:
            raise refuse("dice rolled and blanks to reroll cannot outnumber the dice thrown.")
    if phase in (Phase.RESOLVE, Phase.BONUS) and (min(dice[LEFT], dice[RIGHT]) > 0 or dice[MALF] > 1):
        raise refuse("dice left to resolve have no left/right pair and at most one malfunction.")
    if phase is Phase.RESOLVE and sum(dice) < 1:
        raise refuse("resolving the stress test needs a die left.")
