"""The Game: options, setup of a new state, reading state documents, notation."""

from __future__ import annotations

from typing import Any

from chaosgames.core.encoding import Encoding
from chaosgames.core.errors import InvalidStateError, NotationError, quote
from chaosgames.core.game import Action, Game, State
from chaosgames.core.options import Option
from chaosgames.core.registry import register
from chaosgames.games.cardboard_machines import end_of_game
from chaosgames.games.cardboard_machines.actions import ACCEPTED, well_formed
from chaosgames.games.cardboard_machines.boards import (
    BOARD_IDS,
    LANES,
    SIDES,
    START_BOARD,
    START_SPACES,
    TABLE_BOARDS,
)
from chaosgames.games.cardboard_machines.phases import (
    BOARDS,
    BONUS,
    FIRST,
    GEAR,
    GHOST_SUPPLY,
    LEFT,
    MALF,
    MOVE,
    OFF,
    OVER,
    PHASE_NAMES,
    RESOLVE,
    RETURN_STRESS,
    RIGHT,
    ROLL,
    TURN_OVER,
)
from chaosgames.games.cardboard_machines.setup import DRAWN_BOARDS, START_INDEX, times_scrolled_away
from chaosgames.games.cardboard_machines.state import CardboardState

PLAYER_NAMES = ("red", "blue", "green", "yellow")


def _check_boards(value: Any) -> Any:
    """null (shuffled by chance nodes) or six board ids from the back, board 0 second."""
    if value is None:
        return None
    if (
        not isinstance(value, list)
        or len(value) != TABLE_BOARDS
        or not all(isinstance(b, int) and not isinstance(b, bool) for b in value)
    ):
        raise ValueError(f"give a list of {TABLE_BOARDS} board ids from back to front, or null to shuffle.")
    if value[1] != START_BOARD or len(set(value)) != TABLE_BOARDS or not set(value) <= set(BOARD_IDS):
        raise ValueError(
            "the list needs six different boards among 0-8 with the starting board 0 second "
            "(one board behind it, four in front), e.g. [3, 0, 5, 1, 8, 2]."
        )
    return list(value)


@register
class CardboardMachines(Game):
    """Cardboard Machines: a race on a track of boards that scrolls forward."""

    name = "cardboard-machines"
    title = "Cardboard Machines"
    pitch = "A race on a track of double-sided boards that scrolls forward: gears, stress dice, ghosts."
    min_players = 2
    max_players = 4
    default_players = 4
    option_spec = (
        Option(
            "stress_overflow",
            str,
            "reroll_blanks",
            "with more than 6 stress: reroll blank dice (the seed) or add 1 to every die (the revision)",
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
            "null to shuffle the track by chance nodes, or six board ids from back to front, board 0 second",
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

    def new_initial_state(self) -> CardboardState:
        return CardboardState(self)

    def player_names(self) -> list[str]:
        return list(PLAYER_NAMES[: self.num_players])

    def parse_action(self, state: State, text: str) -> Action:
        if isinstance(text, str) and not well_formed("".join(text.split()).lower()):
            raise NotationError(f"{quote(text)} is not Cardboard Machines notation; actions are {ACCEPTED}.")
        return state._lookup_notation(text)

    def describe_action(self, state: State, action: Action) -> str:
        from chaosgames.games.cardboard_machines.render import describe

        assert isinstance(state, CardboardState)
        return describe(state, action)

    def render_svg(self, state: State, viewer: int | None = None, *, reveal: bool = False) -> str:
        from chaosgames.games.cardboard_machines.svg import render_svg

        assert isinstance(state, CardboardState)
        return render_svg(state)  # nothing is hidden: every viewer sees the whole table

    def action_places(self, state: State, action: Action) -> tuple[str, ...]:
        from chaosgames.games.cardboard_machines.svg import action_places

        assert isinstance(state, CardboardState)
        return action_places(state, action)

    def encoding(self) -> Encoding:
        from chaosgames.games.cardboard_machines.encoding import CardboardEncoding

        return CardboardEncoding(self)

    def heuristic(self, state: State) -> list[float]:
        from chaosgames.games.cardboard_machines.evaluation import evaluate

        assert isinstance(state, CardboardState)
        return evaluate(state)

    def _state_from_doc(self, doc: dict[str, Any]) -> CardboardState:
        return read_state(self, doc)


def _int(value: Any, what: str, low: int, high: int | None = None) -> int:
    if (
        not isinstance(value, int)
        or isinstance(value, bool)
        or value < low
        or (high is not None and value > high)
    ):
        bound = f"{low}-{high}" if high is not None else f"at least {low}"
        raise InvalidStateError(f"{what} must be a whole number {bound}, not {value!r}.")
    return value


def _bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidStateError(f"{what} must be true or false, not {value!r}.")
    return value


def read_state(game: CardboardMachines, doc: dict[str, Any]) -> CardboardState:
    """A state from its document, refusing impossible positions."""
    st = CardboardState(game)
    if doc["phase"] not in PHASE_NAMES:
        raise InvalidStateError(f"Unknown phase {doc['phase']!r}; phases are {', '.join(PHASE_NAMES)}.")
    st.phase = PHASE_NAMES.index(doc["phase"])
    _read_track(st, doc)
    _read_cars(st, doc)
    _read_turn(st, doc)
    _read_result(st, doc["result"])
    _check_position(st)
    return st


def _read_track(st: CardboardState, doc: dict[str, Any]) -> None:
    st.first = _int(doc["first"], "first", -1, st.game.num_players - 1)
    st.drawn = [_int(b, "a drawn board", 1, max(BOARD_IDS)) for b in doc["drawn"]]
    st.back = _int(doc["back"], "back", 0)
    boards = doc["boards"]
    st.board_ids = [_int(b, "a board id", 0, max(BOARD_IDS)) for b, _ in boards]
    st.sides = [_int(s, "a board side", 0, 1) for _, s in boards]
    st.unused = [_int(b, "an unused board", 0, max(BOARD_IDS)) for b in doc["unused"]]
    if len(st.board_ids) not in (0, TABLE_BOARDS) or len(set(st.board_ids)) != len(st.board_ids):
        raise InvalidStateError("The table holds either no boards (during setup) or six different boards.")
    if len(set(st.drawn)) != len(st.drawn):
        raise InvalidStateError("A board cannot be drawn twice.")
    st.ghosts = {_int(g, "a ghost's space", 0) for g in doc["ghosts"]}


def _read_cars(st: CardboardState, doc: dict[str, Any]) -> None:
    n = st.game.num_players
    cars = doc["cars"]
    if len(cars) != n:
        raise InvalidStateError(f"The document lists {len(cars)} cars for {n} players.")
    for p, car in enumerate(cars):
        st.pos[p] = _int(car["pos"], "a car's position", OFF)
        st.start_row[p] = _int(car["start_row"], "a starting row", 0, 1)
        st.gear[p] = _int(car["gear"], "a gear", 1, 6)
        st.stress[p] = _int(car["stress"], "stress", 0)
        st.lives[p] = _int(car["lives"], "lives", 0, 3)
        st.tokens[p] = _int(car["tokens"], "round tokens", 0)
    st.tokens_left = _int(doc["tokens_left"], "tokens_left", 0, st.game.options["round_tokens"])
    st.lap = _int(doc["lap"], "lap", 0)
    st.lap_claimed = _bool(doc["lap_claimed"], "lap_claimed")


def _read_turn(st: CardboardState, doc: dict[str, Any]) -> None:
    n = st.game.num_players
    st.mover = _int(doc["mover"], "mover", 0, n - 1)
    st.turn = _int(doc["turn"], "turn", 0)
    st.moves_left = _int(doc["moves_left"], "moves_left", 0, 6)
    st.changed_gear = _bool(doc["changed_gear"], "changed_gear")
    st.stressed = _bool(doc["stressed"], "stressed")
    st.must_continue = _bool(doc["must_continue"], "must_continue")
    st.overflow = _bool(doc["overflow"], "overflow")
    st.to_roll = _int(doc["to_roll"], "to_roll", 0, 6)
    st.rerolls = _int(doc["rerolls"], "rerolls", 0, 6)
    dice = doc["dice"]
    st.dice = [_int(dice[k], f"{k} dice", 0, 6) for k in ("left", "right", "malfunction")]
    st.pending = [_int(p, "a waiting player", 0, n - 1) for p in doc["pending"]]
    st.ghost_pending = _bool(doc["ghost_pending"], "ghost_pending")


def _read_result(st: CardboardState, result: Any) -> None:
    if result is not None:
        if (
            not isinstance(result, list)
            or len(result) != st.game.num_players
            or not all(isinstance(r, int | float) for r in result)
        ):
            raise InvalidStateError("A result is a list of one number per player.")
        st.result = [float(r) for r in result]
    if (st.result is None) != (st.phase != OVER):
        raise InvalidStateError("A finished game has a result and an unfinished one has none.")
    if st.result is not None and (not st.alive() or st.result != end_of_game.final_result(st)):
        raise InvalidStateError("The result is not what the lives, round tokens and stress give.")


def _check_position(st: CardboardState) -> None:
    n = st.game.num_players
    setting_up = not st.board_ids
    _check_phase(st, setting_up)
    if sum(st.tokens) + st.tokens_left != st.game.options["round_tokens"]:
        raise InvalidStateError("Claimed and unclaimed round tokens must add up to the round_tokens option.")
    if len(st.ghosts) > GHOST_SUPPLY:
        raise InvalidStateError(f"There are only {GHOST_SUPPLY} ghosts.")
    placed = [s for s in st.pos if s != OFF]
    # Only the moving car may share a space, while it drives through another car (or when
    # the last round token, claimed on the way, ended the game there).
    resting = [
        s for p, s in enumerate(st.pos) if s != OFF and not (p == st.mover and st.phase in (MOVE, OVER))
    ]
    if len(set(resting)) != len(resting):
        raise InvalidStateError("Two cars cannot stand on the same space at rest.")
    if setting_up:
        if placed or st.ghosts:
            raise InvalidStateError("No car or ghost is on the table before the track is laid.")
        return
    for s in [*placed, *st.ghosts]:
        if not st.on_table(s):
            raise InvalidStateError(f"Space {s} is not on one of the six boards on the table.")
    for p in range(n):
        waiting = st.pos[p] == OFF
        if st.lives[p] == 0 and not waiting:
            raise InvalidStateError(f"Player {p + 1} has no life left and cannot have a car on the track.")
        if st.lives[p] > 0 and waiting and p not in st.pending and st.phase != OVER:
            raise InvalidStateError(f"Player {p + 1}'s car is off the track but she is not placing it.")
    if st.phase != OVER and st.lives[st.mover] == 0:
        raise InvalidStateError("A player out of the race cannot be the one taking a turn.")
    for space in st.ghosts:
        if space // LANES < 2 * st.back:
            raise InvalidStateError("A ghost cannot stand behind the track.")
    _check_track(st)
    _check_round_tokens(st)
    _check_cars(st)
    _check_turn(st)


def _check_track(st: CardboardState) -> None:
    """The boards keep the cyclic order they were laid in, and each scroll flips the back
    board to the front: `back` fixes where board 0 lies, every board's side, and the lap."""
    back = st.back
    if st.board_ids[(START_INDEX - back) % TABLE_BOARDS] != START_BOARD:
        raise InvalidStateError(f"After {back} scrolls board 0 cannot lie where the document puts it.")
    for place, side in enumerate(st.sides):
        laid = (place + back) % TABLE_BOARDS
        if side != times_scrolled_away(laid, back) % 2:
            raise InvalidStateError(f"After {back} scrolls board {st.board_ids[place]} shows its other side.")
    laps = times_scrolled_away(START_INDEX, back)
    if st.lap != laps:
        raise InvalidStateError(
            f"After {back} scrolls board 0 has come back to the front {laps} times, not {st.lap}."
        )


def _check_round_tokens(st: CardboardState) -> None:
    """At most one token a lap, none before the first lap."""
    claimed = sum(st.tokens)
    if st.lap_claimed and (st.lap == 0 or claimed == 0):
        raise InvalidStateError("A lap's token can only be claimed once board 0 has come to the front.")
    if claimed > max(st.lap - 1, 0) + st.lap_claimed:
        raise InvalidStateError(f"{claimed} round tokens cannot be claimed in {st.lap} laps.")


def _check_cars(st: CardboardState) -> None:
    """Starting rows follow the starting player; no car rests in terrain (it would have
    crashed): only the mover drives through it, or stands there when a token ended the game."""
    n = st.game.num_players
    for p in range(n):
        if st.start_row[p] != START_SPACES[(p - st.first) % n + 1][1]:
            raise InvalidStateError(f"Player {p + 1}'s starting row does not match the starting player.")
        passing = p == st.mover and st.phase in (MOVE, OVER)
        if st.pos[p] != OFF and st.terrain_at(st.pos[p]) and not passing:
            raise InvalidStateError(f"Player {p + 1}'s car cannot stand in terrain.")


def _check_turn(st: CardboardState) -> None:
    """The move cannot outrun the gear; dice left to resolve have lost blanks and pairs; a
    ghost is placed only on a dark-edged new board."""
    if st.phase == MOVE and st.moves_left > st.gear[st.mover]:
        raise InvalidStateError("A move cannot have more points left than the gear.")
    if st.phase in (RESOLVE, BONUS) and (min(st.dice[LEFT], st.dice[RIGHT]) > 0 or st.dice[MALF] > 1):
        raise InvalidStateError("Dice left to resolve have no left/right pair and at most one malfunction.")
    if st.ghost_pending and not SIDES[st.board_ids[-1]][st.sides[-1]].dark_edges:
        raise InvalidStateError("A ghost is placed only when the new board shows its dark edges.")


def _check_phase(st: CardboardState, setting_up: bool) -> None:
    """What each phase needs, so that every accepted document has legal actions."""
    phase = st.phase
    if st.tokens_left == 0 and phase != OVER:
        raise InvalidStateError("The game is over once the last round token is claimed.")
    if st.must_continue and phase not in (MOVE, OVER):
        raise InvalidStateError("Only a move in progress continues after a scroll.")
    if setting_up != (phase in (FIRST, BOARDS)):
        raise InvalidStateError("The six boards are on the table exactly when setup is over.")
    if (st.first < 0) != (phase == FIRST):
        raise InvalidStateError("The starting player is known exactly when the first chance node is over.")
    if phase == BOARDS and len(st.drawn) >= DRAWN_BOARDS:
        raise InvalidStateError(f"Setup draws {DRAWN_BOARDS} boards; the track is laid after the last one.")
    if not setting_up and sorted(st.unused) != sorted(set(BOARD_IDS) - set(st.board_ids)):
        raise InvalidStateError("The unused boards are the three not on the table.")
    if len(set(st.pending)) != len(st.pending) or any(
        st.pos[p] != OFF or st.lives[p] == 0 for p in st.pending
    ):
        raise InvalidStateError("Only crashed players with lives left wait to place their car, once each.")
    if phase in (GEAR, MOVE, BONUS, RETURN_STRESS, ROLL, RESOLVE) and st.pos[st.mover] == OFF:
        raise InvalidStateError("The player taking her turn must have her car on the track.")
    if phase == MOVE and st.moves_left < 1:
        raise InvalidStateError("A move in progress has at least one movement point left.")
    if phase == ROLL and st.to_roll + st.rerolls < 1:
        raise InvalidStateError("A roll in progress has a die left to roll.")
    if phase == RESOLVE and sum(st.dice) < 1:
        raise InvalidStateError("Resolving the stress test needs a die left.")
    if st.ghost_pending and phase not in (MOVE, BONUS):
        raise InvalidStateError("A ghost is placed only while a car moves onto a new board.")
    if phase == TURN_OVER and not st.pending:
        raise InvalidStateError("A finished turn waits only for crashed cars to be placed.")
