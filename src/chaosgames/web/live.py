"""A game being played on the server: its state in memory, rebuilt from the stored actions.

The database is the truth; a `LiveGame` is its replay. Every change is worked out on a
copy of the state (`LiveGame.advance`): the action, then the chance outcomes that follow
it (dice, shuffles, draws), until a player decides or the game ends. Only once the store
has committed those actions does `accept` make them the game's own, so a failed or
refused commit leaves the game exactly as it was.

Chance outcomes are drawn from the game's secret (or the seed it was created with) and the
sequence number of the outcome (see `dice`), so a game resumes the same way whatever
happened to the server between two actions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from chaosgames.core.chance import sample_outcome
from chaosgames.core.constants import CHANCE
from chaosgames.core.errors import ChaosGamesError, RecordError
from chaosgames.core.game import Action, Game, State
from chaosgames.core.records import GameRecord
from chaosgames.core.registry import load_game
from chaosgames.core.story import Told
from chaosgames.web.dice import chance_rng
from chaosgames.web.stored import FINISHED, RUNNING, StoredGame, TableEvents

HUMAN = "human"
CHANCE_LIMIT = 10_000
"""Chance outcomes in a row after which the server stops (no game comes near it)."""


@dataclass(frozen=True)
class Step:
    """One action about to be committed, with how each viewer reads it (`Game.tell`)."""

    notation: str
    actor: int
    turn: int
    """The turn it belongs to, counted from 1 (0: the setup's chance outcomes before any
    decision). A decision of another seat than the last decision's starts a turn; the
    chance outcomes after a decision, and the same seat's next decisions, join it."""
    told: tuple[Told, ...]
    """How the spectator, then each seat, reads it; one entry when all viewers read it alike."""

    def told_to(self, viewer: int | None) -> Told:
        if len(self.told) == 1:
            return self.told[0]
        return self.told[0 if viewer is None else viewer + 1]


@dataclass(frozen=True)
class Thinking:
    """A computer seat deciding: since when (server clock) and its time budget, if any."""

    seat: int
    started: float
    budget: float | None


@dataclass
class LiveGame:
    """A game in play: the stored game, its state, its move log, who is thinking."""

    id: str
    game: Game[Any, Any]
    seats: list[str]
    token_hashes: list[str | None]
    seed: int
    meta: dict[str, Any]
    created: float
    updated: float
    state: State[Any]
    steps: list[Step] = field(default_factory=list)
    thinking: Thinking | None = None
    trouble: str | None = None
    """Why a computer seat could not move (shown to the players), or None."""
    secret: bytes | None = None
    """The key of the game's dice (see `dice`); None for a game created with a seed."""
    skipped: int = 0
    """How much higher the version is than the actions in play: each action taken back
    (see `undo`) raised it by two, one for the action and one for taking it back."""
    rewound: int = 0
    """The version at which actions were last taken back (0: never), so that a viewer who
    saw the game before it is sent the move log anew."""
    table: TableEvents = field(default_factory=TableEvents)
    """The table's rules and events (issue 50): how it ended off the rules, seat changes,
    rematch offers."""
    times: list[float] = field(default_factory=list)
    """When each step was committed (server clock)."""
    table_version: int = 0
    """Raised at every change of `table` (views are rebuilt on it, as on `version`)."""
    table_seen: int = 0
    """The database's count of the game's table changes this server has (see `cluster`)."""
    returns: list[float] | None = None
    """The returns of a game that ended off the rules (a resignation, a claim, time)."""

    @property
    def version(self) -> int:
        """The game's version: raised by every action committed and every action taken back,
        so it only ever grows (the database's `games.version`; the next action is stored with
        the sequence number after it)."""
        return len(self.steps) + self.skipped

    @property
    def length(self) -> int:
        """The actions in play: the move log's length."""
        return len(self.steps)

    @property
    def turn(self) -> int:
        """The turn the latest step belongs to (see `Step.turn`)."""
        return self.steps[-1].turn if self.steps else 0

    def last_decision(self) -> int:
        """The index of the last decision's step; 0 while none was made (the setup)."""
        at = len(self.steps)
        while at > 0:
            at -= 1
            if self.steps[at].actor >= 0:
                return at
        return 0

    def latest_turn(self) -> int:
        """The index of the first step of the latest turn; while that turn has only chance
        outcomes so far (Royal Racers' roll for the player to act), of the turn before it
        too, so that what the last player did is still told."""
        return story_start([(s.turn, s.actor) for s in self.steps])

    def _decider(self) -> int:
        """The seat of the last decision (CHANCE while none was made)."""
        at = self.last_decision()
        return self.steps[at].actor if self.steps and self.steps[at].actor >= 0 else CHANCE

    @property
    def over(self) -> bool:
        """Whether the game is over, by its rules or by the table (`table.ending`)."""
        return self.table.ending is not None or self.state.is_terminal()

    @property
    def status(self) -> str:
        return FINISHED if self.over else RUNNING

    def result(self) -> list[float] | None:
        if self.table.ending is not None:
            return self.returns
        return list(self.state.returns()) if self.state.is_terminal() else None

    def table_changed(self) -> None:
        self.table_version += 1

    def is_computer(self, seat: int) -> bool:
        return self.seats[seat] != HUMAN

    def to_act(self) -> int | None:
        """The seat that decides now, or None at the end (chance never waits)."""
        player = self.state.current_player()
        return player if player >= 0 and self.table.ending is None else None

    def record(self) -> GameRecord:
        """The game's record. The seed (or the secret) is in it only once the game is over: it
        fixes every chance outcome still to come (and the computer seats' draws), so in a
        running game it would show the dice before they are rolled."""
        over = self.over
        record = GameRecord(
            self.game.name,
            dict(self.game.options),
            list(self.seats),
            [s.notation for s in self.steps],
            meta={**(self._dice() if over else {}), "server_game": self.id, **self.meta, **self._table()},
        )
        record.finish(self.state)
        if self.table.ending is not None:
            record.result = self.returns  # the engine's state is not over: the table ended it
        return record

    def _table(self) -> dict[str, Any]:
        """What the table did, for the record (issue 50): its ending and seat changes."""
        out: dict[str, Any] = {}
        ending = self.table.ending
        if ending is not None:
            out["ending"] = {"how": ending.how, "seat": ending.seat, "sentence": ending.sentence}
        if self.table.changes:
            out["seat_changes"] = [
                {"seat": c.seat, "who": c.who, "why": c.why, "version": c.version} for c in self.table.changes
            ]
        return out

    def _dice(self) -> dict[str, Any]:
        return {"seed": self.seed} if self.secret is None else {"secret": self.secret.hex()}

    # -- changes -------------------------------------------------------------------------

    def advance(self, actor: int, action: Action | None) -> tuple[State[Any], list[Step]]:
        """The state after `action` (None: nothing, only pending chance) and the chance
        outcomes that follow it, with the steps to commit; the game itself is unchanged."""
        state = self.state.clone()
        steps: list[Step] = []
        turn = self.turn
        if action is not None:
            steps.append(_applied(self.game, state, actor, action, turn, self._decider()))
            turn = steps[-1].turn
        while state.current_player() == CHANCE:
            if len(steps) >= CHANCE_LIMIT:
                raise ChaosGamesError("The game keeps drawing chance outcomes; the server stopped it.")
            outcome = sample_outcome(
                state.chance_outcomes(), chance_rng(self.seed, self.version + len(steps), self.secret)
            )
            steps.append(_applied(self.game, state, CHANCE, outcome, turn, CHANCE))
        return state, steps

    def accept(self, state: State[Any], steps: list[Step], now: float) -> None:
        """Make committed steps the game's own."""
        self.state = state
        self.steps.extend(steps)
        self.times.extend([now] * len(steps))
        self.updated = now
        self.trouble = None

    def take_back(self, state: State[Any], count: int, now: float) -> None:
        """Make a committed takeback of the last `count` steps the game's own (`state` is the
        position before them): the version still grows, by one for each step taken back."""
        keep = self.length - count
        self.state, self.steps, self.times = state, self.steps[:keep], self.times[:keep]
        self.skipped += 2 * count
        self.rewound = self.version
        self.updated = now
        self.trouble = None

    # -- building ------------------------------------------------------------------------

    @classmethod
    def from_stored(cls, stored: StoredGame) -> LiveGame:
        """The game a stored one describes, replayed action by action (each one checked)."""
        game = load_game(stored.game, **stored.options)
        live = cls(
            id=stored.id,
            game=game,
            seats=list(stored.seats),
            token_hashes=list(stored.token_hashes),
            seed=stored.seed,
            secret=None if stored.secret is None else bytes.fromhex(stored.secret),
            meta=dict(stored.meta),
            created=stored.created,
            updated=stored.updated,
            state=game.new_initial_state(),
            table=stored.table,
            returns=stored.result if stored.table.ending is not None else None,
            table_seen=stored.table_version,
        )
        live.replay(stored.actions, stored.actors)
        live.skipped = stored.version - len(stored.actions)
        live.rewound = stored.version if live.skipped else 0
        live.times = list(stored.times) or [stored.updated] * live.length
        return live

    def replay(self, actions: list[str], actors: list[int] | None = None) -> None:
        """Apply actions given in notation, checking each one (RecordError names the first
        that fails)."""
        self.state, steps = self.followed(actions, actors, in_place=True)
        self.steps.extend(steps)
        self.times.extend([self.updated] * len(steps))

    def followed(
        self, actions: list[str], actors: list[int] | None = None, *, in_place: bool = False
    ) -> tuple[State[Any], list[Step]]:
        """The state after actions given in notation (each one checked) and their steps;
        the game itself is unchanged unless `in_place`."""
        state = self.state if in_place else self.state.clone()
        steps: list[Step] = []
        turn, decider = self.turn, self._decider()
        for number, text in enumerate(actions, start=self.version + 1):
            try:
                action = self.game.parse_action(state, text)
                actor = state.current_player()
                stored_actor = None if actors is None else actors[number - self.version - 1]
                if stored_actor is not None and stored_actor != actor:
                    raise RecordError(f"it is stored as played by {stored_actor}, not {actor}")
                step = _applied(self.game, state, actor, action, turn, decider)
            except ChaosGamesError as exc:
                raise RecordError(f"Action {number}, {text!r}, does not replay: {exc}") from None
            steps.append(step)
            turn = step.turn
            decider = actor if actor >= 0 else decider
        return state, steps


def story_start(steps: list[tuple[int, int]]) -> int:
    """Where the latest turn's story starts among `steps` ((turn, actor) each): the first
    step of the latest turn, or of the one before while the latest has no decision yet."""
    start = len(steps)
    for _round in range(2):
        if start == 0:
            break
        turn = steps[start - 1][0]
        while start > 0 and steps[start - 1][0] == turn:
            start -= 1
        if any(actor >= 0 for _turn, actor in steps[start:]):
            break
    return start


def next_turn(game: Game[Any, Any], state: State[Any], action: Action, turn: int, decider: int) -> int:
    """The turn `action` (about to be applied to `state`) belongs to, after a step of turn
    `turn` when `decider` made the last decision (see `Game.starts_turn`)."""
    starts = game.starts_turn(state, action)
    if starts is None:
        actor = state.current_player()
        starts = actor >= 0 and actor != decider
    return turn + 1 if starts else turn


def _applied(
    game: Game[Any, Any], state: State[Any], actor: int, action: Action, turn: int, decider: int
) -> Step:
    """Apply `action` to `state` (checked) after a step of turn `turn` (`decider` made the
    last decision), and say how each viewer reads it."""
    turn = next_turn(game, state, action, turn, decider)
    before = state.clone()
    state.apply_action(action)
    viewers: list[int | None] = [None]
    if game.hides_information():
        viewers += list(range(game.num_players))
    told = tuple(game.tell(before, action, state, v) for v in viewers)
    return Step(str(action), actor, turn, told)
