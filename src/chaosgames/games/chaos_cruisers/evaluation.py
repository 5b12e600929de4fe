"""Heuristic evaluation: the turns each player still needs to finish the race, as his own
progress and his share of the win.

A cruiser's remaining race is counted in cruising turns (see `racing_line`):
- to its next gate: the turns table of that gate on the course as it stands, from its
  square and speed (with its speed already set if it is about to move; from the best
  square of its return tile at speed null if it is out of bounds, squares included);
- plus BLOCKED_WORTH if every square one step nearer the gate holds another cruiser
  (it must ram, losing speed, or go round), and HEAD_ON_WORTH more if such a cruiser is
  heading this way (its own way on runs through this square: the two would ram each
  other back and forth); never next to the gate's tile (a ram onto it reaches the gate:
  counted blocked there, a cruiser one move from its gate backed away from a rival
  coming the other way, then came back to ram it, round after round);
- plus CONTACT_WORTH per cruiser on a square next to it (it may be rammed, and a ram
  only ever stops next to its victim, so a ram is counted against the rammer too);
- less one if its turn in the current cruising round is still to come (it will use it);
- then every later leg of the chart, from one gate's tile at speed null to the next, on
  the course as it stands (the same tables as for the next gate: measured on another
  course, passing a gate could look like a setback and cruisers would shy away from it);
- plus a hundredth of a turn per square to the next gate, to tell apart positions equal
  in whole turns, less COIN_WORTH per speed coin in hand (a coin can save a turn later).

A player's remaining race is the sum over his cruisers (with two cruisers each, both must
finish, and each one's own progress must count: with the trailing one alone, the leading
cruiser had nothing to race for but rams). Win shares (`win_shares`) are a softmax of
minus the remaining turns with temperature TEMPERATURE, summing to 1.

The heuristic (`race_values`, what `Game.heuristic` gives) is not the win share alone: each
player's value is OWN_WORTH of his own progress (1 less his remaining race over the whole
race, from the sun tile at null, for all his cruisers) plus SHARE_WORTH of his win share.
Win shares are zero-sum (with two players exactly: a turn a rival loses is worth a turn
won), and one move ahead a ram that sets a rival back more than the rammer always looked
good: the rammed cruiser rammed back, and greedy and search races traded rams for hundreds
of rounds (issue 14). Weighted by his own progress, a player gains from a ram only where it
also helps, or hardly costs, his own race: a turn of his own counts nearly three times a
turn a rival loses with two players (a race of about 34 turns a cruiser on the presets),
more with three or four. The win share still decides what does not touch one's own race
(obstacles, tiles moved in chaos rounds, pushing a rival out of bounds at little cost).
The values are each in [0, 1] but do not sum to 1; at the end they are the returns.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from chaosgames.core.grid import Square
from chaosgames.games.chaos_cruisers.course import Tile, tile_squares
from chaosgames.games.chaos_cruisers.race import gate_distances
from chaosgames.games.chaos_cruisers.racing_line import NO_ROUTE, TurnsToGate
from chaosgames.games.chaos_cruisers.state import MOVE, OVER, SPEED

if TYPE_CHECKING:
    from chaosgames.games.chaos_cruisers.rules_in_force import CruisersRules
    from chaosgames.games.chaos_cruisers.state import ChaosCruisersState, CourseTables

TEMPERATURE = 10.0
COIN_WORTH = 0.15
SQUARE_WORTH = 0.01
"""Turns counted per square to the next gate, only to break ties between whole turns."""
BLOCKED_WORTH = 1.0
"""Turns counted for a cruiser whose every step towards its gate is taken by another
cruiser: it must ram (and lose speed) or go round. Without it, two cruisers meeting head on
in a narrow stretch ram each other back and forth for the rest of the game."""
HEAD_ON_WORTH = 2.0
"""Turns counted more when the cruiser in the way is heading the other way."""
CONTACT_WORTH = 1.0
"""Turns counted per cruiser on a neighbouring square."""
OWN_WORTH = 0.75
"""The weight of a player's own progress in his value; the rest is his win share."""
SHARE_WORTH = 1.0 - OWN_WORTH
COINS_HELD = tuple(bin(coins).count("1") for coins in range(64))
"""Speed coins in hand for each coin bit set."""


def turns_after_gates(state: ChaosCruisersState) -> tuple[int, ...]:
    """For each chart row, the turns from that gate to the finish: leg by leg, from the best
    square of one gate's tile at speed null to the next gate, on the course as it stands;
    then one more entry, the whole race from the sun tile at speed null (at least 1)."""
    tables = state._tables
    if tables.after_gates is None:
        legs = chart_legs(state.game, tables, state.course() - state.obstacle_set())
        rest = [0] * len(legs)  # one per gate: the legs after it
        for k in range(len(rest) - 2, -1, -1):
            rest[k] = rest[k + 1] + legs[k][0]
        # Last, the whole race: from the sun tile (the start) at speed null.
        tables.after_gates = (*rest, max(1, legs[-1][0] + rest[0]))
    return tables.after_gates


Legs = tuple[tuple[int, frozenset[Square]], ...]
"""Per leg, its turns and the squares of one best plan for it (`TurnsToGate.best_plan`)."""


def chart_legs(game: CruisersRules[Any, Any], tables: CourseTables, free: frozenset[Square]) -> Legs:
    """The legs of the chart on the course of `tables` (`free`: its squares without
    obstacles): from each gate's tile to the next, then from the sun tile to the first gate.

    Search places an obstacle or lifts a tile for every child of a chaos-round node, and
    each child is a new course. Such a course is its parent less a few squares, so a leg
    whose best plan misses them keeps the parent's turns and plan (see `best_plan`): only
    the legs the change cuts are worked out anew (values as if all were)."""
    if tables.legs is None:
        parent: Legs | None = None
        removed: frozenset[Square] = frozenset()
        if tables.parent is not None and not tables.parent[1][1]:  # squares only taken away
            above, (removed, _) = tables.parent
            parent = chart_legs(game, above, free | removed)
        tiles = [game.gate_tile[g] for g in game.chart]
        starts = [*tiles[:-1], game.return_tiles[0]]
        goals = [*tiles[1:], tiles[0]]
        legs = []
        for k, (start, goal) in enumerate(zip(starts, goals, strict=True)):
            if parent is not None and parent[k][1].isdisjoint(removed):
                legs.append(parent[k])
            else:
                table = tables.table(game.turn_tables, goal, free)
                legs.append(table.best_plan(tile_squares(start)))
        tables.legs = tuple(legs)
    return tables.legs


def cruiser_turns(state: ChaosCruisersState, cruiser: int) -> float:
    """Cruising turns the cruiser still needs to finish the race (see the module text).

    The rules of the heuristic written out for one cruiser; `all_cruiser_turns` gives the
    same values for every cruiser at once, faster."""
    game = state.game
    row = state.progress[cruiser]
    if row >= len(game.chart):
        return 0.0
    gate = game.row_tile[row]
    table = state.turns_table(gate)
    distances = state.gate_distance_map(gate)
    square = state.pos[cruiser]
    turns: float
    if square is None:
        # Out of bounds: it comes back on the best square of its return tile. Its squares
        # count too: at 0 a cruiser far from its gate would rather leave the course than move.
        home = state.return_tile(cruiser)
        squares = state.free_squares(home) or list(tile_squares(home))
        turns, squares_left = min((table.turns(s, 0, False), distances.get(s, NO_ROUTE)) for s in squares)
    else:
        deciding = state.phase == MOVE and state.order[state.turn] == cruiser
        turns = table.turns(square, state.speed[cruiser], deciding) + _traffic(state, cruiser, distances)
        squares_left = min(distances.get(square, NO_ROUTE), NO_ROUTE)
    if _moves_this_round(state, cruiser):
        turns -= 1
    coins = COINS_HELD[state.coins[cruiser]]
    return turns + turns_after_gates(state)[row] + SQUARE_WORTH * squares_left - COIN_WORTH * coins


def _traffic(state: ChaosCruisersState, cruiser: int, distances: dict[Square, int]) -> float:
    """Turns counted for the cruisers around this one: contact, and a way on that is blocked."""
    square = state.pos[cruiser]
    assert square is not None
    x, y = square
    neighbours = [
        (c, p)
        for c, p in enumerate(state.pos)
        if p is not None and c != cruiser and abs(p[0] - x) + abs(p[1] - y) == 1
    ]
    if not neighbours:
        return 0.0
    turns = CONTACT_WORTH * len(neighbours)
    ahead = distances.get(square, NO_ROUTE) - 1
    forward = [n for n in ((x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y)) if distances.get(n) == ahead]
    if ahead > 0 and forward and all(n in state.pos for n in forward):
        turns += BLOCKED_WORTH
        if any(p in forward and _heading_through(state, c, p, square) for c, p in neighbours):
            turns += HEAD_ON_WORTH
    return turns


def _heading_through(state: ChaosCruisersState, cruiser: int, square: Square, target: Square) -> bool:
    """Whether one step from `square` onto `target` brings the cruiser nearer its next gate."""
    theirs = state.gate_distance_map(state.game.row_tile[state.progress[cruiser]])
    return theirs.get(target, NO_ROUTE) == theirs.get(square, NO_ROUTE) - 1


def _moves_this_round(state: ChaosCruisersState, cruiser: int) -> bool:
    if (state.phase != SPEED and state.phase != MOVE) or state.out_this_round[cruiser]:
        return False
    return cruiser in state.order[state.turn :]


# -- every cruiser at once: what search calls (the same values as cruiser_turns) ----------

SquareView = tuple[bytes, bytes, int, tuple[Square, ...], Square, Square, Square, Square]
"""What the heuristic reads of a square for one gate, on the course as it stands: the
turns table's `before` and `moving` rows (speed 0-5), the squares to the gate (at most
NO_ROUTE), the neighbouring squares one step nearer the gate (its way on; none next to the
gate's tile, where a ram reaches the gate too), and the four neighbours N, E, S, W."""

ReturnSquares = tuple[tuple[int, int, Square], ...]
"""The squares of a return tile with their turns to a gate at speed null and their squares
to it, best first."""


def square_view(state: ChaosCruisersState, gate: Tile, square: Square) -> SquareView | None:
    """The SquareView of `square` for `gate` (None: no route to the gate), kept per course
    and gate: search evaluates the same course thousands of times, and asks only about the
    squares cruisers stand on (the turns table is worked out as far as they need)."""
    tables = state._tables
    views = tables.views.get(gate)
    if views is None:
        views = tables.views[gate] = {}
    elif square in views:
        known: SquareView | None = views[square]
        return known
    if tables.parent is not None and not tables.parent[1][1]:  # squares only taken away
        return view_with_plans(state.game, tables, state.course() - state.obstacle_set(), gate, square)[0]
    view = views[square] = _view(state.turns_table(gate), state.gate_distance_map(gate), square)
    return view


def _view(table: TurnsToGate, distances: dict[Square, int], square: Square) -> SquareView | None:
    squares_left = distances.get(square)
    if squares_left is None:
        return None
    x, y = square
    around = ((x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y))
    # Next to the gate's tile no step is blocked: a ram onto it reaches the gate too.
    forward = tuple(n for n in around if distances.get(n) == squares_left - 1) if squares_left > 1 else ()
    before, moving = table.rows(square)
    return (before, moving, min(squares_left, NO_ROUTE), forward, *around)


ViewPlans = tuple[SquareView | None, frozenset[Square]]
"""A square's view for a gate and the squares its figures rest on: one best plan from each
of its 12 turns entries, and one shortest path to the gate from it and from each square
of its way on."""


def view_with_plans(
    game: CruisersRules[Any, Any], tables: CourseTables, free: frozenset[Square], gate: Tile, square: Square
) -> ViewPlans:
    """The view of `square` for `gate` on the course of `tables` (`free`: its squares
    without obstacles), taken from the course it was made from when the squares taken away
    miss everything the view rests on: fewer squares only make turns and paths longer, and
    these plans and paths still drive. Search asks this of every obstacle and lift choice
    about the same few squares, the cruisers'."""
    key = (gate, square)
    known: ViewPlans | None = tables.plans.get(key)
    if known is not None:
        return known
    views = tables.views.setdefault(gate, {})
    found: ViewPlans | None = None
    if square not in views and tables.parent is not None and not tables.parent[1][1]:
        above, (removed, _) = tables.parent
        inherited = view_with_plans(game, above, free | removed, gate, square)
        if inherited[1].isdisjoint(removed):
            found = inherited
    if found is None:
        table = tables.table(game.turn_tables, gate, free)
        distances = tables.dist.get(gate)
        if distances is None:
            distances = tables.dist[gate] = gate_distances(gate, free, frozenset())
        view = views[square] if square in views else _view(table, distances, square)
        found = (view, _rests_on(table, distances, square, view))
    views[square] = found[0]
    tables.plans[key] = found
    return found


def _rests_on(
    table: TurnsToGate, distances: dict[Square, int], square: Square, view: SquareView | None
) -> frozenset[Square]:
    if view is None:
        return frozenset()
    squares: set[Square] = set()
    for speed in range(len(view[0])):
        squares |= table.plan(square, speed, False)
        squares |= table.plan(square, speed, True)
    for start in (square, *view[3]):
        step, left = start, distances[start]
        squares.add(step)
        while left > 0:
            x, y = step
            left -= 1
            step = next(
                n for n in ((x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y)) if distances.get(n) == left
            )
            squares.add(step)
    return frozenset(squares)


def return_squares(state: ChaosCruisersState, gate: Tile, home: Tile) -> ReturnSquares:
    """The squares of the return tile `home`, best first for a cruiser bound for `gate`
    (the first one free is where `cruiser_turns` counts it from), made once per course."""
    returns = state._tables.returns
    best = returns.get((gate, home))
    if best is None:
        table = state.turns_table(gate)
        distances = state.gate_distance_map(gate)
        ranked = [(table.turns(s, 0, False), distances.get(s, NO_ROUTE), s) for s in tile_squares(home)]
        best = returns[gate, home] = tuple(sorted(ranked, key=lambda r: r[:2]))
    return best


def all_cruiser_turns(state: ChaosCruisersState) -> list[float]:
    """`cruiser_turns` of every cruiser, the same values computed together: the occupied
    squares and the playing order are read once, and each square's view once per course."""
    pos = state.pos
    # Which cruiser stands on each square (a plain loop: a comprehension is a call more).
    occupied: dict[Square, int] = {}
    for c, square in enumerate(pos):
        if square is not None:
            occupied[square] = c
    if len(occupied) + pos.count(None) != len(pos):
        # Two cruisers on one square (only built by hand): the neighbour count differs.
        return [cruiser_turns(state, c) for c in range(len(pos))]
    game = state.game
    rows, row_tile = game.rows, game.row_tile
    tables = state._tables
    all_views, all_returns = tables.views, tables.returns
    return_tiles, obstacles = game.return_tiles, state.obstacles
    after = tables.after_gates or turns_after_gates(state)
    progress, speed, coins = state.progress, state.speed, state.coins
    phase = state.phase
    # The cruiser whose speed is set and must move now, and those still to move this round.
    mover = state.order[state.turn] if phase == MOVE else -1
    to_move = state.order[state.turn :] if phase in (SPEED, MOVE) else ()
    left: list[float] = []
    for c, square in enumerate(pos):
        row = progress[c]
        if row >= rows:
            left.append(0.0)
            continue
        gate = row_tile[row]
        turns: float
        if square is None:
            # Out of bounds: from the best free square of its return tile (any square of
            # it when none is free), as cruiser_turns counts it.
            home = return_tiles[row]
            best = all_returns.get((gate, home)) or return_squares(state, gate, home)
            for entry in best:
                if entry[2] not in occupied and entry[2] not in obstacles:
                    break
            else:
                entry = best[0]  # none free
            turns, squares_left = entry[0], entry[1]
        else:
            views = all_views.get(gate)
            view = _UNSEEN if views is None else views.get(square, _UNSEEN)
            if view is _UNSEEN:
                view = square_view(state, gate, square)
            if view is None:  # walled off from its gate: the general way
                left.append(cruiser_turns(state, c))
                continue
            before, moving, squares_left, forward, north, east, south, west = view
            turns = (moving if c == mover else before)[speed[c]]
            # Cruisers next to it (written out: this runs for every cruiser of every position).
            contacts = (north in occupied) + (east in occupied) + (south in occupied) + (west in occupied)
            if contacts:
                turns += _contact_turns(state, square, contacts, forward, occupied)
        if c in to_move and not state.out_this_round[c]:
            turns -= 1
        left.append(turns + after[row] + SQUARE_WORTH * squares_left - COIN_WORTH * COINS_HELD[coins[c]])
    return left


_UNSEEN: SquareView = (b"", b"", 0, (), (0, 0), (0, 0), (0, 0), (0, 0))
"""A square whose view is not made yet (a view may be None: no route); found by identity."""


def _contact_turns(
    state: ChaosCruisersState,
    square: Square,
    contacts: int,
    forward: tuple[Square, ...],
    occupied: dict[Square, int],
) -> float:
    """`_traffic` of a cruiser with `contacts` cruisers next to it, from its square's view."""
    turns = CONTACT_WORTH * contacts
    for n in forward:
        if n not in occupied:
            return turns
    if forward:  # every step nearer the gate is taken
        turns += BLOCKED_WORTH
        # Any cruiser in the way is next to this one: is one heading this way?
        for n in forward:
            if _heading_through(state, occupied[n], n, square):
                return turns + HEAD_ON_WORTH
    return turns


def win_shares(state: ChaosCruisersState) -> list[float]:
    """Each player's share of the win: a softmax of minus his remaining race (summing to 1)."""
    if state.phase == OVER:
        return list(state.returns())
    return _shares(_remaining(state))


def race_values(state: ChaosCruisersState) -> list[float]:
    """The heuristic (`Game.heuristic`): for each player, OWN_WORTH of his own progress
    (the share of his race behind him) and SHARE_WORTH of his win share. Not zero-sum: a
    ram pays only where it also helps the rammer's own race (see the module text)."""
    if state.phase == OVER:
        return list(state.returns())
    left = all_cruiser_turns(state)
    players = state.game.num_players
    each = len(left) // players
    if each == 2:  # two cruisers each: cruiser c belongs to player c % players
        left = [left[p] + left[p + players] for p in range(players)]
    whole = (state._tables.after_gates or turns_after_gates(state))[-1] * each
    per_turn = OWN_WORTH / whole
    # The win shares written out (search calls this for every position it scores), with
    # each player's weight and value in plain loops: the same operations in the same order
    # as the comprehensions over `left` (sum() adds left to right from 0, as `total` does).
    best = min(left)
    exp = math.exp
    weights = []
    total = 0.0
    for r in left:
        w = exp((best - r) / TEMPERATURE)
        weights.append(w)
        total += w
    share = SHARE_WORTH / total
    values = []
    for i, w in enumerate(weights):
        r = left[i]
        values.append(w * share + (OWN_WORTH - r * per_turn if r < whole else 0.0))
    return values


def _remaining(state: ChaosCruisersState) -> list[float]:
    """Each player's remaining race: his cruisers' turns summed."""
    left = all_cruiser_turns(state)
    players = state.game.num_players
    if len(left) == players:
        return left
    # Two cruisers each: cruiser c belongs to player c % players.
    return [left[p] + left[p + players] for p in range(players)]


def _shares(remaining: list[float]) -> list[float]:
    best = min(remaining)
    weights = [math.exp((best - r) / TEMPERATURE) for r in remaining]
    total = sum(weights)
    shares = [w / total for w in weights]
    # Keep the sum exactly 1 despite rounding.
    shares[-1] = max(0.0, 1.0 - sum(shares[:-1]))
    return shares


MEMO_SIZE = 20_000
"""Positions whose heuristic values `remembered_race_values` keeps (then it starts afresh)."""


def remembered_race_values(
    state: ChaosCruisersState, memo: dict[tuple[Any, ...], list[float]]
) -> list[float]:
    """`race_values`, remembered in `memo` by everything they read: the course (tiles and
    obstacles: the course tables are worked out from them alone, and are not kept alive by
    the memo, a chaos-round search makes thousands), the cruisers' squares, speeds, gates
    reached, coins and out-of-bounds marks, and the phase and playing order. Search scores
    the same position many times over: every path that takes a cruiser out of bounds leads
    to the same position, as do paths ending on the same square, and a new child is scored
    by its prior and again when first reached. A copy is returned (callers may keep or
    change the list)."""
    if state.phase == OVER:
        return race_values(state)
    # One flat tuple (the lists have one entry per cruiser, so each entry keeps its place):
    # one tuple made and hashed instead of one per list.
    key = (
        state.tiles,
        state.obstacle_key(),
        state.phase,
        state.order,
        state.turn,
        *state.pos,
        *state.speed,
        *state.progress,
        *state.coins,
        *state.out_this_round,
    )
    values = memo.get(key)
    if values is None:
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        values = memo[key] = race_values(state)
    return values[:]
