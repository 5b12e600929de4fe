"""PDN (Portable Draughts Notation 3.0) for plain checkers: records to PDN and back.

Plain Chaos Checkers (`chaos=false`) is American checkers, PDN GameType 21 ("English
draughts"): the same 1-32 square numbers, Black (our first player, on 1-12) moves first.

Export (`record_to_pdn`) writes the seven-tag roster (Event, Site, Date, Round, Black,
White, Result) and `GameType "21"`, then the moves numbered in pairs (`1. 11-15 23-19
2. ...`). A capture is written from its start to its end square (`22x15`, `26x17`), with
every landing square only when another capture shares both (`1x10x19`), as PDN 3.0
asks. Comments kept from an imported game are written back where they stood.

Import (`read_pdn`, then `pdn_to_record`) reads any number of games: tag pairs (with
`\\"` and `\\\\` escapes), move numbers (`12.`, `12...`), moves with `-`, `x` or `:`,
move strengths (`!`, `?!`, `(?)`), NAGs (`$3`), `{comments}` and `;` line comments,
`%` escape lines, variations in parentheses (skipped: the record keeps the main line),
and a game result or `*`. A capture may give its end square only or the squares it
passes on the way; it must name one legal capture. Games from a set-up position (a FEN
other than the start) and setups inside the moves are refused: records start at the
beginning.

Results: "1-0" is a White (second player) win and "0-1" a Black (first player) win, as in
PGN, where the first number is White's score; "1/2-1/2" is a draw ("2-0", "0-2", "1-1"
likewise). Some English checkers programs write results from Black's side instead; the
imported record's result therefore comes from replaying the moves (a finished game), and
the PDN's own result tag is kept in `meta["pdn"]`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from chaosgames.core.errors import ChaosGamesError, RecordError
from chaosgames.core.records import GameRecord, RecordFormat, register_format
from chaosgames.core.registry import load_game
from chaosgames.games.chaos_checkers.moves import PlainMove
from chaosgames.games.chaos_checkers.plain import PlainState

GAME = "chaos-checkers"
GAME_TYPE = "21"
START_FEN_PIECES = (range(1, 13), range(21, 33))
"""Black's and White's squares at the start."""
RESULTS = {
    "1-0": (0.0, 1.0),
    "0-1": (1.0, 0.0),
    "1/2-1/2": (0.5, 0.5),
    "2-0": (0.0, 1.0),
    "0-2": (1.0, 0.0),
    "1-1": (0.5, 0.5),
    "0-0": None,
    "*": None,
}
"""PDN result -> (Black's share, White's share); None: unknown or unfinished."""
ROSTER = ("Event", "Site", "Date", "Round", "Black", "White", "Result")
_UNKNOWN = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?"}


class PdnError(RecordError):
    """PDN text that cannot be read, or a PDN game that does not replay."""


@dataclass
class PdnGame:
    """One game as read from PDN: its tags, its main-line moves as written, its comments."""

    tags: dict[str, str] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)
    comments: list[tuple[int, str]] = field(default_factory=list)
    """(moves played before it, text)."""
    result: str = "*"
    number: int = 1
    """Which game of the file (from 1), for messages."""


# -- reading --------------------------------------------------------------------------------

_TOKEN = re.compile(
    r"""
    (?P<space>\s+)
  | (?P<tag>\[\s*(?P<name>[A-Za-z0-9_]+)\s*"(?P<value>(?:[^"\\]|\\.)*)"\s*\])
  | (?P<comment>\{[^}]*\})
  | (?P<line>;[^\n]*)
  | (?P<result>(?:1/2-1/2|1-0|0-1|2-0|0-2|1-1|0-0)(?![0-9x:-]))
  | (?P<number>[0-9]+\.(?:\s*\.\.)?\.*)
  | (?P<move>[0-9]{1,2}(?:[-x:][0-9]{1,2})+)
  | (?P<strength>\([!?]+\)|[!?]+)
  | (?P<nag>\$[0-9]+)
  | (?P<open>\()
  | (?P<close>\))
  | (?P<star>\*)
  | (?P<setup>/[^/]*/)
    """,
    re.VERBOSE,
)


def read_pdn(text: str) -> list[PdnGame]:
    """Every game in a PDN text, in order; PdnError says where the text cannot be read."""
    text = "\n".join(line for line in text.lstrip("\ufeff").splitlines() if not line.startswith("%"))
    games: list[PdnGame] = []
    game = PdnGame(number=1)
    depth = 0
    position = 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None:
            raise PdnError(_where(text, position, game, "cannot be read as PDN"))
        position = match.end()
        kind = match.lastgroup
        if kind in ("space", "line", "nag", "strength", "number"):
            continue
        if kind == "open":
            depth += 1
        elif kind == "close":
            if depth == 0:
                raise PdnError(_where(text, match.start(), game, "closes a variation that was never opened"))
            depth -= 1
        elif depth:
            continue  # inside a variation: not the game's main line
        elif kind == "tag":
            if game.moves or game.comments:
                games.append(game)  # a game without a result, followed by the next one
                game = PdnGame(number=len(games) + 1)
            game.tags[match["name"]] = re.sub(r"\\(.)", r"\1", match["value"])
        elif kind == "comment":
            game.comments.append((len(game.moves), match.group()[1:-1].strip()))
        elif kind == "move":
            game.moves.append(match.group())
        elif kind in ("result", "star"):
            game.result = match.group()
            games.append(game)
            game = PdnGame(number=len(games) + 1)
        elif kind == "setup":
            raise PdnError(_where(text, match.start(), game, "sets up a position inside the moves"))
    if depth:
        raise PdnError(f"Game {game.number} of the PDN leaves a variation open (a '(' without ')').")
    if game.tags or game.moves:
        games.append(game)
    if not games:
        raise PdnError("The PDN text holds no game.")
    return games


def _where(text: str, position: int, game: PdnGame, problem: str) -> str:
    line = text.count("\n", 0, position) + 1
    snippet = text[position : position + 20].split("\n")[0]
    return f"Line {line} of the PDN (game {game.number}): {snippet!r} {problem}."


# -- PDN game -> record --------------------------------------------------------------------


def pdn_to_record(game: PdnGame) -> GameRecord:
    """The record of a PDN game of American checkers, every move checked by replaying it."""
    _check_variant(game)
    checkers = load_game(GAME, chaos=False)
    state = checkers.new_initial_state()
    actions: list[str] = []
    for number, text in enumerate(game.moves):
        action = _resolve(state, text, game, number)
        actions.append(str(action))
        state.apply_action(action)
    tags = dict(game.tags)
    if "Result" not in tags and game.result != "*":
        tags["Result"] = game.result
    players = [tags.get("Black", "Black"), tags.get("White", "White")]
    record = GameRecord.start(checkers, players, pdn=tags)
    record.actions = actions
    record.finish(state)
    if game.comments:
        record.meta["pdn_comments"] = [[ply, text] for ply, text in game.comments]
    return record


def _check_variant(game: PdnGame) -> None:
    kind = game.tags.get("GameType", GAME_TYPE).split(",")[0].strip()
    if kind != GAME_TYPE:
        raise PdnError(
            f"Game {game.number} of the PDN is GameType {kind}; only American checkers (GameType 21) is read."
        )
    fen = game.tags.get("FEN")
    if fen is not None and not _is_start(fen, game):
        raise PdnError(
            f"Game {game.number} of the PDN starts from a set-up position (FEN {fen!r}); "
            "records start at the beginning of a game."
        )


def _is_start(fen: str, game: PdnGame) -> bool:
    """Whether a FEN ('B:W21,...,32:B1,...,12') is the starting position, Black to move."""
    side, *parts = (p.strip() for p in fen.strip().rstrip(".").split(":"))
    squares: dict[str, set[str]] = {}
    for part in parts:
        if not part:
            raise PdnError(f"Game {game.number} of the PDN has a FEN tag that cannot be read: {fen!r}.")
        squares[part[0].upper()] = {s.strip() for s in part[1:].split(",") if s.strip()}
    start = {colour: {str(n) for n in pieces} for colour, pieces in zip("BW", START_FEN_PIECES, strict=True)}
    return side.upper() == "B" and squares == start


def _resolve(state: PlainState, text: str, game: PdnGame, number: int) -> PlainMove:
    """The legal move a PDN move names: its squares in order (start, any landings, end)."""
    squares = [int(s) - 1 for s in re.split(r"[-x:]", text)]
    side = "Black" if number % 2 == 0 else "White"
    where = f"Move {number // 2 + 1} of game {game.number} ({side}, {text!r})"
    legal = state.legal_actions()
    if not legal:
        raise PdnError(f"{where} comes after the game has ended ({_ending(state)}).")
    found = [a for a in legal if _names(a, squares)]
    if not found:
        shown = ", ".join(_pdn_move(state, a) for a in legal)
        raise PdnError(f"{where} is not a legal move; legal moves are {shown}.")
    if len(found) > 1:
        shown = " or ".join(str(a) for a in found)
        raise PdnError(f"{where} could be {shown}; write the squares it passes.")
    return found[0]


def _names(action: PlainMove, squares: list[int]) -> bool:
    path = action.path
    if path[0] != squares[0] or path[-1] != squares[-1]:
        return False
    inner = iter(path[1:-1])
    return all(any(s == p for p in inner) for s in squares[1:-1])


def _ending(state: PlainState) -> str:
    returns = state.returns()
    if returns == [0.5, 0.5]:
        return "drawn"
    return "Black won" if returns[0] > returns[1] else "White won"


# -- record -> PDN ----------------------------------------------------------------------------


def record_to_pdn(record: GameRecord) -> str:
    """A plain-checkers record as one PDN game (RecordError for anything else)."""
    if record.game != GAME or record.options.get("chaos", True):
        raise RecordError("Only plain checkers records (chaos-checkers, chaos=false) export to PDN.")
    if not record.options.get("forced_capture", True):
        raise RecordError("PDN checkers forces captures; this record has forced_capture=false.")
    state = record.load_game().new_initial_state()
    moves: list[str] = []
    for number, text in enumerate(record.actions, start=1):
        try:
            action = state.game.parse_action(state, text)
            moves.append(_pdn_move(state, action))
            state.apply_action(action)
        except ChaosGamesError as exc:
            raise RecordError(f"Action {number} of the record, {text!r}, does not replay: {exc}") from None
    result = _result(record, state)
    tags = _tags(record, result)
    comments: dict[int, list[str]] = {}
    for ply, text in record.meta.get("pdn_comments", []):
        comments.setdefault(int(ply), []).append(str(text))
    return _layout(tags, moves, comments, result)


def _pdn_move(state: PlainState, action: PlainMove) -> str:
    """Start-end notation, with the landings only when another legal move shares both."""
    path = action.path
    if "x" not in str(action):
        return str(action)
    twins = [
        a for a in state.legal_actions() if a != action and a.path[0] == path[0] and a.path[-1] == path[-1]
    ]
    return str(action) if twins else f"{path[0] + 1}x{path[-1] + 1}"


def _result(record: GameRecord, state: PlainState) -> str:
    if state.is_terminal():
        black, white = state.returns()
        if black == white:
            return "1/2-1/2"
        return "0-1" if black > white else "1-0"
    kept = record.meta.get("pdn", {}).get("Result")
    return kept if isinstance(kept, str) and kept in RESULTS else "*"


def _tags(record: GameRecord, result: str) -> dict[str, str]:
    kept = {str(k): str(v) for k, v in (record.meta.get("pdn") or {}).items()}
    tags = {name: kept.get(name, _UNKNOWN.get(name, "?")) for name in ROSTER}
    tags["Black"] = kept.get("Black", record.players[0] if record.players else "?")
    tags["White"] = kept.get("White", record.players[1] if len(record.players) > 1 else "?")
    tags["Result"] = result
    tags["GameType"] = GAME_TYPE
    for name, value in kept.items():
        if name not in tags and name not in ("FEN", "SetUp"):
            tags[name] = value
    return tags


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _layout(tags: dict[str, str], moves: list[str], comments: dict[int, list[str]], result: str) -> str:
    lines = [f'[{name} "{_quote(value)}"]' for name, value in tags.items()]
    lines.append("")
    words: list[str] = [f"{{{_comment(text)}}}" for text in comments.get(0, [])]
    for ply, move in enumerate(moves):
        # A move number stays on the line of its move.
        words.append(f"{ply // 2 + 1}. {move}" if ply % 2 == 0 else move)
        words.extend(f"{{{_comment(text)}}}" for text in comments.get(ply + 1, []))
    words.append(result)
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > 79:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return "\n".join(lines) + "\n"


def _comment(text: str) -> str:
    return text.replace("}", ")")  # a PDN comment ends at the first closing brace


def records_to_pdn(records: list[GameRecord]) -> str:
    """Several records as one PDN text (games separated by a blank line)."""
    return "\n".join(record_to_pdn(record) for record in records)


def pdn_records(text: str) -> list[GameRecord]:
    """Every game of a PDN text as a record (PdnError names the first game that fails)."""
    return [pdn_to_record(game) for game in read_pdn(text)]


PDN = register_format(
    RecordFormat("pdn", "PDN 3.0, plain American checkers (chaos=false)", records_to_pdn, pdn_records)
)
"""Checkers' records in PDN, for `chaosgames export --pdn` and `chaosgames import`."""
