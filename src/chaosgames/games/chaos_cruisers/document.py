"""State documents: `to_json()` fields and reading them back with checks."""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING, Any

from chaosgames.core.errors import InvalidStateError
from chaosgames.core.grid import Square, connected
from chaosgames.games.chaos_cruisers.actions import COLOURS
from chaosgames.games.chaos_cruisers.chaos_round import lay_spots
from chaosgames.games.chaos_cruisers.course import Tile, tile_of, tile_squares
from chaosgames.games.chaos_cruisers.movement import MAX_SPEED, SPEED_COINS
from chaosgames.games.chaos_cruisers.state import PHASES, ChaosCruisersState

if TYPE_CHECKING:
    from chaosgames.games.chaos_cruisers.game import ChaosCruisersGame


def _colour_or_none(cruiser: int) -> str | None:
    return COLOURS[cruiser] if cruiser >= 0 else None


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
        "phase": state.phase,
        "round": state.round,
        "tiles": [list(t) for t in sorted(state.tiles)],
        "obstacles": [[s[0], s[1], COLOURS[c]] for s, c in sorted(state.obstacles.items())],
        "cruisers": cruisers,
        "order": [COLOURS[c] for c in state.order],
        "ties": [[COLOURS[c] for c in group] for group in state.ties],
        "order_for": state.order_for,
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


def _fail(message: str) -> InvalidStateError:
    return InvalidStateError(f"Impossible Chaos Cruisers position: {message}")


def _int(value: Any, what: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _fail(f"{what} must be a whole number from {low} to {high}, not {value!r}.")
    return value


def _pair(value: Any, what: str) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise _fail(f"{what} must be a pair [x, y], not {value!r}.")
    return (_int(value[0], what, -(10**6), 10**6), _int(value[1], what, -(10**6), 10**6))


def _cruiser(value: Any, n: int, what: str, allow_none: bool = False) -> int:
    if value is None and allow_none:
        return -1
    if value not in COLOURS[:n]:
        raise _fail(f"{what} must be one of {', '.join(COLOURS[:n])}, not {value!r}.")
    return COLOURS.index(value)


def state_from_document(game: ChaosCruisersGame, doc: dict[str, Any]) -> ChaosCruisersState:
    state = ChaosCruisersState(game)
    n = game.num_cruisers
    rows = len(game.chart)
    if doc.get("phase") not in PHASES:
        raise _fail(f"the phase must be one of {', '.join(PHASES)}, not {doc.get('phase')!r}.")
    state.phase = doc["phase"]
    state.round = _int(doc["round"], "round", 0, game.options["max_rounds"] or 10**9)
    _read_course(state, doc)
    cruisers = doc["cruisers"]
    if not isinstance(cruisers, list) or len(cruisers) != n:
        raise _fail(f"there must be {n} cruisers.")
    seen: set[Square] = set()
    for c, item in enumerate(cruisers):
        _read_cruiser(state, c, item, state.course(), seen, rows)
    _read_order(state, doc)
    state.reentering = _cruiser(doc["reentering"], n, "the cruiser out of bounds", allow_none=True)
    state.relocator = _cruiser(doc["relocator"], n, "the last cruiser", allow_none=True)
    state.tiles_left = _int(doc["tiles_left"], "tiles_left", 0, game.options["tiles_moved"])
    _read_moved_tiles(state, doc["moved_tiles"])
    state.obstacle_pass = _int(doc["obstacle_pass"], "obstacle_pass", 0, 2)
    state.chaos_row = _int(doc["chaos_row"], "chaos_row", -1, rows - 1)
    state.clock = _int(doc["clock"], "clock", 0, 10**9)
    winner = doc["winner"]
    state.winner = -1 if winner is None else _int(winner, "winner", 0, game.num_players - 1)
    if not isinstance(doc["capped"], bool) or (doc["capped"] and not game.options["max_rounds"]):
        raise _fail("capped must be true or false, and true only with a max_rounds cap.")
    state.capped = doc["capped"]
    _check_race(state)
    _check_phase(state)
    return state


def _read_course(state: ChaosCruisersState, doc: dict[str, Any]) -> None:
    """Tiles, the tile held up in step 3, and obstacles (which never cut the course:
    obstacle rule D, and tiles only move once the obstacles are off)."""
    game = state.game
    tiles: set[Tile] = {_pair(t, "a tile") for t in doc["tiles"]}
    if len(tiles) != len(doc["tiles"]):
        raise _fail("two tiles overlap.")
    if not game.gate_tiles <= tiles:
        raise _fail("a gate tile is missing from the course.")
    lifted = None if doc["lifted"] is None else _pair(doc["lifted"], "the lifted tile")
    if (lifted is not None) != (state.phase == "lay") or lifted in tiles:
        raise _fail("a tile is held up off the course exactly while it is being laid down.")
    expected = len(game.start_tiles) - (1 if lifted is not None else 0)
    if len(tiles) != expected or (lifted is None and not connected(tiles)):
        raise _fail(f"the course must be {expected} connected tiles.")
    # Rule C: a tile in the hand may have split the course, if laying it can join it again.
    if lifted is not None and not (connected(tiles | {lifted}) and lay_spots(frozenset(tiles), lifted)):
        raise _fail("the course must be connected with the lifted tile in its place, and a lay must join it.")
    state.tiles = frozenset(tiles)
    state.lifted = lifted
    course = state.course()
    obstacles: dict[Square, int] = {}
    for item in doc["obstacles"]:
        if not isinstance(item, list) or len(item) != 3:
            raise _fail(f"an obstacle is [x, y, colour], not {item!r}.")
        square = _pair(item[:2], "an obstacle square")
        if square not in course or tile_of(square) in game.gate_tiles or square in obstacles:
            raise _fail(f"an obstacle cannot stand on {list(square)}.")
        obstacles[square] = _cruiser(item[2], game.num_cruisers, "an obstacle's colour")
    if lifted is not None and obstacles:
        raise _fail("obstacles are off the course while tiles are moved (chaos round step 2).")
    covered = {tile_of(s) for s in obstacles if all(q in obstacles for q in tile_squares(tile_of(s)))}
    if covered or not (lifted is not None or connected(set(course - obstacles.keys()))):
        raise _fail("obstacles may not cut the course or cover a whole tile.")
    state.obstacles = obstacles


def _read_order(state: ChaosCruisersState, doc: dict[str, Any]) -> None:
    n = state.game.num_cruisers
    state.ties = tuple(tuple(_cruiser(x, n, "a tied cruiser") for x in g) for g in doc["ties"])
    state.order = tuple(_cruiser(x, n, "a cruiser in the order") for x in doc["order"])
    named = [*state.order, *(c for g in state.ties for c in g)]
    if len(set(named)) != len(named) or any(not g for g in state.ties):
        raise _fail("the playing order names a cruiser twice or holds an empty tie.")
    if state.ties and len(state.ties[0]) < 2:
        raise _fail("a tie for the next place needs at least two cruisers.")
    if doc["order_for"] not in ("setup", "cruise", "chaos"):
        raise _fail("order_for must be setup, cruise or chaos.")
    state.order_for = doc["order_for"]
    state.turn = _int(doc["turn"], "turn", 0, n)


def _read_cruiser(
    state: ChaosCruisersState, c: int, item: Any, course: frozenset[Square], seen: set[Square], rows: int
) -> None:
    if not isinstance(item, dict) or item.get("colour") != COLOURS[c]:
        raise _fail(f"cruiser {c + 1} must be the {COLOURS[c]} cruiser.")
    name = COLOURS[c]
    square = None if item["square"] is None else _pair(item["square"], f"the {name} square")
    if square is not None:
        if square not in course or square in state.obstacles or square in seen:
            raise _fail(f"the {name} cruiser cannot stand on {list(square)}.")
        seen.add(square)
    state.pos[c] = square
    state.speed[c] = _int(item["speed"], f"the {name} speed", 0, MAX_SPEED)
    state.progress[c] = _int(item["gates_reached"], f"the {name} gates reached", 0, rows)
    reached = item["reached_at"]
    if not isinstance(reached, list) or len(reached) != rows:
        raise _fail(f"the {name} reached_at must list {rows} numbers.")
    state.reached[c] = tuple(_int(r, "reached_at", 0, 10**9) for r in reached)
    if any((r > 0) != (row < state.progress[c]) for row, r in enumerate(state.reached[c])):
        raise _fail(f"the {name} reached_at must be set exactly for the gates reached.")
    coins = item["speed_coins"]
    if not isinstance(coins, list) or len(set(coins)) != len(coins) or not set(coins) <= set(SPEED_COINS):
        raise _fail(f"the {name} speed coins must be some of 2, 3, 4, 5.")
    state.coins[c] = sum(1 << v for v in coins)
    state.in_hand[c] = _int(item["obstacles_in_hand"], f"the {name} obstacles in hand", 0, 2)
    if state.in_hand[c] + sum(1 for owner in state.obstacles.values() if owner == c) != 2:
        raise _fail(f"the {name} player has two obstacle coins, in hand or on the course.")
    if not isinstance(item["out_this_round"], bool):
        raise _fail("out_this_round must be true or false.")
    state.out_this_round[c] = item["out_this_round"]
    racing_phase = state.phase in ("speed", "move", "lift", "lay", "obstacles")
    if square is None and racing_phase and not state.finished(c):
        raise _fail(f"the {name} cruiser is racing but not on the course.")


def _read_moved_tiles(state: ChaosCruisersState, value: Any) -> None:
    """The tiles laid in this chaos round's step 3: as many as tiles_moved - tiles_left,
    each on the course."""
    moved = frozenset(_pair(t, "a moved tile") for t in value)
    relocating = state.phase in ("lift", "lay")
    count = state.game.options["tiles_moved"] - state.tiles_left if relocating else 0
    if len(moved) != len(value) or len(moved) != count or not moved <= state.tiles:
        raise _fail(f"moved_tiles must name the {count} tiles laid so far in this chaos round.")
    state.moved = moved


def _check_race(state: ChaosCruisersState) -> None:
    """Gates are checked in order on one clock; a finished cruiser has left the course;
    the winner has every cruiser home."""
    game = state.game
    for c in range(game.num_cruisers):
        times = state.reached[c][: state.progress[c]]
        if any(a >= b for a, b in pairwise(times)) or max(times, default=0) > state.clock:
            raise _fail(f"the {COLOURS[c]} reached_at must rise row by row, up to the clock.")
        if state.finished(c) and state.pos[c] is not None:
            raise _fail(f"the {COLOURS[c]} cruiser has finished and left the course.")
    if state.winner >= 0:
        home = all(state.finished(c) for c in game.cruisers_of[state.winner])
        if state.phase != "over" or not home:
            raise _fail("the winner has every cruiser home, and the game is over.")


def _check_phase(state: ChaosCruisersState) -> None:
    phase = state.phase
    if phase == "order" and not state.ties:
        raise _fail("a chance draw for the playing order needs tied cruisers.")
    if phase in ("start", "speed", "move", "obstacles") and state.turn >= len(state.order):
        raise _fail("the turn points past the playing order.")
    if phase == "reenter" and (state.reentering < 0 or state.pos[state.reentering] is not None):
        raise _fail("a cruiser out of bounds must be off the course.")
    if phase in ("lift", "lay") and state.relocator < 0:
        raise _fail("rearranging the course needs the last cruiser named.")
    if phase in ("speed", "move"):
        mover = state.order[state.turn]
        if state.pos[mover] is None:
            raise _fail("the moving cruiser must be on the course.")
    if phase == "move" and state.speed[state.order[state.turn]] == 0:
        raise _fail("a cruiser at null speed does not move.")
    if phase == "over" and state.winner < 0 and not state.capped:
        raise _fail("a finished game has a winner or reached max_rounds.")
    if state.order_for == "setup" and phase in ("order", "start"):
        _check_setup(state)


def _check_setup(state: ChaosCruisersState) -> None:
    """During setup exactly the cruisers placed so far stand, on the sun gate tile."""
    placed = set(state.order[: state.turn]) if state.phase == "start" else set()
    sun = tile_squares(state.game.gate_tile["sun"])
    for c, square in enumerate(state.pos):
        if (square is not None) != (c in placed) or (square is not None and square not in sun):
            raise _fail("during setup, exactly the cruisers placed so far stand on the sun gate tile.")
