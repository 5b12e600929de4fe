"""The contract every game honours: `Game` (the rules and their options) and `State`.

A game is a state machine in the OpenSpiel manner. `State.current_player()` says who
acts: a player (0, 1, ...), `CHANCE` (dice, shuffles, bag draws) or `TERMINAL`. Each
node lists what may happen next (`legal_actions()` or `chance_outcomes()`), and
`apply_action()` moves to the next node. Games implement the underscored hooks; the
public methods here add what every game shares: legality checks that leave the state
untouched, a cached list of legal actions, and notation lookup.
"""

from __future__ import annotations

import hashlib
import json
import operator
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Self, TypeAlias, TypeVar, final

import chaosgames.core.safejson as safejson
from chaosgames.core.actions import A as A
from chaosgames.core.actions import Action as Action
from chaosgames.core.constants import CHANCE, TERMINAL
from chaosgames.core.errors import (
    ChaosGamesError,
    InvalidStateError,
    UnknownPlayerError,
    describe_exception,
    illegal_action,
    quote,
    shorten,
)
from chaosgames.core.information import Recollection
from chaosgames.core.notation import Notation
from chaosgames.core.options import Option, validate_options
from chaosgames.core.story import LegendSection, Told

if TYPE_CHECKING:
    from chaosgames.core.encoding import Encoding

# `Action` (any game's action) and `A` (one game's action type) are the contract's, named
# here; they live in the leaf chaosgames.core.actions, which core's notation, encoding and
# information name too (naming this module would put them in a circle with it).

S = TypeVar("S", bound="State[Any]")
"""One game's state type."""

JSON: TypeAlias = Any

ENDED_BY_RULES = "rules"
"""`State.ended_by()` of a game the rulebook ended."""
ENDED_BY_CAP = "cap"
"""`State.ended_by()` of a game ended by a length cap, an option that is not a rule."""
ENDINGS = (ENDED_BY_RULES, ENDED_BY_CAP)


class SharedActions(list[A]):
    """A list of actions that a game hands to many states as their legal actions (from
    `_legal_actions` or as `_apply_action`'s hint): a die's faces, a speed's paths. Made
    once (a module's constant) and never changed; `apply_action` finds an action among
    them by identity in one look-up (`members`), however long the list."""

    __slots__ = ("members",)

    def __init__(self, actions: Iterable[A] = ()) -> None:
        super().__init__(actions)
        # The members are kept alive by the list, so their ids stay theirs.
        self.members = frozenset(map(id, self))


def shared_actions(actions: Iterable[A]) -> list[A]:
    """`SharedActions(actions)`: see there."""
    return SharedActions(actions)


class Game(ABC, Generic[S, A]):
    """One game's rules with validated options. Create it with `chaosgames.load_game`."""

    name: ClassVar[str]
    """Registry id, e.g. 'chaos-cruisers'."""
    title: ClassVar[str]
    """The game's name as printed on its rulebook."""
    pitch: ClassVar[str] = ""
    """One line that tells a newcomer what the game is (the web lobby shows it)."""
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int]
    option_spec: ClassVar[tuple[Option, ...]] = ()
    """The options besides `players`."""

    def __init__(self, /, **options: Any) -> None:  # `/`: an option called `self` is refused as unknown
        spec = (self._players_option(), *self.option_spec)
        self.options: dict[str, Any] = validate_options(self.name, spec, options)
        self._check_options(self.options)
        self.num_players: int = self.options["players"]

    @classmethod
    def _players_option(cls) -> Option:
        return Option(
            "players",
            int,
            cls.default_players,
            f"number of players ({cls.min_players}-{cls.max_players})",
            minimum=cls.min_players,
            maximum=cls.max_players,
        )

    @classmethod
    def options_help(cls) -> list[str]:
        """One line per option, for `chaosgames rules` and error messages."""
        return [o.describe() for o in (cls._players_option(), *cls.option_spec)]

    def _check_options(self, options: dict[str, Any]) -> None:
        """Checks across options (raise InvalidOptionError); the default accepts all."""

    @abstractmethod
    def new_initial_state(self) -> S:
        """The game before any setup randomness."""

    @abstractmethod
    def _state_from_doc(self, doc: dict[str, Any]) -> S:
        """Rebuild a state from a `to_json()` document; raise InvalidStateError."""

    def state_from_json(self, doc: JSON) -> S:
        """A state from `State.to_json()` output (a dict, or its JSON text or bytes).

        Anything else raises InvalidStateError: text that is not JSON (or too large, too
        deep, with NaN or over-long numbers, not UTF-8), values JSON could not hold,
        documents of another game or options, and positions the rules cannot reach.
        """
        what = "state document"
        if isinstance(doc, str | bytes | bytearray):
            doc = safejson.loads(doc, what=what, error=InvalidStateError)
        else:
            safejson.check(doc, what=what, error=InvalidStateError)
        if not isinstance(doc, dict):
            raise InvalidStateError("A state document must be a JSON object.")
        if doc.get("game") != self.name:
            raise InvalidStateError(
                f"This document is a state of {quote(doc.get('game'))}, not of {self.name}."
            )
        if doc.get("options") != self.options:
            raise InvalidStateError(
                "This document was made with other game options; load the game with "
                f"{shorten(json.dumps(doc.get('options')), 200)} to read it."
            )
        try:
            return self._state_from_doc(doc)
        except InvalidStateError:
            raise
        except ChaosGamesError as exc:
            raise InvalidStateError(f"The state document is malformed: {exc}") from None
        except Exception as exc:  # the promise: a bad document is an InvalidStateError, never a crash
            raise InvalidStateError(f"The state document is malformed ({describe_exception(exc)}).") from None

    notation: ClassVar[Notation] = Notation()
    """The game's notation grammar (see chaosgames.core.notation); the default accepts any
    text and looks it up among the legal actions."""

    def parse_action(self, state: S, text: str) -> A:
        """The legal action of `state` whose notation is `text`.

        Unparsable text raises NotationError (saying what notation looks like); a
        well-formed action that is not legal here raises IllegalActionError (naming the
        legal ones). `str(action)` parses back to `action` for every legal action.
        """
        action: A = self.notation.parse(state, text)
        return action

    # -- presentation and evaluation hooks (the CLI, agents and the lab use these) --------

    def player_names(self) -> list[str]:
        """How players are called at the table (cruiser colours, suits ...)."""
        return [f"player {i + 1}" for i in range(self.num_players)]

    def render_text(self, state: S, viewer: int | None = None, *, reveal: bool = False) -> str:
        """The position as text for a terminal; by default `str(state)`.

        `viewer` is a seat number, or None for a spectator: games with hidden information
        show only what that viewer may see (what `observation(viewer)` holds). `reveal`
        shows everything (the replay of a record, `chaosgames show`, debugging).
        """
        return str(state)

    def render_svg(
        self, state: S, viewer: int | None = None, *, reveal: bool = False, legend: bool = True
    ) -> str:
        """The position as an SVG document (a pure function of the state and the viewer).

        `viewer` and `reveal` as for `render_text`. Elements that a player may click to
        choose an action carry a `data-place` attribute (see `action_places`); pieces,
        places and titles follow the conventions of `chaosgames.core.story`. `legend=False`
        leaves the key to the picture out: the web page draws `legend()` beside the board.
        """
        raise ChaosGamesError(f"{self.title} has no picture yet.")

    def action_places(self, state: S, action: A) -> tuple[str, ...]:
        """The places on `render_svg`'s picture that select `action`, in the order a player
        clicks them: checkers `("11", "15")` (the piece, then its square), a Royal Racers
        card `("b5",)`. Each place is the `data-place` attribute of elements of the picture.
        Several actions may share their places (a player then picks one from a short list);
        `()` for an action that is chosen from the list only. By default, none has a place.
        """
        return ()

    def action_seen(self, state: S, action: A, viewer: int | None = None) -> tuple[str, str]:
        """`(notation, description)` of `action`, about to be applied to `state`, as `viewer`
        (a seat, or None for a spectator) may keep it in a move log for the rest of the game.

        By default the notation and `describe_action`. Games with hidden information leave
        out what the viewer may not keep seeing (in Royal Racers, the card a deal lays,
        which may later be turned face down).
        """
        return str(action), self.describe_action(state, action)

    # -- the story of the game (chaosgames.core.story: the web's narration and marks) -------

    def tell(self, before: S, action: A, after: S, viewer: int | None = None) -> Told:
        """How `action`, which took `before` to `after`, reads to `viewer` (a seat, or None
        for a spectator): its notation and sentence for the move log, its sentence while it
        belongs to the latest turn, and the places of the picture it changed.

        By default: `action_seen` for the log, the same sentence for the latest turn, and
        `changed_places`. Games say more (a chance outcome's effect, why a car crashed).
        """
        notation, kept = self.action_seen(before, action, viewer)
        return Told(notation, kept, kept, self.changed_places(before, action, after))

    def starts_turn(self, state: S, action: A) -> bool | None:
        """Whether `action`, about to be applied to `state`, starts a turn of the story (the
        move log's groups, the latest turn the web page marks and tells). None, the default:
        a decision of another seat than the last decision's starts one, chance outcomes and
        the same seat's next decisions join the turn. Royal Racers starts each turn with
        the roll for the player it is rolled for."""
        return None

    def changed_places(self, before: S, action: A, after: S) -> tuple[str, ...]:
        """The places of the picture (`data-place` ids) that `action` changed; by default
        the places that select it (`action_places`)."""
        return tuple(self.action_places(before, action))

    def legend(self, state: S, viewer: int | None = None) -> tuple[LegendSection, ...]:
        """The key to the picture of `state` as `viewer` sees it (colours, symbols, the
        race's progress), as data the web page draws beside the board; by default none."""
        return ()

    def action_group(self, state: S, action: A) -> tuple[int, str]:
        """Where `action` goes in a person's list of choices: `(order, heading)`, groups
        shown by `order` ("Moves" before "Potions"), the legal order kept inside a group.
        By default one group without a heading."""
        return (0, "")

    def rules_section(self, state: S, action: A) -> str | None:
        """The anchor (`chaosgames.core.story.slug` of a heading of the game's rules summary)
        of the rule `action` follows, for a "rules" link beside it; None: the summary's top."""
        return None

    def hides_information(self) -> bool:
        """Whether a player may not see parts of the state (face-down cards ...).

        The terminal refuses `undo` in such games: taking a move back after it revealed
        something would let a person peek.
        """
        return False

    def uses_chance(self) -> bool:
        """Whether chance nodes (dice, shuffles, draws) can occur under these options. The
        default: yes. A game that says no never has one (tests/rl check every game), and
        research tools may then call it deterministic (plain checkers)."""
        return True

    def recollection(self, seat: int) -> Recollection[S, A]:
        """A new recollection of what `seat` sees and remembers of a game from its start
        (`chaosgames.core.information`): the information state agents and research tools
        decide from. The default suits a game that hides nothing."""
        return Recollection(self, seat)

    def describe_action(self, state: S, action: A) -> str:
        """A short sentence for a player choosing among actions; by default the notation."""
        return str(action)

    search_advice: ClassVar[Mapping[str, Any]] = {}
    """Search settings this game is measured to play best with, by MCTS parameter name
    (e.g. `{"rollout": "greedy", "depth": 12}` where short greedy playouts see what the
    dice bring better than the heuristic alone). MCTS takes them for the parameters its
    user left unset; see docs/agents.md."""

    def steps_left(self, state: S) -> float | None:
        """How near the game is to its end: the fewest steps any player still needs to end
        it, as the game's heuristic counts them, or None where the game keeps no such count
        (the default) or the position has none (a setup phase). The rollout player plays
        its playouts to the end from `finish` steps on (see docs/agents.md)."""
        return None

    def same_position(self, state: S, legal: Sequence[A]) -> list[int]:
        """For each of `legal` (the state's legal actions, in order), the index of the first
        of them that leads to the same position, what the record writes down aside: search
        may play such actions out once. The default: every action its own (a game need not
        know). Royal Racers: every wrong guess sends the pawn back the same way."""
        return list(range(len(legal)))

    def heuristic(self, state: S) -> list[float]:
        """Estimated share of the win for each player, each in [0, 1], summing to 1 (a game
        may weigh in each player's own progress as well, so that they need not sum to 1:
        Chaos Cruisers does, see its evaluation module).

        Search agents score cut-off playouts with it. The default knows only the result.
        """
        if state.is_terminal():
            return list(state.returns())
        return [1.0 / self.num_players] * self.num_players

    def encoding(self) -> Encoding:
        """Fixed action indices and observation vectors for research tools (`chaosgames.rl`).

        See `chaosgames.core.encoding`; games without one refuse research tools.
        """
        raise ChaosGamesError(f"{self.title} has no encoding for research tools yet.")

    def doc_header(self) -> dict[str, Any]:
        """The part of every state document that names the game and its options."""
        return {"game": self.name, "options": self.options}

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} {json.dumps(self.options)}>"


class State(ABC, Generic[A]):
    """A position of a game, mutated by `apply_action`. See the module docstring.

    A game implements the abstract methods and may replace the defaults named in `HOOKS`;
    every other public method is the contract's own (`@final`, and tests/test_overrides.py
    walks the game packages for overrides): a game's speed goes through `_apply_action`'s
    hint of the next legal actions and the identity fast path of `apply_action`.
    """

    HOOKS: ClassVar[frozenset[str]] = frozenset({"chance_outcomes", "round_number", "ended_by"})
    """Public methods with a default that a game may replace (besides the abstract ones)."""

    __slots__ = ("_index", "_legal", "game")

    game: Game[Any, Any]

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game
        self._legal: list[A] | None = None
        self._index: tuple[list[A], dict[str, A]] | None = None
        """The notation index (see `_notation_index`) and the list of legal actions it
        was made from: good while that list is the cache (no reset at every action)."""

    # -- hooks a game implements -------------------------------------------------------

    @abstractmethod
    def current_player(self) -> int:
        """The deciding player, or CHANCE, or TERMINAL."""

    @abstractmethod
    def _legal_actions(self) -> list[A]:
        """Legal actions of the deciding player, in a stable documented order."""

    def chance_outcomes(self) -> list[tuple[A, float]]:
        """At a chance node: (outcome, probability) pairs summing to 1; else []."""
        return []

    @abstractmethod
    def _apply_action(self, action: A) -> list[A] | None:
        """Apply an action already known to be legal (one of the listed objects itself).

        Return None, or the next position's legal actions when the rules know them
        already (a roll's six faces, the choices they had to work out anyway): the base
        class keeps them as its cache, so they are not generated again. The list may be
        shared between states (a module's constant): it is never changed in place. The
        cache is empty when this hook starts; whatever it asks of the new position
        (`_cached_legal`) is kept too."""

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy. Implementations call `_copy_caches_to(new)`."""

    @abstractmethod
    def returns(self) -> list[float]:
        """One value per player: win 1, loss 0, shared outcomes split; 0s before the end."""

    @abstractmethod
    def _observation(self, player: int | None) -> dict[str, Any]:
        """JSON-able view of what `player` may see (None: a spectator); `player` checked."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The full state as a JSON-able dict, starting with `game.doc_header()`."""

    # -- what every game shares --------------------------------------------------------

    @final
    def observation(self, player: int | None) -> dict[str, Any]:
        """JSON-able view of what `player` may see (None: a spectator); UnknownPlayerError
        for anything else than None or a player of the game (0 .. players - 1; a whole
        number of another type, such as numpy's, is taken as the int it is)."""
        if player is None:
            return self._observation(None)
        players = self.game.num_players
        try:
            seat = operator.index(player) if not isinstance(player, bool) else -1
        except TypeError:
            seat = -1
        if not 0 <= seat < players:
            raise UnknownPlayerError(
                f"{quote(player)} is not a player of this game: a viewer is None (a spectator) "
                f"or a player number 0-{players - 1}."
            )
        return self._observation(seat)

    @final
    def is_terminal(self) -> bool:
        # Someone may act where legal actions are known (a search's common case, after
        # a hint): no need to ask who.
        if self._legal:
            return False
        return self.current_player() == TERMINAL

    @final
    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    @final
    def legal_actions(self) -> list[A]:
        """What may happen next: the deciding player's choices, or the chance outcomes.

        A fresh list each call (the caller may change it); the cache stays untouched.
        """
        # The cache looked at here, not through _cached_legal: one call less per action.
        # `copy()`, not `[:]`: a slice of a list subclass (SharedActions) makes a slice
        # object and goes the long way round.
        legal = self._legal
        if legal is None:
            legal = self._cached_legal()
        return legal.copy()

    @final
    def apply_action(self, action: A) -> None:
        """Play `action`; anything but one of `legal_actions()` raises IllegalActionError
        and changes nothing.

        The action must be one of the legal actions itself: a value that merely compares
        equal to one (a plain tuple equal to a NamedTuple action, `True` for `1`) is refused.
        So is an action of the right type whose fields only compare equal (`0.0` for `0`):
        its text (`repr`) must be the legal action's. What is played is the legal action
        itself, never the caller's object.
        """
        # The check is a look-up in the list legal_actions() built (cached until the next
        # action): a playout that asked for the legal actions pays no second generation.
        legal = self._legal
        if legal is None:
            legal = self._cached_legal()
        # The fast path: games hand out the same action objects every time (interned), so
        # the action played is nearly always one of the listed objects itself, found by
        # identity (comparing actions field by field costs more): at once in a list of
        # shared_actions, else by a scan. Anything else, an equal copy included, takes
        # the full check.
        if type(legal) is SharedActions:
            if id(action) not in legal.members:
                action = self._checked(action, legal)
        else:
            for listed in legal:
                if listed is action:
                    break
            else:
                action = self._checked(action, legal)
        self._legal = None
        hint = self._apply_action(action)
        if hint is not None:
            self._legal = hint

    @final
    def apply_unchecked(self, action: A) -> None:
        """Play `action` without checking that it is legal: the fast path for trusted
        callers (search, simulation) that take actions from this state's own
        `legal_actions()` or `chance_outcomes()`.

        Anything else is undefined behaviour: the state may be corrupted silently. Use
        `apply_action` for actions from people, files or other programs.
        """
        self._legal = None
        hint = self._apply_action(action)
        if hint is not None:
            self._legal = hint

    @staticmethod
    def _checked(action: A, legal: list[A]) -> A:
        """The legal action equal to `action` (its type and its text the same), or
        IllegalActionError."""
        try:
            found = legal[legal.index(action)]
        except Exception:  # not there (ValueError), or an action whose == fails
            raise illegal_action(action, legal) from None
        if type(found) is not type(action) or repr(found) != repr(action):
            raise illegal_action(action, legal)
        return found

    def _cached_legal(self) -> list[A]:
        """The legal actions, made once per position and kept in `_legal` until the next
        action. The list is never changed in place, only replaced (so clones share it, and
        `_apply_action` may hand over a list shared between states)."""
        legal = self._legal
        if legal is None:
            player = self.current_player()
            if player == TERMINAL:
                legal = []
            elif player == CHANCE:
                legal = [a for a, _ in self.chance_outcomes()]
            else:
                legal = self._legal_actions()
            self._legal = legal
        return legal

    def _invalidate(self) -> None:
        """Forget cached legal actions (for code that edits a state's fields directly)."""
        self._legal = None
        self._index = None

    def _copy_caches_to(self, other: State[A]) -> None:
        # The cached list is never mutated, only replaced, so a clone may share it.
        other._legal = self._legal
        other._index = self._index

    def _notation_index(self) -> dict[str, A]:
        """The legal actions by notation (see Notation.index), kept with the list of legal
        actions they were made from."""
        legal = self._cached_legal()
        index = self._index
        if index is None or index[0] is not legal:
            index = self._index = (legal, self.game.notation.index(legal))
        return index[1]

    @final
    def key(self) -> bytes:
        """A compact hashable key of the whole position, for tabular methods: the 16-byte
        BLAKE2b digest of its state document (`to_json`), so positions with equal documents
        share it and others differ (a collision is as unlikely as one of two random 128-bit
        numbers). Hidden information is in it: a learner that must not read it keys on
        its seat's information state instead (`Recollection.key`)."""
        text = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))
        return hashlib.blake2b(text.encode(), digest_size=16).digest()

    def round_number(self) -> int:
        """The current round, counted from 1 (0 during setup), for statistics."""
        return 0

    def ended_by(self) -> str | None:
        """Why the game is over: None while it goes on, then "rules" for an end the
        rulebook gives, or "cap" when a game option that caps its length (not a rule:
        `max_rounds`, `max_moves`, `max_turns`) decided it. Games with a cap override
        this; their observations carry it once the game is over."""
        return ENDED_BY_RULES if self.is_terminal() else None

    def __str__(self) -> str:
        return json.dumps(self.observation(None))
