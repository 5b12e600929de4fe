"""The story of Chaos Checkers: what each action did, in plain words, and where.

`tell` answers for every action, a player's decision or a chance draw, with one sentence
in the rulebook's words ("red/orange/yellow draws an orange shield for the piece on 21: orange
pieces cannot capture it."), the squares it changed, and the piece it moved (pieces are
known by their square, so `Told.moves` says where a piece came from). Checkers hides
nothing, so every viewer is told the same and may keep all of it.

`legend` is the key to the picture (piece colours, shield rings, potion badges, the bags and
the pouch, whose turn it is); `action_group` sorts a person's list of choices (moves first,
then one group per potion power) and `rules_section` names the heading of `rules.md` an
action follows. None of this runs while a game is played or searched.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chaosgames.core.game import ENDED_BY_CAP, Action, State
from chaosgames.core.story import LegendEntry, LegendSection, Told, slug
from chaosgames.games.chaos_checkers.actions import (
    ChaosMove,
    Defence,
    Draw,
    Pass,
    Piece,
    PotionUse,
    SetupDraw,
)
from chaosgames.games.chaos_checkers.board import index_at, row_col
from chaosgames.games.chaos_checkers.colours import COLOURS, FILL, TEN
from chaosgames.games.chaos_checkers.moves import PlainMove
from chaosgames.games.chaos_checkers.phases import (
    DEFEND,
    DRAW_PHASES,
    DRAW_SHIELD,
    KEEP_PHASES,
    KEEP_POTION,
    KEEP_SHIELD,
    MOVE,
    PLACE,
    SETUP_PHASES,
    SHIELD,
    TURN,
)
from chaosgames.games.chaos_checkers.plain import PlainState
from chaosgames.games.chaos_checkers.potions import CLEAR, WHITE
from chaosgames.games.chaos_checkers.powers import COLOUR_OF, POWER, Power
from chaosgames.games.chaos_checkers.state import ChaosState
from chaosgames.games.chaos_checkers.svg import POWER_SYMBOL, turned
from chaosgames.games.chaos_checkers.text import (
    POWER_EFFECT,
    a_colour,
    colour_name,
    potion_words,
    power_name,
    shield_effect,
)

POWER_ORDER = tuple(Power)
"""The powers in the rulebook's order ("Potion Abilities", pink last)."""

MOVES_SECTION = slug("Moves and captures")
SETUP_SECTION = slug("Setup")
REWARDS_SECTION = slug("Rewards of a capture or a crown")


def power_section(power: Power) -> str:
    """The heading of a potion power in rules.md: '### Speedy (light blue)'."""
    return slug(f"{power.capitalize()} ({colour_name(COLOUR_OF[power])})")


# -- telling ---------------------------------------------------------------------------------


def tell(before: State[Any], action: Action, after: State[Any]) -> Told:
    """What `action` did (the same for every viewer: checkers hides nothing)."""
    if isinstance(before, PlainState):
        assert isinstance(after, PlainState) and isinstance(action, PlainMove)
        sentence, places, moves = _plain_move(before, action, after)
    else:
        assert isinstance(before, ChaosState) and isinstance(after, ChaosState)
        sentence, places, moves = _chaos(before, action, after)
    return Told(str(action), sentence, sentence, places, moves)


def changed_places(before: State[Any], action: Action, after: State[Any]) -> tuple[str, ...]:
    return tell(before, action, after).places


def _squares(*indices: int) -> tuple[str, ...]:
    """Places of square indices, each once, in the order given."""
    return tuple(dict.fromkeys(str(i + 1) for i in indices if i >= 0))


def _listing(words: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


# plain checkers ------------------------------------------------------------------------------

_Moves = tuple[tuple[str, str], ...]


def _plain_move(
    before: PlainState, move: PlainMove, after: PlainState
) -> tuple[str, tuple[str, ...], _Moves]:
    names = before.game.player_names()
    board, now = before.board(), after.board()
    src, dst = move.path[0], move.path[-1]
    player = 0 if board[src] in "bB" else 1
    noun = "king" if board[src].isupper() else "man"
    taken = [i for i in range(32) if move.captured >> i & 1]
    if taken:
        victims = _listing([f"{'king' if board[i].isupper() else 'man'} on {i + 1}" for i in taken])
        sentence = (
            f"{names[player]}'s {noun} on {src + 1} captures {names[1 - player]}'s {victims} "
            f"and lands on {dst + 1}"
        )
    else:
        sentence = f"{names[player]} moves the {noun} on {src + 1} to {dst + 1}"
    if noun == "man" and now[dst].isupper():
        sentence += ", and is crowned king"
    sentence += "." + _plain_result(after)
    moved = ((str(src + 1), str(dst + 1)),) if dst != src else ()  # a king's jump round a diamond
    return sentence, _squares(*move.path, *taken), moved


def _plain_result(after: PlainState) -> str:
    if after.outcome is None:
        return ""
    names = after.game.player_names()
    if after.outcome[0] == after.outcome[1]:
        return " " + _drawn(after)
    winner = 0 if after.outcome[0] > after.outcome[1] else 1
    left = sum(after.board().count(ch) for ch in ("wW" if winner == 0 else "bB"))
    why = "has no pieces left" if not left else "cannot move"
    return f" {names[winner]} wins: {names[1 - winner]} {why}."


def _drawn(after: ChaosState | PlainState) -> str:
    if after.ended_by() == ENDED_BY_CAP:
        return "The game is drawn: it reached the agreed number of moves."
    if after.game.options["repetition"] == "position":
        return "The game is drawn: the same position came up for the third time."
    return "The game is drawn: both players made the same moves three times in a row."


# chaos -------------------------------------------------------------------------------------


def _chaos(before: ChaosState, action: Action, after: ChaosState) -> tuple[str, tuple[str, ...], _Moves]:
    """The sentence, the changed squares and the moved piece of a chaos action."""
    moves: _Moves = ()
    involved: tuple[int, ...] = ()
    if isinstance(action, SetupDraw):
        sentence, involved = _setup(before, action), (action.square,)
    elif isinstance(action, Draw):
        sentence, involved = _draw(before, action, after), (before.reward.square,)
    elif isinstance(action, ChaosMove):
        start = action.path[0]
        sentence, at = _move(before, action, start, after)
        involved = _path_to(action.path, at)
        moves = ((str(start + 1), str(at + 1)),) if at != start else ()
    elif isinstance(action, Defence):
        sentence, at = _defence(before, action, after)
        assert before.pending is not None
        start = before.pending.at
        path = before.pending.move.path
        involved = (action.square, *_path_to(path[before.pending.step :], at))
        moves = ((str(start + 1), str(at + 1)),) if at != start else ()
    elif isinstance(action, PotionUse):
        sentence, involved = _potion(before, action, after), (action.square, action.target, action.other)
    else:
        assert isinstance(action, Pass)
        who = _name(before, before.turn)
        sentence, involved = (
            f"{who} declines the second turn of the Speedy piece on {before.extra + 1}.",
            (before.extra,),
        )
    if after.phase is DEFEND and after.pending is not None:
        involved += (after.pending.move.victims[after.pending.step],)
    changed = [i for i in range(32) if before.board[i] != after.board[i]]
    sentence += _aftermath(before, after)
    return sentence, _squares(*involved, *changed), moves


def _path_to(path: tuple[int, ...], at: int) -> tuple[int, ...]:
    """The squares of `path` up to the last time it reaches `at` (where the piece stopped)."""
    return path[: len(path) - path[::-1].index(at)] if at in path else (*path[:1], at)


def _name(state: ChaosState | PlainState, player: int) -> str:
    return state.game.player_names()[player]


def _setup(before: ChaosState, draw: SetupDraw) -> str:
    kind, square, colour = draw.kind, draw.square, draw.colour
    owner = _name(before, 0 if square < 12 else 1)
    if kind is PLACE:
        return f"{owner} sets {a_colour(colour)} piece on {square + 1}."
    if kind is SHIELD:
        return (
            f"{owner} draws {a_colour(colour)} shield for the piece on {square + 1}: {shield_effect(colour)}."
        )
    effect = POWER_EFFECT[POWER[colour]]
    return f"{owner} draws {potion_words(colour)} for the piece on {square + 1} ({effect})."


def _draw(before: ChaosState, draw: Draw, after: ChaosState) -> str:
    who, at, colour = _name(before, before.turn), before.reward.square + 1, draw.colour
    piece = "new king" if before.reward.crowned else "piece"
    if draw.kind in KEEP_PHASES:
        shield = draw.kind is KEEP_SHIELD
        bag = "bag" if shield else "pouch"
        thing = f"{colour_name(colour)} shield" if shield else _potion_of_colour(colour)
        kept = f"{who} keeps the {thing} for the {piece} on {at}"
        return f"{kept}; the others go back to the {bag}."
    total = len(before.hand) + before.draws_left
    which = f" (draw {len(before.hand) + 1} of {total})" if total > 1 else ""
    if draw.kind is DRAW_SHIELD:
        sentence = (
            f"{who} draws {a_colour(colour)} shield{which} for the {piece} on {at}: {shield_effect(colour)}."
        )
    else:
        effect = POWER_EFFECT[POWER[colour]]
        sentence = f"{who} draws {potion_words(colour)}{which} for the {piece} on {at} ({effect})."
    if total > 1 and before.draws_left == 1 and after.phase not in KEEP_PHASES:
        sentence += " All the draws are alike, so that one stays."
    return sentence


def _landing(start: int, path: tuple[int, ...], before: ChaosState, after: ChaosState, owner: int) -> int:
    """Where the moving piece, which stood on `start` in `before`, stands in `after`: the last
    square of its path newly holding a piece of its owner (else it has not moved)."""
    for square in reversed(path):
        now, then = after.board[square], before.board[square]
        if (
            now is not None
            and now.owner == owner
            and (square == start or then is None or then.owner != owner)
        ):
            return square
    return start


def _captured(path_victims: Sequence[int], before: ChaosState, after: ChaosState, mover: Piece) -> list[int]:
    """The victims of a move that `after` no longer has (captured, not spared or waiting)."""
    out = []
    for v in path_victims:
        victim, now = before.board[v] if v >= 0 else None, after.board[v] if v >= 0 else None
        if victim is not None and victim.owner != mover.owner and (now is None or now.owner == mover.owner):
            out.append(v)
    return out


def _why_not_shielded(before: ChaosState, victim: Piece, mover: Piece) -> str:
    """Why the victim's shield did not stop the capture."""
    if victim.shield < 0:
        return "it had no shield"
    counts = before.counts()
    if counts[victim.owner] == 1 or counts[mover.owner] == 1:
        return f"its {colour_name(victim.shield)} shield does not count: a player is down to one piece"
    return f"its {colour_name(victim.shield)} shield does not stop {a_colour(mover.colour)} piece"


def _victims(before: ChaosState, squares: Sequence[int], mover: Piece) -> str:
    """ "blue/lightblue/purple's piece on 18 (its red shield does not stop an orange piece)"."""
    owner = _name(before, 1 - mover.owner)
    words = []
    for v in squares:
        victim = before.board[v]
        assert victim is not None
        noun = "king" if victim.king else "piece"
        words.append(f"the {noun} on {v + 1} ({_why_not_shielded(before, victim, mover)})")
    return f"{owner}'s " + _listing(words).removeprefix("the ")


def _move(before: ChaosState, move: ChaosMove, start: int, after: ChaosState) -> tuple[str, int]:
    """The sentence of a move that starts from `start`, and the square the piece reached."""
    mover = before.board[start]
    assert mover is not None
    who, noun = _name(before, mover.owner), "king" if mover.king else "piece"
    at = _landing(start, move.path, before, after, mover.owner)
    taken = _captured(move.victims, before, after, mover)
    if not any(v >= 0 for v in move.victims):
        if "~" in str(move):
            return _ghost_jump(before, mover, start, at) + _crowned(mover, at, after) + ".", at
        return f"{who} moves the {noun} on {start + 1} to {at + 1}" + _crowned(mover, at, after) + ".", at
    sentence = f"{who}'s {noun} on {start + 1}"
    if move.power is not None:
        sentence += f" uses its {move.power.capitalize()} potion and"
    verb = "ambushes" if move.power is Power.AMBUSH else "captures"
    if taken:
        sentence += f" {verb} {_victims(before, taken, mover)}"
        sentence += f", {'reaching' if after.phase is DEFEND else 'landing on'} {at + 1}"
    else:
        waiting = after.pending.move.victims[after.pending.step] if after.pending is not None else -1
        sentence += f" goes to capture {_name(before, 1 - mover.owner)}'s piece on {waiting + 1}"
    return sentence + _crowned(mover, at, after) + ".", at


def _ghost_jump(before: ChaosState, mover: Piece, start: int, at: int) -> str:
    (ra, ca), (rb, cb) = row_col(start), row_col(at)
    over = index_at((ra + rb) // 2, (ca + cb) // 2)
    jumped = before.board[over]
    assert jumped is not None
    who, noun = _name(before, mover.owner), "king" if mover.king else "piece"
    if mover.potion == CLEAR:
        reason = "it holds a Ghost potion, so it cannot capture"
    else:
        reason = "that piece holds a Ghost potion, so it cannot be captured"
    return (
        f"{who}'s {noun} on {start + 1} jumps over {_name(before, jumped.owner)}'s piece on {over + 1} "
        f"to {at + 1} without capturing it ({reason})"
    )


def _crowned(mover: Piece, at: int, after: ChaosState) -> str:
    now = after.board[at]
    return ", and is crowned king" if not mover.king and now is not None and now.king else ""


def _defence(before: ChaosState, answer: Defence, after: ChaosState) -> tuple[str, int]:
    pending = before.pending
    assert pending is not None
    square, start, move = answer.square, pending.at, pending.move
    defender = _name(before, 1 - before.turn)
    mover = before.board[start]
    assert mover is not None
    if answer.invulnerable:
        sentence = (
            f"{defender} spends the Invulnerability potion of the piece on {square + 1}: it is not captured."
        )
    else:
        sentence = (
            f"{defender} does not spend the Invulnerability potion of the piece on {square + 1}, "
            "so it is captured."
        )
    at = _landing(start, move.path, before, after, mover.owner)
    rest = _captured(move.victims[pending.step + 1 :], before, after, mover)
    who, noun = _name(before, mover.owner), "king" if mover.king else "piece"
    if answer.invulnerable and move.power is Power.AMBUSH:
        sentence += f" {who}'s ambushing {noun} does not move onto it and stays on {start + 1}"
    elif after.phase is DEFEND and at == start:
        return sentence, at  # the next victim holds Invulnerability too: _aftermath says so
    else:
        did = ["jumps over it"] if answer.invulnerable and at != start else []
        if rest:
            did.append(f"goes on to capture {_victims(before, rest, mover)}")
        did.append(f"{'ends its move on' if after.phase is not DEFEND else 'reaches'} {at + 1}")
        sentence += f" {who}'s {noun} {_listing(did)}"
        if after.phase is not DEFEND and at != move.path[-1]:
            sentence += " (a spared piece stands in its way)"
    return sentence + _crowned(mover, at, after) + ".", at


def _potion(before: ChaosState, use: PotionUse, after: ChaosState) -> str:
    who, s, t, o = _name(before, before.turn), use.square, use.target, use.other
    power, board = use.power, before.board
    own = f"{who} spends the {power.capitalize()} potion on {s + 1}"
    if power is Power.GHOST:
        return (
            f"{who} discards the Ghost potion of the piece on {s + 1}: it can capture and be captured again."
        )
    if power is Power.SPEEDY:
        return f"{own}: that piece will take a second turn after this one."
    if power is Power.WILD:
        return f"{own} and takes {potion_words(use.colour)} from the pouch for it instead."
    if power is Power.REVIVE:
        back = f"{a_colour(use.colour)} piece of {who} comes back on {t + 1}"
        return f"{own}: {back}; the white potion leaves the game."
    target = board[t]
    assert target is not None
    other = _name(before, target.owner)
    if power is Power.SACRIFICE:
        sacrifice = f"{who} sacrifices the piece on {s + 1} with its Sacrifice potion"
        return f"{sacrifice} and eliminates {other}'s piece on {t + 1}."
    if power is Power.REWIND:
        return f"{own} to discard {other}'s {_potion_of(target)} on {t + 1}."
    if power is Power.TELEKINESIS:
        receiver = board[o]
        assert receiver is not None
        sentence = f"{own} to move the {_potion_of(target)} from {t + 1} onto the piece on {o + 1}"
        if o != s and receiver.potion >= 0:
            sentence += f", whose {_potion_of(receiver)} is discarded"
        return sentence + "."
    sentence = (
        f"{own} to give the piece on {t + 1} {a_colour(use.colour)} shield ({shield_effect(use.colour)})"
    )
    if target.shield >= 0 and target.shield != use.colour:
        sentence += f"; its {colour_name(target.shield)} shield goes back to the bag"
    return sentence + "."


def _potion_of(piece: Piece) -> str:
    """'black Ambush potion'."""
    return _potion_of_colour(piece.potion)


def _potion_of_colour(colour: int) -> str:
    return f"{colour_name(colour)} {power_name(colour)} potion"


def _aftermath(before: ChaosState, after: ChaosState) -> str:
    """What the action leads to that the table must know: the end, a decision of the other
    player, or the Speedy piece's second turn."""
    if after.outcome is not None:
        if before.outcome is not None:
            return ""
        if after.outcome[0] == after.outcome[1]:
            return " " + _drawn(after)
        winner = 0 if after.outcome[0] > after.outcome[1] else 1
        why = "has no pieces left" if after.counts()[1 - winner] == 0 else "cannot move"
        return f" {_name(after, winner)} wins: {_name(after, 1 - winner)} {why}."
    if after.phase is DEFEND and after.pending is not None and after.pending != before.pending:
        victim = after.pending.move.victims[after.pending.step]
        defender = _name(after, 1 - after.turn)
        return (
            f" The piece on {victim + 1} holds an Invulnerability potion: "
            f"{defender} decides whether to spend it to escape capture."
        )
    if after.phase is KEEP_SHIELD and before.phase is not KEEP_SHIELD:
        return f" {_name(after, after.turn)} now keeps one of the shields drawn."
    if after.phase is KEEP_POTION and before.phase is not KEEP_POTION:
        return f" {_name(after, after.turn)} now keeps one of the potions drawn."
    if after.phase is TURN and after.extra >= 0 and after.moves_made != before.moves_made:
        return f" The Speedy piece on {after.extra + 1} now takes its second turn."
    return ""


# -- the legend ------------------------------------------------------------------------------


def legend(state: State[Any], viewer: int | None) -> tuple[LegendSection, ...]:
    """The key to the picture as `viewer` sees it (see the module docstring)."""
    if isinstance(state, PlainState):
        return (_plain_players(state, viewer), _turn(state, viewer))
    assert isinstance(state, ChaosState)
    return (
        _players(state, viewer),
        _shields(state),
        _potions(state),
        _bags(state, viewer),
        _turn(state, viewer),
    )


def _you(player: int, viewer: int | None) -> str:
    return " (you)" if player == viewer else ""


def _side(player: int, viewer: int | None) -> str:
    at_bottom = (player == 0) == turned(viewer)
    return "at the bottom" if at_bottom else "at the top"


def _plain_players(state: PlainState, viewer: int | None) -> LegendSection:
    names = state.game.player_names()
    entries = tuple(
        LegendEntry(
            f"{names[p]}{_you(p, viewer)}: starts on {'1-12' if p == 0 else '21-32'}, {_side(p, viewer)}"
            + (", and moves first." if p == 0 else "."),
            colour=("#202020", "#f4f4f4")[p],
        )
        for p in (0, 1)
    )
    crown = LegendEntry("Crowned: a king, which also moves backwards.", colour="#ffd700")
    return LegendSection("Players", (*entries, crown))


def _players(state: ChaosState, viewer: int | None) -> LegendSection:
    names = state.game.player_names()
    entries = []
    for p in (0, 1):
        colours = state.game.colours[p]
        start = "1-12" if p == 0 else "21-32"
        entries.append(
            LegendEntry(
                f"{names[p]}{_you(p, viewer)}: {_listing([colour_name(c) for c in colours])} pieces, "
                f"starting on {start}, {_side(p, viewer)}" + (", and moving first." if p == 0 else "."),
                colour=FILL[COLOURS[colours[0]]],
            )
        )
        entries.extend(
            LegendEntry(f"{colour_name(c)}: a piece of {names[p]}", colour=FILL[COLOURS[c]]) for c in colours
        )
    entries.append(LegendEntry("Crown: a king, which also moves backwards.", colour="#ffd700"))
    return LegendSection("Pieces", tuple(entries))


def _shields(state: ChaosState) -> LegendSection:
    colours = (*state.game.colours[0], *state.game.colours[1])
    head = LegendEntry(
        "The ring round a piece is its shield: opposing pieces of the ring's colour cannot jump or "
        "capture it. A capture swaps the capturing piece's shield for a new draw from its bag. "
        "A player's last piece ignores shields."
    )
    rings = tuple(
        LegendEntry(f"{colour_name(c)} ring: {shield_effect(c)}.", colour=FILL[COLOURS[c]]) for c in colours
    )
    return LegendSection("Shields", (head, *rings))


def _potions(state: ChaosState) -> LegendSection:
    """Each power on the board or in the pouch, what it does, and how many the pouch holds."""
    on_board = {p.potion for p in state.board if p is not None and p.potion >= 0}
    head = LegendEntry(
        f"The badge on a piece is its potion (the pouch holds {sum(state.pouch)}). One potion a turn, "
        "declared before moving: tap your own potion's badge, then what it acts on."
    )
    entries = [head]
    for power in POWER_ORDER:
        colour = COLOUR_OF[power]
        if colour not in on_board and not state.pouch[colour]:
            continue
        text = f"{power_name(colour)} ({colour_name(colour)}): {POWER_EFFECT[power]}."
        text += f" In the pouch: {state.pouch[colour]}."
        if colour == WHITE and state.removed:
            text += f" Out of the game: {state.removed}."
        entries.append(LegendEntry(text, colour=FILL[COLOURS[colour]], symbol=POWER_SYMBOL[power]))
    return LegendSection("Potions", tuple(entries))


def _counts(counts: Sequence[int]) -> str:
    listed = [f"{n} {colour_name(c)}" for c, n in enumerate(counts) if n]
    return ", ".join(listed) if listed else "none"


def _bags(state: ChaosState, viewer: int | None) -> LegendSection:
    names = state.game.player_names()
    entries = tuple(
        LegendEntry(
            f"{names[p]}{_you(p, viewer)}: shield bag {_counts(state.bags[p])}; "
            f"pieces lost {_counts(state.eliminated[p][:TEN])}."
        )
        for p in (0, 1)
    )
    return LegendSection("Bags and eliminated pieces", entries)


def _turn(state: ChaosState | PlainState, viewer: int | None) -> LegendSection:
    return LegendSection("Turn", (LegendEntry(_whose_turn(state, viewer)),))


def _whose_turn(state: ChaosState | PlainState, viewer: int | None) -> str:
    if state.outcome is not None:
        if state.outcome[0] == state.outcome[1]:
            return _drawn(state)
        winner = 0 if state.outcome[0] > state.outcome[1] else 1
        return f"Game over: {_name(state, winner)}{_you(winner, viewer)} wins."
    if isinstance(state, PlainState):
        return f"{_name(state, state.side)}{_you(state.side, viewer)} to move."
    player = state.current_player()
    phase = state.phase
    if phase in SETUP_PHASES:
        return f"Setup: the {'pieces' if phase is PLACE else phase + 's'} are drawn from the bags."
    if phase in DRAW_PHASES:
        what = "shields" if phase is DRAW_SHIELD else "potions"
        return f"{_name(state, state.turn)} draws {what} for the piece on {state.reward.square + 1}."
    who = f"{_name(state, player)}{_you(player, viewer)}"
    if phase is DEFEND:
        assert state.pending is not None
        victim = state.pending.move.victims[state.pending.step]
        return f"{who} decides whether to spend the Invulnerability potion of the piece on {victim + 1}."
    if phase in KEEP_PHASES:
        drawn = _listing([colour_name(c) for c in state.hand])
        return f"{who} keeps one of the {phase.split('-')[1]}s drawn ({drawn})."
    if state.extra >= 0:
        second = f"the Speedy piece on {state.extra + 1} takes its second turn"
        spent = " (this turn's potion is spent)" if phase is MOVE else ""
        return f"{who}: {second}{spent}, or passes."
    if phase is MOVE:
        return f"{who} to move (this turn's potion is spent)."
    return f"{who} to move: a potion first, if any, then a move."


# -- the list of choices and the rules ---------------------------------------------------------


def action_group(action: Action) -> tuple[int, str]:
    """Moves and captures first, then one group per potion power (rulebook order)."""
    if isinstance(action, PlainMove | Pass) or (isinstance(action, ChaosMove) and action.power is None):
        return (0, "Moves and captures")
    if isinstance(action, Draw):
        return (0, f"Keep one {'shield' if action.kind in (DRAW_SHIELD, KEEP_SHIELD) else 'potion'}")
    power = _power_of(action)
    if power is None:
        return (0, "")
    return (1 + POWER_ORDER.index(power), f"{power.capitalize()} potion")


def _power_of(action: Action) -> Power | None:
    if isinstance(action, ChaosMove | PotionUse):
        return action.power
    if isinstance(action, Defence):
        return Power.INVULNERABILITY
    return None


def rules_section(action: Action) -> str | None:
    """The heading of rules.md that `action` follows."""
    if isinstance(action, PlainMove) or (isinstance(action, ChaosMove) and action.power is None):
        ghostly = isinstance(action, ChaosMove) and "~" in str(action)
        return power_section(Power.GHOST) if ghostly else MOVES_SECTION
    if isinstance(action, SetupDraw):
        return SETUP_SECTION
    if isinstance(action, Draw):
        return REWARDS_SECTION
    if isinstance(action, Pass):
        return power_section(Power.SPEEDY)
    power = _power_of(action)
    return power_section(power) if power is not None else None
