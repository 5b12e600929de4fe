"""Chaos Checkers (Blake Cetnar, 2009): the Game, its options and its hooks."""

from __future__ import annotations

from typing import Any, ClassVar

from chaosgames.core.encoding import Encoding
from chaosgames.core.errors import InvalidOptionError
from chaosgames.core.options import Option
from chaosgames.core.registry import register
from chaosgames.core.story import LegendSection, Told
from chaosgames.games.chaos_checkers import document, story, svg, text
from chaosgames.games.chaos_checkers.actions import NOTATION, CheckersAction
from chaosgames.games.chaos_checkers.colours import COLOURS, normalise_colour_set, parse_colour_set
from chaosgames.games.chaos_checkers.encoding import CheckersEncoding
from chaosgames.games.chaos_checkers.evaluation import heuristic
from chaosgames.games.chaos_checkers.plain import PlainState
from chaosgames.games.chaos_checkers.repetition import REPETITION_RULES
from chaosgames.games.chaos_checkers.rules_in_force import CheckersRules
from chaosgames.games.chaos_checkers.state import ChaosState


@register
class ChaosCheckersGame(CheckersRules[ChaosState | PlainState, CheckersAction]):
    """American checkers where every piece carries a shield and a potion."""

    name = "chaos-checkers"
    title = "Chaos Checkers"
    pitch = "American checkers where every piece carries a shield and a potion of random power."
    notation = NOTATION
    min_players = 2
    max_players = 2
    default_players = 2
    option_spec: ClassVar[tuple[Option, ...]] = (
        Option("chaos", bool, True, "shields and potions; false plays plain American checkers"),
        Option(
            "forced_capture",
            bool,
            True,
            "a player who can capture must capture (standard checkers; potion captures never force)",
        ),
        Option("pink", bool, False, "add the five pink Reclaim potions to the potion pouch"),
        Option(
            "first_colours",
            str,
            "red,orange,yellow",
            "the first player's three piece colours, comma separated",
            check=normalise_colour_set,
        ),
        Option(
            "second_colours",
            str,
            "blue,lightblue,purple",
            "the second player's three piece colours, comma separated",
            check=normalise_colour_set,
        ),
        Option(
            "repetition",
            str,
            "moves",
            "the draw rule: 'moves' = the same moves by both players three times in a row (the rulebook); "
            "'position' = the same position for the third time",
            choices=REPETITION_RULES,
        ),
        Option(
            "max_moves",
            int,
            0,
            "not a rule: the game is a draw after this many moves, ended by the cap (0: no cap)",
            minimum=0,
        ),
    )

    def _check_options(self, options: dict[str, Any]) -> None:
        first = parse_colour_set(options["first_colours"])
        second = parse_colour_set(options["second_colours"])
        if set(first) & set(second):
            raise InvalidOptionError(
                "The two players need six different colours; "
                f"{', '.join(COLOURS[c] for c in sorted(set(first) & set(second)))} is chosen by both."
            )
        self.colours: tuple[tuple[int, int, int], tuple[int, int, int]] = (first, second)

    def new_initial_state(self) -> ChaosState | PlainState:
        if not self.options["chaos"]:
            return PlainState.initial(self)
        return ChaosState.initial(self)

    # -- state documents (document.py; the states call these, which keeps imports one-way) --

    def _state_from_doc(self, doc: dict[str, Any]) -> ChaosState | PlainState:
        if not self.options["chaos"]:
            return document.plain_from_doc(self, doc)
        return document.chaos_from_doc(self, doc)

    def write_document(self, state: ChaosState | PlainState) -> dict[str, Any]:
        """`state.to_json()`: the state document of a state of this game."""
        if isinstance(state, PlainState):
            return document.plain_to_json(state)
        assert isinstance(state, ChaosState)
        return document.chaos_to_json(state)

    # -- presentation and evaluation ------------------------------------------------------

    def uses_chance(self) -> bool:
        # Plain checkers draws nothing: no shields, no potions, no bags.
        return bool(self.options["chaos"])

    def player_names(self) -> list[str]:
        if not self.options["chaos"]:
            return ["Black", "White"]
        return [
            self.options["first_colours"].replace(",", "/"),
            self.options["second_colours"].replace(",", "/"),
        ]

    def render_text(
        self, state: ChaosState | PlainState, viewer: int | None = None, *, reveal: bool = False
    ) -> str:
        # Checkers hides nothing: every viewer sees the same.
        if isinstance(state, PlainState):
            return text.render_plain(state)
        assert isinstance(state, ChaosState)
        return text.render_chaos(state)

    def render_svg(
        self,
        state: ChaosState | PlainState,
        viewer: int | None = None,
        *,
        reveal: bool = False,
        legend: bool = True,
    ) -> str:
        # Checkers hides nothing: the viewer only turns the board (own pieces at the bottom).
        return svg.render_svg(state, viewer, legend)

    def action_places(self, state: ChaosState | PlainState, action: CheckersAction) -> tuple[str, ...]:
        return svg.action_places(action)

    def describe_action(self, state: ChaosState | PlainState, action: CheckersAction) -> str:
        return text.describe(action)

    # -- the story of the game (story.py; the same for every viewer: nothing is hidden) ------

    def tell(
        self,
        before: ChaosState | PlainState,
        action: CheckersAction,
        after: ChaosState | PlainState,
        viewer: int | None = None,
    ) -> Told:
        return story.tell(before, action, after)

    def changed_places(
        self, before: ChaosState | PlainState, action: CheckersAction, after: ChaosState | PlainState
    ) -> tuple[str, ...]:
        return story.changed_places(before, action, after)

    def legend(self, state: ChaosState | PlainState, viewer: int | None = None) -> tuple[LegendSection, ...]:
        return story.legend(state, viewer)

    def action_group(self, state: ChaosState | PlainState, action: CheckersAction) -> tuple[int, str]:
        return story.action_group(action)

    def rules_section(self, state: ChaosState | PlainState, action: CheckersAction) -> str | None:
        return story.rules_section(action)

    def encoding(self) -> Encoding:
        return CheckersEncoding(self)

    def heuristic(self, state: ChaosState | PlainState) -> list[float]:
        return heuristic(state)
