"""State documents and observations: writing them, and reading a state document back.

The fields are described in docs/games/royal-racers.md. Reading checks the shape and
range of every field with a schema (`SCHEMA`, whose errors name the field), then every
check the rules rely on (`_check_flow`): an accepted document is a position the rules
can carry on from. Observations are the state document without what a player may not
see: the ranks of face-down cards (unless the memory aid shows them).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from chaosgames.core.document import (
    Bool,
    Check,
    Choice,
    Default,
    Document,
    Int,
    List,
    Map,
    Nullable,
    Object,
    Spec,
    Str,
)
from chaosgames.core.errors import InvalidStateError
from chaosgames.games.royal_racers import movement, setup
from chaosgames.games.royal_racers.actions import DIE_FACES, FLIP_KINDS, Flip, Kind, RacerAction
from chaosgames.games.royal_racers.board import (
    CARD_BY_NAME,
    CARD_NAMES,
    CENTRE,
    DEAL_ORDER,
    QUADRANT_OF,
    SQUARE_BY_NAME,
    SQUARE_NAMES,
    SQUARES,
)
from chaosgames.games.royal_racers.state import PHASE_NAMES, Phase, RoyalRacersState

if TYPE_CHECKING:
    from chaosgames.games.royal_racers.rules_in_force import RacersRules

PREFIX = "Impossible Royal Racers position: "

NO_CAP_ROUNDS = 10**6
"""Rounds a state document may count in a race when `max_rounds` is 0 (no cap)."""

# -- writing ----------------------------------------------------------------------------


def _square_or_none(sq: int) -> str | None:
    return SQUARE_NAMES[sq] if sq >= 0 else None


def _card_view(state: RoyalRacersState, sq: int, hidden: bool) -> str | None:
    card = state.cards[sq]
    if card < 0 or (hidden and state.down >> sq & 1):
        return None
    return CARD_NAMES[card]


def _last_flip(state: RoyalRacersState) -> dict[str, Any] | None:
    flip = state.last_flip
    if flip is None:
        return None
    return {
        "kind": flip.kind.value,
        "square": SQUARE_NAMES[flip.square],
        "ok": flip.ok,
        # A card turned up is seen by everyone, even one that must go back down.
        "card": CARD_NAMES[state.cards[flip.square]],
    }


def _common(state: RoyalRacersState, hidden: bool) -> dict[str, Any]:
    flags = state.nflags
    return {
        "phase": PHASE_NAMES[state.phase],
        "race": state.race + 1,
        "round": state.round + 1,
        "turn": state.turn,
        "cards": [_card_view(state, sq, hidden) for sq in range(SQUARES)],
        "face_down": [SQUARE_NAMES[sq] for sq in range(SQUARES) if state.down >> sq & 1],
        "pawns": [_square_or_none(p) for p in state.pawns],
        "flags": [
            [_square_or_none(sq) for sq in state.flag_sq[i * flags : (i + 1) * flags]] for i in range(state.n)
        ],
        "touched": list(state.progress),
        "roll": DIE_FACES[state.roll] if state.roll >= 0 else None,
        "last_flip": _last_flip(state),
        "coins": [race[:] for race in state.coins],
        "race_winners": list(state.race_winners),
    }


def state_document(state: RoyalRacersState) -> dict[str, Any]:
    """The whole state, face-down ranks included (`State.to_json`)."""
    doc = {**state.game.doc_header(), **_common(state, hidden=False)}
    doc["past_rounds"] = state.past_rounds
    return doc


def observation_document(state: RoyalRacersState, player: int | None) -> dict[str, Any]:
    """What a player sees: face-down cards show no rank (unless memory_aid is on), and the
    die only during the turn it was rolled for (`RoyalRacersState.shown_roll`)."""
    doc = _common(state, hidden=not state.memory_aid)
    roll = state.shown_roll()
    doc["roll"] = DIE_FACES[roll] if roll >= 0 else None
    doc["player"] = player
    doc["players"] = state.game.player_names()
    doc["to_act"] = state.current_player()
    doc["rounds_played"] = state.round_number()
    if state.phase == Phase.OVER:
        doc["ended_by"] = state.ended_by()
    return doc


# -- the schema -------------------------------------------------------------------------

SQUARE = Map(
    Check(Str(2), lambda name: name in SQUARE_BY_NAME, "must be a square from a1 to f6"),
    lambda name: SQUARE_BY_NAME[name],
)
SQUARE_OR_NONE = Map(Nullable(SQUARE), lambda sq: -1 if sq is None else sq)
CARD = Map(
    Check(
        Str(3), lambda name: name.casefold() in CARD_BY_NAME, "must be a card of the deck, such as 7h or As"
    ),
    lambda name: CARD_BY_NAME[name.casefold()],
)
"""A card by name (`7h`, `As`; the case of the letters does not matter)."""
LAST_FLIP = Object(
    {
        "kind": Choice({kind.value: kind for kind in FLIP_KINDS}),
        "square": SQUARE,
        "ok": Bool(),
        "card": Default(Str(3), ""),
    }
)


@cache
def schema(players: int, flags: int, races: int, max_rounds: int) -> Document:
    """The shape and ranges of a state document under these options."""
    rounds = max_rounds or NO_CAP_ROUNDS
    return Document(
        {
            "phase": Choice({name: phase for name, phase in zip(PHASE_NAMES, Phase, strict=True)}),
            "race": Int(1, races),
            "round": Int(1, rounds),
            "turn": Int(0, players - 1),
            "past_rounds": Int(0, races * rounds),
            "cards": List(Nullable(CARD), length=SQUARES),
            "face_down": List(SQUARE),
            "pawns": List(SQUARE_OR_NONE, length=players),
            "flags": List(List(SQUARE_OR_NONE, length=flags), length=players),
            "touched": List(Int(0, flags), length=players),
            "roll": Nullable(Choice({face: number for number, face in enumerate(DIE_FACES)})),
            "last_flip": Nullable(LAST_FLIP),
            "coins": List(List(Int(0, flags), length=players), max_length=races),
            "race_winners": List(Int(-1 if max_rounds else 0, players - 1), max_length=races),
        }
    )


def _fail(path: Sequence[str | int], message: str) -> InvalidStateError:
    error = Spec.fail(path, message, prefix=PREFIX)
    assert isinstance(error, InvalidStateError)
    return error


# -- reading ----------------------------------------------------------------------------


def read_state(game: RacersRules[RoyalRacersState, RacerAction], doc: dict[str, Any]) -> RoyalRacersState:
    """The state a document describes; InvalidStateError naming the field at fault."""
    options = game.options
    fields = schema(game.num_players, options["flags"], options["races"], options["max_rounds"]).read(
        doc, prefix=PREFIX
    )
    state = game.new_initial_state()
    state.phase = fields["phase"]
    state.race = fields["race"] - 1
    state.round = fields["round"] - 1
    state.turn = fields["turn"]
    state.past_rounds = fields["past_rounds"]
    _read_campaign(state, fields)
    _read_cards(state, fields)
    _read_pieces(state, fields)
    _check_flow(state)
    return state


def _read_campaign(state: RoyalRacersState, fields: dict[str, Any]) -> None:
    flags = state.nflags
    finished = state.race + (1 if state.phase == Phase.OVER else 0)
    coins, winners = fields["coins"], fields["race_winners"]
    for key, value in (("coins", coins), ("race_winners", winners)):
        if len(value) != finished:
            raise _fail([key], f"must list one entry per finished race ({finished}), not {len(value)}")
    for race, (coin, winner) in enumerate(zip(coins, winners, strict=True)):
        if winner >= 0 and coin[winner] != flags:
            raise _fail(["race_winners", race], "must have touched all his flags to win the race")
        if sum(c == flags for c in coin) > (1 if winner >= 0 else 0):
            raise _fail(["coins", race], "show only the race winner touching his last flag")
    state.coins = coins
    state.race_winners = winners
    # Every race lasts at least one round and at most max_rounds.
    most = finished * (state.max_rounds or NO_CAP_ROUNDS)
    if not finished <= state.past_rounds <= most:
        raise _fail(["past_rounds"], f"must be from {finished} to {most} for {finished} finished races")


def _read_cards(state: RoyalRacersState, fields: dict[str, Any]) -> None:
    seen: set[int] = set()
    for sq, card in enumerate(fields["cards"]):
        if card is None:
            continue
        if card in seen:
            raise _fail(["cards", sq], f"holds the {CARD_NAMES[card]} a second time")
        seen.add(card)
        state.lay(sq, card)
    state.dealt = len(seen)
    if any(state.cards[sq] < 0 for sq in DEAL_ORDER[: state.dealt]):
        raise _fail(["cards"], "are laid out in reading order from a6, without gaps")
    if (state.phase == Phase.DEAL) != (state.dealt < SQUARES):
        raise _fail(["cards"], "complete the grid exactly when the deal is over")
    for index, sq in enumerate(fields["face_down"]):
        if state.cards[sq] < 0 or state.always_up >> sq & 1:
            raise _fail(["face_down", index], "cannot be face down (ranks 6-9 always stay face up)")
        state.down |= 1 << sq


def _read_pieces(state: RoyalRacersState, fields: dict[str, Any]) -> None:
    pawns = fields["pawns"]
    placed_pawns = [p for p in pawns if p >= 0]
    if len(set(placed_pawns)) != len(placed_pawns):
        raise _fail(["pawns"], "hold only one pawn per space")
    if any(state.down >> p & 1 for p in placed_pawns):
        raise _fail(["pawns"], "never stand on a face-down card")
    state.pawns = pawns
    for owner, row in enumerate(fields["flags"]):
        for index, sq in enumerate(row):
            if sq < 0:
                continue
            if state.flag_at[sq] >= 0:
                raise _fail(["flags", owner, index], "lies on a card that has a flag already")
            state._put_flag(owner, index, sq)
    state.progress = fields["touched"]
    roll = fields["roll"]
    state.roll = -1 if roll is None else roll
    last = fields["last_flip"]
    if last is not None:
        if last["card"] not in ("", CARD_NAMES[max(state.cards[last["square"]], 0)]):
            raise _fail(["last_flip", "card"], "must be the card on the square flipped")
        state.last_flip = Flip(last["kind"], last["square"], last["ok"])


def _previous_mover(state: RoyalRacersState) -> int:
    """Whose turn ended last (-1: none yet), at a roll or at the end of a race stopped by
    the cap, whose last turn ended without a new round."""
    n = state.n
    if state.phase == Phase.OVER:
        if not state.race_winners or state.race_winners[-1] >= 0:
            return -1  # a race won by a move: that decision ended every flip before it
        return (state.race + state.round + n - 1) % n
    if state.turn:
        return (state.race + state.round + state.turn - 1) % n
    return (state.race + state.round - 1 + n - 1) % n if state.round else -1


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
    if phase == Phase.DEAL:
        expected = 0
    elif phase == Phase.START:
        expected = min(chosen, n - 1)
    else:
        expected = n
    if [p for p in seats if state.pawns[p] >= 0] != seats[:expected] or chosen != expected:
        raise _fail(["pawns"], "choose their starting squares in seat order from the race's first player")
    for p in range(n):
        start = state.flag_sq[p * flags + flags - 1]
        if (start >= 0) != (state.pawns[p] >= 0) or (start >= 0 and start not in CENTRE):
            raise _fail(["flags", p, flags - 1], "(the highest flag) lies on a centre square under the start")
        if phase <= Phase.FLAGS and state.pawns[p] >= 0 and state.pawns[p] != start:
            raise _fail(["pawns", p], "stays on its starting square during setup")


def _check_placements(state: RoyalRacersState) -> None:
    """Setup e): the flags placed so far are the first ones of the order, each in its quadrant."""
    n, flags, phase = state.n, state.nflags, state.phase
    placed = {(slot // flags, slot % flags) for slot, sq in enumerate(state.flag_sq) if sq >= 0}
    placed -= {(p, flags - 1) for p in range(n)}
    order = setup.placement_order(n, flags, setup.race_starter(state.race, n))
    state.placed = len(placed)
    if placed != {(owner, index) for _, owner, index in order[: state.placed]}:
        raise _fail(["flags"], "are placed lowest first, in the order of setup e)")
    in_flags = phase == Phase.FLAGS
    if (phase < Phase.FLAGS and state.placed) or (in_flags and state.placed >= len(order)):
        raise _fail(["flags"], "are placed after the starting squares are chosen")
    if phase > Phase.FLAGS and state.placed != len(order):
        raise _fail(["flags"], "are all placed before the race begins")
    for _, owner, index in order[: state.placed]:
        if QUADRANT_OF[state.flag_sq[owner * flags + index]] != state.flag_quadrant(owner, index):
            raise _fail(["flags", owner, index], "lies outside the quadrant setup e) gives it")


def _check_turn(state: RoyalRacersState) -> None:
    """Nothing happens before the race; a flip or move follows a roll and has a choice."""
    phase = state.phase
    if phase != Phase.OVER and any(t == state.nflags for t in state.progress):
        raise _fail(["touched"], "show nobody has touched his last flag in a race in progress")
    if phase <= Phase.FLAGS and (any(state.progress) or state.roll >= 0 or state.down or state.last_flip):
        raise _fail(["phase"], "is setup: nothing is flipped, rolled or touched before the race begins")
    if phase <= Phase.FLAGS and (state.round or state.turn):
        raise _fail(["phase"], "is setup: the first round's first turn comes after the setup")
    if phase in (Phase.FLIP, Phase.MOVE) and state.roll < 0:
        raise _fail(["roll"], "must show the die rolled before a flip or a move")
    if phase == Phase.FLIP and state.roll == 0:
        raise _fail(["roll"], "is null, which flips nothing")
    _check_last_flip(state)
    if phase in (Phase.FLIP, Phase.MOVE) and not state._legal_actions():
        raise _fail(
            ["phase"], f"is {PHASE_NAMES[phase]} but the player has no legal action, so it would be skipped"
        )


def _check_last_flip(state: RoyalRacersState) -> None:
    """The flip remembered is the latest decision (the move still to come, or forfeited
    and no roll since) and left its card as the rules do: down stays down, a right guess
    or a reveal is up, a wrong guess is back down; only reveals ignore the rank rolled."""
    flip = state.last_flip
    if flip is None:
        return
    if state.phase == Phase.FLIP:
        raise _fail(
            ["last_flip"],
            "cannot be set: only one card is flipped per turn, and the flip ends the flip phase",
        )
    if state.phase != Phase.MOVE:
        flipper = _previous_mover(state)
        if flipper < 0 or movement.move_options(state, flipper):
            raise _fail(
                ["last_flip"],
                "is kept only until the next decision: after a turn whose move was not forfeited it is gone",
            )
    if not 1 <= state.roll <= 5:
        raise _fail(["last_flip"], "cannot be set: a card is flipped only after a roll of ace to five")
    kind, sq, ok = flip
    face_down = bool(state.down >> sq & 1)
    right_rank = state.rank_at(sq) == state.roll
    consistent = {
        Kind.DOWN: ok and face_down and right_rank,
        Kind.UP: (not face_down and right_rank) if ok else (face_down and not right_rank),
        Kind.REVEAL: ok and not face_down,
    }[kind]
    if not consistent:
        raise _fail(
            ["last_flip"], f"({kind.value} {SQUARE_NAMES[sq]}) does not match the card there and the roll"
        )
