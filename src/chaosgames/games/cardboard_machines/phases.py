"""Names shared by the rule modules: the phases of a turn and a few markers."""

FIRST, BOARDS, GEAR, MOVE, BONUS, RETURN_STRESS, ROLL, RESOLVE, TURN_OVER, OVER = range(10)
PHASE_NAMES = ("first", "boards", "gear", "move", "bonus", "return", "roll", "resolve", "turn_over", "over")
OFF = -1
"""Position of a car that is not on the track (crashed and waiting, or out of the race)."""
LEFT, RIGHT, MALF = 0, 1, 2
"""Indices of the remaining stress dice after blanks and pairs are removed."""
GHOST_SUPPLY = 10
"""The box holds 10 ghost miniatures."""
