"""Chaos Cruisers (Paul Elliot, 2003): the game, its options and presentation hooks."""

from __future__ import annotations

from typing import Any

from chaosgames.core.encoding import Encoding
from chaosgames.core.errors import InvalidOptionError
from chaosgames.core.grid import Square
from chaosgames.core.options import Option
from chaosgames.core.registry import register
from chaosgames.core.story import LegendSection, Told
from chaosgames.games.chaos_cruisers.actions import COLOURS, NOTATION, CruisersAction, Reenter, Start
from chaosgames.games.chaos_cruisers.course import GATE_NAMES, Tile, tile_squares, validate_course
from chaosgames.games.chaos_cruisers.document import state_document, state_from_document
from chaosgames.games.chaos_cruisers.encoding import CruisersEncoding
from chaosgames.games.chaos_cruisers.evaluation import remembered_race_values
from chaosgames.games.chaos_cruisers.presets import PRESETS
from chaosgames.games.chaos_cruisers.race import progress_chart
from chaosgames.games.chaos_cruisers.racing_line import TableCache
from chaosgames.games.chaos_cruisers.rules_in_force import CruisersRules
from chaosgames.games.chaos_cruisers.state import ChaosCruisersState, CourseTables
from chaosgames.games.chaos_cruisers.story import action_group, legend, rules_section, tell
from chaosgames.games.chaos_cruisers.svg import FILL, action_places, gate_symbol, render_svg
from chaosgames.games.chaos_cruisers.text import describe_action, render_text


def _check_course(value: Any) -> Any:
    if isinstance(value, str):
        if value not in PRESETS:
            raise ValueError(f"there is no preset course {value!r}; choose {', '.join(sorted(PRESETS))}.")
        return value
    return validate_course(value)


@register
class ChaosCruisersGame(CruisersRules[ChaosCruisersState, CruisersAction]):
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

    def __init__(self, /, **options: Any) -> None:
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
        self.rows = len(self.chart)
        self.max_rounds: int = self.options["max_rounds"]
        used = GATE_NAMES[: self.options["gates"]]
        self.gate_tile: dict[str, Tile] = {
            g: (t[0], t[1]) for g, t in self.course_doc["gates"].items() if g in used
        }
        self.gate_tiles: frozenset[Tile] = frozenset(self.gate_tile.values())
        # The gate tile of each chart row, and its squares: entering one checks that row.
        self.row_tile: tuple[Tile, ...] = tuple(self.gate_tile[gate] for gate in self.chart)
        self.row_squares: tuple[frozenset[Square], ...] = tuple(
            frozenset(tile_squares(self.gate_tile[gate])) for gate in self.chart
        )
        # After k gates a cruiser out of bounds returns to the tile of the last one passed,
        # or of the sun gate before any.
        self.return_tiles: tuple[Tile, ...] = (self.gate_tile["sun"], *self.row_tile)
        self.start_tiles: frozenset[Tile] = frozenset((t[0], t[1]) for t in self.course_doc["tiles"])
        # The setup's and re-entry's actions, one per square of the sun's and each gate's
        # tile, made once: a frozen dataclass is slow to build, and playouts re-enter often.
        self.starts = tuple(Start(s) for s in tile_squares(self.gate_tile["sun"]))
        self.reentries: dict[Tile, tuple[Reenter, ...]] = {
            tile: tuple(Reenter(s) for s in tile_squares(tile)) for tile in self.gate_tiles
        }
        # The heuristic's turns tables of the courses seen last (see racing_line).
        self.turn_tables = TableCache()
        # Every race starts on the same course: what is worked out from it (gate distances
        # and the heuristic's tables) is shared by all of them, not redone per playout.
        self.start_tables = CourseTables()
        # The heuristic's values of the positions scored last (see remembered_race_values).
        self.values_seen: dict[tuple[Any, ...], list[float]] = {}

    def _check_options(self, options: dict[str, Any]) -> None:
        course = options["course"]
        doc = PRESETS[course] if isinstance(course, str) else course
        missing = [g for g in GATE_NAMES[: options["gates"]] if g not in doc["gates"]]
        if missing:
            raise InvalidOptionError(
                f"The course has no {', '.join(missing)} gate; with gates={options['gates']} it needs "
                f"{', '.join(GATE_NAMES[: options['gates']])}.",
                [f"gate:{g}" for g in missing],
            )

    def new_initial_state(self) -> ChaosCruisersState:
        state = ChaosCruisersState(self)
        state._tables = self.start_tables
        state.begin_setup()
        return state

    def _state_from_doc(self, doc: dict[str, Any]) -> ChaosCruisersState:
        return state_from_document(self, doc)

    def player_names(self) -> list[str]:
        return ["+".join(COLOURS[c] for c in own) for own in self.cruisers_of]

    def render_text(
        self, state: ChaosCruisersState, viewer: int | None = None, *, reveal: bool = False
    ) -> str:
        return render_text(state)  # nothing is hidden: every viewer sees the whole table

    def render_svg(
        self,
        state: ChaosCruisersState,
        viewer: int | None = None,
        *,
        reveal: bool = False,
        legend: bool = True,
    ) -> str:
        return render_svg(state, legend)  # nothing is hidden: every viewer sees the whole table

    def action_places(self, state: ChaosCruisersState, action: CruisersAction) -> tuple[str, ...]:
        return action_places(state, action)

    # -- the story (story.py): nothing is hidden, so every viewer is told the same -------------

    def tell(
        self,
        before: ChaosCruisersState,
        action: CruisersAction,
        after: ChaosCruisersState,
        viewer: int | None = None,
    ) -> Told:
        return tell(before, action, after)

    def changed_places(
        self, before: ChaosCruisersState, action: CruisersAction, after: ChaosCruisersState
    ) -> tuple[str, ...]:
        return self.tell(before, action, after).places

    def legend(self, state: ChaosCruisersState, viewer: int | None = None) -> tuple[LegendSection, ...]:
        return legend(state, FILL, {g: gate_symbol(g) for g in GATE_NAMES})

    def action_group(self, state: ChaosCruisersState, action: CruisersAction) -> tuple[int, str]:
        return action_group(state, action)

    def rules_section(self, state: ChaosCruisersState, action: CruisersAction) -> str | None:
        return rules_section(state, action)

    def encoding(self) -> Encoding:
        return CruisersEncoding(self)

    def heuristic(self, state: ChaosCruisersState) -> list[float]:
        return remembered_race_values(state, self.values_seen)

    def describe_action(self, state: ChaosCruisersState, action: CruisersAction) -> str:
        return describe_action(state, action)

    def state_document(self, state: ChaosCruisersState) -> dict[str, Any]:
        return state_document(state)
