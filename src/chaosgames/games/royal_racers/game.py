"""The Royal Racers game: options, notation, state documents and presentation hooks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from chaosgames.core.encoding import Encoding
from chaosgames.core.errors import IllegalActionError, InvalidStateError, NotationError, quote
from chaosgames.core.game import Action, Game, State
from chaosgames.core.options import Option
from chaosgames.core.registry import register
from chaosgames.games.royal_racers import setup
from chaosgames.games.royal_racers.actions import ACCEPTED, DIE_FACES, RacerAction, well_formed
from chaosgames.games.royal_racers.board import (
    CARD_BY_NAME,
    CARD_SUIT_SYMBOLS,
    CENTRE,
    DEAL_ORDER,
    QUADRANT_NAMES,
    QUADRANT_OF,
    RANK_NAMES,
    RANK_OF,
    SQUARE_BY_NAME,
    SQUARE_NAMES,
    SQUARES,
    SUITS,
)
from chaosgames.games.royal_racers.state import (
    DEAL_PHASE,
    FLAGS_PHASE,
    FLIP_PHASE,
    MOVE_PHASE,
    OVER,
    PHASE_NAMES,
    START_PHASE,
    RoyalRacersState,
)


@register
class RoyalRacersGame(Game):
    """Royal Racers by Robert Kouba (2003): race your prince round a changing card grid."""

    name = "royal-racers"
    title = "Royal Racers"
    pitch = "Race round a 6x6 grid of cards that flip face down by die roll and back up from memory."
    min_players = 2
    max_players = 4
    default_players = 4
    # Measured (docs/agents.md): short greedy playouts, which see what the next rolls
    # flip, beat scoring the new position by the heuristic alone.
    search_advice: ClassVar[Mapping[str, Any]] = {"rollout": "greedy", "depth": 12}
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

    # -- notation -----------------------------------------------------------------------

    def parse_action(self, state: State, text: str) -> Action:
        if not isinstance(text, str):
            return state._lookup_notation(text)
        compact = "".join(text.split()).casefold()
        compact = {"roll:0": "roll:null", "roll:1": "roll:ace", "roll:a": "roll:ace"}.get(compact, compact)
        try:
            return state._lookup_notation(compact)
        except IllegalActionError:
            if well_formed(compact):
                raise
            raise NotationError(
                f"{quote(text.strip())} is not Royal Racers notation; write {ACCEPTED}."
            ) from None

    def describe_action(self, state: State, action: Action) -> str:
        assert isinstance(state, RoyalRacersState) and isinstance(action, RacerAction)
        kind, arg = action
        if kind == "deal":
            return f"The {card_label(arg)} is laid on {SQUARE_NAMES[DEAL_ORDER[state.dealt]]}."
        if kind == "roll":
            return f"The die shows {DIE_FACES[arg]}."
        if kind == "stay":
            return "Stay where you are."
        where = SQUARE_NAMES[arg]
        if kind == "start":
            return f"Start on {where} ({QUADRANT_NAMES[QUADRANT_OF[arg]]} quadrant)."
        if kind == "place":
            _, owner, index = state.placement()
            face = setup.flag_face_name(state.nflags, index)
            return f"Place the {SUITS[owner]}' {face} flag on {where}."
        if kind == "down":
            return f"Flip the {card_label(state.cards[arg])} on {where} face down."
        if kind == "up":
            rank = "an ace" if state.roll == 1 else f"a {state.roll}"
            return f"Try to flip the card on {where} face up (it must be {rank})."
        if kind == "reveal":
            return f"Turn the card on {where} face up."
        player = state.mover()
        flag_slot = state.flag_at[arg]
        if flag_slot == player * state.nflags + state.progress[player]:
            face = setup.flag_face_name(state.nflags, flag_slot % state.nflags)
            return f"Move to {where}, touching your {face} flag."
        return f"Move to {where}."

    # -- presentation and evaluation ----------------------------------------------------

    def encoding(self) -> Encoding:
        from chaosgames.games.royal_racers.encoding import RoyalRacersEncoding

        return RoyalRacersEncoding(self)

    def hides_information(self) -> bool:
        # Face-down ranks are hidden unless the memory aid shows them to everyone.
        return not self.options["memory_aid"]

    def render_text(self, state: State, viewer: int | None = None, *, reveal: bool = False) -> str:
        """Every seat and a spectator see the same table: face-down ranks are hidden
        (unless memory_aid); `reveal` shows them."""
        from chaosgames.games.royal_racers.render import render_text

        assert isinstance(state, RoyalRacersState)
        return render_text(state, reveal=reveal)

    def render_svg(self, state: State, viewer: int | None = None, *, reveal: bool = False) -> str:
        from chaosgames.games.royal_racers.svg import render_svg

        assert isinstance(state, RoyalRacersState)
        return render_svg(state, reveal=reveal)

    def action_places(self, state: State, action: Action) -> tuple[str, ...]:
        from chaosgames.games.royal_racers.svg import action_places

        assert isinstance(action, RacerAction)
        return action_places(action)

    def action_seen(self, state: State, action: Action, viewer: int | None = None) -> tuple[str, str]:
        """A move log keeps no rank a card may hide later: deals and flips face down are
        logged by square only (the players must remember the cards, as at the table)."""
        assert isinstance(state, RoyalRacersState) and isinstance(action, RacerAction)
        if not self.hides_information():
            return super().action_seen(state, action, viewer)
        kind, arg = action
        if kind == "deal":
            return "deal", f"A card is laid on {SQUARE_NAMES[DEAL_ORDER[state.dealt]]}."
        if kind == "down":
            return str(action), f"Flip the card on {SQUARE_NAMES[arg]} face down."
        return super().action_seen(state, action, viewer)

    def heuristic(self, state: State) -> list[float]:
        from chaosgames.games.royal_racers.evaluation import evaluate

        assert isinstance(state, RoyalRacersState)
        return evaluate(state)

    # -- state documents ----------------------------------------------------------------

    def _state_from_doc(self, doc: dict[str, Any]) -> RoyalRacersState:
        return _read_state(self, doc)


def card_label(card: int) -> str:
    return f"{RANK_NAMES[RANK_OF[card]]}{CARD_SUIT_SYMBOLS[card % 4]}"


def _fail(message: str) -> InvalidStateError:
    return InvalidStateError(f"Impossible Royal Racers position: {message}.")


def _whole(value: Any, low: int, high: int) -> bool:
    """Whether `value` is a whole number (not a boolean) from `low` to `high`."""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _int(doc: dict[str, Any], key: str, low: int, high: int) -> int:
    value = doc[key]
    if not _whole(value, low, high):
        raise _fail(f"'{key}' must be a whole number from {low} to {high}, not {value!r}")
    return int(value)


def _square(value: Any, what: str) -> int:
    if value is None:
        return -1
    if not isinstance(value, str) or value not in SQUARE_BY_NAME:
        raise _fail(f"{what} must be a square a1..f6 or null, not {value!r}")
    return SQUARE_BY_NAME[value]


def _list(doc: dict[str, Any], key: str, length: int | None = None) -> list[Any]:
    value = doc[key]
    if not isinstance(value, list) or (length is not None and len(value) != length):
        raise _fail(f"'{key}' must be a list" + (f" of {length} entries" if length is not None else ""))
    return value


NO_CAP_ROUNDS = 10**6
"""Rounds a state document may count in a race when `max_rounds` is 0 (no cap)."""


def _read_state(game: RoyalRacersGame, doc: dict[str, Any]) -> RoyalRacersState:
    state = RoyalRacersState(game)
    n = state.n
    if doc["phase"] not in PHASE_NAMES:
        raise _fail(f"the phase must be one of {', '.join(PHASE_NAMES)}")
    state.phase = PHASE_NAMES.index(doc["phase"])
    state.race = _int(doc, "race", 1, state.races) - 1
    limit = state.max_rounds or NO_CAP_ROUNDS
    state.round = _int(doc, "round", 1, limit) - 1
    state.turn = _int(doc, "turn", 0, n - 1)
    state.past_rounds = _int(doc, "past_rounds", 0, state.races * limit)
    _read_campaign(state, doc)
    _read_cards(state, doc)
    _read_pieces(state, doc)
    _check_flow(state)
    return state


def _read_campaign(state: RoyalRacersState, doc: dict[str, Any]) -> None:
    finished = state.race + (1 if state.phase == OVER else 0)
    coins = _list(doc, "coins", finished)
    for race in coins:
        if not isinstance(race, list) or len(race) != state.n:
            raise _fail("each race's coins must list one number per player")
        if not all(_whole(c, 0, state.nflags) for c in race):
            raise _fail(f"a coin shows between 0 and {state.nflags} flags touched")
    winners = _list(doc, "race_winners", finished)
    for race, winner in zip(coins, winners, strict=True):
        if not _whole(winner, -1 if state.max_rounds else 0, state.n - 1):
            raise _fail("a race winner is a seat number, or -1 for a race stopped at max_rounds")
        if winner >= 0 and race[winner] != state.nflags:
            raise _fail("a race winner has touched all his flags")
        if sum(c == state.nflags for c in race) > (1 if winner >= 0 else 0):
            raise _fail("only the winner of a race touches his last flag")
    state.coins = [list(race) for race in coins]
    state.race_winners = list(winners)
    # Every race lasts at least one round and at most max_rounds.
    most = finished * (state.max_rounds or NO_CAP_ROUNDS)
    if not finished <= state.past_rounds <= most:
        raise _fail(f"{finished} finished races account for {finished} to {most} rounds")


def _read_cards(state: RoyalRacersState, doc: dict[str, Any]) -> None:
    cards = _list(doc, "cards", SQUARES)
    seen: set[int] = set()
    for sq, name in enumerate(cards):
        if name is None:
            continue
        card = CARD_BY_NAME.get(name.casefold()) if isinstance(name, str) else None
        if card is None or card in seen:
            raise _fail(f"{name!r} on {SQUARE_NAMES[sq]} is not a card of the deck, or appears twice")
        seen.add(card)
        state.cards[sq] = card
        state.where[card] = sq
    state.dealt = len(seen)
    if any(state.cards[sq] < 0 for sq in DEAL_ORDER[: state.dealt]):
        raise _fail("cards are laid out in reading order from a6, without gaps")
    if (state.phase == DEAL_PHASE) != (state.dealt < SQUARES):
        raise _fail("the grid is complete exactly when the deal is over")
    for name in _list(doc, "face_down"):
        sq = _square(name, "a face-down card")
        if sq < 0 or state.cards[sq] < 0 or RANK_OF[state.cards[sq]] > 5:
            raise _fail(f"the card on {name} cannot be face down (ranks 6-9 always stay face up)")
        state.down |= 1 << sq


def _read_pieces(state: RoyalRacersState, doc: dict[str, Any]) -> None:
    n, flags = state.n, state.nflags
    pawns = [_square(p, "a pawn") for p in _list(doc, "pawns", n)]
    placed_pawns = [p for p in pawns if p >= 0]
    if len(set(placed_pawns)) != len(placed_pawns):
        raise _fail("only one pawn per space")
    if any(state.down >> p & 1 for p in placed_pawns):
        raise _fail("a pawn never stands on a face-down card")
    state.pawns = pawns
    rows = _list(doc, "flags", n)
    for owner, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != flags:
            raise _fail(f"each player has {flags} flags")
        for index, name in enumerate(row):
            sq = _square(name, "a flag")
            if sq < 0:
                continue
            if state.flag_at[sq] >= 0:
                raise _fail("only one flag per card")
            state._put_flag(owner, index, sq)
    touched = _list(doc, "touched", n)
    if not all(_whole(t, 0, flags) for t in touched):
        raise _fail(f"flags touched run from 0 to {flags}")
    state.progress = list(touched)
    roll = doc["roll"]
    if roll is not None and roll not in DIE_FACES:
        raise _fail(f"the die shows {', '.join(DIE_FACES)}, not {roll!r}")
    state.roll = -1 if roll is None else DIE_FACES.index(roll)
    last = doc["last_flip"]
    if last is not None:
        if last.get("kind") not in ("down", "up", "reveal") or not isinstance(last.get("ok"), bool):
            raise _fail("last_flip has a kind (down, up or reveal), a square and ok")
        sq = _square(last["square"], "the last flip")
        if sq < 0:
            raise _fail("last_flip names the square of the card flipped")
        state.last_flip = (last["kind"], sq, last["ok"])


def _check_flow(state: RoyalRacersState) -> None:
    """The setup done so far matches the phase, and the deciding player has a choice."""
    _check_starts(state)
    _check_placements(state)
    _check_turn(state)


def _check_starts(state: RoyalRacersState) -> None:
    """Setup c) and d): pawns on centre squares, chosen in seat order, on their last flag."""
    n, flags, phase = state.n, state.nflags, state.phase
    starter = setup.race_starter(state.race, n)
    seats = [(starter + k) % n for k in range(n)]
    chosen = sum(1 for p in state.pawns if p >= 0)
    if phase == DEAL_PHASE:
        expected = 0
    elif phase == START_PHASE:
        expected = min(chosen, n - 1)
    else:
        expected = n
    if [p for p in seats if state.pawns[p] >= 0] != seats[:expected] or chosen != expected:
        raise _fail("starting squares are chosen in seat order from the race's first player")
    for p in range(n):
        start = state.flag_sq[p * flags + flags - 1]
        if (start >= 0) != (state.pawns[p] >= 0) or (start >= 0 and start not in CENTRE):
            raise _fail("each pawn's highest flag lies on a centre square under its start")
        if phase <= FLAGS_PHASE and state.pawns[p] >= 0 and state.pawns[p] != start:
            raise _fail("pawns stay on their starting squares during setup")


def _check_placements(state: RoyalRacersState) -> None:
    """Setup e): the flags placed so far are the first ones of the order, each in its quadrant."""
    n, flags, phase = state.n, state.nflags, state.phase
    placed = {(slot // flags, slot % flags) for slot, sq in enumerate(state.flag_sq) if sq >= 0}
    placed -= {(p, flags - 1) for p in range(n)}
    order = setup.placement_order(n, flags, setup.race_starter(state.race, n))
    state.placed = len(placed)
    if placed != {(owner, index) for _, owner, index in order[: state.placed]}:
        raise _fail("flags are placed lowest first, in the order of setup e)")
    in_flags = phase == FLAGS_PHASE
    if (phase < FLAGS_PHASE and state.placed) or (in_flags and state.placed >= len(order)):
        raise _fail("flags are placed after the starting squares are chosen")
    if phase > FLAGS_PHASE and state.placed != len(order):
        raise _fail("the race begins once every flag is placed")
    for _, owner, index in order[: state.placed]:
        if QUADRANT_OF[state.flag_sq[owner * flags + index]] != state.flag_quadrant(owner, index):
            raise _fail("each flag lies in the quadrant setup e) gives it")


def _check_turn(state: RoyalRacersState) -> None:
    """Nothing happens before the race; a flip or move follows a roll and has a choice."""
    phase = state.phase
    if phase != OVER and any(t == state.nflags for t in state.progress):
        raise _fail("a race in progress has no player who touched his last flag")
    if phase <= FLAGS_PHASE and (any(state.progress) or state.roll >= 0 or state.down or state.last_flip):
        raise _fail("nothing is flipped, rolled or touched before the race begins")
    if phase <= FLAGS_PHASE and (state.round or state.turn):
        raise _fail("the first round's first turn comes after the setup")
    if phase in (FLIP_PHASE, MOVE_PHASE) and state.roll < 0:
        raise _fail("the die has been rolled before a flip or a move")
    if phase == FLIP_PHASE and state.roll == 0:
        raise _fail("a null roll flips nothing")
    _check_last_flip(state)
    if phase in (FLIP_PHASE, MOVE_PHASE) and not state._legal_actions():
        raise _fail(f"the player to {PHASE_NAMES[phase]} has no legal action, so the phase would be skipped")


def _check_last_flip(state: RoyalRacersState) -> None:
    """The flip remembered is this turn's (or the last turn's, until the next roll) and
    left its card as the rules do: down stays down, a right guess or a reveal is up, a
    wrong guess is back down; only reveals ignore the rank rolled."""
    if state.last_flip is None:
        return
    if state.phase == FLIP_PHASE:
        raise _fail("only one card is flipped per turn, and the flip ends the flip phase")
    kind, sq, ok = state.last_flip
    if not 1 <= state.roll <= 5:
        raise _fail("a card is flipped only after a roll of ace to five")
    face_down = bool(state.down >> sq & 1)
    right_rank = state.rank_at(sq) == state.roll
    consistent = {
        "down": ok and face_down and right_rank,
        "up": (not face_down and right_rank) if ok else (face_down and not right_rank),
        "reveal": ok and not face_down,
    }[kind]
    if not consistent:
        raise _fail(f"last_flip ({kind} {SQUARE_NAMES[sq]}) does not match the card there and the roll")


__all__ = ["SUITS", "RoyalRacersGame", "card_label"]
