"""The state documents of Chaos Checkers (`to_json` and reading them back), with their checks.

Squares in documents are the 1-32 numbers of the notation; colours are names. A chaos
document is read against `CHAOS` (shapes and ranges, errors naming the field), then
against the rules: every pyramid is somewhere exactly once (board, bags, pouch, hand, the
eliminated pile, out of the game), setup documents hold only the draws made so far, and
each phase has what it waits on (a piece to defend, a piece to reward, draws the bag can
give). So an accepted document is a position the rules can carry on from. A plain
checkers document is the board as 32 letters, whose move and repetition list are checked
the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chaosgames.core.document import (
    Bool,
    Check,
    Choice,
    Dict,
    Document,
    Int,
    List,
    Map,
    Nullable,
    Number,
    Object,
    Spec,
    Str,
    Tuple,
)
from chaosgames.core.errors import ChaosGamesError, InvalidStateError
from chaosgames.core.game import State
from chaosgames.games.chaos_checkers.actions import ChaosMove, Piece
from chaosgames.games.chaos_checkers.board import CROWN_ROW, NEIGHBOUR, RAY2, RAY3
from chaosgames.games.chaos_checkers.chaos_position import NO_REWARD, PendingMove, Reward
from chaosgames.games.chaos_checkers.colours import CODE, COLOURS, TEN, TRIOS_PER_COLOUR
from chaosgames.games.chaos_checkers.phases import DRAW_PHASES, REWARD_PHASES, SETUP_PHASES, Phase
from chaosgames.games.chaos_checkers.plain import PlainState, board_text, parse_board_text
from chaosgames.games.chaos_checkers.potions import PURPLE, WHITE
from chaosgames.games.chaos_checkers.powers import Power
from chaosgames.games.chaos_checkers.setup import PIECES_PER_COLOUR, START_SQUARES, setup_slot
from chaosgames.games.chaos_checkers.state import ChaosState

if TYPE_CHECKING:
    from chaosgames.games.chaos_checkers.rules_in_force import CheckersRules

CHAOS_PREFIX = "Impossible Chaos Checkers position: "
PLAIN_PREFIX = "Impossible checkers position: "
MOST_CAPTURES = 12
"""A move captures at most the twelve opposing pieces."""

# -- writing --------------------------------------------------------------------------------


def _name(colour: int) -> str | None:
    return COLOURS[colour] if colour >= 0 else None


def _number(square: int) -> int | None:
    return square + 1 if square >= 0 else None


def piece_doc(piece: Piece | None) -> dict[str, Any] | None:
    if piece is None:
        return None
    return {
        "owner": piece.owner,
        "colour": COLOURS[piece.colour],
        "king": piece.king,
        "shield": _name(piece.shield),
        "potion": _name(piece.potion),
    }


def _counts_doc(counts: tuple[int, ...]) -> dict[str, int]:
    return {COLOURS[c]: n for c, n in enumerate(counts) if n}


def _pending_doc(pending: PendingMove | None) -> dict[str, Any] | None:
    if pending is None:
        return None
    move = pending.move
    return {
        "power": move.power.value if move.power is not None else "",
        "path": [i + 1 for i in move.path],
        "victims": [_number(v) for v in move.victims],
        "step": pending.step,
        "at": pending.at + 1,
        "captures": pending.captures,
    }


def chaos_to_json(state: ChaosState) -> dict[str, Any]:
    reward = state.reward
    return {
        **state.game.doc_header(),
        "phase": str(state.phase),
        "setup_index": state.setup_index,
        "turn": state.turn,
        "moves_made": state.moves_made,
        "board": [piece_doc(p) for p in state.board],
        "shield_bags": [_counts_doc(b) for b in state.bags],
        "pouch": _counts_doc(state.pouch),
        "eliminated": [_counts_doc(e) for e in state.eliminated],
        "removed_from_game": {"white": state.removed},
        "extra_turn": _number(state.extra),
        "potion_used": _number(state.used),
        "speedy": state.speedy,
        "pending_move": _pending_doc(state.pending),
        "reward": {
            "square": _number(reward.square),
            "captures": reward.captures,
            "crowned": reward.crowned,
            "kept_potion": reward.kept_potion,
        },
        "hand": [COLOURS[c] for c in state.hand],
        "draws_left": state.draws_left,
        "turn_quiet": state.turn_quiet,
        "repetition": [
            {"turn": key[0], "extra_turn": _number(key[1]), "board": [piece_doc(p) for p in key[2:]]}
            for key in state.history
        ],
        "outcome": list(state.outcome) if state.outcome is not None else None,
    }


def plain_to_json(state: PlainState) -> dict[str, Any]:
    history = []
    for own, opp, kings, side in state.history:
        p0, p1 = (own, opp) if side == 0 else (opp, own)
        history.append({"board": board_text(p0, p1, kings), "turn": side})
    return {
        **state.game.doc_header(),
        "board": state.board(),
        "turn": state.side,
        "ply": state.ply,
        "repetition": history,
    }


# -- the chaos schema -------------------------------------------------------------------------

SQUARE = Map(Int(1, 32), lambda n: n - 1)
"""A square number 1-32, read as its index 0-31."""
NO_SQUARE = Map(Nullable(Int(1, 32)), lambda n: -1 if n is None else n - 1)
"""A square number or null, read as its index or -1."""
PIECE_COLOUR = Choice({name: code for name, code in CODE.items() if code < TEN})
ANY_COLOUR = Choice(CODE)
"""Potions may be pink (with the `pink` option; the count check tells)."""


def _or_none(colour: Spec[int]) -> Spec[int]:
    return Map(Nullable(colour), lambda c: -1 if c is None else c)


PIECE = Map(
    Object(
        {
            "owner": Choice((0, 1)),
            "colour": PIECE_COLOUR,
            "king": Bool(),
            "shield": _or_none(PIECE_COLOUR),
            "potion": _or_none(ANY_COLOUR),
        }
    ),
    lambda d: Piece(d["owner"], d["colour"], d["king"], d["shield"], d["potion"]),
)
BOARD = Map(List(Nullable(PIECE), length=32), list)


def _counts(colours: Spec[int], size: int) -> Spec[tuple[int, ...]]:
    """Counts by colour name (colours with none may be left out), read as a tuple."""

    def by_code(counts: dict[int, int]) -> tuple[int, ...]:
        return tuple(counts.get(c, 0) for c in range(size))

    return Map(Dict(colours, Int(0, TRIOS_PER_COLOUR)), by_code)


PIECE_COUNTS = _counts(PIECE_COLOUR, TEN)
PENDING = Object(
    {
        "power": Choice({"": None, Power.AMBUSH.value: Power.AMBUSH, Power.LEAP.value: Power.LEAP}),
        "path": List(SQUARE, length=range(2, MOST_CAPTURES + 2)),
        "victims": List(NO_SQUARE, length=range(1, MOST_CAPTURES + 1)),
        "step": Int(0, MOST_CAPTURES),
        "at": SQUARE,
        "captures": Int(0, MOST_CAPTURES),
    }
)
OUTCOMES = ((1.0, 0.0), (0.0, 1.0), (0.5, 0.5))
CHAOS = Document(
    {
        "phase": Choice({phase.value: phase for phase in Phase}),
        "setup_index": Int(0, 23),
        "turn": Choice((0, 1)),
        "moves_made": Int(0),
        "board": BOARD,
        "shield_bags": Tuple(PIECE_COUNTS, PIECE_COUNTS),
        "pouch": _counts(ANY_COLOUR, TEN + 1),
        "eliminated": Tuple(PIECE_COUNTS, PIECE_COUNTS),
        "removed_from_game": Object({"white": Int(0, TRIOS_PER_COLOUR)}),
        "extra_turn": NO_SQUARE,
        "potion_used": NO_SQUARE,
        "speedy": Bool(),
        "pending_move": Nullable(PENDING),
        "reward": Object(
            {"square": NO_SQUARE, "captures": Int(0, MOST_CAPTURES), "crowned": Bool(), "kept_potion": Bool()}
        ),
        "hand": List(ANY_COLOUR, max_length=MOST_CAPTURES),
        "draws_left": Int(0, MOST_CAPTURES),
        "turn_quiet": Bool(),
        "repetition": List(Object({"turn": Choice((0, 1)), "extra_turn": NO_SQUARE, "board": BOARD})),
        "outcome": Nullable(
            Check(Tuple(Number(), Number()), lambda o: o in OUTCOMES, "must be [1, 0], [0, 1] or [0.5, 0.5]")
        ),
    }
)


def _fail(field: str | list[str | int], message: str) -> ChaosGamesError:
    """The error for a field whose value the rules cannot carry on from ('pending_move.at
    must be ...'; a list names a path through lists, such as `["board", 3]`)."""
    return Spec.fail(field.split(".") if isinstance(field, str) else field, message, prefix=CHAOS_PREFIX)


# -- reading a chaos document ---------------------------------------------------------------


def chaos_from_doc(game: CheckersRules[Any, Any], doc: dict[str, Any]) -> ChaosState:
    fields = CHAOS.read(doc, prefix=CHAOS_PREFIX)
    state = ChaosState.__new__(ChaosState)
    State.__init__(state, game)
    state.phase = fields["phase"]
    state.setup_index = fields["setup_index"]
    state.turn = fields["turn"]
    state.moves_made = fields["moves_made"]
    state.board = fields["board"]
    state._read_board()
    state._odds = None
    state.bags = fields["shield_bags"]
    state.pouch = fields["pouch"]
    state.eliminated = fields["eliminated"]
    state.removed = fields["removed_from_game"]["white"]
    state.extra = fields["extra_turn"]
    state.used = fields["potion_used"]
    state.speedy = fields["speedy"]
    state.pending = _pending(fields["pending_move"])
    reward = fields["reward"]
    state.reward = Reward(reward["square"], reward["captures"], reward["crowned"], reward["kept_potion"])
    state.hand = tuple(fields["hand"])
    state.draws_left = fields["draws_left"]
    state.turn_quiet = fields["turn_quiet"]
    state.history = tuple((e["turn"], e["extra_turn"], *e["board"]) for e in fields["repetition"])
    outcome = fields["outcome"]
    state.outcome = (float(outcome[0]), float(outcome[1])) if outcome is not None else None
    if (state.outcome is None) != (state.phase != Phase.OVER):
        raise _fail("outcome", "is set when the game is over (phase 'over'), and only then")
    if state.phase in SETUP_PHASES:
        _check_setup(state)
    _check_pyramids(state, game)
    _check_pending(state)
    _check_turn_squares(state)
    _check_rewards(state)
    _check_repetition(state)
    state._after()
    return state


def _pending(doc: dict[str, Any] | None) -> PendingMove | None:
    if doc is None:
        return None
    path, victims = tuple(doc["path"]), tuple(doc["victims"])
    if len(path) != len(victims) + 1:
        raise _fail("pending_move.path", "must be one square longer than its victims")
    move = ChaosMove(doc["power"], path, victims)
    if not all(_a_step(move.power, path[k], path[k + 1], victims[k]) for k in range(len(victims))):
        raise _fail("pending_move.path", "must be steps and captures a piece can make")
    if doc["step"] >= len(victims) or doc["captures"] > doc["step"]:
        raise _fail("pending_move.step", "must be a step of the move still to make, after its captures")
    return PendingMove(move, doc["step"], doc["at"], doc["captures"])


def _a_step(power: Power | None, src: int, dst: int, victim: int) -> bool:
    """Whether `src` to `dst` capturing `victim` (-1: none) is a step of a move."""
    for d in range(4):
        if power is Power.AMBUSH and victim == dst == NEIGHBOUR[src][d]:
            return True
        if RAY2[src][d] == dst and victim in (-1, NEIGHBOUR[src][d]):
            return True
        if power is Power.LEAP and RAY3[src][d] == dst and victim in (NEIGHBOUR[src][d], RAY2[src][d]):
            return True
    return False


def _check_pending(state: ChaosState) -> None:
    """Phase 'defend' waits on a move whose next capture is of a piece with Invulnerability."""
    pending = state.pending
    if state.phase != Phase.DEFEND:
        if pending is not None:
            raise _fail("pending_move", "waits only in phase 'defend'")
        return
    if pending is None:
        raise _fail("pending_move", "is needed in phase 'defend': the move being defended against")
    move = pending.move
    mover = state.board[pending.at]
    if mover is None or mover.owner != state.turn or pending.at != move.path[pending.step]:
        raise _fail("pending_move.at", "must be the square where the moving piece stands")
    for k in range(pending.step, len(move.victims)):
        victim = state.board[move.victims[k]] if move.victims[k] >= 0 else None
        if victim is None or victim.owner == state.turn:
            raise _fail("pending_move.victims", "must be opposing pieces still to be captured")
    victim = state.board[move.victims[pending.step]]
    if victim is None or victim.potion != PURPLE:
        raise _fail("pending_move", "must wait on a piece holding Invulnerability in phase 'defend'")


def _check_setup(state: ChaosState) -> None:
    """During setup, exactly the draws made so far are on the board, in the rulebook's
    order, and nothing of play has happened yet."""
    if (
        any(state.eliminated[0])
        or any(state.eliminated[1])
        or state.removed
        or state.moves_made
        or state.turn
    ) or (
        state.history or state.hand or state.draws_left or state.reward != NO_REWARD or not state.turn_quiet
    ):
        raise InvalidStateError(
            f"{CHAOS_PREFIX}a setup document (phase {str(state.phase)!r}) holds only the setup draws: "
            "nothing eliminated or removed, no moves, rewards, draws or repetitions, player 1 to move."
        )
    made = {setup_slot(state.phase, k)[1] for k in range(state.setup_index)}
    for square, piece in enumerate(state.board):
        starts = square in START_SQUARES
        drawn = square in made
        expected = {
            Phase.PLACE: (drawn, False, False),
            Phase.SHIELD: (starts, drawn, False),
            Phase.POTION: (starts, starts, drawn),
        }[state.phase]
        has = (
            piece is not None,
            piece is not None and piece.shield >= 0,
            piece is not None and piece.potion >= 0,
        )
        if has != expected:
            raise _fail(
                ["board", square],
                f"does not match setup phase {str(state.phase)!r} after {state.setup_index} draws "
                "(pieces, then shields, then potions, in the rulebook's order)",
            )


def _check_turn_squares(state: ChaosState) -> None:
    """The Speedy piece taking its extra turn, and the piece whose potion was used."""
    phase = state.phase
    own = [i for i, p in enumerate(state.board) if p is not None and p.owner == state.turn]
    # In phase 'move' the Speedy piece may be gone (its extra turn's Sacrifice took it).
    gone = phase == Phase.MOVE and state.extra >= 0 and state.board[state.extra] is None
    if state.extra >= 0 and phase in (Phase.TURN, Phase.MOVE) and state.extra not in own and not gone:
        raise _fail("extra_turn", "must be the square of a piece of the player to move")
    if state.used >= 0 and (phase in (Phase.TURN, *SETUP_PHASES) or state.used not in own):
        raise _fail(
            "potion_used",
            "is the square of the mover's piece whose potion was used this turn, after a potion is declared",
        )
    if state.speedy and state.used < 0:
        raise _fail("speedy", "needs its piece in 'potion_used' (a Speedy potion used this turn)")
    if phase not in (*SETUP_PHASES, Phase.OVER) and 0 in state.counts():
        raise _fail("board", "must hold pieces of both players while the game goes on")


def _check_rewards(state: ChaosState) -> None:
    """Draws wait only in the reward phases, for the piece that moved, as many as the move
    earned and its bag or the pouch still holds."""
    phase = state.phase
    if phase not in REWARD_PHASES:
        if state.hand:
            raise _fail("hand", "holds drawn pieces only in the draw and keep phases")
        if state.draws_left:
            raise _fail("draws_left", "must be 0 outside the draw phases")
        return
    reward = state.reward
    piece = state.board[reward.square] if reward.square >= 0 else None
    if piece is None or piece.owner != state.turn:
        raise _fail(
            "reward.square", f"must hold the moved piece of the player to move in phase {str(phase)!r}"
        )
    shields = phase in (Phase.DRAW_SHIELD, Phase.KEEP_SHIELD)
    # The moved piece's old shield (or potion) went back before drawing its new one.
    if (piece.shield if shields else piece.potion) >= 0:
        what = "shield" if shields else "potion"
        raise _fail("reward.square", f"must hold a piece without a {what} while it draws a new one")
    earned = reward.captures if shields else (1 if reward.crowned else reward.captures)
    if not shields and not reward.crowned and reward.kept_potion:
        earned = 0  # it used its own potion: it keeps it and draws none
    if state.draws_left + len(state.hand) > earned:
        raise _fail("draws_left", f"and the hand cannot hold more draws than the move earned ({earned})")
    if phase in DRAW_PHASES:
        left = sum(state.bags[state.turn]) if shields else sum(state.pouch)
        if not 1 <= state.draws_left <= left:
            raise _fail(
                "draws_left", f"must be between 1 and what is left to draw ({left}) in phase {str(phase)!r}"
            )
    elif state.draws_left or not state.hand:
        raise _fail("hand", f"must hold the drawn pieces, all drawn, in phase {str(phase)!r}")


def _check_repetition(state: ChaosState) -> None:
    """The positions since the last irreversible move end with the current one while the
    turn is still quiet (see repetition.py)."""
    if state.history and state.phase == Phase.TURN and state.turn_quiet and state.history[-1] != state._key():
        raise _fail("repetition", "must end with the current position")


def _check_pyramids(state: ChaosState, game: CheckersRules[Any, Any]) -> None:
    """Every pyramid accounted for exactly once."""
    setup_done = state.phase not in SETUP_PHASES
    colours = game.colours
    pieces = [[0] * TEN, [0] * TEN]
    shields = [[0] * TEN, [0] * TEN]
    potions = [0] * (TEN + 1)
    for square, piece in enumerate(state.board):
        if piece is None:
            continue
        if piece.colour not in colours[piece.owner]:
            raise _fail(
                ["board", square],
                f"holds a {COLOURS[piece.colour]} piece of player {piece.owner + 1}, "
                "who does not play that colour",
            )
        if not piece.king and CROWN_ROW[piece.owner] >> square & 1 and setup_done:
            raise _fail(["board", square], "holds a man on its far row uncrowned")
        pieces[piece.owner][piece.colour] += 1
        if piece.shield >= 0:
            shields[piece.owner][piece.shield] += 1
        if piece.potion >= 0:
            potions[piece.potion] += 1
    hand_is_shields = state.phase in (Phase.DRAW_SHIELD, Phase.KEEP_SHIELD)
    for c in state.hand:
        if hand_is_shields:
            if c >= TEN:
                raise _fail("hand", "holds shields, which are never pink")
            shields[state.turn][c] += 1
        else:
            potions[c] += 1
    for player in (0, 1):
        for c in range(TEN):
            total = pieces[player][c] + state.eliminated[player][c]
            expected = PIECES_PER_COLOUR if c in colours[player] else 0
            if total > expected or (setup_done and total != expected):
                raise InvalidStateError(
                    f"{CHAOS_PREFIX}player {player + 1} should have {expected} {COLOURS[c]} pieces in all, "
                    f"not {total}."
                )
            in_all = shields[player][c] + state.bags[player][c]
            expected = TRIOS_PER_COLOUR if c in colours[1 - player] else 0
            if in_all != expected:
                raise InvalidStateError(
                    f"{CHAOS_PREFIX}player {player + 1} should have {expected} {COLOURS[c]} shields "
                    f"(bag and pieces), not {in_all}."
                )
    for c in range(TEN + 1):
        expected = TRIOS_PER_COLOUR if c < TEN or game.options["pink"] else 0
        in_all = potions[c] + state.pouch[c] + (state.removed if c == WHITE else 0)
        if in_all != expected:
            raise InvalidStateError(
                f"{CHAOS_PREFIX}there should be {expected} {COLOURS[c]} potions in all, not {in_all}."
            )


# -- reading a plain document -----------------------------------------------------------------

PLAIN_BOARD = Map(Str(32), parse_board_text)
PLAIN = Document(
    {
        "board": PLAIN_BOARD,
        "turn": Choice((0, 1)),
        "ply": Int(0),
        "repetition": List(Object({"board": PLAIN_BOARD, "turn": Choice((0, 1))})),
    }
)


def plain_from_doc(game: CheckersRules[Any, Any], doc: dict[str, Any]) -> PlainState:
    fields = PLAIN.read(doc, prefix=PLAIN_PREFIX)
    p0, p1, kings = fields["board"]
    turn = fields["turn"]
    _check_material(p0, p1, kings)
    history = []
    for entry in fields["repetition"]:
        h0, h1, hk = entry["board"]
        side = entry["turn"]
        history.append((h0, h1, hk, side) if side == 0 else (h1, h0, hk, side))
    if history and history[-1] != ((p0, p1, kings, turn) if turn == 0 else (p1, p0, kings, turn)):
        raise InvalidStateError(f"{PLAIN_PREFIX}the last 'repetition' entry must be the current position.")
    return PlainState.from_position(game, p0, p1, kings, turn, fields["ply"], tuple(history))


def _check_material(p0: int, p1: int, kings: int) -> None:
    for player, pieces in enumerate((p0, p1)):
        if pieces.bit_count() > 12:
            raise InvalidStateError(
                f"{PLAIN_PREFIX}player {player + 1} has {pieces.bit_count()} pieces; at most 12 exist."
            )
        if pieces & ~kings & CROWN_ROW[player]:
            raise InvalidStateError(
                f"{PLAIN_PREFIX}player {player + 1} has an uncrowned man on the far row, "
                "where men are always crowned."
            )
