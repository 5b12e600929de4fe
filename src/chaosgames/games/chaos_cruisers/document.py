"""State documents: the fields of `to_json()`, and reading them back.

The reader makes every check the rules rely on, so an accepted document is a position the
rules can carry on from: first the shape and range of every field (the schema below, whose
errors name the field), then how the fields fit together (the course, where cruisers stand,
the race progress chart, and the turn structure of setup, cruising and chaos rounds).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import pairwise
from typing import Any

from chaosgames.core.document import (
    Bool,
    Check,
    Choice,
    Document,
    Int,
    Key,
    List,
    Nullable,
    Object,
    Str,
    Tuple,
    render_path,
)
from chaosgames.core.errors import InvalidStateError
from chaosgames.core.grid import Square, connected
from chaosgames.games.chaos_cruisers.actions import COLOURS
from chaosgames.games.chaos_cruisers.chaos_round import lay_spots
from chaosgames.games.chaos_cruisers.course import MAX_TILES, Tile, tile_of, tile_squares
from chaosgames.games.chaos_cruisers.movement import MAX_SPEED, SPEED_COINS
from chaosgames.games.chaos_cruisers.rules_in_force import CruisersRules
from chaosgames.games.chaos_cruisers.state import ChaosCruisersState, OrderFor, Phase

PREFIX = "Impossible Chaos Cruisers position: "
COORDINATE = Int(-(10**6), 10**6)
PAIR = Tuple(COORDINATE, COORDINATE)
"""A square [x, y], or a tile [tx, ty]."""
CLOCK = Int(0, 10**9)


def state_document(state: ChaosCruisersState) -> dict[str, Any]:
    game = state.game
    cruisers = []
    for c in range(game.num_cruisers):
        p = state.pos[c]
        cruisers.append(
            {
                "colour": COLOURS[c],
                "player": game.owner[c],
                "square": None if p is None else list(p),
                "speed": state.speed[c],
                "gates_reached": state.progress[c],
                "reached_at": list(state.reached[c]),
                "speed_coins": [v for v in SPEED_COINS if state.coins[c] >> v & 1],
                "obstacles_in_hand": state.in_hand[c],
                "out_this_round": state.out_this_round[c],
            }
        )
    return {
        "phase": str(state.phase),
        "round": state.round,
        "tiles": [list(t) for t in sorted(state.tiles)],
        "obstacles": [[s[0], s[1], COLOURS[c]] for s, c in sorted(state.obstacles.items())],
        "cruisers": cruisers,
        "order": [COLOURS[c] for c in state.order],
        "ties": [[COLOURS[c] for c in group] for group in state.ties],
        "order_for": str(state.order_for),
        "turn": state.turn,
        "reentering": _colour_or_none(state.reentering),
        "relocator": _colour_or_none(state.relocator),
        "tiles_left": state.tiles_left,
        "lifted": None if state.lifted is None else list(state.lifted),
        "moved_tiles": [list(t) for t in sorted(state.moved)],
        "obstacle_pass": state.obstacle_pass,
        "chaos_row": state.chaos_row,
        "clock": state.clock,
        "winner": state.winner if state.winner >= 0 else None,
        "capped": state.capped,
        "chart": list(game.chart),
    }


def _colour_or_none(cruiser: int) -> str | None:
    return COLOURS[cruiser] if cruiser >= 0 else None


def _some_speed_coins(coins: list[int]) -> bool:
    return len(set(coins)) == len(coins) and set(coins) <= set(SPEED_COINS)


@cache
def schema(cruisers: int, players: int, rows: int, tiles_moved: int, max_rounds: int) -> Document:
    """The shape and range of every field, for a game with these numbers."""
    colour = Choice({name: c for c, name in enumerate(COLOURS[:cruisers])})
    cruiser = Object(
        {
            "colour": colour,
            "player": Int(0, players - 1),
            "square": Nullable(PAIR),
            "speed": Int(0, MAX_SPEED),
            "gates_reached": Int(0, rows),
            "reached_at": List(CLOCK, length=rows),
            "speed_coins": Check(
                List(Int()), _some_speed_coins, "must list some of the speed coins 2, 3, 4 and 5, each once"
            ),
            "obstacles_in_hand": Int(0, 2),
            "out_this_round": Bool(),
        }
    )
    return Document(
        {
            "phase": Choice({p.value: p for p in Phase}),
            "round": Int(0, max_rounds or 10**9),
            "tiles": List(PAIR, max_length=MAX_TILES),
            "obstacles": List(Tuple(COORDINATE, COORDINATE, colour), max_length=2 * cruisers),
            "cruisers": Check(
                List(cruiser), lambda found: len(found) == cruisers, f"must list the {cruisers} cruisers"
            ),
            "order": List(colour, max_length=cruisers),
            "ties": List(List(colour, max_length=cruisers), max_length=cruisers),
            "order_for": Choice({o.value: o for o in OrderFor}),
            "turn": Int(0, cruisers),
            "reentering": Nullable(colour),
            "relocator": Nullable(colour),
            "tiles_left": Int(0, tiles_moved),
            "lifted": Nullable(PAIR),
            "moved_tiles": List(PAIR, max_length=tiles_moved),
            "obstacle_pass": Int(0, 2),
            "chaos_row": Int(-1, rows - 1),
            "clock": CLOCK,
            "winner": Nullable(Int(0, players - 1)),
            "capped": Bool(),
            "chart": List(Str(), max_length=rows),
        }
    )


def _fail(path: Sequence[Key], message: str) -> InvalidStateError:
    return InvalidStateError(f"{PREFIX}{render_path(path)}: {message}")


def state_from_document(game: CruisersRules[Any, Any], doc: dict[str, Any]) -> ChaosCruisersState:
    options = game.options
    rows = len(game.chart)
    spec = schema(game.num_cruisers, game.num_players, rows, options["tiles_moved"], options["max_rounds"])
    fields = spec.read(doc, prefix=PREFIX)
    if tuple(fields["chart"]) != game.chart:
        raise _fail(["chart"], f"the race progress chart of these options is {', '.join(game.chart)}.")
    state = ChaosCruisersState(game)
    state.phase = fields["phase"]
    state.round = fields["round"]
    _read_course(state, fields)
    seen: set[Square] = set()
    for c, cruiser in enumerate(fields["cruisers"]):
        _read_cruiser(state, c, cruiser, seen)
    _read_order(state, fields)
    state.reentering = _index_or_none(fields["reentering"])
    state.relocator = _index_or_none(fields["relocator"])
    state.tiles_left = fields["tiles_left"]
    _read_moved_tiles(state, fields["moved_tiles"])
    state.obstacle_pass = fields["obstacle_pass"]
    state.chaos_row = fields["chaos_row"]
    state.clock = fields["clock"]
    state.winner = _index_or_none(fields["winner"])
    state.capped = fields["capped"]
    if state.capped and not options["max_rounds"]:
        raise _fail(["capped"], "true only with a max_rounds cap.")
    _check_race(state)
    _check_phase(state)
    _check_rounds(state)
    return state


def _index_or_none(value: int | None) -> int:
    return -1 if value is None else value


def _read_course(state: ChaosCruisersState, fields: dict[str, Any]) -> None:
    """Tiles, the tile held up in step 3, and obstacles (which never cut the course:
    obstacle rule D, and tiles only move once the obstacles are off)."""
    game = state.game
    tiles: set[Tile] = set(fields["tiles"])
    if len(tiles) != len(fields["tiles"]):
        raise _fail(["tiles"], "two tiles overlap.")
    if not game.gate_tiles <= tiles:
        raise _fail(["tiles"], "a gate tile is missing from the course.")
    lifted: Tile | None = fields["lifted"]
    if (lifted is not None) != (state.phase == Phase.LAY) or lifted in tiles:
        raise _fail(["lifted"], "a tile is held up off the course exactly while it is being laid down.")
    expected = len(game.start_tiles) - (1 if lifted is not None else 0)
    if len(tiles) != expected or (lifted is None and not connected(tiles)):
        raise _fail(["tiles"], f"the course must be {expected} connected tiles.")
    # Rule C: a tile in the hand may have split the course, if laying it can join it again.
    if lifted is not None and not (connected(tiles | {lifted}) and lay_spots(frozenset(tiles), lifted)):
        raise _fail(
            ["lifted"],
            "the course must be connected with the lifted tile in its place, and a lay must join it.",
        )
    state.tiles = frozenset(tiles)
    state.lifted = lifted
    course = state.course()
    obstacles: dict[Square, int] = {}
    for i, (x, y, owner) in enumerate(fields["obstacles"]):
        square = (x, y)
        if square not in course or tile_of(square) in game.gate_tiles or square in obstacles:
            raise _fail(["obstacles", i], f"an obstacle cannot stand on [{x}, {y}].")
        obstacles[square] = owner
    covered = {tile_of(s) for s in obstacles if all(q in obstacles for q in tile_squares(tile_of(s)))}
    if covered or not (lifted is not None or connected(set(course - obstacles.keys()))):
        raise _fail(["obstacles"], "obstacles may not cut the course or cover a whole tile.")
    state.obstacles = obstacles


def _read_cruiser(state: ChaosCruisersState, c: int, fields: dict[str, Any], seen: set[Square]) -> None:
    game = state.game
    name = COLOURS[c]
    path: list[Key] = ["cruisers", c]
    if fields["colour"] != c or fields["player"] != game.owner[c]:
        raise _fail(path, f"cruiser {c + 1} must be the {name} cruiser of player {game.owner[c]}.")
    square: Square | None = fields["square"]
    if square is not None:
        if square not in state.course() or square in state.obstacles or square in seen:
            raise _fail([*path, "square"], f"the {name} cruiser cannot stand on {list(square)}.")
        seen.add(square)
    state.pos[c] = square
    state.speed[c] = fields["speed"]
    state.progress[c] = fields["gates_reached"]
    state.reached[c] = tuple(fields["reached_at"])
    if any((r > 0) != (row < state.progress[c]) for row, r in enumerate(state.reached[c])):
        raise _fail(
            [*path, "reached_at"], f"the {name} reached_at must be set exactly for the gates reached."
        )
    state.coins[c] = sum(1 << v for v in fields["speed_coins"])
    state.in_hand[c] = fields["obstacles_in_hand"]
    if state.in_hand[c] + sum(1 for owner in state.obstacles.values() if owner == c) != 2:
        raise _fail(
            [*path, "obstacles_in_hand"],
            f"the {name} player has two obstacle coins, in hand or on the course.",
        )
    state.out_this_round[c] = fields["out_this_round"]


def _read_order(state: ChaosCruisersState, fields: dict[str, Any]) -> None:
    state.ties = tuple(tuple(group) for group in fields["ties"])
    state.order = tuple(fields["order"])
    named = [*state.order, *(c for g in state.ties for c in g)]
    if len(set(named)) != len(named) or any(not g for g in state.ties):
        raise _fail(["order"], "the playing order names a cruiser twice or holds an empty tie.")
    if state.ties and len(state.ties[0]) < 2:
        raise _fail(["ties", 0], "a tie for the next place needs at least two cruisers.")
    state.order_for = fields["order_for"]
    state.turn = fields["turn"]


def _read_moved_tiles(state: ChaosCruisersState, moved_tiles: list[Tile]) -> None:
    """The tiles laid in this chaos round's step 3: as many as tiles_moved - tiles_left,
    each on the course."""
    moved = frozenset(moved_tiles)
    relocating = state.phase in (Phase.LIFT, Phase.LAY)
    count = state.game.options["tiles_moved"] - state.tiles_left if relocating else 0
    if len(moved) != len(moved_tiles) or len(moved) != count or not moved <= state.tiles:
        raise _fail(
            ["moved_tiles"], f"moved_tiles must name the {count} tiles laid so far in this chaos round."
        )
    state.moved = moved


def _check_race(state: ChaosCruisersState) -> None:
    """Gates are checked in order on one clock; a finished cruiser has left the course;
    the winner has every cruiser home."""
    game = state.game
    for c in range(game.num_cruisers):
        times = state.reached[c][: state.progress[c]]
        if any(a >= b for a, b in pairwise(times)) or max(times, default=0) > state.clock:
            raise _fail(
                ["cruisers", c, "reached_at"],
                f"the {COLOURS[c]} reached_at must rise row by row, up to the clock.",
            )
        if state.finished(c) and state.pos[c] is not None:
            raise _fail(
                ["cruisers", c, "square"], f"the {COLOURS[c]} cruiser has finished and left the course."
            )
    if state.winner >= 0:
        home = all(state.finished(c) for c in game.cruisers_of[state.winner])
        if state.phase != Phase.OVER or not home:
            raise _fail(["winner"], "the winner has every cruiser home, and the game is over.")
    if state.chaos_row >= min(state.progress):
        raise _fail(["chaos_row"], "a chaos round begins only once every cruiser has reached that gate.")


def _check_phase(state: ChaosCruisersState) -> None:
    """What the phase needs: someone to act, on the course, with something to do."""
    phase = state.phase
    if state.order_for == OrderFor.SETUP and phase in (Phase.ORDER, Phase.START):
        _check_setup(state)
    _check_on_the_course(state)
    if (phase == Phase.ORDER) != bool(state.ties):
        raise _fail(["ties"], "tied cruisers wait for a chance draw exactly in the order phase.")
    if phase in (Phase.START, Phase.SPEED, Phase.MOVE, Phase.OBSTACLES) and state.turn >= len(state.order):
        raise _fail(["turn"], "the turn points past the playing order.")
    if phase in (Phase.SPEED, Phase.MOVE):
        mover = state.order[state.turn]
        if state.pos[mover] is None or state.out_this_round[mover]:
            raise _fail(["turn"], "the moving cruiser must be on the course, and not out this round.")
    if phase == Phase.MOVE and state.speed[state.order[state.turn]] == 0:
        raise _fail(["turn"], "a cruiser at null speed does not move.")
    if (phase == Phase.REENTER) != (state.reentering >= 0):
        raise _fail(["reentering"], "a cruiser out of bounds is named exactly while it is put back.")
    if phase == Phase.REENTER:
        out = state.reentering
        if state.pos[out] is not None or state.finished(out) or not state.out_this_round[out]:
            raise _fail(
                ["reentering"], "a cruiser out of bounds is off the course, racing, and out this round."
            )
    if phase == Phase.OVER and state.winner < 0 and not state.capped:
        raise _fail(["phase"], "a finished game has a winner or reached max_rounds.")
    if state.capped and (phase != Phase.OVER or state.winner >= 0):
        raise _fail(["capped"], "max_rounds ends a game that is over with no winner.")


def _check_on_the_course(state: ChaosCruisersState) -> None:
    """After setup, every cruiser still racing stands on the course, but one out of
    bounds waiting to be put back."""
    phase = state.phase
    if phase == Phase.OVER or state.order_for == OrderFor.SETUP:
        return
    for c in state.racing():
        if state.pos[c] is None and not (phase == Phase.REENTER and c == state.reentering):
            raise _fail(
                ["cruisers", c, "square"], f"the {COLOURS[c]} cruiser is racing but not on the course."
            )


def _check_setup(state: ChaosCruisersState) -> None:
    """During setup exactly the cruisers placed so far stand, on the sun gate tile, and
    nothing else has happened."""
    placed = set(state.order[: state.turn]) if state.phase == Phase.START else set()
    sun = tile_squares(state.game.gate_tile["sun"])
    for c, square in enumerate(state.pos):
        if (square is not None) != (c in placed) or (square is not None and square not in sun):
            raise _fail(
                ["cruisers", c, "square"],
                "during setup, exactly the cruisers placed so far stand on the sun gate tile.",
            )
    named = [*state.order, *(c for g in state.ties for c in g)]
    if len(named) != state.game.num_cruisers:
        raise _fail(["order"], "during setup, the order names every cruiser.")
    if state.round or state.clock or state.chaos_row >= 0 or state.obstacles:
        raise _fail(["round"], "during setup, no round is played, no gate reached and no obstacle placed.")


def _check_rounds(state: ChaosCruisersState) -> None:
    """The turn structure: who the order is for, and the chaos round's steps 3 and 4."""
    phase = state.phase
    setup = state.order_for == OrderFor.SETUP
    if (setup and phase not in (Phase.ORDER, Phase.START)) or (not setup and phase == Phase.START):
        raise _fail(["order_for"], "an order for setup is drawn and used exactly during setup.")
    if not setup and state.round == 0:
        raise _fail(["round"], "cruising rounds are counted from 1 once setup is over.")
    if not setup and phase != Phase.OVER:
        missing = [
            COLOURS[c] for c in state.racing() if c not in state.order and all(c not in g for g in state.ties)
        ]
        if missing:
            raise _fail(["order"], f"the playing order leaves out {', '.join(missing)}, still racing.")
    chaos = phase in (Phase.LIFT, Phase.LAY, Phase.OBSTACLES) or (
        phase == Phase.ORDER and state.order_for == OrderFor.CHAOS
    )
    if chaos != (state.relocator >= 0):
        raise _fail(["relocator"], "the last cruiser is named exactly during a chaos round's steps 3 and 4.")
    if phase in (Phase.LIFT, Phase.LAY) and state.tiles_left == 0:
        raise _fail(["tiles_left"], "a tile is moved only while some are left to move.")
    if chaos and phase != Phase.OBSTACLES and state.obstacles:
        raise _fail(["obstacles"], "obstacles are off the course until step 4 (chaos round step 2).")
    if (phase == Phase.OBSTACLES) != (state.obstacle_pass > 0):
        raise _fail(["obstacle_pass"], "the first or second pass of obstacles is counted exactly in step 4.")
    if phase == Phase.OBSTACLES:
        _check_obstacle_passes(state)


def _check_obstacle_passes(state: ChaosCruisersState) -> None:
    """Step 4: in playing order each racing cruiser's player places one obstacle, then a
    second in a second pass (or keeps it when no square may take it)."""
    if state.order_for != OrderFor.CHAOS:
        raise _fail(["order_for"], "obstacles are placed in the order drawn in the chaos round.")
    placer = state.order[state.turn]
    if state.finished(placer):
        raise _fail(["turn"], "a finished cruiser places no obstacles.")
    for c in range(state.game.num_cruisers):
        placed = 2 - state.in_hand[c]
        if state.finished(c):
            turns = 0
        else:
            turns = state.obstacle_pass - (0 if state.order.index(c) < state.turn else 1)
        if placed > turns:
            raise _fail(
                ["cruisers", c, "obstacles_in_hand"],
                f"the {COLOURS[c]} player has placed {placed} obstacles in {turns} turns of step 4.",
            )
