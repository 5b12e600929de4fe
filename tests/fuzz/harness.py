"""What the fuzz tests check of one input, and the corpus they start from.

Each check returns None when the promise of docs/contract.md holds for the input, or a
finding: a short description whose `signature` groups findings with the same cause.
An accepted state document is played on for a few random steps with every contract
check of tests/core/contract.py; nothing may take longer than `DEADLINE` seconds.
"""

from __future__ import annotations

import json
import os
import random
import signal
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import chaosgames
from chaosgames import ChaosGamesError, GameRecord, InvalidStateError, RecordError
from tests.core.contract import apply_checking_clones, check_step, random_action

CORPUS = Path(__file__).with_name("corpus")
DEADLINE = 5.0
"""Seconds one input may take (reading it and a few steps of play) before it counts as a hang."""
FUZZING = os.environ.get("CHAOSGAMES_FUZZ") == "1"
"""`make fuzz`: many more inputs (see tests/fuzz/README.md)."""


class Hang(Exception):
    """An input took longer than DEADLINE seconds."""


@contextmanager
def deadline(seconds: float = DEADLINE) -> Iterator[None]:
    """Raise Hang in this (main) thread when the block runs longer than `seconds`."""

    def alarm(signum: int, frame: Any) -> None:
        raise Hang(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass(frozen=True)
class Finding:
    """A broken promise: what was done, what happened, and where in the code."""

    what: str
    error: str
    where: str
    input: str
    phase: str | None = None
    """The phase of the document given, when it names one."""

    @property
    def signature(self) -> tuple[str, str, str]:
        return (self.what, self.error.split(":")[0], self.where)

    def __str__(self) -> str:
        return f"{self.what}: {self.error} at {self.where}\n  input: {self.input}"


def _finding(what: str, exc: BaseException, given: Any) -> Finding:
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if "/chaosgames/" in f.filename] or frames
    where = f"{Path(ours[-1].filename).name}:{ours[-1].lineno}" if ours else "?"
    text = given if isinstance(given, str) else json.dumps(given, default=repr, sort_keys=True)
    if len(text) > 3000:
        text = text[:1500] + " ... " + text[-1500:]
    phase = given.get("phase") if isinstance(given, dict) else None
    return Finding(
        what,
        f"{type(exc).__name__}: {str(exc)[:300]}",
        where,
        text,
        phase if isinstance(phase, str) else None,
    )


@cache
def states(name: str) -> list[dict[str, Any]]:
    """The corpus' state documents of a game."""
    return [json.loads(p.read_text()) for p in sorted((CORPUS / name).glob("state-*.json"))]


@cache
def records(name: str) -> list[dict[str, Any]]:
    """The corpus' records of a game, as JSON values."""
    return [json.loads(p.read_text()) for p in sorted((CORPUS / name).glob("record-*.json"))]


@cache
def game_for(name: str, options: str) -> chaosgames.Game[Any, Any]:
    return chaosgames.load_game(name, **json.loads(options))


def game_of(doc: dict[str, Any]) -> chaosgames.Game[Any, Any]:
    return game_for(doc["game"], json.dumps(doc["options"], sort_keys=True))


def play_on(
    game: chaosgames.Game[Any, Any], state: chaosgames.State[Any], rng: random.Random, steps: int
) -> None:
    """A few random steps from `state`, each checked as tests/core/contract.py checks."""
    stale: list[Any] = []
    for _ in range(steps):
        check_step(game, state, stale)
        if state.is_terminal():
            return
        action = random_action(state, rng)
        apply_checking_clones(state, action)
        stale = [action, *stale[:3]]


def check_state_input(
    game: chaosgames.Game[Any, Any], given: Any, seed: int, steps: int = 4, seconds: float = DEADLINE
) -> Finding | None:
    """A state document (a value or text) is refused with InvalidStateError, or it is a
    position the rules can carry on from: a few random steps keep every promise."""
    try:
        with deadline(seconds):
            try:
                state = game.state_from_json(given)
            except InvalidStateError:
                return None
            play_on(game, state, random.Random(seed), steps)
    except Hang as exc:
        return _finding("accepted document hangs", exc, given)
    except AssertionError as exc:
        return _finding("accepted document breaks the contract", exc, given)
    except Exception as exc:
        return _finding("accepted document breaks a later step", exc, given)
    return None


def check_record_input(given: Any) -> Finding | None:
    """A record (a value or text) is refused with RecordError, or it replays, refusing
    with RecordError the first action that does not."""
    try:
        with deadline():
            try:
                GameRecord.from_json(given).replay()
            except RecordError:
                return None
    except Exception as exc:
        return _finding("record escapes", exc, given)
    return None


def check_refused(
    what: str,
    call: Callable[[], Any],
    allowed: type[ChaosGamesError] | tuple[type[ChaosGamesError], ...],
    given: Any,
) -> Finding | None:
    """`call()` either works or raises `allowed`; nothing else, never a hang."""
    try:
        with deadline():
            try:
                call()
            except allowed as exc:
                if len(str(exc)) > 2000:
                    raise AssertionError(f"a message of {len(str(exc))} characters") from None
    except Exception as exc:
        return _finding(what, exc, given)
    return None
