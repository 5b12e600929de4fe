"""The Game: options, registration, notation and the hooks (names, pictures, heuristic)."""

from __future__ import annotations

from typing import Any

from chaosgames.core.encoding import Encoding
from chaosgames.core.errors import PlacedValueError, quote
from chaosgames.core.options import Option
from chaosgames.core.registry import register
from chaosgames.core.story import LegendSection, Told
from chaosgames.games.cardboard_machines import document, evaluation, story, svg, text
from chaosgames.games.cardboard_machines.actions import NOTATION, MachineAction
from chaosgames.games.cardboard_machines.boards import BOARD_IDS, SIDE_NAMES, START_BOARD, TABLE_BOARDS, WHITE
from chaosgames.games.cardboard_machines.encoding import CardboardEncoding
from chaosgames.games.cardboard_machines.rules_in_force import MachinesRules
from chaosgames.games.cardboard_machines.state import CardboardState

PLAYER_NAMES = ("red", "blue", "green", "yellow")


def _check_boards(value: Any) -> Any:
    """null (shuffled by chance nodes) or six boards from the back, board 0 second: each a
    board id (white side up, as the rulebook lays them) or [id, "white" or "gray"]."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != TABLE_BOARDS:
        raise ValueError(f"give a list of {TABLE_BOARDS} board ids from back to front, or null to shuffle.")
    boards = [_read_board(item, place) for place, item in enumerate(value)]
    ids = [board for board, _ in boards]
    strange = [place for place, board in enumerate(ids) if board not in BOARD_IDS]
    twice = [place for place, board in enumerate(ids) if ids.index(board) != place]
    start = [] if boards[1] == (START_BOARD, WHITE) else [1]
    if strange or twice or start:
        raise PlacedValueError(
            "the list needs six different boards among 0-8 with the starting board 0 second "
            "(one board behind it, four in front), e.g. [3, 0, 5, 1, 8, 2].",
            [f"board:{place}" for place in sorted({*strange, *twice, *start})],
        )
    return [board if side == WHITE else [board, SIDE_NAMES[side]] for board, side in boards]


def _read_board(item: Any, place: int) -> tuple[int, int]:
    """(board id, side) of one entry: an id, or [id, side name] (the starting board shows
    its white side, where the starting spaces are)."""
    if isinstance(item, int) and not isinstance(item, bool):
        return item, WHITE
    if (
        isinstance(item, list)
        and len(item) == 2
        and isinstance(item[0], int)
        and not isinstance(item[0], bool)
        and item[1] in SIDE_NAMES
    ):
        return item[0], SIDE_NAMES.index(item[1])
    raise PlacedValueError(
        f'each board is an id or [id, "white" or "gray"], not {quote(item)}.', [f"board:{place}"]
    )


@register
class CardboardMachines(MachinesRules[CardboardState, MachineAction]):
    """Cardboard Machines: a race on a track of boards that scrolls forward."""

    name = "cardboard-machines"
    title = "Cardboard Machines"
    pitch = "A race on a track of double-sided boards that scrolls forward: gears, stress dice, ghosts."
    min_players = 2
    max_players = 4
    default_players = 4
    notation = NOTATION
    option_spec = (
        Option(
            "stress_overflow",
            str,
            "reroll_blanks",
            "with more than 6 stress: reroll blank dice (the rulebook) or add 1 to every die (the revision)",
            choices=("reroll_blanks", "plus_one"),
        ),
        Option(
            "buy_off_swerve",
            bool,
            False,
            "the revision's extra: take 1 stress to cancel a remaining swerve die (with 6 or fewer stress)",
        ),
        Option("round_tokens", int, 3, "round tokens to claim before the game ends", minimum=1, maximum=9),
        Option(
            "boards",
            object,
            None,
            "null to shuffle the track by chance nodes, or six boards from back to front, board 0 second: "
            'each an id (white side up) or [id, "gray"] for its dark-edged side',
            check=_check_boards,
        ),
        Option(
            "max_turns",
            int,
            0,
            "not a rule: turns (all players together) after which the game is scored as if all tokens "
            "were claimed, ended by the cap (0: no cap)",
            minimum=0,
        ),
    )

    def __init__(self, /, **options: Any) -> None:
        super().__init__(**options)
        # The options the rules look at on every roll and turn, as attributes.
        self.plus_one: bool = self.options["stress_overflow"] == "plus_one"
        self.buy_off_swerve: bool = self.options["buy_off_swerve"]
        self.max_turns: int = self.options["max_turns"]

    def new_initial_state(self) -> CardboardState:
        return CardboardState(self)

    def player_names(self) -> list[str]:
        return list(PLAYER_NAMES[: self.num_players])

    def describe_action(self, state: CardboardState, action: MachineAction) -> str:
        return text.describe(state, action)

    def render_svg(
        self, state: CardboardState, viewer: int | None = None, *, reveal: bool = False, legend: bool = True
    ) -> str:
        return svg.render_svg(state, legend)  # nothing is hidden: every viewer sees the whole table

    def action_places(self, state: CardboardState, action: MachineAction) -> tuple[str, ...]:
        return svg.action_places(state, action)

    # -- the story (story.py): nothing is hidden, so every viewer is told the same -------------

    def tell(
        self, before: CardboardState, action: MachineAction, after: CardboardState, viewer: int | None = None
    ) -> Told:
        return story.tell(before, action, after)

    def changed_places(
        self, before: CardboardState, action: MachineAction, after: CardboardState
    ) -> tuple[str, ...]:
        return story.changed_places(before, after)

    def legend(self, state: CardboardState, viewer: int | None = None) -> tuple[LegendSection, ...]:
        return story.legend(state)

    def action_group(self, state: CardboardState, action: MachineAction) -> tuple[int, str]:
        return story.action_group(action)

    def rules_section(self, state: CardboardState, action: MachineAction) -> str | None:
        return story.rules_section(state, action)

    def encoding(self) -> Encoding:
        return CardboardEncoding(self)

    def heuristic(self, state: CardboardState) -> list[float]:
        return evaluation.evaluate(state)

    def _state_from_doc(self, doc: dict[str, Any]) -> CardboardState:
        return document.read(self, doc)
