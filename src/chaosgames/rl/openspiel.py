"""Our games as OpenSpiel games: `register()`, then `pyspiel.load_game("chaosgames_royal_racers")`.

Each game registers under `chaosgames_<name>` (dashes become underscores). Its OpenSpiel
parameters are the game's options with their defaults, `players` among them, plus
`max_game_length`: `pyspiel.load_game("chaosgames_chaos_checkers(chaos=false)")`,
`pyspiel.load_game("chaosgames_chaos_cruisers", {"players": 3, "max_rounds": 30})`.
Structured options (a course document, a board list) are passed as JSON text. OpenSpiel
game strings separate parameters with commas, so inside a text parameter a comma is
written as a semicolon: `chaosgames_chaos_checkers(first_colours=green;blue;red)`,
`boards=[3;0;5;1;8;2]`.

- Game type, per loaded game (`game.get_type()`): sequential; explicit chance (every die
  roll, shuffle and bag draw is a chance node; outcome i is the i-th entry of the game's
  `chance_outcomes()`), or deterministic where the game's options allow no chance node
  (plain checkers: `Game.uses_chance()`); perfect information unless the game hides
  something from a player (Royal Racers' face-down ranks: imperfect information); with
  two players zero-sum, returns 2 x share - 1 (win 1, loss -1, shared 0), with more
  constant-sum shares in [0, 1] summing to 1; rewards only at the end, 2-4 players as the
  game allows. The registered type is that of the default options.
- Actions are the game's fixed action indices (`Game.encoding()`, docs/research.md). An
  index that is not legal raises `IllegalActionError` and changes nothing: at a chance
  node, one outside the node's outcomes (`ActionIndexRangeError`, also a ValueError); at a
  decision, one outside the action space likewise, or one the player may not take now.
- `max_game_length` (default 3000) bounds the player decisions OpenSpiel may see, as its
  API requires. OpenSpiel has no truncation: a game still running after that many
  decisions is terminal with equal shares (0 each with two players), and
  `state.is_truncated()` says it was cut short, not played out (never count it as a
  draw). The games' own caps (`max_rounds`, `max_moves`, `max_turns`) end a game by
  their rules instead; set one when a game should finish sooner.
- Observations (string and tensor) come from `state.observation(player)` only: the
  string is that document as JSON, the tensor the game's observation vector.
- Information states: perfect-information games give the action history as string and
  the observation vector as tensor. A game that hides information (Royal Racers without
  the memory aid) gives what the player has seen and remembers
  (`chaosgames.core.information`): the parameter `memory` (default -1: every card it saw
  go face down, as a careful player, so the information state is the whole position;
  k: the k it saw last) chooses how much; the string is the recollection's document as
  JSON, the tensor its vector (the observation's, with the remembered cards' ranks and
  suits). `resample_from_infostate(player, sampler)` returns a state with the same
  information state for that player, the rest drawn with the sampler (its history is
  the original's). `undo_action` takes the last action back.
- A parameter the adapter does not take (`max_game_length` below 1, observer
  parameters, a perfect-recall observer of a game that hides information) raises
  `chaosgames.rl.settings.SettingError` (also a ValueError) or `SettingTypeError` (also
  a TypeError), both `InvalidOptionError`s; a bad game option raises the game's
  `InvalidOptionError`.
"""

from __future__ import annotations

import base64
import json
import pickle
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from chaosgames.core import (
    CHANCE,
    TERMINAL,
    Action,
    Game,
    IllegalActionError,
    State,
    game_class,
    list_games,
    load_game,
)
from chaosgames.core.encoding import ActionIndexRangeError, Encoding, as_index
from chaosgames.core.errors import quote
from chaosgames.core.information import ALL, Recollection
from chaosgames.core.options import Option
from chaosgames.rl.settings import SettingError, whole_number

PREFIX = "chaosgames_"
DEFAULT_MAX_GAME_LENGTH = 3000


def spiel_name(game: str) -> str:
    """'chaos-checkers' -> 'chaosgames_chaos_checkers'."""
    return PREFIX + game.replace("-", "_")


def register() -> list[str]:
    """Register every game with OpenSpiel (once); returns their OpenSpiel names."""
    known = set(pyspiel.registered_names())
    names = []
    for game in list_games():
        name = spiel_name(game)
        if name not in known:
            # OpenSpiel keeps the class it is given until the process ends. A class (unlike
            # a closure) is not freed when the interpreter shuts down before that registry.
            game_type = _game_type(game)
            spiel_class = type(
                f"{game_class(game).__name__}Spiel",
                (ChaosGamesSpielGame,),
                {"chaos_name": game, "game_type": game_type},
            )
            pyspiel.register_game(game_type, spiel_class)
        names.append(name)
    return names


def _parameter(option: Option, value: Any) -> Any:
    """An option's value as an OpenSpiel parameter: bool, int, float or text (commas as ';')."""
    if option.kind in (bool, int, float):
        return value
    text = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
    return text.replace(",", ";")


def _option_value(option: Option, value: Any) -> Any:
    """An OpenSpiel parameter back as the option's value (the game checks and coerces it)."""
    if option.kind in (bool, int, float) or not isinstance(value, str):
        return value
    return value.replace(";", ",")


def _game_type(game: str) -> pyspiel.GameType:
    cls = game_class(game)
    params = {"players": cls.default_players, **{o.name: _parameter(o, o.default) for o in cls.option_spec}}
    params["max_game_length"] = DEFAULT_MAX_GAME_LENGTH
    default = cls()
    if default.hides_information():
        params["memory"] = ALL
    return _type_of(default, params)


def _type_of(game: Game[Any, Any], params: dict[str, Any]) -> pyspiel.GameType:
    """The OpenSpiel type of a loaded game: its chance, information and utility as they are."""
    cls = type(game)
    information = pyspiel.GameType.Information
    chance = pyspiel.GameType.ChanceMode
    return pyspiel.GameType(
        short_name=spiel_name(cls.name),
        long_name=f"chaosgames {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance.EXPLICIT_STOCHASTIC if game.uses_chance() else chance.DETERMINISTIC,
        information=information.IMPERFECT_INFORMATION
        if game.hides_information()
        else information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM
        if _zero_sum(game)
        else pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


def _zero_sum(game: Game[Any, Any]) -> bool:
    """Two players: returns 2 x share - 1 (win 1, loss -1, shared 0), what minimax expects."""
    return game.num_players == 2


def spiel_returns(game: Game[Any, Any], shares: list[float]) -> list[float]:
    """A game's `returns()` (shares summing to 1) as OpenSpiel returns of its type."""
    if _zero_sum(game):
        return [2.0 * share - 1.0 for share in shares]
    return [float(share) for share in shares]


class PlayerAction(NamedTuple):
    """An entry of `full_history()`, as OpenSpiel's own (which Python cannot construct)."""

    player: int
    action: int


@dataclass(frozen=True)
class _Setup:
    """What every state of one loaded OpenSpiel game shares."""

    game: Game[Any, Any]
    encoding: Encoding
    max_length: int
    memory: int = ALL
    """What each player remembers in a game that hides information (`chaosgames.core.information`)."""

    @property
    def hides(self) -> bool:
        return self.game.hides_information()


class ChaosGamesSpielGame(pyspiel.Game):
    """A chaosgames game with its options, as an OpenSpiel game (one subclass per game)."""

    chaos_name: str
    game_type: pyspiel.GameType

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        game, game_type = self.chaos_name, self.game_type
        params = dict(params or {})
        given = dict(params)
        max_length = whole_number(
            "max_game_length",
            given.pop("max_game_length", DEFAULT_MAX_GAME_LENGTH),
            1,
            accepted="a positive number of decisions",
        )
        memory = whole_number(
            "memory", given.pop("memory", ALL), ALL, accepted="-1 (every card seen) or a count of at least 0"
        )
        spec = {o.name: o for o in game_class(game).option_spec}
        options = {k: _option_value(spec[k], v) if k in spec else v for k, v in given.items()}
        loaded = load_game(game, **options)
        encoding = loaded.encoding()
        zero_sum = _zero_sum(loaded)
        info = pyspiel.GameInfo(
            num_distinct_actions=encoding.num_actions,
            max_chance_outcomes=encoding.max_chance_outcomes if loaded.uses_chance() else 0,
            num_players=loaded.num_players,
            min_utility=-1.0 if zero_sum else 0.0,
            max_utility=1.0,
            utility_sum=0.0 if zero_sum else 1.0,
            max_game_length=max_length,
        )
        # Only the parameters that differ from their defaults name the game (its string).
        defaults = game_type.parameter_specification
        named = {k: v for k, v in params.items() if k not in defaults or defaults[k] != v}
        super().__init__(_type_of(loaded, dict(defaults)), info, named)
        self.setup = _Setup(loaded, encoding, max_length, memory)

    def new_initial_state(self) -> ChaosGamesSpielState:
        return ChaosGamesSpielState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Mapping[str, Any] | None = None
    ) -> Any:
        if iig_obs_type is None or not iig_obs_type.perfect_recall:
            return _Observer(self.setup, params)
        if not self.setup.hides:
            return _PublicHistoryObserver(self.setup, iig_obs_type, params)
        return _InformationObserver(self.setup, params)


class _Inner:
    """The chaosgames state inside an OpenSpiel state, with its legal actions by index.

    OpenSpiel clones a Python state by deep-copying its attributes and serialises it by
    pickling them; this object makes the first a cheap `State.clone()` and the second
    the state document, so neither copies the game.
    """

    __slots__ = ("_legal", "_state", "recollections", "setup")

    def __init__(
        self,
        setup: _Setup,
        state: State[Any] | None = None,
        recollections: list[Recollection[Any, Any]] | None = None,
    ) -> None:
        self.setup = setup
        self._state = state
        self._legal: dict[int, Action] | None = None
        if recollections is None and setup.hides:
            recollections = [setup.game.recollection(seat) for seat in range(setup.game.num_players)]
        self.recollections = recollections or []
        """What each player saw and remembers (games that hide information only)."""

    @property
    def state(self) -> State[Any]:
        if self._state is None:
            self._state = self.setup.game.new_initial_state()
        return self._state

    def legal(self) -> dict[int, Action]:
        if self._legal is None:
            self._legal = self.setup.encoding.legal_indices(self.state)
        return self._legal

    def apply(self, action: Action) -> None:
        state = self.state
        # Every action comes from the legal list (`pick`, `_chance_outcome`): hearing it
        # first cannot note an action that is then refused.
        for recollection in self.recollections:
            recollection.hear(state, action)
        state.apply_action(action)
        self._legal = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Inner:
        copy = _Inner(self.setup, self.state.clone(), [r.copy() for r in self.recollections])
        copy._legal = self._legal  # replaced, never changed in place
        return copy

    def __reduce__(self) -> tuple[Any, ...]:
        setup = self.setup
        game = setup.game
        memories = [r.to_json() for r in self.recollections]
        return (
            _restore,
            (game.name, game.options, setup.max_length, self.state.to_json(), setup.memory, memories),
        )


def _restore(
    name: str,
    options: dict[str, Any],
    max_length: int,
    doc: dict[str, Any],
    memory: int = ALL,
    memories: list[Any] | None = None,
) -> _Inner:
    game = load_game(name, **options)
    setup = _Setup(game, game.encoding(), max_length, memory)
    recollections = None
    if memories:
        recollections = [
            type(game.recollection(seat)).from_json(game, seat, kept) for seat, kept in enumerate(memories)
        ]
    return _Inner(setup, game.state_from_json(doc), recollections)


class ChaosGamesSpielState(pyspiel.State):
    """An OpenSpiel state wrapping a chaosgames state (see the module docstring)."""

    def __init__(self, game: ChaosGamesSpielGame) -> None:
        super().__init__(game)
        self._inner = _Inner(game.setup)
        self._decisions = 0
        self._capped = False
        self._played: list[tuple[int, int]] = []
        """(player, action) of every action applied, chance's as player -1 (see undo_action)."""

    @property
    def chaos_state(self) -> State[Any]:
        """The chaosgames state (read it; change it only through OpenSpiel actions)."""
        return self._inner.state

    def current_player(self) -> int:
        if self._capped:
            return int(pyspiel.PlayerId.TERMINAL)
        player = self._inner.state.current_player()
        if player == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        if player == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        return player

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._inner.legal())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(i, p) for i, (_, p) in enumerate(self._inner.state.chance_outcomes())]

    def _apply_action(self, action: int) -> None:
        # OpenSpiel checks neither legality nor range: a negative chance outcome would wrap.
        state = self._inner.state
        if state.current_player() == CHANCE:
            self._inner.apply(_chance_outcome(state, action))
            self._played.append((int(pyspiel.PlayerId.CHANCE), int(action)))
            return
        player = state.current_player()
        self._inner.apply(self._inner.setup.encoding.pick(self._inner.legal(), action))
        self._played.append((player, int(action)))
        self._decisions += 1
        if self._decisions >= self._inner.setup.max_length and not state.is_terminal():
            self._capped = True

    def _action_to_string(self, player: int, action: int) -> str:
        state = self._inner.state
        if player == pyspiel.PlayerId.CHANCE:
            outcomes = state.chance_outcomes()
            return str(outcomes[action][0]) if 0 <= action < len(outcomes) else f"chance outcome {action}"
        legal = self._inner.legal() if state.current_player() == player else {}
        if action in legal:
            return str(legal[action])
        return self._inner.setup.encoding.slot_name(action)

    def is_terminal(self) -> bool:
        return self._capped or self._inner.state.is_terminal()

    def is_truncated(self) -> bool:
        """Whether `max_game_length` ended the game before its rules did (not a draw)."""
        return self._capped

    def returns(self) -> list[float]:
        game = self._inner.setup.game
        n = game.num_players
        if self._capped:
            return spiel_returns(game, [1.0 / n] * n)
        state = self._inner.state
        return spiel_returns(game, state.returns()) if state.is_terminal() else [0.0] * n

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> ChaosGamesSpielState:
        """A state `player_id` cannot tell from this one (the same information state), what
        it does not know drawn with `probability_sampler` (OpenSpiel's, or any callable
        giving floats in [0, 1)); its history is this state's."""
        inner = self._inner
        copy: ChaosGamesSpielState = self.clone()
        if not inner.setup.hides:
            return copy
        rng = random.Random(int(float(probability_sampler()) * 2**53))
        world = inner.recollections[player_id].sample(inner.state, rng, inner.setup.memory)
        copy._inner = _Inner(inner.setup, world, [r.copy() for r in inner.recollections])
        return copy

    def undo_action(self, player: int, action: int) -> None:
        """Take back the last action (`player` played `action`): the game is replayed from
        the start without it. OpenSpiel's C++ side cannot be rewound from Python, so the
        history is kept here too: `history()`, `full_history()`, `history_str()`,
        `move_number()`, `clone()` and `serialize()` follow the undo; a C++ algorithm that
        reads the history itself would not."""
        kept = self._played
        if not kept or kept[-1] != (player, action):
            last = f"{kept[-1][1]} by player {kept[-1][0]}" if kept else "none"
            raise IllegalActionError(f"Only the last action can be undone; it was {last}.")
        setup = self._inner.setup
        self._inner = _Inner(setup)
        self._decisions = 0
        self._capped = False
        self._played = []
        for _, earlier in kept[:-1]:
            self._apply_action(earlier)

    def history(self) -> list[int]:
        return [action for _, action in self._played]

    def full_history(self) -> list[PlayerAction]:
        return [PlayerAction(player, action) for player, action in self._played]

    def history_str(self) -> str:
        return ", ".join(str(action) for _, action in self._played)

    def move_number(self) -> int:
        return sum(1 for player, _ in self._played if player >= 0)

    def serialize(self) -> str:
        played = ",".join(f"{player}:{action}" for player, action in self._played)
        attributes = base64.b64encode(pickle.dumps(self.__dict__)).decode("ascii")
        return f"history={played}\nmove_number={self.move_number()}\n__dict__={attributes}"

    def __str__(self) -> str:
        return str(self._inner.state)


def _chance_outcome(state: State[Any], action: int) -> Action:
    """Outcome number `action` of the chance node; ActionIndexRangeError for one it does not have."""
    outcomes = state.chance_outcomes()
    index = as_index(action)
    if not 0 <= index < len(outcomes):
        raise ActionIndexRangeError(
            f"Chance outcome {quote(index)} does not exist: this chance node has outcomes "
            f"0 to {len(outcomes) - 1}."
        )
    outcome: Action = outcomes[index][0]
    return outcome


class _PublicHistoryObserver(IIGObserverForPublicInfoGame):
    """A perfect-information game's information state: the history as string (OpenSpiel's
    own), the observation vector as tensor."""

    def __init__(self, setup: _Setup, iig_obs_type: Any, params: Mapping[str, Any] | None) -> None:
        super().__init__(iig_obs_type, params)
        self._vector = _Observer(setup, params)
        self.tensor = self._vector.tensor
        self.dict = self._vector.dict

    def set_from(self, state: ChaosGamesSpielState, player: int) -> None:
        self._vector.set_from(state, player)


class _InformationObserver:
    """A hidden-information game's information state: what the player has seen and
    remembers (its recollection's document), as JSON and as the observation vector."""

    def __init__(self, setup: _Setup, params: Mapping[str, Any] | None) -> None:
        if params:
            raise SettingError(f"Observation parameters are not supported; got {quote(dict(params))}.")
        self.setup = setup
        self.tensor = np.zeros(setup.encoding.observation_size, np.float32)
        self.dict = {"observation": self.tensor.reshape(setup.encoding.observation_shape)}

    def _document(self, state: ChaosGamesSpielState, player: int) -> dict[str, Any]:
        inner = state._inner
        return inner.recollections[player].document(inner.state, self.setup.memory)

    def set_from(self, state: ChaosGamesSpielState, player: int) -> None:
        self.tensor.fill(0.0)
        features = self.setup.encoding.observation_features(self._document(state, player), player)
        if features:
            self.tensor[list(features)] = list(features.values())

    def string_from(self, state: ChaosGamesSpielState, player: int) -> str:
        return json.dumps(self._document(state, player), sort_keys=True, separators=(",", ":"))


class _Observer:
    """OpenSpiel's PyObserver interface over `state.observation(player)`."""

    def __init__(self, setup: _Setup, params: Mapping[str, Any] | None) -> None:
        if params:
            raise SettingError(f"Observation parameters are not supported; got {quote(dict(params))}.")
        self.encoding = setup.encoding
        self.tensor = np.zeros(setup.encoding.observation_size, np.float32)
        self.dict = {"observation": self.tensor.reshape(setup.encoding.observation_shape)}

    def set_from(self, state: ChaosGamesSpielState, player: int) -> None:
        self.tensor.fill(0.0)
        features = self.encoding.observation_features(state.chaos_state.observation(player), player)
        if features:
            self.tensor[list(features)] = list(features.values())

    def string_from(self, state: ChaosGamesSpielState, player: int) -> str:
        return json.dumps(state.chaos_state.observation(player), sort_keys=True, separators=(",", ":"))
