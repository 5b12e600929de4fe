"""The Royal Racers game: options, notation, state documents and presentation hooks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from chaosgames.core.encoding import Encoding
from chaosgames.core.information import Recollection
from chaosgames.core.options import Option
from chaosgames.core.registry import register
from chaosgames.core.story import LegendSection, Told
from chaosgames.games.royal_racers import document, story, svg, text
from chaosgames.games.royal_racers.actions import NOTATION, Kind, RacerAction
from chaosgames.games.royal_racers.board import SUITS
from chaosgames.games.royal_racers.board_morph import wrong_guesses_alike
from chaosgames.games.royal_racers.encoding import RoyalRacersEncoding
from chaosgames.games.royal_racers.evaluation import evaluate, steps_left
from chaosgames.games.royal_racers.memory import RacersRecollection
from chaosgames.games.royal_racers.rules_in_force import RacersRules
from chaosgames.games.royal_racers.state import FLIP_PHASE, RoyalRacersState


@register
class RoyalRacersGame(RacersRules[RoyalRacersState, RacerAction]):
    """Royal Racers by Robert Kouba (2003): race your prince round a changing card grid."""

    name = "royal-racers"
    title = "Royal Racers"
    pitch = "Race round a 6x6 grid of cards that flip face down by die roll and back up from memory."
    min_players = 2
    max_players = 4
    default_players = 4
    # Measured (docs/agents.md): short greedy playouts, which see what the next rolls
    # flip, beat scoring the new position by the heuristic alone. Plain UCB, not
    # normalised: a move here has two to five choices, and rescaled to their spread the
    # worst is always 0 and the best 1, so with c = 0.3 the runner-up never earns a
    # playout back and the first few playouts decide the move (issue 14). No random
    # actions in the playouts (epsilon 0): a random flip is usually a wrong `up:` guess
    # that sends a pawn back, noise that a greedy playout never plays.
    notation = NOTATION
    search_advice: ClassVar[Mapping[str, Any]] = {
        "rollout": "greedy",
        "depth": 12,
        "normalise": False,
        "epsilon": 0.0,
    }
    option_spec = (
        Option(
            "flags", int, 5, "flags each player touches, the last under his start (2-6)", minimum=2, maximum=6
        ),
        Option("memory_aid", bool, False, "show the ranks of face-down cards to the players"),
        Option("flag_variant", bool, False, "Flag Variant: no passing over opponents' flags unless blocked"),
        Option(
            "races",
            int,
            1,
            "Campaign Variant: races in the match, scored in coins (1-20)",
            minimum=1,
            maximum=20,
        ),
        Option(
            "max_rounds",
            int,
            0,
            "not a rule: rounds after which a race stops, most flags touched winning it; "
            "the game is then ended by the cap (0: no cap)",
            minimum=0,
        ),
        Option("optional_move", bool, False, "the move of step 2 may be skipped ('stay')"),
    )

    def new_initial_state(self) -> RoyalRacersState:
        return RoyalRacersState(self)

    def player_names(self) -> list[str]:
        return list(SUITS[: self.num_players])

    def describe_action(self, state: RoyalRacersState, action: RacerAction) -> str:
        return text.describe_action(state, action)

    # -- presentation and evaluation ----------------------------------------------------

    def encoding(self) -> Encoding:
        return RoyalRacersEncoding(self)

    def hides_information(self) -> bool:
        # Face-down ranks are hidden unless the memory aid shows them to everyone.
        return not self.options["memory_aid"]

    def recollection(self, seat: int) -> Recollection[RoyalRacersState, RacerAction]:
        """What the seat saw of the cards and may remember (memory.py; with the memory aid
        the observation shows every rank and there is nothing to remember)."""
        if self.options["memory_aid"]:
            return Recollection(self, seat)
        return RacersRecollection(self, seat)

    def render_text(self, state: RoyalRacersState, viewer: int | None = None, *, reveal: bool = False) -> str:
        """Every seat and a spectator see the same table: face-down ranks are hidden
        (unless memory_aid); `reveal` shows them."""
        return text.render_text(state, reveal=reveal)

    def render_svg(
        self, state: RoyalRacersState, viewer: int | None = None, *, reveal: bool = False, legend: bool = True
    ) -> str:
        return svg.render_svg(state, reveal=reveal, legend=legend)

    def action_places(self, state: RoyalRacersState, action: RacerAction) -> tuple[str, ...]:
        return svg.action_places(action)

    def action_seen(
        self, state: RoyalRacersState, action: RacerAction, viewer: int | None = None
    ) -> tuple[str, str]:
        """The move log's line, as `tell` keeps it: without the memory aid no card a deal
        lays, no die face and no card turned face down (the players must remember them, as
        at the table)."""
        after = state.clone()
        after.apply_action(action)
        told = story.tell(state, action, after)
        return told.notation, told.kept

    # -- the story of the race (story.py) -----------------------------------------------

    def tell(
        self,
        before: RoyalRacersState,
        action: RacerAction,
        after: RoyalRacersState,
        viewer: int | None = None,
    ) -> Told:
        return story.tell(before, action, after)

    def starts_turn(self, state: RoyalRacersState, action: RacerAction) -> bool | None:
        # A player's turn starts with the die rolled for them (the rulebook's turn: roll,
        # flip, move), so the roll is told with the turn it is for.
        return True if action.kind is Kind.ROLL else None

    def changed_places(
        self, before: RoyalRacersState, action: RacerAction, after: RoyalRacersState
    ) -> tuple[str, ...]:
        return story.changed_places(before, action, after)

    def legend(self, state: RoyalRacersState, viewer: int | None = None) -> tuple[LegendSection, ...]:
        return story.legend(state)

    def action_group(self, state: RoyalRacersState, action: RacerAction) -> tuple[int, str]:
        return story.action_group(action)

    def rules_section(self, state: RoyalRacersState, action: RacerAction) -> str | None:
        return story.rules_section(action)

    def heuristic(self, state: RoyalRacersState) -> list[float]:
        return evaluate(state)

    def same_position(self, state: RoyalRacersState, legal: Sequence[RacerAction]) -> list[int]:
        if state.phase != FLIP_PHASE:
            return list(range(len(legal)))
        return wrong_guesses_alike(state, legal)

    def steps_left(self, state: RoyalRacersState) -> float | None:
        """The fewest steps a prince still has to walk (the heuristic's count, flag
        exposure included); None before the race starts."""
        return steps_left(state)

    # -- state documents ---------------------------------------------------------------

    def state_document(self, state: RoyalRacersState) -> dict[str, Any]:
        """`state.to_json()`: the whole state, face-down ranks included."""
        return document.state_document(state)

    def observation_document(self, state: RoyalRacersState, player: int | None) -> dict[str, Any]:
        """`state.observation(player)`: face-down ranks hidden unless memory_aid is on."""
        return document.observation_document(state, player)

    def _state_from_doc(self, doc: dict[str, Any]) -> RoyalRacersState:
        return document.read_state(self, doc)


__all__ = ["SUITS", "RoyalRacersGame"]
