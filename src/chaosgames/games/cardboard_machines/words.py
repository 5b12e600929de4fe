"""The game's words for what stands on the table: boards, spaces, cars, ghosts and the stress
dice, shared by the picture's titles (svg.py) and the story and legend (story.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chaosgames.games.cardboard_machines.boards import (
    LANES,
    SIDE_NAMES,
    SIDES,
    START_BOARD,
    START_SPACES,
    WHITE,
)
from chaosgames.games.cardboard_machines.crashing import RESTART_BOARD
from chaosgames.games.cardboard_machines.phases import LEFT, MALF, OFF, RIGHT
from chaosgames.games.cardboard_machines.stress_test import BLANK, FACES, MAX_DICE

if TYPE_CHECKING:
    from chaosgames.games.cardboard_machines.table import Table

FACE_NAMES = {BLANK: "blank", LEFT: "swerve left", RIGHT: "swerve right", MALF: "malfunction"}
"""What a stress die's face is called, by its kind (stress_test.FACES)."""
DIE_NAMES = {LEFT: "a swerve left", RIGHT: "a swerve right", MALF: "a malfunction"}


def face_name(face: int) -> str:
    """'4' -> 'swerve right' (the revision's faces: 1 blank, 2-3 left, 4-5 right, 6 malfunction)."""
    return FACE_NAMES[FACES[face - 1]]


def plural(count: int, thing: str) -> str:
    """'1 stress die', '2 stress dice', '1 life', '2 lives', '1 round token', ..."""
    if count == 1 or thing == "stress":
        return f"{count} {thing}"
    irregular = {"life": "lives", "stress die": "stress dice", "die": "dice", "space": "spaces"}
    return f"{count} {irregular.get(thing, thing + 's')}"


def acting(st: Table) -> int:
    """Who acts now: the deciding player, or at a chance node the player taking her turn."""
    player = st.current_player()
    return player if player >= 0 else st.mover


def who(st: Table, player: int) -> str:
    return st.game.player_names()[player]


def car_state(st: Table, player: int) -> str:
    """'gear 3, stress 2', 'crashed: to be put back', 'out of the race'."""
    if st.lives[player] == 0:
        return "out of the race"
    state = f"gear {st.gear[player]}, stress {st.stress[player]}"
    if st.pos[player] == OFF and st.board_ids:
        state += ", crashed: to be put back"
    return state


def car_title(st: Table, player: int) -> str:
    """What a car is and what its numbers mean, for its title."""
    name = who(st, player)
    stress = st.stress[player]
    dice = min(stress, MAX_DICE)
    parts = [
        f"{name}'s car on {st.name(st.pos[player])}: gear {st.gear[player]} (moves up to "
        f"{plural(st.gear[player], 'space')})",
        f"stress {stress} ({plural(dice, 'stress die')} after the move)",
        f"♥ {plural(st.lives[player], 'life')}",
        plural(st.tokens[player], "round token"),
    ]
    text = ", ".join(parts) + "."
    if player == st.mover and st.result is None:
        text += f" It is {name}'s turn."
    return text


def board_title(st: Table, b: int) -> str:
    """Board `b` from the back: its number, side, shift and what its place on the table means."""
    board, side = st.board_ids[b], st.sides[b]
    face = SIDES[board][side]
    text = f"Board {board}, {SIDE_NAMES[side]} side up"
    if face.dark_edges:
        text += " (dark edges)"
    if face.offset:
        text += f", shifted half a space {'right' if face.offset > 0 else 'left'}"
    text += f": rows {2 * b + 1}-{2 * b + 2}."
    if b == 0:
        text += " The back board: at the next scroll it leaves, and a car on it crashes."
    elif b == RESTART_BOARD:
        text += " The third board from the back: crashed cars are put back on its edge spaces."
    elif b == len(st.board_ids) - 1:
        text += " The front board: a car driving off its front row scrolls the track."
    if board == START_BOARD:
        text += " The starting board: each time it comes back to the front a new lap begins."
    return text


def space_title(st: Table, space: int) -> str:
    """'space 5a on board 7 (white side): terrain (a car ending its move here crashes).' and
    what stands on it."""
    row = space // LANES
    b = row // 2 - st.back
    board, side = st.board_ids[b], st.sides[b]
    face = SIDES[board][side]
    terrain = face.terrain[(row % 2) * LANES + space % LANES]
    text = f"space {st.name(space)} on board {board} ({SIDE_NAMES[side]} side): "
    text += "terrain (a car ending its move here crashes)" if terrain else "road"
    text += "".join(f"; {extra}" for extra in _on_space(st, space, board, side))
    return text + "."


def _on_space(st: Table, space: int, board: int, side: int) -> list[str]:
    extras = []
    if board == START_BOARD:
        local = (space // LANES % 2, space % LANES)
        if side == WHITE:
            extras += [f"starting space {n}" for n, (c, r) in START_SPACES.items() if (r, c) == local]
        owners = [who(st, p) for p in range(st.game.num_players) if st.start_row[p] == local[0]]
        if owners and st.lap:
            extras.append(f"the starting row of {' and '.join(owners)} (a round token each lap)")
    car = st.car_at(space, -1)
    if car >= 0:
        extras.append(f"{who(st, car)}'s car (gear {st.gear[car]}, stress {st.stress[car]})")
    if space in st.ghosts:
        extras.append("a ghost (1 stress to drive into)")
    return extras


def ghost_title(st: Table, space: int) -> str:
    return f"A ghost on {st.name(space)}: a car driving into it takes 1 stress."
