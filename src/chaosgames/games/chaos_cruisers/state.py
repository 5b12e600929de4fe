"""A position of Chaos Cruisers and the turn structure: setup, cruising rounds, chaos rounds."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from chaosgames.core.chance import uniform
from chaosgames.core.constants import CHANCE, TERMINAL
from chaosgames.core.game import ENDED_BY_CAP, ENDED_BY_RULES, State, shared_actions
from chaosgames.core.grid import Square
from chaosgames.games.chaos_cruisers.actions import (
    CruisersAction,
    KeepObstacle,
    Lay,
    Lead,
    Lift,
    Move,
    Obstacle,
    Reenter,
    Speed,
    Start,
    StopRelocating,
)
from chaosgames.games.chaos_cruisers.chaos_round import lay_spots, movable_tiles, obstacle_squares
from chaosgames.games.chaos_cruisers.course import Tile, course_squares, tile_of, tile_squares
from chaosgames.games.chaos_cruisers.movement import (
    MOVE_LISTS,
    SPEED_COINS,
    SPEED_LISTS,
    push_chain,
    walk,
)
from chaosgames.games.chaos_cruisers.race import UNREACHABLE, gate_distances, lead_key
from chaosgames.games.chaos_cruisers.racing_line import CourseChange, TableCache, TurnsToGate
from chaosgames.games.chaos_cruisers.rules_in_force import CruisersRules

ALL_COINS = sum(1 << v for v in SPEED_COINS)


class Phase(StrEnum):
    """What happens next (the documents spell it as the value)."""

    ORDER = "order"  # chance: a tie on lead rules 1-3 (rule 4), or the rolled setup order
    START = "start"  # setup: a cruiser is placed on the sun gate tile
    SPEED = "speed"  # cruising round: the cruiser adjusts its speed
    MOVE = "move"  # cruising round: the cruiser moves exactly its speed
    REENTER = "reenter"  # out of bounds: its player picks the square it goes back on
    LIFT = "lift"  # chaos round step 3: pick up a tile, or stop
    LAY = "lay"  # chaos round step 3: lay the lifted tile down
    OBSTACLES = "obstacles"  # chaos round step 4: place an obstacle coin
    OVER = "over"


PHASES: tuple[Phase, ...] = tuple(Phase)
# The members as module names: the rules below read them in every step of a search, and a
# module name is read many times faster than an attribute of an Enum class.
ORDER, START, SPEED, MOVE, REENTER, LIFT, LAY, OBSTACLES, OVER = PHASES
IN_ORDER = frozenset((START, SPEED, MOVE, OBSTACLES))
"""Phases where the cruiser whose turn it is in the playing order decides."""
RELOCATING = frozenset((LIFT, LAY))
LEADS = tuple(Lead(c) for c in range(4))
TIE_OUTCOMES: dict[tuple[int, ...], tuple[tuple[CruisersAction, float], ...]] = {}
"""The chance outcomes of each group of tied cruisers, made once (a playout meets ties
at about one round in two)."""
TIE_LEADS: dict[tuple[int, ...], list[CruisersAction]] = {}
"""Their outcomes as the core's shared list of legal actions (_apply_action's hint)."""


NONE: frozenset[Square] = frozenset()


class CourseTables:
    """What is worked out from the course as it stands (tiles and obstacles): filled as
    needed and shared by a state's clones until one of them changes the course, which
    gives it fresh tables (search plays thousands of positions on the same course)."""

    __slots__ = (
        "after_gates",
        "dist",
        "legs",
        "obstacle_key",
        "obstacle_set",
        "parent",
        "plans",
        "returns",
        "row_dist",
        "squares",
        "turns",
        "views",
    )

    def __init__(self, parent: tuple[CourseTables, CourseChange] | None = None) -> None:
        self.squares: frozenset[Square] | None = None
        self.obstacle_set: frozenset[Square] | None = None
        # The obstacles with their owners as one value whose hash is kept (a frozenset's
        # is): the heuristic's memo keys every position by it (evaluation).
        self.obstacle_key: frozenset[tuple[Square, int]] | None = None
        # Per gate tile: squares to it from every free square, and turns to it (rule 2).
        self.dist: dict[Tile, dict[Square, int]] = {}
        # The same maps by chart row (an int hashes at once; the playing order of every
        # cruising round reads them).
        self.row_dist: dict[int, dict[Square, int]] = {}
        self.turns: dict[Tile, TurnsToGate] = {}
        # The heuristic's (see evaluation): turns from each chart row's gate to the finish,
        # its view of each square per gate, and the squares of a return tile best first.
        self.after_gates: tuple[int, ...] | None = None
        # The legs between gates with one best plan each (evaluation.chart_legs), and, for a
        # course made from another (an obstacle placed, a tile lifted or laid), that
        # course's tables and the change: the course's lines are derived from that one's,
        # and where squares were only taken away, a leg whose plan avoids them keeps its
        # turns. (A chain of them is as long as a chaos round's steps, obstacles included.)
        self.legs: tuple[tuple[int, frozenset[Square]], ...] | None = None
        self.parent = parent
        self.views: dict[Tile, dict[Square, Any]] = {}
        # Per gate and square, its view with the squares of one best plan for each of its
        # figures (evaluation.view_with_plans), for the courses made from this one.
        self.plans: dict[tuple[Tile, Square], Any] = {}
        self.returns: dict[tuple[Tile, Tile], Any] = {}

    def table(self, cache: TableCache, tile: Tile, free: frozenset[Square]) -> TurnsToGate:
        """The turns table of `tile` on this course (`free`: its squares without obstacles)."""
        table = self.turns.get(tile)
        if table is None:
            before = None
            if self.parent is not None:
                removed, added = change = self.parent[1]
                before = ((free - added) | removed, change)
            table = self.turns[tile] = cache.table(tile_squares(tile), free, before)
        return table


class OrderFor(StrEnum):
    """What a playing order is drawn for: setup placement, a cruising round (rules 1-4),
    or chaos round step 4 (obstacles, then the next cruising round in the same order)."""

    SETUP = "setup"
    CRUISE = "cruise"
    CHAOS = "chaos"


SETUP, CRUISE, CHAOS = tuple(OrderFor)


class ChaosCruisersState(State[CruisersAction]):
    """A position. `progress`, `reached`, `coins`, `in_hand` and `out_this_round` are
    shared by a state and its clones (search clones far more often than they change): the
    rules replace such a list when they change it, never change it in place. `pos` and
    `speed`, changed at almost every step, are copied by `clone`."""

    __slots__ = (
        "_tables",
        "capped",
        "chaos_row",
        "clock",
        "coins",
        "in_hand",
        "lifted",
        "moved",
        "obstacle_pass",
        "obstacles",
        "order",
        "order_for",
        "out_this_round",
        "phase",
        "pos",
        "progress",
        "reached",
        "reentering",
        "relocator",
        "round",
        "speed",
        "ties",
        "tiles",
        "tiles_left",
        "turn",
        "winner",
    )

    game: CruisersRules[Any, Any]

    def __init__(self, game: CruisersRules[Any, Any]) -> None:
        super().__init__(game)
        n = game.num_cruisers
        rows = len(game.chart)
        self.tiles: frozenset[Tile] = game.start_tiles
        self.obstacles: dict[Square, int] = {}
        self.pos: list[Square | None] = [None] * n
        self.speed = [0] * n
        self.progress = [0] * n
        self.reached: list[tuple[int, ...]] = [(0,) * rows for _ in range(n)]
        self.coins = [ALL_COINS] * n
        # Obstacle coins are not used in the initial setup (chaos round step 2).
        self.in_hand = [2] * n
        self.out_this_round = [False] * n
        self.phase: Phase = ORDER
        self.order: tuple[int, ...] = ()
        self.ties: tuple[tuple[int, ...], ...] = ()
        self.order_for: OrderFor = SETUP
        self.turn = 0
        self.reentering = -1
        self.relocator = -1
        self.tiles_left = 0
        self.lifted: Tile | None = None
        self.moved: frozenset[Tile] = frozenset()
        self.obstacle_pass = 0
        self.round = 0
        self.chaos_row = -1
        self.clock = 0
        self.winner = -1
        self.capped = False
        self._tables = CourseTables()

    # -- derived, cached views ------------------------------------------------------------

    def course(self) -> frozenset[Square]:
        tables = self._tables
        if tables.squares is None:
            tables.squares = course_squares(self.tiles)
        return tables.squares

    def obstacle_set(self) -> frozenset[Square]:
        tables = self._tables
        if tables.obstacle_set is None:
            tables.obstacle_set = frozenset(self.obstacles)
        return tables.obstacle_set

    def obstacle_key(self) -> frozenset[tuple[Square, int]]:
        """The obstacles and their owners as one hashable value, made once per course."""
        tables = self._tables
        if tables.obstacle_key is None:
            tables.obstacle_key = frozenset(self.obstacles.items())
        return tables.obstacle_key

    def _course_changed(self, removed: frozenset[Square] = NONE, added: frozenset[Square] = NONE) -> None:
        """The course changed: fresh tables. `removed`, `added`: the free squares it lost
        and gained, if that is the whole change, so the new tables may reuse what the old
        ones worked out (see CourseTables)."""
        change = (removed, added) if removed or added else None
        self._tables = CourseTables(None if change is None else (self._tables, change))

    def distance_to_next_gate(self, cruiser: int) -> int:
        square = self.pos[cruiser]
        if self.progress[cruiser] >= len(self.game.chart):
            return 0
        if square is None:
            return UNREACHABLE
        return self.gate_distance_map(self.game.row_tile[self.progress[cruiser]]).get(square, UNREACHABLE)

    def gate_distance_map(self, tile: Tile) -> dict[Square, int]:
        """Squares to `tile` from every free square, on the course as it stands (rule 2)."""
        dist = self._tables.dist
        dmap = dist.get(tile)
        if dmap is None:
            dmap = dist[tile] = gate_distances(tile, self.course(), self.obstacle_set())
        return dmap

    def turns_table(self, tile: Tile) -> TurnsToGate:
        """Turns to reach `tile` from every square and speed, on the course as it stands."""
        table = self._tables.turns.get(tile)
        if table is None:
            table = self._tables.table(self.game.turn_tables, tile, self.course() - self.obstacle_set())
        return table

    def finished(self, cruiser: int) -> bool:
        return self.progress[cruiser] >= self.game.rows

    def racing(self) -> list[int]:
        """Cruisers still in the race (a finished cruiser leaves the course)."""
        return [c for c in range(self.game.num_cruisers) if not self.finished(c)]

    def occupied(self) -> dict[Square, int]:
        # A plain loop: a comprehension is a call more (every ram asks).
        taken = {}
        for c, p in enumerate(self.pos):
            if p is not None:
                taken[p] = c
        return taken

    def cruiser_tiles(self) -> set[Tile]:
        return {tile_of(p) for p in self.pos if p is not None}

    def lead_order_keys(self) -> dict[int, tuple[int, int, int]]:
        return {
            c: lead_key(self.progress[c], self.distance_to_next_gate(c), self.speed[c]) for c in self.racing()
        }

    def return_tile(self, cruiser: int) -> Tile:
        """The tile of the last gate passed, or the sun gate's before any."""
        return self.game.return_tiles[self.progress[cruiser]]

    def deciding_cruiser(self) -> int:
        phase = self.phase
        if phase in IN_ORDER:
            return self.order[self.turn]
        if phase == REENTER:
            return self.reentering
        if phase in RELOCATING:
            return self.relocator
        return -1

    # -- the contract -------------------------------------------------------------------------

    def current_player(self) -> int:
        # deciding_cruiser written out: search asks this several times per step. The phases
        # of a cruising turn first, by identity (the phase is always a `Phase` member).
        phase = self.phase
        if phase is SPEED or phase is MOVE:
            return self.game.owner[self.order[self.turn]]
        if phase is REENTER:
            return self.game.owner[self.reentering]
        if phase is ORDER:
            return CHANCE
        if phase in IN_ORDER:
            return self.game.owner[self.order[self.turn]]
        if phase in RELOCATING:
            return self.game.owner[self.relocator]
        return TERMINAL

    def chance_outcomes(self) -> list[tuple[CruisersAction, float]]:
        if self.phase is not ORDER:
            return []
        tied = self.ties[0]
        outcomes = TIE_OUTCOMES.get(tied)
        if outcomes is None:
            outcomes = TIE_OUTCOMES[tied] = tuple(uniform([LEADS[c] for c in tied]))
        return list(outcomes)

    def _legal_actions(self) -> list[CruisersAction]:
        phase = self.phase
        if phase == SPEED:
            return SPEED_LISTS[self.coins[self.order[self.turn]]]
        if phase == MOVE:
            return MOVE_LISTS[self.speed[self.order[self.turn]]]
        if phase == START:
            return self._free_of(self.game.starts)
        if phase == REENTER:
            return self._free_of(self.game.reentries[self.game.return_tiles[self.progress[self.reentering]]])
        if phase == LIFT:
            tiles = movable_tiles(self.tiles, self.game.gate_tiles, self.cruiser_tiles(), self.moved)
            return [*(Lift(tile_squares(t)[0]) for t in tiles), StopRelocating()]
        if phase == LAY:
            assert self.lifted is not None
            return [Lay(tile_squares(t)[0]) for t in lay_spots(self.tiles, self.lifted)]
        if phase == OBSTACLES:
            squares = self.obstacle_choices()
            return [Obstacle(s) for s in squares] if squares else [KeepObstacle()]
        return []

    def free_squares(self, tile: Tile) -> list[Square]:
        taken = set(self.pos)
        return [s for s in tile_squares(tile) if s not in taken and s not in self.obstacles]

    def _free_of(self, actions: tuple[Start, ...] | tuple[Reenter, ...]) -> list[CruisersAction]:
        """The actions (one per square of a tile, made once per game) whose square is free."""
        # A plain loop over the tile's four squares (a set and a comprehension cost more).
        pos, obstacles = self.pos, self.obstacles
        free: list[CruisersAction] = []
        for a in actions:
            square = a.square
            if square not in pos and square not in obstacles:
                free.append(a)
        return free

    def obstacle_choices(self) -> list[Square]:
        return obstacle_squares(self.course(), self.obstacles, self.game.gate_tiles, self.cruiser_tiles())

    def _apply_action(self, action: CruisersAction) -> list[CruisersAction] | None:
        """Play an action; a cruising turn's next choices for the core's cache (the
        tables' own lists: a playout asks for them at every step)."""
        # A cruising turn's speed choice and path first: each carries its effect, worked
        # out once (Speed.after, Move.path).
        if type(action) is Speed:
            c = self.order[self.turn]
            speeds = self.speed
            speed = speeds[c] = action.after[speeds[c]]
            coin = action.coin
            if coin:
                coins = self.coins[:]  # shared with clones: replaced, not changed in place
                coins[c] &= ~(1 << coin)
                self.coins = coins
            if speed:
                self.phase = MOVE
                return MOVE_LISTS[speed]
            self._next_cruiser(self.turn + 1)  # null: the cruiser stands still
        elif type(action) is Move:
            self._move_by(action.path)
        elif isinstance(action, Lead):
            self._take_lead(action.cruiser)
        elif isinstance(action, Start):
            self._place_at_start(action.square)
        elif isinstance(action, Reenter):
            self._reenter(action.square)
        elif isinstance(action, Lift):
            self._lift(tile_of(action.square))
        elif isinstance(action, Lay):
            self._lay(tile_of(action.square))
        elif isinstance(action, StopRelocating):
            self._end_relocation()
        elif isinstance(action, Obstacle | KeepObstacle):
            self._place_obstacle(action)
        phase = self.phase
        if phase is SPEED:
            return SPEED_LISTS[self.coins[self.order[self.turn]]]
        if phase is MOVE:
            return MOVE_LISTS[self.speed[self.order[self.turn]]]
        if phase is ORDER:
            tied = self.ties[0]
            leads = TIE_LEADS.get(tied)
            if leads is None:
                leads = TIE_LEADS[tied] = shared_actions(LEADS[c] for c in tied)
            return leads
        if phase is REENTER:
            return self._free_of(self.game.reentries[self.game.return_tiles[self.progress[self.reentering]]])
        return None

    # -- playing order (rules 1-4) ------------------------------------------------------------

    def begin_setup(self) -> None:
        """Setup: cruisers are placed in seat order (for age order) or in a rolled order."""
        self._determine_order(SETUP)

    def _determine_order(self, purpose: OrderFor) -> None:
        groups: tuple[tuple[int, ...], ...]
        if purpose == SETUP:
            n = self.game.num_cruisers
            rolled = self.game.options["setup_order"] == "roll"
            groups = (tuple(range(n)),) if rolled else tuple((c,) for c in range(n))
        else:
            groups = self._lead_groups()
        self.order = ()
        self.ties = groups
        self.order_for = purpose
        self._settle_order()

    def _lead_groups(self) -> tuple[tuple[int, ...], ...]:
        """`race.lead_groups(self.lead_order_keys())` written out: it runs every round."""
        # Each racing cruiser as (lead key..., cruiser) in one flat tuple: sorted as
        # ((-progress, distance, -speed), cruiser), with one tuple made instead of two.
        rows = self.game.rows
        row_dist = self._tables.row_dist
        speed, progress = self.speed, self.progress
        keyed = []
        for c, square in enumerate(self.pos):
            k = progress[c]
            if k < rows:
                if square is None:
                    distance = UNREACHABLE
                else:
                    try:  # a subscript costs less than get(); a miss is rare
                        distance = row_dist[k][square]
                    except KeyError:
                        distance = self._row_distance(k, square)
                keyed.append((-k, distance, -speed[c], c))
        keyed.sort()
        groups: list[tuple[int, ...]] = []
        a = b = d = None
        for k, distance, s, c in keyed:
            if k == a and distance == b and s == d:
                groups[-1] += (c,)
            else:
                groups.append((c,))
                a, b, d = k, distance, s
        return tuple(groups)

    def _row_distance(self, k: int, square: Square) -> int:
        """Squares from `square` to chart row k's gate tile (kept per row in the tables)."""
        dmap = self._tables.row_dist.get(k)
        if dmap is None:
            dmap = self._tables.row_dist[k] = self.gate_distance_map(self.game.row_tile[k])
        return dmap.get(square, UNREACHABLE)

    def _take_lead(self, cruiser: int) -> None:
        tied = self.ties[0]
        place = tied.index(cruiser)
        rest = tied[:place] + tied[place + 1 :]
        self.order = (*self.order, cruiser)
        self.ties = ((rest,) if rest else ()) + self.ties[1:]
        self._settle_order()

    def _settle_order(self) -> None:
        # The cruisers alone in their groups, up to the next tie, take their places.
        ties, order = self.ties, self.order
        settled = 0
        for group in ties:
            if len(group) > 1:
                break
            order += group
            settled += 1
        if settled:
            ties = ties[settled:]
            self.order = order
            self.ties = ties
        if ties:
            self.phase = ORDER
            return
        self.turn = 0
        order_for = self.order_for
        if order_for is CRUISE:
            self._next_cruiser(0)
        elif order_for == SETUP:
            self.phase = START
        else:
            self.obstacle_pass = 1
            self._next_obstacle_placer()

    def _reenter(self, square: Square) -> None:
        self.pos[self.reentering] = square
        self.reentering = -1
        self._end_turn()

    def _place_at_start(self, square: Square) -> None:
        self.pos[self.order[self.turn]] = square
        self.turn += 1
        if self.turn == len(self.order):
            self._begin_cruising_round()

    # -- cruising round --------------------------------------------------------------------

    def _begin_cruising_round(self, order_known: bool = False) -> None:
        self.round += 1
        cap = self.game.max_rounds
        if cap and self.round > cap:
            self.round -= 1
            self.capped = True
            self.phase = OVER
            return
        self.out_this_round = [False] * self.game.num_cruisers
        if order_known:
            # Chaos round step 4 fixed the playing order of this round.
            self._next_cruiser(0)
        else:
            # _determine_order(CRUISE) written out: it runs every round.
            self.order = ()
            self.ties = self._lead_groups()
            self.order_for = CRUISE
            self._settle_order()

    def _next_cruiser(self, turn: int) -> None:
        """The turn passes to the cruiser at `turn` in the playing order, skipping cruisers
        that finished or went out of bounds earlier in this round."""
        # The fields read in the loop, not first: mostly the first cruiser looked at plays.
        order = self.order
        end = len(order)
        while turn < end:
            c = order[turn]
            if self.progress[c] < self.game.rows and not self.out_this_round[c]:
                self.turn = turn
                self.phase = SPEED
                return
            turn += 1
        self.turn = turn
        self._end_cruising_round()

    def _end_turn(self) -> None:
        if self.phase is OVER:
            return
        self._next_cruiser(self.turn + 1)

    def _end_cruising_round(self) -> None:
        row = min(self.progress) - 1
        if row > self.chaos_row:
            self._begin_chaos_round(row)
        else:
            self._begin_cruising_round()

    def _move_by(self, steps: tuple[tuple[int, int], ...]) -> None:
        """The deciding cruiser moves by these unit steps (a path of MOVE_TABLE)."""
        c = self.order[self.turn]
        pos = self.pos
        start = pos[c]
        assert start is not None
        course = self._tables.squares or self.course()
        obstacles = self.obstacles or ()  # mostly none: an empty tuple is searched at once
        progress, row_squares, rows = self.progress, self.game.row_squares, self.game.rows
        entered, outcome, direction = walk(start, steps, course, obstacles, pos)
        # Only where a square of the next gate's tile was entered can the gate checks below
        # change anything on the way.
        k = progress[c]
        through_gate = k < rows and not row_squares[k].isdisjoint(entered)
        # Where everyone stood before the move: the rammed cruiser and those behind it.
        occupied = self.occupied() if outcome == "ram" else {}
        if through_gate:
            for square in entered:
                pos[c] = square
                # _check_gate's own test first: most squares are no gate's.
                k = progress[c]
                if k < rows and square in row_squares[k]:
                    if self._check_gate(c, square):
                        self._end_turn()  # the cruiser finished and left the course
                        return
                    progress = self.progress  # the gate check replaced the list
        elif entered:
            pos[c] = entered[-1]
        if outcome == "out":
            self._send_out(c)
            return
        if outcome == "ram":
            self._ram(c, entered[-1], direction, occupied)
            if self.phase in (REENTER, OVER):
                return
        self._next_cruiser(self.turn + 1)

    def _ram(
        self, rammer: int, square: Square, direction: tuple[int, int], occupied: dict[Square, int]
    ) -> None:
        """Stop on the rammed square, push the rammed cruiser (and any lined up behind it)
        one square on, and slow the rammer by one."""
        self.speed[rammer] = max(0, self.speed[rammer] - 1)
        chain, landing = push_chain(square, direction, occupied)
        pushed = [occupied[s] for s in chain]
        course, obstacles = self._tables.squares or self.course(), self.obstacles
        progress, row_squares, rows = self.progress, self.game.row_squares, self.game.rows
        last = pushed[-1]
        goes_out = landing not in course or landing in obstacles
        for i in range(len(pushed) - 1, -1, -1):
            victim = pushed[i]
            if victim == last and goes_out:
                continue
            target = (chain[i][0] + direction[0], chain[i][1] + direction[1])
            self.pos[victim] = target
            k = progress[victim]
            if k < rows and target in row_squares[k]:  # _check_gate's own test first
                self._check_gate(victim, target)
                if self.phase == OVER:
                    return
                progress = self.progress  # the gate check replaced the list
        if goes_out:
            self._send_out(last)

    def _check_gate(self, cruiser: int, square: Square) -> bool:
        """Check the next gate on the chart when the cruiser enters its tile (only in
        order). True when this completed the race for the cruiser."""
        chart = self.game.chart
        k = self.progress[cruiser]
        if k >= len(chart) or square not in self.game.row_squares[k]:
            return False
        self.clock += 1
        reached = list(self.reached[cruiser])
        reached[k] = self.clock
        # Both lists are shared with clones: replaced, not changed in place.
        everyone = self.reached[:]
        everyone[cruiser] = tuple(reached)
        self.reached = everyone
        progress = self.progress[:]
        progress[cruiser] = k + 1
        self.progress = progress
        if k + 1 < len(chart):
            return False
        self.pos[cruiser] = None
        owner = self.game.owner[cruiser]
        if all(self.finished(c) for c in self.game.cruisers_of[owner]):
            self.winner = owner
            self.phase = OVER
        return True

    def _send_out(self, cruiser: int) -> None:
        """Out of bounds: back to the last gate passed, speed null, its player picks the
        square; it sits out the rest of this cruising round."""
        self.pos[cruiser] = None
        self.speed[cruiser] = 0
        out = self.out_this_round[:]  # shared with clones: replaced, not changed in place
        out[cruiser] = True
        self.out_this_round = out
        self.reentering = cruiser
        self.phase = REENTER

    # -- chaos round ---------------------------------------------------------------------------

    def _begin_chaos_round(self, row: int) -> None:
        chart = self.game.chart
        completed = chart[self.chaos_row + 1 : row + 1]
        self.chaos_row = row
        retrieval = self.game.options["coin_retrieval"]
        # Step 1: speed coins come back after the sun gate (or as variant 3 says).
        if retrieval == "every_chaos_round" or (retrieval == "sun" and "sun" in completed):
            self.coins = [ALL_COINS] * self.game.num_cruisers
        # Step 2: obstacles return to their owners.
        self.obstacles = {}
        self.in_hand = [2] * self.game.num_cruisers
        self._course_changed()
        # Step 3: the last cruiser to reach the gate rearranges the course.
        self.relocator = max(range(self.game.num_cruisers), key=lambda c: self.reached[c][row])
        self.tiles_left = self.game.options["tiles_moved"]
        if self.tiles_left > 0:
            self.phase = LIFT
        else:
            self._end_relocation()

    def _lift(self, tile: Tile) -> None:
        self.tiles = self.tiles - {tile}
        self.lifted = tile
        self._course_changed(removed=frozenset(s for s in tile_squares(tile) if s not in self.obstacles))
        self.phase = LAY

    def _lay(self, tile: Tile) -> None:
        self.tiles = self.tiles | {tile}
        self.moved = self.moved | {tile}
        self.lifted = None
        self._course_changed(added=frozenset(tile_squares(tile)))
        self.tiles_left -= 1
        if self.tiles_left > 0:
            self.phase = LIFT
        else:
            self._end_relocation()

    def _end_relocation(self) -> None:
        """Step 3 is over: on to step 4, the playing order."""
        self.moved = frozenset()
        self._determine_order(CHAOS)

    def _next_obstacle_placer(self) -> None:
        """Step 4: in playing order, each racing cruiser's player places one obstacle;
        then a second pass places the other."""
        while self.obstacle_pass <= 2:
            while self.turn < len(self.order):
                if not self.finished(self.order[self.turn]):
                    self.phase = OBSTACLES
                    return
                self.turn += 1
            self.obstacle_pass += 1
            self.turn = 0
        self.obstacle_pass = 0
        self.relocator = -1
        self._begin_cruising_round(order_known=True)

    def _place_obstacle(self, action: Obstacle | KeepObstacle) -> None:
        c = self.order[self.turn]
        if isinstance(action, Obstacle):
            self.obstacles = {**self.obstacles, action.square: c}
            in_hand = self.in_hand[:]  # shared with clones: replaced, not changed in place
            in_hand[c] -= 1
            self.in_hand = in_hand
            self._course_changed(removed=frozenset((action.square,)))
        self.turn += 1
        self._next_obstacle_placer()

    # -- results ---------------------------------------------------------------------------------

    def returns(self) -> list[float]:
        players = self.game.num_players
        if self.phase != OVER:
            return [0.0] * players
        if self.winner >= 0:
            return [1.0 if p == self.winner else 0.0 for p in range(players)]
        # max_rounds reached: the lead order (rules 1-3) decides; a player stands where
        # his trailing cruiser stands; players tied share the win.
        keys = self.lead_order_keys()
        best_of: list[tuple[int, int, int]] = []
        for p in range(players):
            own = [keys.get(c, (-len(self.game.chart), 0, 0)) for c in self.game.cruisers_of[p]]
            best_of.append(max(own))
        top = min(best_of)
        leaders = [p for p in range(players) if best_of[p] == top]
        return [1.0 / len(leaders) if p in leaders else 0.0 for p in range(players)]

    def round_number(self) -> int:
        return self.round

    def ended_by(self) -> str | None:
        if self.phase != OVER:
            return None
        return ENDED_BY_CAP if self.capped else ENDED_BY_RULES

    # -- copying and documents -------------------------------------------------------------
    # document.py reads documents into states, so it imports this module; the game, which
    # imports both, writes them (so no import runs in a circle).

    def clone(self) -> ChaosCruisersState:
        new = object.__new__(ChaosCruisersState)
        new.game = self.game
        self._copy_caches_to(new)
        new.tiles = self.tiles
        new.obstacles = self.obstacles  # replaced, never mutated in place
        new.pos = self.pos[:]
        new.speed = self.speed[:]
        # Shared with the clone: the rules replace these lists when they change one (see
        # the class text), so a copy is made only then.
        new.progress = self.progress
        new.reached = self.reached
        new.coins = self.coins
        new.in_hand = self.in_hand
        new.out_this_round = self.out_this_round
        new.phase = self.phase
        new.order = self.order
        new.ties = self.ties
        new.order_for = self.order_for
        new.turn = self.turn
        new.reentering = self.reentering
        new.relocator = self.relocator
        new.tiles_left = self.tiles_left
        new.lifted = self.lifted
        new.moved = self.moved
        new.obstacle_pass = self.obstacle_pass
        new.round = self.round
        new.chaos_row = self.chaos_row
        new.clock = self.clock
        new.winner = self.winner
        new.capped = self.capped
        new._tables = self._tables
        return new

    def to_json(self) -> dict[str, Any]:
        return {**self.game.doc_header(), **self.game.state_document(self)}

    def _observation(self, player: int | None) -> dict[str, Any]:
        # Nothing is hidden in Chaos Cruisers: everyone sees the whole table.
        doc = {"player": player, **self.game.state_document(self)}
        if self.phase == OVER:
            doc["ended_by"] = self.ended_by()
        return doc

    def __str__(self) -> str:
        return self.game.render_text(self)
