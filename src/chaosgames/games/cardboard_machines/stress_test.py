"""Testing for stress: return 1 stress, roll the stress dice, then swerves and malfunctions
(with their bonus move forward) in the order the player chooses."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chaosgames.games.cardboard_machines import crashing, movement
from chaosgames.games.cardboard_machines.actions import BUYOFFS, MALFUNCTION, STEPS, SWERVES, MachineAction
from chaosgames.games.cardboard_machines.boards import BOARD_SPACES, LANES
from chaosgames.games.cardboard_machines.phases import (
    BONUS,
    LEFT,
    MALF,
    OVER,
    RESOLVE,
    RETURN_STRESS,
    RIGHT,
    ROLL,
    TURN_OVER,
)

if TYPE_CHECKING:
    from chaosgames.games.cardboard_machines.table import Table

MAX_DICE = 6
BLANK = -1
FACES = (BLANK, LEFT, LEFT, RIGHT, RIGHT, MALF)
"""The revision's faces, for die faces 1-6: 1 blank, 2-3 left, 4-5 right, 6 malfunction."""


def face_kind(face: int, plus_one: bool) -> int:
    """What a die face means; under the revision's '+1' a 6 stays a malfunction (7 is off
    the top of the scale, and malfunction is the top)."""
    if plus_one:
        face = min(face + 1, 6)
    return FACES[face - 1]


def begin(st: Table) -> None:
    """'If a player did not change gear this turn, and did not incur any stress during her
    move, she may return 1 Stress'; then the dice."""
    if not st.changed_gear and not st.stressed and st.stress[st.mover] > 0:
        st.phase = RETURN_STRESS
    else:
        start_roll(st)


def give_back(st: Table, _: int = 0) -> None:
    """`return`: 'she may return 1 Stress to the supply'."""
    st.stress[st.mover] -= 1
    start_roll(st)


def keep(st: Table, _: int = 0) -> None:
    """`keep`: a decision, since keeping stress can be wanted."""
    start_roll(st)


def start_roll(st: Table) -> None:
    """One die per stress token, at most six; no stress, no dice, and the turn ends."""
    stress = st.stress[st.mover]
    if stress == 0:
        st.phase = TURN_OVER
        return
    st.overflow = stress > MAX_DICE
    st.to_roll = stress if stress < MAX_DICE else MAX_DICE
    st.rerolls = 0
    st.dice = [0, 0, 0]
    st.phase = ROLL


def roll(st: Table, face: int) -> None:
    """One die lands. With more than 6 stress, the rulebook rerolls every blank once; the
    revision (stress_overflow=plus_one) adds 1 to every die instead."""
    overflow = st.overflow
    plus_one = st.game.plus_one
    kind = FACES[min(face + 1, 6) - 1] if overflow and plus_one else FACES[face - 1]  # face_kind, inlined
    if st.to_roll > 0:
        st.to_roll -= 1
        if kind == BLANK and overflow and not plus_one:
            st.rerolls += 1  # this die is rolled again (once) before anything is evaluated
    else:
        st.rerolls -= 1
    if kind != BLANK:
        st.dice[kind] += 1
    if st.to_roll == 0 and st.rerolls == 0:
        finish_roll(st)


def finish_roll(st: Table) -> None:
    """Two malfunctions crash at once; blanks go, left/right pairs cancel."""
    dice = st.dice
    if dice[MALF] >= 2:
        crashing.crash_mover(st, st.pos[st.mover])
        return
    left, right = dice[LEFT], dice[RIGHT]
    pairs = left if left < right else right
    dice[LEFT] -= pairs
    dice[RIGHT] -= pairs
    after_bonus(st)


def after_bonus(st: Table) -> None:
    st.phase = RESOLVE if sum(st.dice) else TURN_OVER


def resolve_options(st: Table) -> list[MachineAction]:
    """Which remaining die to evaluate next; buy-offs when the option allows them."""
    options: list[MachineAction] = []
    dice = st.dice
    if dice[LEFT]:
        options.append(SWERVES[LEFT])
    if dice[RIGHT]:
        options.append(SWERVES[RIGHT])
    if dice[MALF]:
        options.append(MALFUNCTION)
    if st.game.buy_off_swerve and st.stress[st.mover] <= MAX_DICE:
        if dice[LEFT]:
            options.append(BUYOFFS[LEFT])
        if dice[RIGHT]:
            options.append(BUYOFFS[RIGHT])
    return options


def swerve(st: Table, side: int) -> None:
    """One space sideways; past the outer space is the wall (a crash, the ghost left on the
    last space); onto a car the swerve cannot end, so it does not happen."""
    st.dice[side] -= 1
    p = st.mover
    here = st.pos[p]
    col = here % LANES + (-1 if side == LEFT else 1)
    if not 0 <= col < LANES:
        crashing.crash_mover(st, here)
        return
    there = here - here % LANES + col
    if st.car_at(there, p) < 0:
        if there in st.ghosts:
            st.add_stress(p, 1)
        st.pos[p] = there
        if st.terrain_at(there):
            crashing.crash_mover(st, there)
            return
    after_bonus(st)


def malfunction(st: Table) -> None:
    """1 stress and one space forward (the player picks which space in front)."""
    st.dice[MALF] -= 1
    p = st.mover
    st.add_stress(p, 1)
    if st.pos[p] // LANES == st.front_row():
        movement.scroll(st)
        if st.phase is OVER:
            return
    if bonus_targets(st):
        st.phase = BONUS
    else:
        after_bonus(st)


def bonus_targets(st: Table) -> list[tuple[int, int]]:
    """(direction, space) of the spaces in front a one-space move may end on (never
    another car's): 'All normal rules for movement applies to these bonus movements'."""
    pos = st.pos
    here = pos[st.mover]
    return [
        (d, here + delta)
        for d, delta in st.track.ahead[here - BOARD_SPACES * st.back]
        if here + delta not in pos
    ]


def bonus_options(st: Table) -> list[MachineAction]:
    return [STEPS[d] for d, _ in bonus_targets(st)]


def bonus_step(st: Table, direction: int) -> None:
    space = next(t for d, t in bonus_targets(st) if d == direction)
    movement.enter(st, direction, space)
    if st.phase is OVER:
        return
    if st.terrain_at(space):
        crashing.crash_mover(st, space)
        return
    after_bonus(st)


def buy_off(st: Table, side: int) -> None:
    """Revision option: 1 stress cancels one remaining swerve die."""
    st.add_stress(st.mover, 1)
    st.dice[side] -= 1
    after_bonus(st)
