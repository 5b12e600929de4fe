"""Chaos Checkers (Blake Cetnar, 2009): the Game, its options and its hooks."""

from __future__ import annotations

from typing import Any, ClassVar

from chaosgames.core.encoding import Encoding
from chaosgames.core.errors import IllegalActionError, InvalidOptionError, NotationError, quote
from chaosgames.core.game import Action, Game, State
from chaosgames.core.options import Option
from chaosgames.core.registry import register
from chaosgames.games.chaos_checkers.colours import COLOURS, normalise_colour_set, parse_colour_set
from chaosgames.games.chaos_checkers.notation import well_formed
from chaosgames.games.chaos_checkers.plain import PlainState, parse_board_text
from chaosgames.games.chaos_checkers.repetition import REPETITION_RULES


@register
class ChaosCheckersGame(Game):
    """American checkers where every piece carries a shield and a potion."""

    name = "chaos-checkers"
    title = "Chaos Checkers"
    pitch = "American checkers where every piece carries a shield and a potion of random power."
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
            "the draw rule: 'moves' = the same moves by both players three times in a row (the seed); "
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

    def new_initial_state(self) -> State:
        if not self.options["chaos"]:
            return PlainState.initial(self)
        from chaosgames.games.chaos_checkers.state import ChaosState

        return ChaosState.initial(self)

    def _state_from_doc(self, doc: dict[str, Any]) -> State:
        if not self.options["chaos"]:
            return _plain_from_doc(self, doc)
        from chaosgames.games.chaos_checkers.record import chaos_from_doc

        return chaos_from_doc(self, doc)

    def parse_action(self, state: State, text: str) -> Action:
        try:
            return state._lookup_notation(text)
        except IllegalActionError:
            if isinstance(text, str) and not well_formed(text):
                raise NotationError(
                    f"{quote(text.strip())} is not checkers notation: write a move as squares 1-32 joined "
                    "by '-' or 'x' (11-15, 22x15, 15x22x29); see `chaosgames rules chaos-checkers` "
                    "for potions and draws."
                ) from None
            raise

    # -- presentation and evaluation ------------------------------------------------------

    def player_names(self) -> list[str]:
        if not self.options["chaos"]:
            return ["Black", "White"]
        return [
            self.options["first_colours"].replace(",", "/"),
            self.options["second_colours"].replace(",", "/"),
        ]

    def render_svg(self, state: State, viewer: int | None = None, *, reveal: bool = False) -> str:
        from chaosgames.games.chaos_checkers.svg import render_svg

        return render_svg(state)  # checkers hides nothing: every viewer sees the same

    def action_places(self, state: State, action: Action) -> tuple[str, ...]:
        from chaosgames.games.chaos_checkers.svg import action_places

        return action_places(action)

    def describe_action(self, state: State, action: Action) -> str:
        from chaosgames.games.chaos_checkers.notation import describe

        return describe(state, action)

    def encoding(self) -> Encoding:
        from chaosgames.games.chaos_checkers.encoding import CheckersEncoding

        return CheckersEncoding(self)

    def heuristic(self, state: State) -> list[float]:
        from chaosgames.games.chaos_checkers.evaluation import heuristic

        return heuristic(state)


def _plain_from_doc(game: ChaosCheckersGame, doc: dict[str, Any]) -> PlainState:
    from chaosgames.core.errors import InvalidStateError

    p0, p1, kings = parse_board_text(doc["board"])
    turn = doc["turn"]
    ply = doc["ply"]
    if turn not in (0, 1) or not isinstance(ply, int) or isinstance(ply, bool) or ply < 0:
        raise InvalidStateError("'turn' must be 0 or 1 and 'ply' a whole number of moves made.")
    _check_material(p0, p1, kings)
    history = []
    for entry in doc["repetition"]:
        h0, h1, hk = parse_board_text(entry["board"])
        side = entry["turn"]
        if side not in (0, 1):
            raise InvalidStateError("Each repetition entry needs 'turn' 0 or 1.")
        history.append((h0, h1, hk, side) if side == 0 else (h1, h0, hk, side))
    if history and history[-1] != ((p0, p1, kings, turn) if turn == 0 else (p1, p0, kings, turn)):
        raise InvalidStateError("The last 'repetition' entry must be the current position.")
    return PlainState.from_position(game, p0, p1, kings, turn, ply, tuple(history))


def _check_material(p0: int, p1: int, kings: int) -> None:
    from chaosgames.core.errors import InvalidStateError
    from chaosgames.games.chaos_checkers.board import CROWN_ROW

    for player, pieces in enumerate((p0, p1)):
        if pieces.bit_count() > 12:
            raise InvalidStateError(f"Player {player + 1} has {pieces.bit_count()} pieces; at most 12 exist.")
        if pieces & ~kings & CROWN_ROW[player]:
            raise InvalidStateError(
                f"Player {player + 1} has an uncrowned man on the far row, where men are always crowned."
            )
