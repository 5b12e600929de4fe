"""The game as its rule modules see it: the options in force and what the game worked out from them.

`CruisersRules` is what the state and the other modules read of `state.game` (the course,
the cruisers and their owners, the race progress chart and its gates). `ChaosCruisersGame`
(game.py) is one and fills it in from its options; the modules name this class, not the
game's, so none of them is in a circle with game.py, not even for the type checker.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, TypeVar

from chaosgames.core.game import Game, State
from chaosgames.core.grid import Square
from chaosgames.games.chaos_cruisers.actions import CruisersAction, Reenter, Start
from chaosgames.games.chaos_cruisers.course import Tile
from chaosgames.games.chaos_cruisers.racing_line import TableCache

S = TypeVar("S", bound=State[Any])
"""The game's state type (ChaosCruisersState)."""
A = TypeVar("A", bound=CruisersAction)
"""The game's action type (CruisersAction)."""


class CruisersRules(Game[S, A]):
    """The game as its rule modules see it: the options in force and what the game worked
    out from them."""

    course_doc: dict[str, Any]
    """The course document: a preset's or the one given as the `course` option."""
    num_cruisers: int
    """Cruisers in the race: one per player, two each with 2 players (variant 5)."""
    owner: tuple[int, ...]
    """The player of each cruiser (cruisers by colour: red, black, yellow, blue ...)."""
    cruisers_of: tuple[tuple[int, ...], ...]
    """Each player's cruisers."""
    chart: tuple[str, ...]
    """The race progress chart: the gates to pass in order, lap after lap."""
    rows: int
    """The chart's rows: a cruiser that passed them all has finished."""
    max_rounds: int
    """The cap on cruising rounds (not a rule; 0: none)."""
    gate_tile: dict[str, Tile]
    """The tile of each gate in use, by name."""
    gate_tiles: frozenset[Tile]
    """The tiles of the gates in use (never lifted in a chaos round)."""
    row_tile: tuple[Tile, ...]
    """The gate tile of each chart row."""
    row_squares: tuple[frozenset[Square], ...]
    """The squares of each chart row's gate tile: entering one checks that row."""
    return_tiles: tuple[Tile, ...]
    """Where a cruiser out of bounds returns after k gates: the last gate passed, or the
    sun gate before any."""
    start_tiles: frozenset[Tile]
    """The course's tiles at the start."""
    starts: tuple[Start, ...]
    """The setup's actions, one per square of the sun gate's tile (made once)."""
    reentries: dict[Tile, tuple[Reenter, ...]]
    """Re-entry's actions, one per square of each gate's tile (made once)."""
    turn_tables: TableCache
    """The heuristic's and the state's turns tables of the courses seen last."""

    @abstractmethod
    def state_document(self, state: S) -> dict[str, Any]:
        """The state's fields as its JSON document says them (see `State.to_json`)."""
