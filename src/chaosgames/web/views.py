"""What each viewer of a game is sent: built only from what that viewer may know.

A seat's view (and a spectator's, `viewer` None) holds the picture and the text from the
game's viewer-specific renderers, the seat's `observation`, the move log as
`Game.action_seen` lets that viewer keep it, and, for the seat whose turn it is, its legal
actions with their descriptions and their places on the picture. Nothing here reads
`State.to_json()`, which holds everything (face-down cards included).
"""

from __future__ import annotations

import time
from typing import Any

import chaosgames.web.undo as undo
from chaosgames import agents
from chaosgames.core.constants import CHANCE
from chaosgames.core.game import Game, State
from chaosgames.core.registry import game_class, list_games, load_game
from chaosgames.web.live import HUMAN, LiveGame, Step
from chaosgames.web.presence import since_last_played
from chaosgames.web.stored import ListedGame
from chaosgames.web.table_view import table_view


def players(live: LiveGame) -> list[dict[str, Any]]:
    names = live.game.player_names()
    return [
        {"seat": i, "name": names[i], "who": who, "human": who == HUMAN} for i, who in enumerate(live.seats)
    ]


LOG_PAGE = 200
"""Move-log entries a view carries at most: a long game's earlier entries are asked for
page by page (`GET /api/games/{id}/log`), so that no view grows with the game."""


def log_start(live: LiveGame) -> int:
    """Where a whole view's move log starts: its last `LOG_PAGE` entries."""
    return max(0, live.length - LOG_PAGE)


def log_entries(
    live: LiveGame, viewer: int | None, start: int = 0, stop: int | None = None
) -> list[dict[str, Any]]:
    """The move log from entry `start` on (to `stop`), as `viewer` may keep it."""
    names = live.game.player_names()
    steps = live.steps[start:stop]
    return [_entry(step, seq, viewer, names) for seq, step in enumerate(steps, start=start + 1)]


def _who(actor: int, names: list[str]) -> str:
    return "chance" if actor == CHANCE else names[actor]


def _entry(step: Step, seq: int, viewer: int | None, names: list[str]) -> dict[str, Any]:
    told = step.told_to(viewer)
    return {
        "seq": seq,
        "actor": step.actor,
        "who": _who(step.actor, names),
        "notation": told.notation,
        "description": told.kept,
        "turn": step.turn,
    }


def latest_turn(live: LiveGame, viewer: int | None) -> dict[str, Any]:
    """The latest turn as `viewer` sees it: its events (from its last decision on told in
    full, `Told.now`; before it as kept, `Told.kept`), and the places they changed and the
    things they moved, for the page to mark and animate."""
    names = live.game.player_names()
    start, told_now = live.latest_turn(), live.last_decision()
    events, places, moves = [], [], []
    for at in range(start, live.length):
        step = live.steps[at]
        told = step.told_to(viewer)
        text = told.now if at >= told_now else told.kept
        events.append(
            {
                "seq": at + 1,
                "actor": step.actor,
                "who": _who(step.actor, names),
                "notation": told.notation,
                "text": text,
            }
        )
        places += [p for p in told.places if p not in places]
        moves += [list(m) for m in told.moves]
    return {"number": live.turn, "start": start, "events": events, "places": places, "moves": moves}


def legend(game: Game[Any, Any], state: State[Any], viewer: int | None) -> list[dict[str, Any]]:
    """The key to the picture, for the page to draw beside the board."""
    # Written out rather than with dataclasses.asdict, whose deep copy was most of the cost.
    return [
        {
            "title": section.title,
            "entries": [{"text": e.text, "colour": e.colour, "symbol": e.symbol} for e in section.entries],
        }
        for section in game.legend(state, viewer)
    ]


def legal_actions(live: LiveGame, viewer: int | None) -> list[dict[str, Any]]:
    """The legal actions, for the person whose turn it is (nobody else is sent them): each
    with its description, its places on the picture, its group in the list of choices and
    the section of the rules it follows."""
    state, game = live.state, live.game
    if viewer is None or live.to_act() != viewer or live.is_computer(viewer):
        return []
    found = []
    for action in state.legal_actions():
        order, group = game.action_group(state, action)
        found.append(
            {
                "notation": str(action),
                "description": game.describe_action(state, action),
                "places": list(game.action_places(state, action)),
                "group": group,
                "order": order,
                "rules": game.rules_section(state, action),
            }
        )
    return found


def outcome(names: list[str], returns: list[float]) -> str:
    """Who won, as a sentence."""
    best = max(returns)
    winners = [names[i] for i, r in enumerate(returns) if r == best and r > 0]
    if len(winners) == 1:
        return f"{winners[0]} wins."
    if winners:
        return f"Shared result: {', '.join(winners)}."
    return "Nobody wins."


def result(live: LiveGame) -> dict[str, Any] | None:
    returns = live.result()
    if returns is None:
        return None
    names = live.game.player_names()
    best = max(returns)
    winners = [names[i] for i, r in enumerate(returns) if r == best and r > 0]
    ending = live.table.ending
    summary = outcome(names, returns) if ending is None else ending.sentence
    return {"returns": returns, "winners": winners, "summary": summary}


def thinking(live: LiveGame) -> dict[str, Any] | None:
    t = live.thinking
    if t is None:
        return None
    return {
        "seat": t.seat,
        "who": live.seats[t.seat],
        "budget": t.budget,
        "elapsed": round(max(0.0, time.time() - t.started), 3),
    }


def view(live: LiveGame, viewer: int | None, log_from: int | None = None) -> dict[str, Any]:
    """Everything the game page shows `viewer` (a seat, or None for a spectator), with the
    move log from entry `log_from` on (by default its last page)."""
    state, game = live.state, live.game
    if log_from is None:
        log_from = log_start(live)
    to_act = live.to_act()
    names = game.player_names()
    return {
        "id": live.id,
        "game": game.name,
        "title": game.title,
        "version": live.version,
        "status": live.status,
        "viewer": viewer,
        "viewer_name": None if viewer is None else names[viewer],
        "players": players(live),
        "to_act": to_act,
        "to_act_name": None if to_act is None else names[to_act],
        "thinking": thinking(live),
        "trouble": live.trouble,
        "svg": game.render_svg(state, viewer, legend=False),
        "legend": legend(game, state, viewer),
        "turn": latest_turn(live, viewer),
        "text": game.render_text(state, viewer),
        "observation": state.observation(viewer),
        "legal": legal_actions(live, viewer),
        "log_from": log_from,
        "log": log_entries(live, viewer, log_from),
        "result": result(live),
        "continued_from": live.meta.get("continued_from"),
        "since": since_last_played(live, viewer),
        "undo": undo.offer(live, viewer),
        "table": table_view(live),
    }


def live_summary(live: LiveGame) -> dict[str, Any]:
    """A line of the lobby's list of games."""
    to_act = live.to_act()
    names = live.game.player_names()
    res = result(live)
    return {
        "id": live.id,
        "game": live.game.name,
        "title": live.game.title,
        "status": live.status,
        "version": live.version,
        "players": players(live),
        "to_act_name": None if to_act is None else names[to_act],
        "result": None if res is None else res["summary"],
        "updated": live.updated,
    }


def stored_summary(summary: ListedGame, ending: str | None = None) -> dict[str, Any]:
    """A finished game's line in the lobby, read from the store (its state is not kept);
    `ending`: how the table ended it, if it did (a resignation, a claim, time)."""
    game = load_game(summary.game, **summary.options)
    names = game.player_names()
    result = ending or (outcome(names, summary.result) if summary.result else None)
    return {
        "id": summary.id,
        "game": summary.game,
        "title": game.title,
        "status": summary.status,
        "version": summary.version,
        "players": [
            {"seat": i, "name": names[i], "who": w, "human": w == HUMAN} for i, w in enumerate(summary.seats)
        ],
        "to_act_name": None,
        "result": result,
        "updated": summary.updated,
    }


# -- the catalogue: games, their options, the computer opponents ---------------------------


def option_doc(option: Any) -> dict[str, Any]:
    kind = {bool: "bool", int: "int", float: "float", str: "str"}.get(option.kind, "json")
    return {
        "name": option.name,
        "kind": kind,
        "default": option.default,
        "doc": option.doc,
        "choices": None if option.choices is None else list(option.choices),
        "minimum": option.minimum,
        "maximum": option.maximum,
    }


def game_doc(cls: type[Game[Any, Any]]) -> dict[str, Any]:
    return {
        "name": cls.name,
        "title": cls.title,
        "pitch": cls.pitch or (cls.__doc__ or "").strip().splitlines()[0],
        "min_players": cls.min_players,
        "max_players": cls.max_players,
        "default_players": cls.default_players,
        "options": [option_doc(o) for o in cls.option_spec],
        "hides_information": _hides(cls),
    }


def _hides(cls: type[Game[Any, Any]]) -> bool:
    try:
        return cls(players=cls.default_players).hides_information()
    except Exception:  # a game that cannot be built with its defaults is shown anyway
        return False


def catalogue() -> dict[str, Any]:
    return {
        "games": [game_doc(game_class(name)) for name in list_games()],
        "agents": [
            {
                "name": name,
                "summary": agents.agent_class(name).summary,
                "parameters": [option_doc(p) for p in agents.agent_class(name).params.values()],
            }
            for name in agents.available()
        ],
        # The levels first: a player picks an opponent by level (each game has its own specs).
        "levels": list(agents.LEVELS),
        "seat_examples": [HUMAN, *agents.LEVELS, "random", "greedy", "mcts:time=1.0", "mcts:iterations=500"],
    }
