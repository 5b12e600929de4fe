"""The draw rule (seed, "Elimination and Winning"): moves repeated by both players.

"If the same set of moves is done by both players for 3 rounds in a row the game is
considered a draw." No move can be made again in the very next round (a piece that went
from 1 to 5 is no longer on 1), so the sentence is read as a cycle: a set of moves by
both players that brings the board back to where it began (a king going back and forth
against another: two rounds at the shortest) played three times in a row. That is option
`repetition="moves"` (the default). `repetition="position"` is the usual checkers rule
instead: the same position for the third time, which ends the same back-and-forth one
cycle sooner and also counts positions reached again by other moves.

Both are decided on the positions after each turn since the last irreversible one (the
first entry is the position before it): only a single quiet king move can be undone, and
such a move is known from the positions before and after it, so "the same moves three
times in a row" is the same sequence of positions recurring three times in a row.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from chaosgames.core.game import ENDED_BY_CAP, ENDED_BY_RULES

REPETITION_RULES = ("moves", "position")
DRAW = (0.5, 0.5)


def drawn_by_repetition(positions: Sequence[Hashable], rule: str) -> bool:
    """Whether the latest entry of `positions` (one per turn, see above) ends the game drawn."""
    n = len(positions) - 1  # turns recorded
    last = positions[n]
    if rule == "position":
        return positions.count(last) >= 3
    if positions.count(last) < 4:
        return False  # three cycles need the latest position four times
    for k in range(1, n // 3 + 1):
        # The last 3k turns are one k-turn cycle three times: positions n-3k .. n repeat every k.
        if all(positions[n - i] == positions[n - i - k] for i in range(2 * k + 1)):
            return True
    return False


def ending(outcome: tuple[float, float] | None, positions: Sequence[Hashable], rule: str) -> str | None:
    """`State.ended_by()`: None while the game goes on; a draw is the repetition rule's
    (rules) or else the `max_moves` cap's; any other ending is the rules'."""
    if outcome is None:
        return None
    repeated = bool(positions) and drawn_by_repetition(positions, rule)
    return ENDED_BY_CAP if outcome == DRAW and not repeated else ENDED_BY_RULES
