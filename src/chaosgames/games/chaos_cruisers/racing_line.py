"""Turns to a gate: how many cruising rounds a cruiser needs to reach a gate's tile from a
square at a given speed, driving by the rules of "How to Move" on an empty course.

The heuristic evaluation is built on this table. Squares alone mislead in this race: a
cruiser must cover exactly its speed with one 90-degree turn at most, and speed changes
by one a turn, so a fast cruiser before a bend is worse off than a slow one a square
behind it. The table counts whole turns, speed included, over the course as it stands
(tiles and obstacles); other cruisers are ignored (they move: rams and traffic are left
to the search), and so are speed coins (their worth is counted apart).

A turn is the rulebook's: adjust the speed by -1, 0 or +1, then move exactly that many
squares, straight or with one turn. Entering the gate's tile reaches it, even if the
move then goes out of bounds (the squares entered before it still count, and the
cruiser is put back on that very tile). A move that leaves the course or hits an
obstacle before the gate is never part of the shortest plan.

Search meets many courses: every tile laid and obstacle placed in a chaos round makes a
new one, and each needs a table for every gate of the chart. So a table is worked out
breadth first from the gate, one turn further at a time, and only as far as the questions
asked of it need (`TurnsToGate`): the legs between gates and the cruisers' squares
are usually answered long before the far side of the course. The course's straight
lines are worked out once and shared by its gates' tables (`CourseLines`), squares are
numbered, and each game keeps the tables of the courses it saw last in a `TableCache`.
"""

from __future__ import annotations

from collections import OrderedDict

from chaosgames.core.grid import ORTHOGONAL, Square
from chaosgames.games.chaos_cruisers.movement import MAX_SPEED

NO_ROUTE = 60
"""Turns counted for a square with no route to the gate (walled off by obstacles)."""

_SPEEDS = MAX_SPEED + 1
"""Entries per square in a table: speeds 0 to top speed."""
_NONE = bytes([NO_ROUTE] * _SPEEDS)
CourseChange = tuple[frozenset[Square], frozenset[Square]]
"""How a course was made from another: the free squares taken away, and those added."""
_UNLISTED: list[tuple[int, ...] | None] = [None] * _SPEEDS
_TURNS = ((1, 3), (2, 0), (3, 1), (0, 2))
"""The two 90-degree turns from each direction of ORTHOGONAL (N, E, S, W)."""


class CourseLines:
    """The squares of a course without obstacles, numbered in order, and from each square
    the numbers of the free squares in a straight line N, E, S and W, up to top speed: a
    move is one line, or part of one and part of another after a turn. The moves that end
    on a square at a speed are listed the first time a table asks (`moves_ending`) and kept
    for the course's other gates."""

    __slots__ = ("ends", "lines", "number", "squares")

    def __init__(self, free: frozenset[Square]) -> None:
        self.squares = sorted(free)
        self.number = {square: i for i, square in enumerate(self.squares)}
        self.lines: list[tuple[tuple[int, ...], ...]] = [self._lines_from(square) for square in self.squares]
        self.ends: list[tuple[int, ...] | None] = [None] * (len(self.squares) * _SPEEDS)

    def changed(self, removed: frozenset[Square], added: frozenset[Square]) -> CourseLines:
        """This course less the squares `removed` (an obstacle placed, a tile lifted) and
        with the squares `added` (a tile laid), numbered as this one: a square taken away
        keeps its number but has no lines and cannot be looked up, a square added takes the
        next number. Only the lines of squares within top speed of a changed square, in a
        straight line, are drawn anew, and only the moves of squares within top speed of
        one are listed anew (no other move can touch it). Search makes such a course for
        every child of a chaos-round node."""
        new = object.__new__(CourseLines)
        squares = new.squares = self.squares[:]
        number = new.number = dict(self.number)
        lines = new.lines = self.lines[:]
        ends = new.ends = self.ends[:]
        changed = [square for square in removed if number.pop(square, None) is not None]
        for square in sorted(added - number.keys()):
            number[square] = len(squares)
            squares.append(square)
            lines.append(((), (), (), ()))
            ends.extend(_UNLISTED)
            changed.append(square)
        for x, y in changed:
            # The lines of squares that look along a row or column at it (and its own).
            for dx, dy in ((0, 0), *ORTHOGONAL):
                for step in range(MAX_SPEED + 1 if dx or dy else 1):
                    j = number.get((x - dx * step, y - dy * step))
                    if j is not None:
                        lines[j] = new._lines_from(squares[j])
            for dx in range(-MAX_SPEED, MAX_SPEED + 1):
                reach = MAX_SPEED - abs(dx)
                for dy in range(-reach, reach + 1):
                    j = number.get((x + dx, y + dy))
                    if j is not None:
                        ends[j * _SPEEDS : (j + 1) * _SPEEDS] = _UNLISTED
        for square in removed:
            i = self.number.get(square)
            if i is not None:
                lines[i] = ((), (), (), ())
        return new

    def _lines_from(self, square: Square) -> tuple[tuple[int, ...], ...]:
        """The numbers of the free squares in a straight line N, E, S, W of `square`."""
        x, y = square
        number = self.number
        four = []
        for dx, dy in ORTHOGONAL:
            line = []
            for step in range(1, MAX_SPEED + 1):
                i = number.get((x + dx * step, y + dy * step))
                if i is None:
                    break
                line.append(i)
            four.append(tuple(line))
        return tuple(four)

    def moves_ending(self, entry: int) -> tuple[int, ...]:
        """The entries (square * 6 + speed) from which a move of that speed, staying on the
        course, ends at `entry`'s square: the same as the ends of that speed's moves from
        it (a move reversed is again a move), each once."""
        square, speed = divmod(entry, _SPEEDS)
        lines = self.lines
        ends = set()
        for d in range(4):
            line = lines[square][d]
            if len(line) >= speed:
                ends.add(line[speed - 1] * _SPEEDS + speed)
            left, right = _TURNS[d]
            for k in range(min(len(line), speed - 1)):
                rest = speed - k - 1
                corner = lines[line[k]]
                for after in (corner[left], corner[right]):
                    if len(after) >= rest:
                        ends.add(after[rest - 1] * _SPEEDS + speed)
        found = self.ends[entry] = tuple(ends)
        return found


class TurnsToGate:
    """Turns to one gate on one course, per square and speed 0-5, worked out as far as asked.

    `before`: turns from the start of the cruiser's turn (it may still change speed).
    `moving`: turns when its speed is already set this turn (the move still to be made
    counts as one). Breadth first from the gate: turn by turn, every entry reached in that
    many turns is set, and an entry once set is final (later turns only find longer plans).
    A question about an entry not yet set works out further turns until it is, or until
    nothing is left (no route: NO_ROUTE).
    """

    __slots__ = ("_before", "_course", "_frontier", "_goal", "_lines", "_moving", "_near", "_number")

    def __init__(self, goal_squares: tuple[Square, ...], lines: CourseLines) -> None:
        number = self._number = lines.number
        count = len(lines.squares)
        self._course = lines
        self._lines = lines.lines
        goal = self._goal = bytearray(count)
        goals = [i for i in (number.get(square) for square in goal_squares) if i is not None]
        for i in goals:
            goal[i] = 1
        self._before = before = bytearray([NO_ROUTE]) * (count * _SPEEDS)
        self._moving = bytearray([NO_ROUTE]) * (count * _SPEEDS)
        # Squares from which a move can touch the goal: within top speed of the gate's tile,
        # as the crow walks (of its whole tile: a few more squares than needed where an
        # obstacle stands on it, which only costs time). Only their moves need the goal
        # checked square by square.
        near = self._near = bytearray(count)
        for i in goals:
            before[i * _SPEEDS : (i + 1) * _SPEEDS] = bytes(_SPEEDS)
        if goals:
            low_x, high_x = min(x for x, _ in goal_squares), max(x for x, _ in goal_squares)
            low_y, high_y = min(y for _, y in goal_squares), max(y for _, y in goal_squares)
            for i, (x, y) in enumerate(lines.squares):
                off_x = low_x - x if x < low_x else (x - high_x if x > high_x else 0)
                off_y = low_y - y if y < low_y else (y - high_y if y > high_y else 0)
                if off_x + off_y <= MAX_SPEED and not goal[i]:
                    near[i] = 1
        self._frontier: list[int] = []
        for i in range(count):
            if near[i]:
                for speed in range(self._reach(i), _SPEEDS):
                    self._settle(i * _SPEEDS + speed, 1)

    # -- questions -----------------------------------------------------------------------

    def turns(self, square: Square, speed: int, speed_set: bool) -> int:
        i = self._number.get(square)
        if i is None:
            return NO_ROUTE
        entry = i * _SPEEDS + speed
        values = self._moving if speed_set else self._before
        while values[entry] == NO_ROUTE and self._frontier:
            self._next_turn()
        return values[entry]

    def rows(self, square: Square) -> tuple[bytes, bytes]:
        """The square's `before` and `moving` entries (speed 0-5)."""
        i = self._number.get(square)
        if i is None:
            return _NONE, _NONE
        first, last = i * _SPEEDS, (i + 1) * _SPEEDS
        before, moving = self._before, self._moving
        while self._frontier and (NO_ROUTE in before[first:last] or NO_ROUTE in moving[first:last]):
            self._next_turn()
        return bytes(before[first:last]), bytes(moving[first:last])

    def best_plan(self, starts: tuple[Square, ...]) -> tuple[int, frozenset[Square]]:
        """The fewest turns to the gate from any of `starts` at speed null, and the squares
        that one plan of that many turns sweeps: its start and every square its moves pass
        or end on, up to the gate (none when there is no route). On a course with fewer
        squares the turns can only be as many or more (it has fewer moves); if the squares
        taken away miss this plan, it still drives, so they are as many."""
        best, first = NO_ROUTE, None
        for start in starts:
            turns = self.turns(start, 0, False)
            if turns < best:
                best, first = turns, start
        if first is None:
            return NO_ROUTE, frozenset()
        return best, self.plan(first, 0, False)

    def plan(self, square: Square, speed: int, speed_set: bool) -> frozenset[Square]:
        """The squares one best plan from this entry sweeps (see `best_plan`; none when
        there is no route from it)."""
        turns = self.turns(square, speed, speed_set)
        if turns == NO_ROUTE:
            return frozenset()
        i = self._number[square]
        swept = [i]
        moving = self._moving
        while turns > 0:
            if not speed_set:
                # Its `before` entry is `turns`: it sets a speed one step away whose move
                # takes as many turns (there is one; see _settle).
                row = i * _SPEEDS
                speed = next(
                    s for s in (speed, speed - 1, speed + 1) if 0 <= s < _SPEEDS and moving[row + s] == turns
                )
            speed_set = False
            turns -= 1
            if speed == 0:  # it stands still a turn
                continue
            path = self._move_towards(i, speed, turns)
            swept.extend(path)
            i = path[-1]
            if self._goal[i]:
                break
        squares = self._course.squares
        return frozenset(squares[i] for i in swept)

    def _move_towards(self, square: int, speed: int, left: int) -> list[int]:
        """The squares of a move of `speed` from `square` that enters the gate's tile (if
        `left` is 0) or ends on a square whose `before` entry at that speed is `left`."""
        goal, lines, before = self._goal, self._lines, self._before
        for d in range(4):
            line = lines[square][d]
            for k in range(min(len(line), speed)):
                if goal[line[k]]:
                    if left == 0:
                        return list(line[: k + 1])
                    break
                rest = speed - k - 1
                if rest == 0:
                    if before[line[k] * _SPEEDS + speed] == left:
                        return list(line[: k + 1])
                    break
                for turn in _TURNS[d]:
                    after = lines[line[k]][turn][:rest]
                    for j, s in enumerate(after):
                        if goal[s]:
                            if left == 0:
                                return [*line[: k + 1], *after[: j + 1]]
                            break
                    else:
                        if len(after) == rest and before[after[-1] * _SPEEDS + speed] == left:
                            return [*line[: k + 1], *after]
        raise AssertionError("a settled entry has a move that settled it")

    # -- breadth first -------------------------------------------------------------------

    def _settle(self, entry: int, turns: int) -> None:
        """`moving` at `entry` (square * 6 + speed) is reached in `turns`: and so is
        `before` at any speed one step away (the speed could have been set to this one)."""
        moving = self._moving
        if moving[entry] <= turns:
            return
        moving[entry] = turns
        before = self._before
        speed = entry % _SPEEDS
        for ahead in (entry - 1, entry, entry + 1) if 0 < speed < MAX_SPEED else self._edges(entry, speed):
            if before[ahead] > turns:
                before[ahead] = turns
                self._frontier.append(ahead)

    @staticmethod
    def _edges(entry: int, speed: int) -> tuple[int, ...]:
        return (entry, entry + 1) if speed == 0 else (entry - 1, entry)

    def _next_turn(self) -> None:
        """Every entry one turn further than the last: from each `before` entry set last
        time, the moves of its speed that end there, reversed (a move of one line and a
        turn, reversed, is again such a move), reach it one turn more."""
        frontier, self._frontier = self._frontier, []
        before, moving, goal, near, lines = self._before, self._moving, self._goal, self._near, self._lines
        settle = self._settle
        course_ends = self._course.ends
        for entry in frontier:
            turns = before[entry] + 1
            square, speed = divmod(entry, _SPEEDS)
            if speed == 0:
                settle(entry, turns)  # speed null: the cruiser stands still a turn
                continue
            if goal[square]:
                continue
            own = lines[square]
            if near[square]:
                # Near the goal: a move ends here only if it enters no goal square first.
                for d in range(4):
                    line = own[d]
                    left, right = _TURNS[d]
                    for k in range(min(len(line), speed)):
                        corner = line[k]
                        if goal[corner]:
                            break
                        rest = speed - k - 1
                        if rest == 0:
                            end = corner * _SPEEDS + speed
                            if moving[end] > turns:
                                settle(end, turns)
                            break
                        for after in (lines[corner][left], lines[corner][right]):
                            if len(after) >= rest:
                                for j in range(rest):
                                    if goal[after[j]]:
                                        break
                                else:
                                    end = after[rest - 1] * _SPEEDS + speed
                                    if moving[end] > turns:
                                        settle(end, turns)
                continue
            # Far from the goal: every move of this speed that stays on the course.
            ends = course_ends[entry]
            if ends is None:
                ends = self._course.moves_ending(entry)
            for end in ends:
                if moving[end] > turns:
                    settle(end, turns)

    def _reach(self, square: int) -> int:
        """The lowest speed whose move from `square` enters the goal (top speed + 1: none)."""
        goal, lines = self._goal, self._lines
        reach = _SPEEDS
        for d in range(4):
            line = lines[square][d]
            for k, corner in enumerate(line):
                if goal[corner]:
                    reach = min(reach, k + 1)
                    break
                for turn in _TURNS[d]:
                    for m, s in enumerate(lines[corner][turn][: MAX_SPEED - k - 1]):
                        if goal[s]:
                            reach = min(reach, k + m + 2)
                            break
        return reach


def turns_to_gate(goal_squares: tuple[Square, ...], free: frozenset[Square]) -> TurnsToGate:
    """The table for one gate on one course (`free`: course squares without obstacles)."""
    return TurnsToGate(goal_squares, CourseLines(free))


class TableCache:
    """The turns tables of the courses seen last, by (free squares, gate tile), and the
    straight lines of those courses (shared by their gates' tables)."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._tables: OrderedDict[tuple[frozenset[Square], tuple[Square, ...]], TurnsToGate] = OrderedDict()
        self._lines: OrderedDict[frozenset[Square], CourseLines] = OrderedDict()

    def table(
        self,
        goal_squares: tuple[Square, ...],
        free: frozenset[Square],
        before: tuple[frozenset[Square], CourseChange] | None = None,
    ) -> TurnsToGate:
        """The table of a gate on a course. `before`: the course this one was made from
        and the change (its lines are derived from that one's, if still kept)."""
        key = (free, goal_squares)
        table = self._tables.get(key)
        if table is None:
            table = self._tables[key] = TurnsToGate(goal_squares, self._course_lines(free, before))
            if len(self._tables) > self.size:
                self._tables.popitem(last=False)
        else:
            self._tables.move_to_end(key)
        return table

    def _course_lines(
        self, free: frozenset[Square], before: tuple[frozenset[Square], CourseChange] | None
    ) -> CourseLines:
        lines = self._lines.get(free)
        if lines is None:
            parent = None if before is None else self._lines.get(before[0])
            lines = CourseLines(free) if parent is None or before is None else parent.changed(*before[1])
            self._lines[free] = lines
            if len(self._lines) > self.size:
                self._lines.popitem(last=False)
        else:
            self._lines.move_to_end(free)
        return lines
