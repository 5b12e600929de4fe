"""The Chaos Checkers state document (`to_json` / `state_from_json`), with its checks.

Squares in documents are the 1-32 numbers of the notation; colours are names. Loading
checks that every pyramid is somewhere exactly once (board, bags, pouch, hand, the
eliminated pile, out of the game), so an impossible position is refused with a sentence.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chaosgames.core.errors import InvalidStateError
from chaosgames.core.game import State
from chaosgames.games.chaos_checkers.actions import ChaosMove, Piece
from chaosgames.games.chaos_checkers.board import CROWN_ROW
from chaosgames.games.chaos_checkers.colours import CODE, COLOURS, TEN, TRIOS_PER_COLOUR
from chaosgames.games.chaos_checkers.potions import PURPLE, WHITE
from chaosgames.games.chaos_checkers.state import (
    PHASES,
    PIECES_PER_COLOUR,
    SETUP_PHASES,
    ChaosState,
    setup_slot,
)

if TYPE_CHECKING:
    from chaosgames.games.chaos_checkers.game import ChaosCheckersGame


def _name(colour: int) -> str | None:
    return COLOURS[colour] if colour >= 0 else None


def _code(name: Any, allow_none: bool = True, pink: bool = False) -> int:
    if name is None and allow_none:
        return -1
    if name not in CODE or (CODE[name] >= TEN and not pink):
        raise InvalidStateError(f"{name!r} is not a colour here; colours are {', '.join(COLOURS[:TEN])}.")
    return CODE[name]


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


def _piece(doc: Any) -> Piece | None:
    if doc is None:
        return None
    owner = doc["owner"]
    if owner not in (0, 1) or not isinstance(doc["king"], bool):
        raise InvalidStateError("A piece needs 'owner' 0 or 1 and 'king' true or false.")
    return Piece(
        owner, _code(doc["colour"], False), doc["king"], _code(doc["shield"]), _code(doc["potion"], pink=True)
    )


def _counts(doc: Any, size: int) -> tuple[int, ...]:
    counts = [0] * size
    for name, n in dict(doc).items():
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise InvalidStateError(f"The count of {name!r} must be a whole number, not {n!r}.")
        counts[_code(name, False, pink=size > TEN)] = n
    return tuple(counts)


def _counts_doc(counts: tuple[int, ...]) -> dict[str, int]:
    return {COLOURS[c]: n for c, n in enumerate(counts) if n}


def _square(value: Any) -> int:
    if value is None:
        return -1
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 32:
        raise InvalidStateError(f"A square is a number from 1 to 32, not {value!r}.")
    return value - 1


def _sq(index: int) -> int | None:
    return index + 1 if index >= 0 else None


def chaos_to_json(state: ChaosState) -> dict[str, Any]:
    pending = None
    if state.pending is not None:
        move, step, at, captures = state.pending
        pending = {
            "power": move.power,
            "path": [i + 1 for i in move.path],
            "victims": [_sq(v) for v in move.victims],
            "step": step,
            "at": at + 1,
            "captures": captures,
        }
    at, captures, crowned, kept = state.reward
    return {
        **state.game.doc_header(),
        "phase": state.phase,
        "setup_index": state.setup_index,
        "turn": state.turn,
        "moves_made": state.moves_made,
        "board": [piece_doc(p) for p in state.board],
        "shield_bags": [_counts_doc(b) for b in state.bags],
        "pouch": _counts_doc(state.pouch),
        "eliminated": [_counts_doc(e) for e in state.eliminated],
        "removed_from_game": {"white": state.removed},
        "extra_turn": _sq(state.extra),
        "potion_used": _sq(state.used),
        "speedy": state.speedy,
        "pending_move": pending,
        "reward": {"square": _sq(at), "captures": captures, "crowned": crowned, "kept_potion": kept},
        "hand": [COLOURS[c] for c in state.hand],
        "draws_left": state.draws_left,
        "turn_quiet": state.turn_quiet,
        "repetition": [
            {"turn": key[0], "extra_turn": _sq(key[1]), "board": [piece_doc(p) for p in key[2:]]}
            for key in state.history
        ],
        "outcome": list(state.outcome) if state.outcome is not None else None,
    }


def _int(doc: dict[str, Any], key: str, low: int = 0) -> int:
    value = doc[key]
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise InvalidStateError(f"'{key}' must be a whole number of at least {low}, not {value!r}.")
    return value


def chaos_from_doc(game: ChaosCheckersGame, doc: dict[str, Any]) -> ChaosState:
    state = ChaosState.__new__(ChaosState)
    State.__init__(state, game)
    phase = doc["phase"]
    if phase not in PHASES:
        raise InvalidStateError(f"Unknown phase {phase!r}; phases are {', '.join(PHASES)}.")
    state.phase = phase
    state.setup_index = _int(doc, "setup_index")
    if state.setup_index >= 24:
        raise InvalidStateError("'setup_index' counts the 24 setup draws of a phase: 0 to 23.")
    state.turn = _int(doc, "turn")
    if state.turn > 1:
        raise InvalidStateError("'turn' must be 0 or 1.")
    state.moves_made = _int(doc, "moves_made")
    board = doc["board"]
    if not isinstance(board, list) or len(board) != 32:
        raise InvalidStateError("'board' must list the 32 squares (null for an empty one).")
    state.board = [_piece(p) for p in board]
    bags = doc["shield_bags"]
    eliminated = doc["eliminated"]
    if len(bags) != 2 or len(eliminated) != 2:
        raise InvalidStateError("'shield_bags' and 'eliminated' need one entry per player.")
    state.bags = (_counts(bags[0], TEN), _counts(bags[1], TEN))
    state.pouch = _counts(doc["pouch"], TEN + 1)
    state.eliminated = (_counts(eliminated[0], TEN), _counts(eliminated[1], TEN))
    state.removed = _int(doc["removed_from_game"], "white")
    state.extra = _square(doc["extra_turn"])
    state.used = _square(doc["potion_used"])
    state.speedy = doc["speedy"]
    if not isinstance(state.speedy, bool):
        raise InvalidStateError("'speedy' must be true or false.")
    pending = doc["pending_move"]
    if pending is None:
        state.pending = None
    else:
        path = tuple(_square(s) for s in pending["path"])
        victims = tuple(_square(v) for v in pending["victims"])
        if len(path) != len(victims) + 1 or pending["power"] not in ("", "ambush", "leap"):
            raise InvalidStateError("A pending move needs a path one square longer than its victims.")
        move = ChaosMove("move", pending["power"], path, victims)
        state.pending = (move, _int(pending, "step"), _square(pending["at"]), _int(pending, "captures"))
    reward = doc["reward"]
    state.reward = (
        _square(reward["square"]),
        _int(reward, "captures"),
        bool(reward["crowned"]),
        bool(reward["kept_potion"]),
    )
    state.hand = tuple(_code(c, False, pink=True) for c in doc["hand"])
    state.draws_left = _int(doc, "draws_left")
    state.turn_quiet = bool(doc["turn_quiet"])
    state.history = tuple(
        (entry["turn"], _square(entry["extra_turn"]), *(_piece(p) for p in entry["board"]))
        for entry in doc["repetition"]
    )
    outcome = doc["outcome"]
    state.outcome = (float(outcome[0]), float(outcome[1])) if outcome is not None else None
    if (state.outcome is None) != (phase != "over"):
        raise InvalidStateError("A finished game (phase 'over') needs an outcome, and only it has one.")
    _check(state, game)
    _check_setup(state)
    _check_phase(state)
    state._after()
    return state


def _check_phase(state: ChaosState) -> None:
    """What each phase needs: a threatened piece to defend, a piece to reward, draws."""
    phase = state.phase
    if phase == "defend":
        if state.pending is None:
            raise InvalidStateError("Phase 'defend' needs the pending move being defended against.")
        move, step, at, _ = state.pending
        if not 0 <= step < len(move.victims) or move.victims[step] < 0:
            raise InvalidStateError("The pending move's next step must be a capture in phase 'defend'.")
        victim = state.board[move.victims[step]]
        if victim is None or victim.potion != PURPLE or victim.owner == state.turn:
            raise InvalidStateError(
                "Phase 'defend' needs an opposing piece holding Invulnerability to defend."
            )
        mover = state.board[at]
        if mover is None or mover.owner != state.turn:
            raise InvalidStateError("The pending move's piece must stand on its square.")
    elif state.pending is not None:
        raise InvalidStateError("Only phase 'defend' has a pending move.")
    _check_turn_squares(state)
    if phase in ("draw-shield", "draw-potion", "keep-shield", "keep-potion"):
        rewarded = state.board[state.reward[0]] if state.reward[0] >= 0 else None
        if rewarded is None or rewarded.owner != state.turn:
            raise InvalidStateError(f"Phase {phase!r} needs the rewarded piece of the player to move.")
    if phase in ("draw-shield", "draw-potion") and state.draws_left < 1:
        raise InvalidStateError(f"Phase {phase!r} needs at least one draw left.")
    if phase in ("keep-shield", "keep-potion") and not state.hand:
        raise InvalidStateError(f"Phase {phase!r} needs the drawn pieces to choose from.")
    if phase not in ("draw-shield", "draw-potion", "keep-shield", "keep-potion") and state.hand:
        raise InvalidStateError("Drawn pieces wait only in the draw and keep phases.")


def _check_setup(state: ChaosState) -> None:
    """During setup, exactly the draws made so far are on the board, in the seed's order."""
    if state.phase not in SETUP_PHASES:
        return
    made = {setup_slot(state.phase, k)[1] for k in range(state.setup_index)}
    for square, piece in enumerate(state.board):
        starts = square < 12 or square >= 20  # a square of the standard setup
        drawn = square in made
        expected = {
            "place": (drawn, False, False),
            "shield": (starts, drawn, False),
            "potion": (starts, starts, drawn),
        }[state.phase]
        has = (
            piece is not None,
            piece is not None and piece.shield >= 0,
            piece is not None and piece.potion >= 0,
        )
        if has != expected:
            raise InvalidStateError(
                f"Square {square + 1} does not match setup phase {state.phase!r} after "
                f"{state.setup_index} draws (pieces, then shields, then potions, in the seed's order)."
            )


def _check_turn_squares(state: ChaosState) -> None:
    """The Speedy piece taking its extra turn, and the piece whose potion was used."""
    phase = state.phase
    own = [i for i, p in enumerate(state.board) if p is not None and p.owner == state.turn]
    # In phase 'move' the Speedy piece may be gone (its extra turn's Sacrifice took it).
    gone = phase == "move" and state.extra >= 0 and state.board[state.extra] is None
    if state.extra >= 0 and phase in ("turn", "move") and state.extra not in own and not gone:
        raise InvalidStateError("'extra_turn' must be the square of a piece of the player to move.")
    if state.used >= 0 and (phase in ("turn", *SETUP_PHASES) or state.used not in own):
        raise InvalidStateError(
            "'potion_used' is the square of the mover's piece whose potion was used this turn, "
            "after a potion is declared."
        )
    if state.speedy and state.used < 0:
        raise InvalidStateError("A Speedy potion used this turn needs its piece in 'potion_used'.")


def _check(state: ChaosState, game: ChaosCheckersGame) -> None:
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
            raise InvalidStateError(
                f"Square {square + 1} holds a {COLOURS[piece.colour]} piece of player {piece.owner + 1}, "
                "who does not play that colour."
            )
        if not piece.king and CROWN_ROW[piece.owner] >> square & 1 and setup_done:
            raise InvalidStateError(f"The man on square {square + 1} stands on its far row uncrowned.")
        pieces[piece.owner][piece.colour] += 1
        if piece.shield >= 0:
            shields[piece.owner][piece.shield] += 1
        if piece.potion >= 0:
            potions[piece.potion] += 1
    hand_is_shields = state.phase in ("draw-shield", "keep-shield")
    for c in state.hand:
        if hand_is_shields:
            shields[state.turn][c] += 1
        else:
            potions[c] += 1
    for player in (0, 1):
        for c in range(TEN):
            total = pieces[player][c] + state.eliminated[player][c]
            expected = PIECES_PER_COLOUR if c in colours[player] else 0
            if total > expected or (setup_done and total != expected):
                raise InvalidStateError(
                    f"Player {player + 1} should have {expected} {COLOURS[c]} pieces in all, not {total}."
                )
            in_all = shields[player][c] + state.bags[player][c]
            expected = TRIOS_PER_COLOUR if c in colours[1 - player] else 0
            if in_all != expected:
                raise InvalidStateError(
                    f"Player {player + 1} should have {expected} {COLOURS[c]} shields (bag and pieces), "
                    f"not {in_all}."
                )
    for c in range(TEN + 1):
        expected = TRIOS_PER_COLOUR if c < TEN or game.options["pink"] else 0
        in_all = potions[c] + state.pouch[c] + (state.removed if c == WHITE else 0)
        if in_all != expected:
            raise InvalidStateError(f"There should be {expected} {COLOURS[c]} potions in all, not {in_all}.")
