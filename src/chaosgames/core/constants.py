"""The two special values of `State.current_player()`."""

CHANCE = -1
"""A chance node: the next action is drawn from `state.chance_outcomes()`."""

TERMINAL = -2
"""The game is over: `state.returns()` holds the result."""
