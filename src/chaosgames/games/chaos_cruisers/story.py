"""The story of a race as the table sees it (see `chaosgames.core.story`): one sentence per
action (who did what, and what it did), the places of the picture it changed, the key to
the picture, and where each action belongs in a person's list and in the rules summary.

Nothing is hidden in Chaos Cruisers, so every viewer is told the same, now and later.

Places (`data-place` of the picture, see svg.py): a square `x,y`, a tile `tile:x,y` (its
lower-left square, as `lift` names it), a spot to lay a lifted tile on `spot:x,y`, and a
gate's pawn `gate:<name>` (`gate:moon`). Tiles have no identity in the state (a set of
places): a tile is known by its place, and a lay says in `Told.moves` where it came from.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from chaosgames.core.grid import Square
from chaosgames.core.story import LegendEntry, LegendSection, Told, slug
from chaosgames.games.chaos_cruisers.actions import (
    COLOURS,
    DIRECTIONS,
    CruisersAction,
    KeepObstacle,
    Lay,
    Lead,
    Lift,
    Move,
    Obstacle,
    Reenter,
    Speed,
    Start,
    StopRelocating,
)
from chaosgames.games.chaos_cruisers.course import Tile, tile_of, tile_squares
from chaosgames.games.chaos_cruisers.movement import SPEED_COINS, push_chain, trace_move
from chaosgames.games.chaos_cruisers.race import UNREACHABLE

if TYPE_CHECKING:
    from chaosgames.games.chaos_cruisers.state import ChaosCruisersState

DIRECTION_WORDS = ("north", "east", "south", "west")
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")

# Headings of the package's rules.md, one per kind of action (a test checks they are there).
SETUP = "Setup"
LEAD_ORDER = "The lead order"
SPEED = "Speed"
MOVING = "Moving"
OUT_OF_BOUNDS = "Out of bounds"
RAMMING = "Ramming"
RESHAPING = "Reshaping the course"
OBSTACLES = "Obstacles"
RULES_HEADINGS = (SETUP, LEAD_ORDER, SPEED, MOVING, OUT_OF_BOUNDS, RAMMING, RESHAPING, OBSTACLES)


# -- words ------------------------------------------------------------------------------------


def place(square: Square) -> str:
    """A square's place on the picture (and in the notation): `x,y`."""
    return f"{square[0]},{square[1]}"


def tile_place(tile: Tile) -> str:
    """A tile's place: `tile:x,y`, by its lower-left square."""
    return "tile:" + place(tile_squares(tile)[0])


def gate_words(gate: str) -> str:
    """'the moon gate', 'the moon II gate' (the second set of variant 4)."""
    return f"the {gate[:-1]} II gate" if gate.endswith("2") else f"the {gate} gate"


def row_words(state: ChaosCruisersState, row: int) -> str:
    """A row of the race progress chart: 'the moon gate (gate 1 of 8)'."""
    return f"{gate_words(state.game.chart[row])} (gate {row + 1} of {state.game.rows})"


def colour_list(cruisers: tuple[int, ...] | list[int]) -> str:
    names = [COLOURS[c] for c in cruisers]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def coin_list(coins: int) -> str:
    held = [str(v) for v in SPEED_COINS if coins >> v & 1]
    return ", ".join(held) if held else "none"


def _path_words(move: Move) -> str:
    """'3 north', '2 north then 1 east'."""
    words = f"{move.first} {DIRECTION_WORDS[move.d1]}"
    if move.second:
        words += f" then {move.second} {DIRECTION_WORDS[move.d2]}"
    return words


def _gate_of_tile(state: ChaosCruisersState, tile: Tile) -> str:
    return next(g for g, t in state.game.gate_tile.items() if t == tile)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


# -- what the picture shows of a cruiser ------------------------------------------------------


def heading(state: ChaosCruisersState, cruiser: int) -> int | None:
    """The direction (index into N, E, S, W) of the first step of a shortest way from the
    cruiser to its next gate's tile, around obstacles (rule 2's distance); None on the tile,
    off the course or with no way there. The rules keep no facing: this is where it heads."""
    square = state.pos[cruiser]
    if square is None or state.finished(cruiser):
        return None
    dmap = state.gate_distance_map(state.game.row_tile[state.progress[cruiser]])
    distance = dmap.get(square, UNREACHABLE)
    if distance == 0 or distance >= UNREACHABLE:
        return None
    for d, (_, dx, dy) in enumerate(DIRECTIONS):
        if dmap.get((square[0] + dx, square[1] + dy)) == distance - 1:
            return d
    return None


def next_gate(state: ChaosCruisersState, cruiser: int) -> str | None:
    """The gate (its name) the cruiser must reach next; None once it finished."""
    k = state.progress[cruiser]
    return None if k >= state.game.rows else state.game.chart[k]


def lap(state: ChaosCruisersState, cruiser: int) -> int:
    """The lap the cruiser is on (its last lap once finished)."""
    laps: int = state.game.options["laps"]
    return min(state.progress[cruiser] // (state.game.rows // laps) + 1, laps)


def cruiser_summary(state: ChaosCruisersState, cruiser: int) -> str:
    """What a player needs to know of a cruiser: where, speed, heading, next gate, progress,
    coins (the cruiser's title and its legend line)."""
    k, rows = state.progress[cruiser], state.game.rows
    if k >= rows:
        return f"{_cap(COLOURS[cruiser])} cruiser: finished the race (all {rows} gates)."
    square = state.pos[cruiser]
    where = "off the course (going back on)" if square is None else f"on {place(square)}"
    text = f"{_cap(COLOURS[cruiser])} cruiser {where}: speed {state.speed[cruiser]}"
    direction = heading(state, cruiser)
    distance = state.distance_to_next_gate(cruiser)
    text += f", next gate {row_words(state, k)}"
    if direction is not None:
        text += f", heading {DIRECTION_WORDS[direction]}, {distance} squares away"
    laps = state.game.options["laps"]
    text += f"; {k} of {rows} gates passed"
    if laps > 1:
        text += f", lap {lap(state, cruiser)} of {laps}"
    text += f"; speed coins {coin_list(state.coins[cruiser])}"
    held = state.in_hand[cruiser]
    text += f"; {held} obstacle coin{'' if held == 1 else 's'} in hand."
    return text


# -- tell ---------------------------------------------------------------------------------------


def tell(before: ChaosCruisersState, action: CruisersAction, after: ChaosCruisersState) -> Told:
    """The action's sentence (and what follows from it), the places it changed, and the
    tiles it moved. The same for every viewer: nothing is hidden."""
    sentence, places, moves = _event(before, action, after)
    follows = _what_follows(before, after)
    text = " ".join([sentence, *follows])
    places += _chaos_places(before, after)
    return Told(str(action), text, text, tuple(dict.fromkeys(places)), moves)


Event = tuple[str, list[str], tuple[tuple[str, str], ...]]


def _event(before: ChaosCruisersState, action: CruisersAction, after: ChaosCruisersState) -> Event:
    if isinstance(action, Move):
        return _move(before, action, after)
    if isinstance(action, Speed):
        return _speed(before, action, after), _cruiser_place(before, before.deciding_cruiser()), ()
    if isinstance(action, Lead):
        return _lead(before, action), [], ()
    if isinstance(action, Start):
        who = COLOURS[before.deciding_cruiser()]
        return (
            f"{_cap(who)} starts on {place(action.square)}, on the sun gate's tile, at speed 0.",
            [place(action.square)],
            (),
        )
    if isinstance(action, Reenter):
        return _reenter(before, action), [place(action.square)], ()
    if isinstance(action, Lift | Lay | StopRelocating):
        return _reshape(before, action, after)
    if isinstance(action, Obstacle | KeepObstacle):
        return _obstacle(before, action), [place(action.square)] if isinstance(action, Obstacle) else [], ()
    return f"{action}.", [], ()


def _cruiser_place(state: ChaosCruisersState, cruiser: int) -> list[str]:
    square = state.pos[cruiser]
    return [] if square is None else [place(square)]


def _speed(before: ChaosCruisersState, action: Speed, after: ChaosCruisersState) -> str:
    c = before.deciding_cruiser()
    who, old, new = _cap(COLOURS[c]), before.speed[c], after.speed[c]
    if action.coin:
        use = "a nitro-boost" if action.change > 0 else "a shock-brake"
        change = f"speed {old} to {new}" if new != old else f"speed stays {new}"
        text = f"{who} plays the {action.coin} coin as {use} (it is used up): {change}"
    elif action.change > 0:
        text = (
            f"{who} speeds up from {old} to {new}" if new != old else f"{who} is at top speed and stays at 5"
        )
    elif action.change < 0:
        text = f"{who} slows from {old} to {new}" if new != old else f"{who} cannot slow below 0"
    else:
        text = f"{who} keeps speed {old}"
    if new == 0:
        text += ", so it stands still this round"
    return text + "."


def _move(before: ChaosCruisersState, move: Move, after: ChaosCruisersState) -> Event:
    """Where the cruiser went, the gates it passed, and how the move ended: on the square
    it aimed for, out of bounds, in a ram (and what the push did), or at the finish."""
    c = before.deciding_cruiser()
    who, start = COLOURS[c], before.pos[c]
    assert start is not None
    occupied = before.occupied()
    trace = trace_move(start, move, before.course(), before.obstacles, occupied)
    gates, places = _gates_passed(before, after, c)
    finish = _finish_square(before, c, trace.entered) if after.finished(c) else None
    entered = trace.entered if finish is None else trace.entered[: trace.entered.index(finish) + 1]
    places += [place(start), *(place(s) for s in entered)]
    end = entered[-1] if entered else start
    path = f"{_path_words(move)} from {place(start)}"
    if finish is not None:  # the race ends there: the rest of the path is not driven
        return f"{_cap(who)} moves {path}{gates} on {place(finish)}, and leaves the course.", places, ()
    if trace.outcome == "stop":
        return f"{_cap(who)} moves {path} to {place(end)}{gates}.", places, ()
    if trace.outcome == "out":
        beyond = (end[0] + trace.direction[0], end[1] + trace.direction[1])
        if beyond in before.obstacles:
            places.append(place(beyond))
        return (
            f"{_cap(who)} sets off {path}{gates} and {_goes_out(before, beyond)}: {_sent_back(after, c)}.",
            places,
            (),
        )
    chain, _ = push_chain(end, trace.direction, occupied)
    pushed = _pushed(before, after, chain, occupied, trace.direction, places)
    text = (
        f"{_cap(who)} sets off {path}{gates} and rams {COLOURS[occupied[end]]} on {place(end)}: {who} stops "
        f"there and slows to {after.speed[c]}; {pushed}."
    )
    for victim in (occupied[s] for s in chain):
        more, more_places = _gates_passed(before, after, victim)
        if more:
            text += f" {_cap(COLOURS[victim])} is pushed{more}."
        places += more_places
    return text, places, ()


def _finish_square(before: ChaosCruisersState, c: int, entered: list[Square]) -> Square | None:
    """The square on which the cruiser passes its last gate (its move ends there)."""
    k, rows, row_squares = before.progress[c], before.game.rows, before.game.row_squares
    for square in entered:
        if k < rows and square in row_squares[k]:
            k += 1
            if k == rows:
                return square
    return None


def _gates_passed(before: ChaosCruisersState, after: ChaosCruisersState, c: int) -> tuple[str, list[str]]:
    """' through the moon gate (gate 1 of 8)' for the gates the cruiser checked, with the
    pawns whose rings changed; the finish said as such."""
    old, new = before.progress[c], after.progress[c]
    if new == old:
        return "", []
    chart = before.game.chart
    rows = before.game.rows
    words = " and ".join(f"{gate_words(chart[row])} (gate {row + 1} of {rows}" for row in range(old, new))
    places = [f"gate:{chart[row]}" for row in range(old, new)]
    if new >= rows:
        return f" through {words}), finishing the race", places
    places.append(f"gate:{chart[new]}")
    return f" through {words}; next: {gate_words(chart[new])})", places


def _goes_out(state: ChaosCruisersState, square: Square) -> str:
    owner = state.obstacles.get(square)
    if owner is not None:
        return f"runs into {COLOURS[owner]}'s obstacle on {place(square)}"
    return f"leaves the course at {place(square)}"


def _sent_back(after: ChaosCruisersState, c: int) -> str:
    """Out of bounds: where the cruiser goes back."""
    gate = _gate_of_tile(after, after.return_tile(c))
    return f"out of bounds, {COLOURS[c]} goes back to the tile of {gate_words(gate)} at speed 0"


def _pushed(
    before: ChaosCruisersState,
    after: ChaosCruisersState,
    chain: list[Square],
    occupied: dict[Square, int],
    direction: tuple[int, int],
    places: list[str],
) -> str:
    """What the push did to the rammed cruiser and those lined up behind it."""
    way = DIRECTION_WORDS[[(dx, dy) for _, dx, dy in DIRECTIONS].index(direction)]
    parts = []
    for square in chain:
        victim = occupied[square]
        target = (square[0] + direction[0], square[1] + direction[1])
        places.append(place(square))
        if after.pos[victim] == target or (after.pos[victim] is None and after.finished(victim)):
            places.append(place(target))
            parts.append(f"{COLOURS[victim]} is pushed {way} to {place(target)}")
        else:
            owner = before.obstacles.get(target)
            if owner is None:
                went = "off the course"
            else:
                went = f"onto {COLOURS[owner]}'s obstacle on {place(target)}"
                places.append(place(target))
            parts.append(f"{COLOURS[victim]} is pushed {way} {went}: {_sent_back(after, victim)}")
    return "; ".join(parts)


def _reenter(before: ChaosCruisersState, action: Reenter) -> str:
    c = before.reentering
    gate = _gate_of_tile(before, tile_of(action.square))
    return (
        f"{_cap(COLOURS[c])} goes back on the course on {place(action.square)}, on the tile of "
        f"{gate_words(gate)}, at speed 0; it races on next round."
    )


def _lead(before: ChaosCruisersState, action: Lead) -> str:
    tied = before.ties[0]
    rank = ORDINALS[len(before.order)]
    winner = COLOURS[action.cruiser]
    if before.order_for == "setup":
        return f"A roll decides who places a cruiser {rank}: {winner}."
    return f"A roll breaks the tie for {rank} place between {colour_list(tied)}: {winner} goes first."


def _reshape(before: ChaosCruisersState, action: CruisersAction, after: ChaosCruisersState) -> Event:
    who = _cap(COLOURS[before.relocator])
    allowed = before.game.options["tiles_moved"]
    if isinstance(action, Lift):
        tile = tile_of(action.square)
        number = allowed - before.tiles_left + 1
        corner = tile_squares(tile)[3]
        text = (
            f"{who} lifts the tile at {place(action.square)} (squares {place(action.square)} to "
            f"{place(corner)}), tile {number} of up to {allowed}, to lay it elsewhere."
        )
        return text, [tile_place(tile)], ()
    if isinstance(action, Lay):
        assert before.lifted is not None
        origin, laid = tile_place(before.lifted), tile_place(tile_of(action.square))
        text = f"{who} lays the tile from {place(tile_squares(before.lifted)[0])} at {place(action.square)}"
        if after.tiles_left > 0 and after.relocator == before.relocator:
            text += f"; {after.tiles_left} more may move"
        return text + ".", [origin, laid], ((origin, laid),)
    return f"{who} moves no more tiles.", [], ()


def _obstacle(before: ChaosCruisersState, action: Obstacle | KeepObstacle) -> str:
    c = before.order[before.turn]
    which = "first" if before.obstacle_pass == 1 else "second"
    if isinstance(action, KeepObstacle):
        return f"{_cap(COLOURS[c])} keeps its {which} obstacle: no square may take it."
    where = place(action.square)
    return f"{_cap(COLOURS[c])} puts its {which} obstacle on {where} (entering it is out of bounds)."


# -- what follows an action: a chaos round, a new round's order, the end ------------------------


def _what_follows(before: ChaosCruisersState, after: ChaosCruisersState) -> list[str]:
    out: list[str] = []
    if after.chaos_row > before.chaos_row:
        out.append(_chaos_round(before, after))
    if after.is_terminal() and not before.is_terminal():
        out.append(_the_end(after))
        return out
    order = _order_news(before, after)
    return [*out, order] if order else out


def _chaos_round(before: ChaosCruisersState, after: ChaosCruisersState) -> str:
    """The announcement of a chaos round: why, who reshapes the course and how, and what
    comes back."""
    gate = gate_words(after.game.chart[after.chaos_row])
    allowed = after.game.options["tiles_moved"]
    text = f"Chaos round (every cruiser has reached {gate}): "
    if after.relocator >= 0 and allowed:
        text += (
            f"{COLOURS[after.relocator]}, the last to reach it, reshapes the course: lift a tile and lay "
            f"it elsewhere, up to {allowed} tiles; then everyone places two obstacles."
        )
    else:
        text += "no tiles move; everyone places two obstacles."
    back = []
    if before.obstacles:
        back.append("all obstacles come off the course")
    if after.coins != before.coins:
        back.append("everyone gets their used speed coins back")
    return text + (f" {_cap(' and '.join(back))}." if back else "")


def _chaos_places(before: ChaosCruisersState, after: ChaosCruisersState) -> list[str]:
    """The squares whose obstacles a chaos round took off the course."""
    if after.chaos_row > before.chaos_row:
        return [place(s) for s in sorted(before.obstacles)]
    return []


def player_words(state: ChaosCruisersState, player: int) -> str:
    """'red', or 'the player of red and yellow' (two cruisers each, variant 5)."""
    own = state.game.cruisers_of[player]
    return COLOURS[own[0]] if len(own) == 1 else f"the player of {colour_list(own)}"


def _the_end(after: ChaosCruisersState) -> str:
    if after.winner >= 0:
        return f"{_cap(player_words(after, after.winner))} wins the Chaos Cup."
    leaders = [player_words(after, p) for p, share in enumerate(after.returns()) if share > 0]
    return (
        f"After {after.round} rounds the game ends by the round cap (not a rule): "
        f"{' and '.join(leaders)} {'leads' if len(leaders) == 1 else 'share the lead'}."
    )


def _order_news(before: ChaosCruisersState, after: ChaosCruisersState) -> str | None:
    """The playing order once it is settled, or the tie a roll must break first."""
    new_round = after.round > before.round
    if after.phase == "order":
        if before.phase == "order":
            return None  # the next roll says which tie it breaks
        tied, rank = colour_list(after.ties[0]), ORDINALS[len(after.order)]
        head = f"Round {after.round} begins: " if new_round else "For the obstacles and the next round, "
        why = "same gates, distance to the next gate and speed"
        return f"{head}{tied} are tied for {rank} place ({why}): a roll decides."
    order = colour_list(after.order)
    if after.phase == "obstacles" and before.phase != "obstacles":
        return (
            f"Obstacles are placed in the order {order}, one each, then a second each; "
            f"round {after.round + 1} follows in that order."
        )
    if new_round:
        return f"Round {after.round} begins, in the order {order}."
    if before.phase == "order":
        if after.order_for == "setup":
            return f"The cruisers are placed in the order {order}."
        return f"Round {after.round} goes in the order {order}."
    return None


# -- the key to the picture -------------------------------------------------------------------


def legend(
    state: ChaosCruisersState, colours: dict[str, str], symbols: dict[str, str]
) -> tuple[LegendSection, ...]:
    """Now (round and who acts), the cruisers, the race progress chart and the symbols."""
    return (
        LegendSection("Now", (LegendEntry(_now(state)),)),
        LegendSection(
            "Cruisers",
            tuple(
                LegendEntry(cruiser_summary(state, c), colour=colours[COLOURS[c]])
                for c in range(state.game.num_cruisers)
            ),
        ),
        LegendSection("Race progress", _progress_entries(state, symbols)),
        LegendSection("Symbols", _symbol_entries(state, symbols)),
    )


def _now(state: ChaosCruisersState) -> str:
    names = state.game.player_names()
    if state.is_terminal():
        return _the_end(state)
    acting = state.deciding_cruiser()
    who = COLOURS[acting] if acting >= 0 else ""
    phase = state.phase
    if phase in ("lift", "lay"):
        gate = gate_words(state.game.chart[state.chaos_row])
        text = (
            f"Chaos round after {gate}: {who}, last to reach it, reshapes the course "
            f"({state.tiles_left} tiles may still move)"
        )
        return text + (", laying the lifted tile." if phase == "lay" else ".")
    if phase == "obstacles":
        return f"Chaos round: {who} places an obstacle (order {colour_list(state.order)})."
    if phase == "order":
        tied = colour_list(state.ties[0])
        if state.order_for == "setup":
            return f"Setup: a roll decides who places a cruiser next ({tied})."
        if state.order_for == "chaos":
            return f"Chaos round: a roll breaks the tie between {tied} for the order of the obstacles."
        return f"Round {state.round}: a roll breaks the tie between {tied} for the playing order."
    if phase == "start":
        return f"Setup: {who} places a cruiser on the sun gate's tile."
    if phase == "reenter":
        return f"Round {state.round}: {who} goes back on the course after going out of bounds."
    order = colour_list(state.order)
    doing = "adjusts speed" if phase == "speed" else f"moves {state.speed[acting]} squares"
    owner = names[state.game.owner[acting]]
    player = f" ({owner})" if owner != who else ""
    return f"Round {state.round}, in the order {order}: {who}{player} {doing}."


def _progress_entries(state: ChaosCruisersState, symbols: dict[str, str]) -> tuple[LegendEntry, ...]:
    """The race progress chart: each gate in order, who has checked it."""
    game = state.game
    laps = game.options["laps"]
    per_lap = game.rows // laps
    entries = []
    for row, gate in enumerate(game.chart):
        done = [c for c in range(game.num_cruisers) if state.progress[c] > row]
        lap_words = f", lap {row // per_lap + 1}" if laps > 1 else ""
        who = colour_list(done) if done else "nobody yet"
        entries.append(LegendEntry(f"{_cap(gate_words(gate))}{lap_words}: {who}", symbol=symbols[gate]))
    return tuple(entries)


def _symbol_entries(state: ChaosCruisersState, symbols: dict[str, str]) -> tuple[LegendEntry, ...]:
    entries = [
        LegendEntry(f"{_cap(gate_words(g))}: a pawn on its tile", symbol=symbols[g])
        for g in state.game.gate_tile
    ]
    entries += [
        LegendEntry("A cruiser: a die in its colour showing its speed (0-5)", symbol="\u25a0"),
        LegendEntry(
            "The nose of a cruiser: the first step of its shortest way to its next gate", symbol="\u25b2"
        ),
        LegendEntry("A ring around a gate in a cruiser's colour: that cruiser's next gate", symbol="\u25ef"),
        LegendEntry(
            "A coin struck through, in a cruiser's colour: an obstacle (entering it is out of bounds)",
            symbol="\u29b8",
        ),
        LegendEntry("Off the course (no tile), or into an obstacle: out of bounds", symbol="\u2716"),
    ]
    if state.lifted is not None:
        entries.append(LegendEntry("Grey dashed tile: lifted, to be laid elsewhere", symbol="\u2b1a"))
        entries.append(LegendEntry("Blue dashed frame: a place the lifted tile may be laid", symbol="\u2b1a"))
    return tuple(entries)


# -- the list of choices and the rules ----------------------------------------------------------


def action_group(state: ChaosCruisersState, action: CruisersAction) -> tuple[int, str]:
    """Speed changes before speed coins; moves that end on the course, then rams, then moves
    out of bounds; tiles to lift before `stop`."""
    if isinstance(action, Speed):
        return (1, "Speed coins (each once)") if action.coin else (0, "Speed")
    if isinstance(action, Move):
        outcome = _move_outcome(state, action)
        return {"stop": (0, "Moves"), "ram": (1, "Rams"), "out": (2, "Out of bounds")}[outcome]
    if isinstance(action, Lift):
        return (0, "Lift a tile")
    if isinstance(action, StopRelocating):
        return (1, "Move no more tiles")
    return (0, "")


def _move_outcome(state: ChaosCruisersState, move: Move) -> str:
    start = state.pos[state.deciding_cruiser()]
    if start is None:
        return "stop"
    return trace_move(start, move, state.course(), state.obstacles, state.occupied()).outcome


def rules_section(state: ChaosCruisersState, action: CruisersAction) -> str | None:
    """The heading of rules.md the action follows."""
    heading: str | None = None
    if isinstance(action, Start):
        heading = SETUP
    elif isinstance(action, Lead):
        heading = LEAD_ORDER
    elif isinstance(action, Speed):
        heading = SPEED
    elif isinstance(action, Move):
        outcome = _move_outcome(state, action)
        heading = {"stop": MOVING, "ram": RAMMING, "out": OUT_OF_BOUNDS}[outcome]
    elif isinstance(action, Reenter):
        heading = OUT_OF_BOUNDS
    elif isinstance(action, Lift | Lay | StopRelocating):
        heading = RESHAPING
    elif isinstance(action, Obstacle | KeepObstacle):
        heading = OBSTACLES
    return None if heading is None else slug(heading)
