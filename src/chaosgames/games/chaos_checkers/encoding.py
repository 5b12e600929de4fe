"""Chaos Checkers for research tools: action indices and observation vectors.

Actions. Squares are the standard 1-32 numbers; below, a square s counts from 0 (s - 1).

- Plain checkers (`chaos=false`, 1426 actions): every one-square step (a, b) of the
  board, 98 of them, sorted; then every capture path a piece could ever make, a jump
  sequence over distinct squares (1328, sorted by their squares): `11-15` and
  `15x22x29` each have their own index, so a multi-jump is one index as it is one move.
- Chaos mode adds, after those 1426 (a Ghost jump `14~23` shares the index of the
  capture `14x23`: the jumped piece is either capturable or a Ghost, never both):
  Ambush and Leap captures, 32 x 32 x 4 each, indexed by (start, end, k) where k counts
  the legal captures of that power with the same start and end listed before it (a fifth
  one would have no index; 600 random games never had more than three); the potions,
  `speedy@s` (32), `unghost@s` (32), `wild@s=c` (32 x 11), `rewind@s:t` (32 x 32),
  `sacrifice@s:t` (32 x 32), `telekinesis@s:t>o` (32 x 32 x 32), `revive@s:h=c`
  (32 x 4 home-row places x 10 colours) and, with `pink`, `reclaim@s:t=c`
  (32 x 32 x 11); then `invulnerable:s`, `yield:s` (32 each), `keep-shield=c`,
  `keep-potion=c` (11 each) and `pass`. Colours are counted in the game's order (red,
  orange, yellow, green, blue, purple, lightblue, black, clear, white, pink).

Observation, from `state.observation(player)` only; "mine" is the observer's side.

- Plain (133): planes of the 32 squares (plane-major): my men, my kings, the opponent's
  men, the opponent's kings; then who moves (me, the opponent), the observer's seat (2)
  and the moves played / 1000.
- Chaos (1339): 39 planes of the 32 squares: 0 my piece, 1 the opponent's, 2 a king, 3-12
  the piece's colour, 13-22 its shield's colour, 23-33 its potion's colour, 34 the
  piece taking a Speedy extra turn, 35 the piece whose potion was used this turn, 36 the
  piece whose capture waits for an Invulnerability answer, 37 the piece it would capture
  next, 38 the piece that just moved (its reward is being drawn); then 91 numbers:
  shield bags (mine, the opponent's; 10 colours each, / 5), the potion pouch (11, / 5),
  eliminated pieces (mine, the opponent's; 10 each, / 5), Revive potions out of the game
  (/ 5), the phase (11), the setup draw number (/ 23), who acts (me, the opponent,
  chance), the observer's seat (2), whether the extra turn is Speedy's, captures so far
  in the waiting move (/ 12), its power (ambush, leap), the reward's captures (/ 12),
  crowning and kept potion, the pieces drawn and held (11 colours, / 5), draws left
  (/ 5), whether the turn is a quiet king move, positions since the last irreversible
  move (/ 12) and moves made (/ 1000).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeAlias

from chaosgames.core.encoding import NO_INDEX, BoardPlanes, Encoding, fraction, one_hot
from chaosgames.games.chaos_checkers.actions import ChaosMove, Defence, Draw, Pass, PotionUse
from chaosgames.games.chaos_checkers.board import NEIGHBOUR, RAY2, row_col
from chaosgames.games.chaos_checkers.colours import CODE, COLOURS, TEN
from chaosgames.games.chaos_checkers.moves import PlainMove
from chaosgames.games.chaos_checkers.phases import KEEP_PHASES, KEEP_POTION, KEEP_SHIELD, PHASES, Phase
from chaosgames.games.chaos_checkers.powers import Power

if TYPE_CHECKING:
    from chaosgames.core.game import Action, State
    from chaosgames.games.chaos_checkers.rules_in_force import CheckersRules

SQUARES = 32
COLOURS_ALL = len(COLOURS)  # 11, pink included
SAME_ENDS = 4
"""Ambush or Leap captures with the same start and end squares that get an index each."""


def _steps() -> list[tuple[int, int]]:
    return sorted((a, NEIGHBOUR[a][d]) for a in range(SQUARES) for d in range(4) if NEIGHBOUR[a][d] >= 0)


def _jump_paths() -> list[tuple[int, ...]]:
    """Every sequence of jumps over distinct squares (a king's multi-jump at most)."""
    found: list[tuple[int, ...]] = []

    def extend(path: tuple[int, ...], jumped: frozenset[int]) -> None:
        at = path[-1]
        for d in range(4):
            land, over = RAY2[at][d], NEIGHBOUR[at][d]
            if land >= 0 and over not in jumped:
                longer = (*path, land)
                found.append(longer)
                extend(longer, jumped | {over})

    for start in range(SQUARES):
        extend((start,), frozenset())
    return sorted(found)


PATHS: tuple[tuple[int, ...], ...] = (*_steps(), *_jump_paths())
"""Steps, then capture paths: the plain-checkers action space, in index order."""
PATH_INDEX: dict[tuple[int, ...], int] = {path: i for i, path in enumerate(PATHS)}


Block: TypeAlias = Power | Phase | str
"""A section of the chaos action space: the uses of a potion power (Ghost: its discard,
`unghost`), the keeps of a reward phase, or "invulnerable", "yield" and "pass"."""


def _blocks(pink: bool) -> dict[Block, tuple[int, int]]:
    """Chaos-mode sections after the paths: block -> (offset, size)."""
    sizes: list[tuple[Block, int]] = [
        (Power.AMBUSH, SQUARES * SQUARES * SAME_ENDS),
        (Power.LEAP, SQUARES * SQUARES * SAME_ENDS),
        (Power.SPEEDY, SQUARES),
        (Power.GHOST, SQUARES),
        (Power.WILD, SQUARES * COLOURS_ALL),
        (Power.REWIND, SQUARES * SQUARES),
        (Power.SACRIFICE, SQUARES * SQUARES),
        (Power.TELEKINESIS, SQUARES**3),
        (Power.REVIVE, SQUARES * 4 * TEN),
        *([(Power.RECLAIM, SQUARES * SQUARES * COLOURS_ALL)] if pink else []),
        ("invulnerable", SQUARES),
        ("yield", SQUARES),
        (KEEP_SHIELD, COLOURS_ALL),
        (KEEP_POTION, COLOURS_ALL),
        ("pass", 1),
    ]
    blocks: dict[Block, tuple[int, int]] = {}
    offset = len(PATHS)
    for name, size in sizes:
        blocks[name] = (offset, size)
        offset += size
    return blocks


class CheckersEncoding(Encoding):
    """See the module docstring."""

    max_chance_outcomes = COLOURS_ALL  # a draw from a bag: one outcome per colour in it

    def __init__(self, game: CheckersRules[Any, Any]) -> None:
        self.chaos: bool = game.options["chaos"]
        self.blocks = _blocks(game.options["pink"]) if self.chaos else {}
        self.num_actions = sum(size for _, size in self.blocks.values()) + len(PATHS)
        self.observation_shape = (CHAOS_SIZE,) if self.chaos else (PLAIN_SIZE,)

    def board_planes(self) -> BoardPlanes:
        # The 32 dark squares of the 8 x 8 board, square 1 top left as the board is drawn.
        planes = PLANES if self.chaos else 4
        return BoardPlanes(planes, 8, 8, tuple(row_col(index) for index in range(SQUARES)))

    # -- actions ------------------------------------------------------------------------

    def action_index(self, state: State[Any], action: Action) -> int:
        if isinstance(action, ChaosMove) and action.power is not None:
            k = 0
            for other in state.legal_actions():
                if other == action:
                    return self._power_index(action, k)
                if (
                    isinstance(other, ChaosMove)
                    and other.power == action.power
                    and other.path[0] == action.path[0]
                    and other.path[-1] == action.path[-1]
                ):
                    k += 1
            return NO_INDEX
        return self._fixed_index(action)

    def legal_indices(self, state: State[Any]) -> dict[int, Action]:
        # One pass, counting captures with the same power, start and end as they come.
        found: dict[int, Action] = {}
        seen: dict[tuple[Power, int, int], int] = {}
        for action in state.legal_actions():
            if isinstance(action, ChaosMove) and action.power is not None:
                key = (action.power, action.path[0], action.path[-1])
                k = seen.get(key, 0)
                seen[key] = k + 1
                index = self._power_index(action, k)
            else:
                index = self._fixed_index(action)
            if index != NO_INDEX:
                found[index] = action
        return dict(sorted(found.items()))

    def _power_index(self, move: ChaosMove, k: int) -> int:
        if k >= SAME_ENDS:
            return NO_INDEX
        assert move.power is not None  # an Ambush or Leap capture
        offset, _ = self.blocks[move.power]
        return offset + (move.path[0] * SQUARES + move.path[-1]) * SAME_ENDS + k

    def _fixed_index(self, action: Action) -> int:
        if isinstance(action, PlainMove | ChaosMove):
            return PATH_INDEX.get(action.path, NO_INDEX)
        if isinstance(action, PotionUse):
            return self._potion_index(action)
        if isinstance(action, Defence):
            return self.blocks["invulnerable" if action.invulnerable else "yield"][0] + action.square
        if isinstance(action, Draw) and action.kind in KEEP_PHASES:
            return self.blocks[action.kind][0] + action.colour
        if isinstance(action, Pass):
            return self.blocks["pass"][0]
        return NO_INDEX

    def _potion_index(self, use: PotionUse) -> int:
        power = use.power
        offset, _ = self.blocks[power]
        s, t, o, c = use.square, use.target, use.other, use.colour
        if power in (Power.SPEEDY, Power.GHOST):
            return offset + s
        if power is Power.WILD:
            return offset + s * COLOURS_ALL + c
        if power in (Power.REWIND, Power.SACRIFICE):
            return offset + s * SQUARES + t
        if power is Power.TELEKINESIS:
            return offset + (s * SQUARES + t) * SQUARES + o
        if power is Power.REVIVE:
            return offset + (s * 4 + t % 4) * TEN + c
        return offset + (s * SQUARES + t) * COLOURS_ALL + c  # reclaim

    def _slot_name(self, index: int) -> str:
        if index < len(PATHS):
            path = PATHS[index]
            sep = "-" if abs(path[1] - path[0]) <= 5 else "x"
            return sep.join(str(s + 1) for s in path)
        for name, (offset, size) in self.blocks.items():
            if offset <= index < offset + size:
                return _slot_in_block(name, index - offset)
        return f"no action ({index})"

    # -- observations -------------------------------------------------------------------

    def observation_features(self, observation: Mapping[str, Any], player: int) -> dict[int, float]:
        if self.chaos:
            return _chaos_features(observation, player)
        return _plain_features(observation, player)


def _slot_in_block(block: Block, i: int) -> str:
    """The name of slot `i` of `block`: the notation of its action where one slot is one action."""
    if block in (Power.AMBUSH, Power.LEAP):
        pair, k = divmod(i, SAME_ENDS)
        a, b = divmod(pair, SQUARES)
        return f"{block}:{a + 1}x..x{b + 1} (#{k + 1})"
    if block in (Power.SPEEDY, Power.GHOST):
        return str(PotionUse(Power(block), i))
    if block is Power.WILD:
        return str(PotionUse(block, i // COLOURS_ALL, colour=i % COLOURS_ALL))
    if block in (Power.REWIND, Power.SACRIFICE):
        return str(PotionUse(Power(block), i // SQUARES, i % SQUARES))
    if block is Power.TELEKINESIS:
        st, o = divmod(i, SQUARES)
        return str(PotionUse(block, st // SQUARES, st % SQUARES, o))
    if block is Power.REVIVE:
        sh, c = divmod(i, TEN)  # the target is a home square: its place in the home row
        return f"revive@{sh // 4 + 1}:home place {sh % 4 + 1}={COLOURS[c]}"
    if block is Power.RECLAIM:
        st, c = divmod(i, COLOURS_ALL)
        return str(PotionUse(block, st // SQUARES, st % SQUARES, colour=c))
    if block == "pass":
        return "pass"
    return f"{block}:{i + 1}" if block in ("invulnerable", "yield") else f"{block}={COLOURS[i]}"


# -- plain observation ---------------------------------------------------------------------

PLAIN_SIZE = 4 * SQUARES + 5
_PLAIN_PLANE = {"b": 0, "B": 1, "w": 2, "W": 3}


def _plain_features(obs: Mapping[str, Any], player: int) -> dict[int, float]:
    f: dict[int, float] = {}
    for sq, ch in enumerate(obs["board"]):
        plane = _PLAIN_PLANE.get(ch)
        if plane is not None:
            if player == 1:
                plane ^= 2  # mine first
            f[plane * SQUARES + sq] = 1.0
    base = 4 * SQUARES
    if not obs["terminal"]:
        f[base + (0 if obs["turn"] == player else 1)] = 1.0
    f[base + 2 + player] = 1.0
    if obs["ply"]:
        f[base + 4] = fraction(obs["ply"], 1000)
    return f


# -- chaos observation ---------------------------------------------------------------------

_MINE, _THEIRS, _KING, _COLOUR, _SHIELD, _POTION = 0, 1, 2, 3, 13, 23
_EXTRA, _USED, _AT, _VICTIM, _REWARD = 34, 35, 36, 37, 38
PLANES = 39
_BAGS = PLANES * SQUARES
_POUCH = _BAGS + 2 * TEN
_ELIMINATED = _POUCH + COLOURS_ALL
_REMOVED = _ELIMINATED + 2 * TEN
_PHASE = _REMOVED + 1
_SETUP = _PHASE + len(PHASES)
_TO_ACT = _SETUP + 1
_SEAT = _TO_ACT + 3
_SPEEDY = _SEAT + 2
_PENDING = _SPEEDY + 1  # captures, then ambush, leap
_REWARD_INFO = _PENDING + 3  # captures, crowned, kept potion
_HAND = _REWARD_INFO + 3
_DRAWS_LEFT = _HAND + COLOURS_ALL
_QUIET = _DRAWS_LEFT + 1
_REPETITION = _QUIET + 1
_MOVES = _REPETITION + 1
CHAOS_SIZE = _MOVES + 1


def _square_plane(f: dict[int, float], plane: int, square: int | None) -> None:
    """Mark a square given by its 1-32 number (None: nothing)."""
    if square is not None:
        f[plane * SQUARES + square - 1] = 1.0


def _counts(f: dict[int, float], offset: int, counts: Mapping[str, int]) -> None:
    for colour, n in counts.items():
        if n:
            f[offset + CODE[colour]] = fraction(n, 5)


def _chaos_features(obs: Mapping[str, Any], player: int) -> dict[int, float]:
    f: dict[int, float] = {}
    for sq, piece in enumerate(obs["board"]):
        if piece is None:
            continue
        f[(_MINE if piece["owner"] == player else _THEIRS) * SQUARES + sq] = 1.0
        if piece["king"]:
            f[_KING * SQUARES + sq] = 1.0
        f[(_COLOUR + CODE[piece["colour"]]) * SQUARES + sq] = 1.0
        if piece["shield"] is not None:
            f[(_SHIELD + CODE[piece["shield"]]) * SQUARES + sq] = 1.0
        if piece["potion"] is not None:
            f[(_POTION + CODE[piece["potion"]]) * SQUARES + sq] = 1.0
    _square_plane(f, _EXTRA, obs["extra_turn"])
    _square_plane(f, _USED, obs["potion_used"])
    _square_plane(f, _REWARD, obs["reward"]["square"])
    pending = obs["pending_move"]
    if pending is not None:
        _square_plane(f, _AT, pending["at"])
        victims = pending["victims"]
        if pending["step"] < len(victims):
            _square_plane(f, _VICTIM, victims[pending["step"]])
        if pending["captures"]:
            f[_PENDING] = fraction(pending["captures"], 12)
        if pending["power"]:  # the document's name of the move's Ambush or Leap
            f[_PENDING + (1 if pending["power"] == Power.AMBUSH.value else 2)] = 1.0
    for k, seat in enumerate((player, 1 - player)):
        _counts(f, _BAGS + TEN * k, obs["shield_bags"][seat])
        _counts(f, _ELIMINATED + TEN * k, obs["eliminated"][seat])
    _counts(f, _POUCH, obs["pouch"])
    if obs["removed_from_game"]["white"]:
        f[_REMOVED] = fraction(obs["removed_from_game"]["white"], 5)
    one_hot(f, _PHASE, PHASES.index(obs["phase"]), len(PHASES))
    if obs["setup_index"]:
        f[_SETUP] = fraction(obs["setup_index"], 23)
    to_move = obs["to_move"]
    if to_move >= 0:
        f[_TO_ACT + (0 if to_move == player else 1)] = 1.0
    elif to_move == -1:
        f[_TO_ACT + 2] = 1.0
    f[_SEAT + player] = 1.0
    if obs["speedy"]:
        f[_SPEEDY] = 1.0
    reward = obs["reward"]
    for i, value in enumerate((fraction(reward["captures"], 12), reward["crowned"], reward["kept_potion"])):
        if value:
            f[_REWARD_INFO + i] = float(value)
    hand: dict[str, int] = {}
    for colour in obs["hand"]:
        hand[colour] = hand.get(colour, 0) + 1
    _counts(f, _HAND, hand)
    for i, value in enumerate(
        (
            fraction(obs["draws_left"], 5),
            float(obs["turn_quiet"]),
            fraction(len(obs["repetition"]), 12),
            fraction(obs["moves_made"], 1000),
        )
    ):
        if value:
            f[_DRAWS_LEFT + i] = value
    return f
