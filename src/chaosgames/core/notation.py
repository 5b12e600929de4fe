"""Action notation: a game declares its grammar; core reads text and finds the legal action.

Every action's `str()` is its notation. A game describes what well-formed notation looks
like as a `Notation` of `Form`s (an example players read, and the regular expression the
normalised text must match) and how typed text is normalised (spaces, case, aliases):

    NOTATION = Notation(
        Form("move:N3 or move:N2E1", r"move:[NESW][1-5]([NESW][1-4])?"),
        Form("stop", r"stop"),
        normalise=lambda text: "".join(text.split()).lower(),
    )
    # on the Game class: notation = NOTATION
    game.parse_action(state, " Stop ")   # -> the legal action whose str() is "stop"

`Notation.parse` looks the text up among the state's legal actions (exactly, then
normalised), so `str(action)` parses back to `action` for every legal action, whatever
the grammar. Text that matches no form is a `NotationError` naming the forms; well-formed
text that is not legal here is an `IllegalActionError` naming the legal actions (of the
same form first).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from chaosgames.core.actions import A, Action
from chaosgames.core.errors import (
    IllegalActionError,
    NotationError,
    action_text,
    describe_choices,
    illegal_action,
    shorten,
)


class Titled(Protocol):
    """What notation reads of a game: its title, for messages."""

    @property
    def title(self) -> str: ...


class Position(Protocol[A]):
    """What notation reads of a state (a `State[A]` is one): its game's title, its legal
    actions with their index by notation, and whether chance acts. (Named as a protocol,
    not as `State`: core's game names this module, so naming it back would be a circle.)"""

    @property
    def game(self) -> Titled: ...

    def legal_actions(self) -> list[A]: ...

    def is_chance_node(self) -> bool: ...

    def _notation_index(self) -> dict[str, A]: ...


WRITTEN = 100_000
"""Actions whose notation a `Notation` keeps at most (then it starts again)."""


def compact(text: str) -> str:
    """Spaces removed, letters folded to lower case: ' Move: N3' -> 'move:n3'."""
    return "".join(text.split()).casefold()


@dataclass(frozen=True, slots=True)
class Form:
    """One shape of action text: how players see it and the pattern of its normalised text."""

    example: str
    """Shown in messages, e.g. 'start:x,y' or 'move:N3'."""
    pattern: str
    """A regular expression the whole normalised text must match."""
    chance: bool = False
    """A chance outcome's form (a die's face, a draw): never offered to a player as
    something to type, only named when the game waits for chance."""


class Notation:
    """A game's notation grammar. With no forms, any text may name an action (only the
    legal actions are looked up), which is what the `Game` base class uses."""

    def __init__(
        self, *forms: Form, normalise: Callable[[str], str] = compact, max_length: int = 200
    ) -> None:
        self.forms = forms
        self.normalise = normalise
        self.max_length = max_length
        """Longer text is refused at once (no action's notation comes close)."""
        self._patterns = tuple(re.compile(form.pattern) for form in forms)
        self._grammar = re.compile("|".join(f"(?:{form.pattern})" for form in forms)) if forms else None
        self._written: dict[Any, tuple[type, str, str]] = {}
        """Actions met before, with their text and its normalised form (see `index`)."""

    @property
    def accepted(self) -> str:
        """The forms, for messages: 'start:x,y, stop or move:N3'."""
        return describe_choices([form.example for form in self.forms], limit=40)

    def accepted_for(self, chance: bool) -> str:
        """The forms of a player's actions (`chance` False) or of chance outcomes, for
        messages; all forms when there are none of that kind."""
        examples = [form.example for form in self.forms if form.chance == chance]
        return describe_choices(examples, limit=40) if examples else self.accepted

    def well_formed(self, text: str) -> bool:
        """Whether `text` has the shape of some action (legal here or not)."""
        if not isinstance(text, str) or len(text) > self.max_length:
            return False
        return self._grammar is None or self._grammar.fullmatch(self.normalise(text)) is not None

    def index(self, actions: Sequence[A]) -> dict[str, A]:
        """Actions by their notation, exact and normalised (exact spellings win)."""
        # Writing an action and normalising its text was most of the cost of reading a
        # move (a server's computer players read every move of their games), and games
        # hand out the same actions again and again: each one's two texts are kept, by
        # the action (equal actions are written alike), up to WRITTEN actions.
        found: dict[str, A] = {}
        written = self._written
        for action in actions:
            texts = written.get(action)
            if texts is None or texts[0] is not type(action):  # (`True` is not `1`)
                texts = self._write(action)
            _, text, normalised = texts
            found[text] = action
            found.setdefault(normalised, action)
        return found

    def _write(self, action: Any) -> tuple[type, str, str]:
        text = str(action)
        texts = (type(action), text, self.normalise(text))
        if len(self._written) >= WRITTEN:
            self._written.clear()
        self._written[action] = texts
        return texts

    def parse(self, state: Position[A], text: str) -> A:
        """The legal action of `state` that `text` names; NotationError or IllegalActionError."""
        title = state.game.title
        if not isinstance(text, str):
            raise NotationError(f"An action is written as text, not as {type(text).__name__}.")
        if len(text) > self.max_length:
            raise NotationError(
                f"'{shorten(text)}' ({len(text)} characters) is too long to be {title} notation."
            )
        index = state._notation_index()
        found = index.get(text.strip())
        if found is None:
            key = self.normalise(text)
            found = index.get(key)
            if found is None:
                raise self._refusal(state, text, key)
        return found

    def _refusal(self, state: Position[Any], text: str, key: str) -> Exception:
        if self._grammar is not None and self._grammar.fullmatch(key) is None:
            chance = state.is_chance_node()
            return NotationError(
                f"'{shorten(text.strip())}' is not {state.game.title} notation; "
                f"{'chance outcomes' if chance else 'actions'} look like {self.accepted_for(chance)}."
            )
        legal = state.legal_actions()
        kind = next((p for p in self._patterns if p.fullmatch(key)), None)
        alike = [a for a in legal if kind is not None and kind.fullmatch(self.normalise(str(a)))]
        if alike and len(alike) < len(legal):
            return IllegalActionError(
                f"'{shorten(text.strip())}' is not a legal action here; legal actions of that kind are "
                f"{describe_choices(alike)} (and {len(legal) - len(alike)} of other kinds)."
            )
        return illegal_action(text.strip(), legal)


def notation_problems(notation: Notation, state: Position[Any]) -> list[str]:
    """What is wrong with the notation of `state`'s legal actions (for tests): texts that
    match no form, or that two actions share once normalised."""
    problems = []
    seen: dict[str, Action] = {}
    for action in state.legal_actions():
        text = str(action)
        key = notation.normalise(text)
        if key in seen and seen[key] != action:
            problems.append(f"{text!r} names two legal actions")
        seen[key] = action
        if not notation.well_formed(text):
            problems.append(f"{action_text(action)!r} does not match any form of the notation")
    return problems
