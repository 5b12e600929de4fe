"""Text rendering of the table (front board at the top) and short action descriptions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chaosgames.games.cardboard_machines.actions import COLUMN_LETTERS, NO_GHOST, Kind, MachineAction
from chaosgames.games.cardboard_machines.boards import LANES, SIDE_NAMES, SIDES, TABLE_BOARDS
from chaosgames.games.cardboard_machines.phases import LEFT, MALF, OFF, RIGHT, Phase
from chaosgames.games.cardboard_machines.stress_test import face_kind
from chaosgames.games.cardboard_machines.words import FACE_NAMES

if TYPE_CHECKING:
    from chaosgames.games.cardboard_machines.table import Table


def _cell(st: Table, space: int) -> str:
    car = st.car_at(space, -1)
    ghost = space in st.ghosts
    if car >= 0:
        return f"[{car + 1}{'g' if ghost else ' '}]"
    if ghost:
        return "[gg]"
    if st.terrain_at(space):
        return "[##]"
    return "[  ]"


def render_track(st: Table) -> list[str]:
    lines = ["        " + "   ".join(COLUMN_LETTERS) + "   (driving up; lanes of a board without offset)"]
    for b in reversed(range(TABLE_BOARDS)):
        board, side = st.board_ids[b], st.sides[b]
        offset = SIDES[board][side].offset
        dark = " dark edges" if SIDES[board][side].dark_edges else ""
        for r in (1, 0):
            row = 2 * (st.back + b) + r
            cells = "".join(_cell(st, row * LANES + c) for c in range(LANES))
            lines.append(f"{row - 2 * st.back + 1:>3} |" + " " * (2 * (offset + 1)) + cells)
        lines.append(f"    +-- board {board} {SIDE_NAMES[side]}{dark}, offset {offset:+d}")
    return lines


def render_text(st: Table) -> str:
    if not st.board_ids:
        return f"Cardboard Machines, setting up (starting player: {st.first + 1 if st.first >= 0 else '?'})"
    names = st.game.player_names()
    lines = render_track(st)
    lines.append(
        f"lap {st.lap}, round tokens left {st.tokens_left}, ghosts {len(st.ghosts)}, turn {st.turn + 1}, "
        f"unused boards {st.unused}"
    )
    for p, who in enumerate(names):
        where = (
            "out"
            if st.lives[p] == 0
            else ("waiting to be placed" if st.pos[p] == OFF else st.name(st.pos[p]))
        )
        mark = ">" if p == st.current_player() else " "
        lines.append(
            f"{mark} {p + 1} {who}: gear {st.gear[p]}, stress {st.stress[p]}, lives {st.lives[p]}, "
            f"round tokens {st.tokens[p]}, at {where}"
        )
    phase = st.phase
    extra = ""
    if phase is Phase.MOVE:
        extra = f", {st.moves_left} to move"
    if phase in (Phase.ROLL, Phase.RESOLVE, Phase.BONUS):
        extra = f", dice left {st.dice[LEFT]} right {st.dice[RIGHT]} malfunction {st.dice[MALF]}"
    if st.result is not None:
        lines.append("game over: " + ", ".join(f"{names[p]} {r:g}" for p, r in enumerate(st.result)))
    else:
        lines.append(f"{names[st.mover]} to act, phase {phase.label}{extra}")
    return "\n".join(lines)


def _face(st: Table, face: int) -> str:
    """What a stress die's face means on this roll (the revision's +1 with more than 6 stress)."""
    if not 1 <= face <= 6:
        return "no face"
    return FACE_NAMES[face_kind(face, st.overflow and st.game.plus_one)]


def describe(st: Table, action: MachineAction) -> str:
    assert isinstance(action, MachineAction)
    kind, arg = action.kind, action.arg
    if kind is Kind.FIRST:
        return f"{st.game.player_names()[arg]} starts"
    if kind is Kind.MOVE:
        return f"move to the space in front, {action.argument()}"
    if kind is Kind.SWERVE:
        return f"swerve one space {action.argument()}"
    if kind is Kind.BUYOFF:
        return f"take 1 stress to cancel a {action.argument()} swerve"
    if kind is Kind.GHOST:
        return "place no ghost" if arg == NO_GHOST else f"place a ghost on {action.argument()}"
    if kind is Kind.PLACE:
        return f"put the crashed car on {action.argument()}"
    texts = {
        Kind.BOARD: f"board {arg} is drawn",
        Kind.GEAR: f"change to gear {arg}",
        Kind.SCROLL: "drive off the front edge: the back board is flipped and added in front",
        Kind.STOP: "stop here (1 stress per space not moved)",
        Kind.RETURN: "return 1 stress before the stress test",
        Kind.KEEP: "keep all stress",
        Kind.ROLL: f"a stress die shows {arg} ({_face(st, arg)})",
        Kind.MALFUNCTION: "malfunction: 1 stress and one space forward",
    }
    return texts.get(kind, str(action))
