"""Chaos Cruisers (Paul Elliot, 2003): the game, its options and presentation hooks."""

from __future__ import annotations

from typing import Any

from chaosgames.core.encoding import Encoding
from chaosgames.core.errors import InvalidOptionError
from chaosgames.core.game import Action, Game, State
from chaosgames.core.options import Option
from chaosgames.core.registry import register
from chaosgames.games.chaos_cruisers.actions import (
    COLOURS,
    NOTATION,
    Lay,
    Lead,
    Lift,
    Move,
    Obstacle,
    Reenter,
    Speed,
    Start,
)
from chaosgames.games.chaos_cruisers.course import GATE_NAMES, Tile, validate_course
from chaosgames.games.chaos_cruisers.movement import adjusted_speed, trace_move
from chaosgames.games.chaos_cruisers.presets import PRESETS
from chaosgames.games.chaos_cruisers.race import progress_chart
from chaosgames.games.chaos_cruisers.racing_line import TableCache
from chaosgames.games.chaos_cruisers.state import ChaosCruisersState


def _check_course(value: Any) -> Any:
    if isinstance(value, str):
        if value not in PRESETS:
            raise ValueError(f"there is no preset course {value!r}; choose {', '.join(sorted(PRESETS))}.")
        return value
    return validate_course(value)


@register
class ChaosCruisersGame(Game):
    """Hover-cruisers race through gates on a course that reshapes itself."""

    name = "chaos-cruisers"
    title = "Chaos Cruisers"
    pitch = "Hover-cruisers race through gates on a piecepack course that the last cruiser reshapes."
    min_players = 2
    max_players = 4
    default_players = 4
    option_spec = (
        Option(
            "course",
            object,
            "grand-loop",
            "a preset course (grand-loop, figure-eight, chicane) or a course JSON document",
            check=_check_course,
        ),
        Option(
            "tiles_moved",
            int,
            3,
            "tiles the last player moves in a chaos round (variant 2)",
            minimum=0,
            maximum=10,
        ),
        Option(
            "coin_retrieval",
            str,
            "sun",
            "when used speed coins come back (variant 3)",
            choices=("sun", "every_chaos_round", "never"),
        ),
        Option("laps", int, 2, "laps of the course (variant 4)", minimum=1, maximum=5),
        Option(
            "gates",
            int,
            4,
            "gates used: sun, then moon, crown, arms, then a second set moon2, crown2, arms2, sun2 "
            "named by the course (variant 4)",
            minimum=2,
            maximum=len(GATE_NAMES),
        ),
        Option(
            "two_cruisers",
            bool,
            True,
            "with 2 players, each races two cruisers and must finish with both (variant 5)",
        ),
        Option(
            "setup_order",
            str,
            "seats",
            "who places a cruiser first: seat order (for age order) or a roll",
            choices=("seats", "roll"),
        ),
        Option(
            "max_rounds",
            int,
            0,
            "not a rule: cap on cruising rounds, then the lead order decides and the game is ended "
            "by the cap (0: no cap)",
            minimum=0,
        ),
    )

    notation = NOTATION

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        course = self.options["course"]
        self.course_doc: dict[str, Any] = PRESETS[course] if isinstance(course, str) else course
        players = self.num_players
        self.num_cruisers = 2 * players if players == 2 and self.options["two_cruisers"] else players
        self.owner: tuple[int, ...] = tuple(c % players for c in range(self.num_cruisers))
        self.cruisers_of: tuple[tuple[int, ...], ...] = tuple(
            tuple(c for c in range(self.num_cruisers) if self.owner[c] == p) for p in range(players)
        )
        self.chart = progress_chart(self.options["gates"], self.options["laps"])
        used = GATE_NAMES[: self.options["gates"]]
        self.gate_tile: dict[str, Tile] = {
            g: (t[0], t[1]) for g, t in self.course_doc["gates"].items() if g in used
        }
        self.gate_tiles: frozenset[Tile] = frozenset(self.gate_tile.values())
        self.start_tiles: frozenset[Tile] = frozenset((t[0], t[1]) for t in self.course_doc["tiles"])
        # The heuristic's turns tables of the courses seen last (see racing_line).
        self.turn_tables = TableCache()

    def _check_options(self, options: dict[str, Any]) -> None:
        course = options["course"]
        doc = PRESETS[course] if isinstance(course, str) else course
        missing = [g for g in GATE_NAMES[: options["gates"]] if g not in doc["gates"]]
        if missing:
            raise InvalidOptionError(
                f"The course has no {', '.join(missing)} gate; with gates={options['gates']} it needs "
                f"{', '.join(GATE_NAMES[: options['gates']])}."
            )

    def new_initial_state(self) -> ChaosCruisersState:
        state = ChaosCruisersState(self)
        state._determine_order("setup")
        return state

    def _state_from_doc(self, doc: dict[str, Any]) -> State:
        from chaosgames.games.chaos_cruisers.document import state_from_document

        return state_from_document(self, doc)

    def player_names(self) -> list[str]:
        return ["+".join(COLOURS[c] for c in own) for own in self.cruisers_of]

    def render_svg(self, state: State, viewer: int | None = None, *, reveal: bool = False) -> str:
        from chaosgames.games.chaos_cruisers.svg import render_svg

        assert isinstance(state, ChaosCruisersState)
        return render_svg(state)  # nothing is hidden: every viewer sees the whole table

    def action_places(self, state: State, action: Action) -> tuple[str, ...]:
        from chaosgames.games.chaos_cruisers.svg import action_places

        assert isinstance(state, ChaosCruisersState)
        return action_places(state, action)

    def encoding(self) -> Encoding:
        from chaosgames.games.chaos_cruisers.encoding import CruisersEncoding

        return CruisersEncoding(self)

    def heuristic(self, state: State) -> list[float]:
        from chaosgames.games.chaos_cruisers.evaluation import win_shares

        assert isinstance(state, ChaosCruisersState)
        return win_shares(state)

    def describe_action(self, state: State, action: Action) -> str:
        assert isinstance(state, ChaosCruisersState)
        who = COLOURS[state.deciding_cruiser()] if state.deciding_cruiser() >= 0 else ""
        if isinstance(action, Speed):
            new = adjusted_speed(state.speed[state.deciding_cruiser()], action)
            return f"{who}: {action} (speed becomes {new})"
        if isinstance(action, Move):
            return f"{who}: {action} ({_move_outcome(state, action)})"
        if isinstance(action, Lead):
            return f"{COLOURS[action.cruiser]} wins the tie for the next place"
        if isinstance(action, Start | Reenter):
            return f"{who}: place the cruiser on {action.square[0]},{action.square[1]}"
        if isinstance(action, Lift | Lay):
            verb = "pick up" if isinstance(action, Lift) else "lay down"
            return f"{who}: {verb} the tile at {action.square[0]},{action.square[1]}"
        if isinstance(action, Obstacle):
            return f"{who}: put an obstacle on {action.square[0]},{action.square[1]}"
        return f"{who}: {action}"


def _move_outcome(state: ChaosCruisersState, move: Move) -> str:
    c = state.deciding_cruiser()
    start = state.pos[c]
    assert start is not None
    trace = trace_move(start, move, state.course(), state.obstacles, state.occupied())
    end = trace.entered[-1] if trace.entered else start
    if trace.outcome == "out":
        return "goes out of bounds"
    if trace.outcome == "ram":
        rammed = state.occupied()[end]
        return f"rams {COLOURS[rammed]} at {end[0]},{end[1]}"
    return f"ends on {end[0]},{end[1]}"
