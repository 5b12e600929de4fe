"""Fuzzing every registered game through its public entry points (issue 12).

Seeded mutations of the corpus (tests/fuzz/corpus/, written by make_corpus.py) and
hypothesis-drawn input, for each game: state documents (values and text), records,
notation, actions of the wrong type or out of range, options. Every input either works
or is refused with the right ChaosGamesError; an accepted state document is played on
for a few random steps with the contract checks; nothing hangs.

Findings are listed in known.py with a minimal reproducer each: the fixed ones run below
as regressions; an open one runs marked xfail(strict=True), so fixing it turns it red until
its entry moves to the fixed list. `make fuzz` runs
the same tests with far more inputs (see tests/fuzz/README.md).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import random
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chaosgames
from chaosgames import IllegalActionError, InvalidOptionError, NotationError, RecordError, UnknownGameError
from tests.fuzz import harness, mutation
from tests.fuzz.harness import FUZZING, Finding
from tests.fuzz.known import FIXED, KNOWN, Known, tolerated

GAMES = chaosgames.list_games()
SCALE = int(os.environ.get("CHAOSGAMES_FUZZ_SCALE", "2000" if FUZZING else "1"))
"""Inputs per test, in multiples of the quick run's (`make test`: 1; `make fuzz`: 2000, hours)."""
SEED = int(os.environ.get("CHAOSGAMES_FUZZ_SEED", str(time.time_ns() % 10**9) if FUZZING else "0"))
EXAMPLES = 60 * SCALE

hypothesis_settings = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=not FUZZING,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)


def _report(name: str, findings: list[Finding]) -> str:
    lines = [f"{len(findings)} findings in {name} (seed {SEED}); the first of each kind:"]
    seen: set[tuple[str, str, str]] = set()
    for finding in findings:
        if finding.signature not in seen:
            seen.add(finding.signature)
            lines.append(str(finding))
    return "\n".join(lines)


def _unexpected(name: str, findings: list[Finding | None]) -> list[Finding]:
    return [f for f in findings if f is not None and tolerated(name, f) is None]


# -- state documents ---------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_mutated_state_documents_are_refused_or_play_on(name: str) -> None:
    docs = harness.states(name)
    rng = random.Random(f"{SEED}-documents-{name}")
    findings = []
    for number in range(1000 * SCALE):
        base = rng.choice(docs)
        doc = mutation.mutate_document(base, rng, docs)
        findings.append(harness.check_state_input(harness.game_of(base), doc, seed=number))
    unexpected = _unexpected(name, findings)
    assert not unexpected, _report(name, unexpected)


@pytest.mark.parametrize("name", GAMES)
def test_damaged_state_texts_are_refused_or_play_on(name: str) -> None:
    docs = harness.states(name)
    rng = random.Random(f"{SEED}-texts-{name}")
    findings = []
    for number in range(120 * SCALE):
        base = rng.choice(docs)
        text = mutation.mutate_text(json.dumps(base), rng)
        findings.append(harness.check_state_input(harness.game_of(base), text, seed=number))
    unexpected = _unexpected(name, findings)
    assert not unexpected, _report(name, unexpected)


@pytest.mark.parametrize("name", GAMES)
def test_every_corpus_document_reads_back_and_plays_on(name: str) -> None:
    findings = [
        harness.check_state_input(harness.game_of(doc), doc, seed=1, steps=6) for doc in harness.states(name)
    ]
    assert not [f for f in findings if f is not None], _report(name, [f for f in findings if f is not None])


# -- records -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_mutated_records_are_refused_or_replay(name: str) -> None:
    originals = harness.records(name)
    rng = random.Random(f"{SEED}-records-{name}")
    findings = []
    for _ in range(120 * SCALE):
        base = rng.choice(originals)
        if rng.random() < 0.7:
            findings.append(harness.check_record_input(mutation.mutate_document(base, rng, originals)))
        else:
            findings.append(harness.check_record_input(mutation.mutate_text(json.dumps(base), rng)))
    unexpected = _unexpected(name, findings)
    assert not unexpected, _report(name, unexpected)


# -- notation ----------------------------------------------------------------------------


def _state_and_texts(
    name: str, index: int
) -> tuple[chaosgames.Game[Any, Any], chaosgames.State[Any], list[str]]:
    docs = harness.states(name)
    doc = docs[index % len(docs)]
    game = harness.game_of(doc)
    state = game.state_from_json(doc)
    return game, state, [str(a) for a in state.legal_actions()]


@pytest.mark.parametrize("name", GAMES)
@hypothesis_settings
@given(index=st.integers(0, 10_000), seed=st.integers(0, 2**32 - 1), typed=st.text(max_size=40))
def test_any_text_parses_to_a_legal_action_or_is_refused(
    name: str, index: int, seed: int, typed: str
) -> None:
    game, state, legal = _state_and_texts(name, index)
    before = json.dumps(state.to_json())
    rng = random.Random(seed)
    for text in (typed, mutation.hostile_notation(rng, legal), mutation.hostile_notation(rng, legal)):
        finding = harness.check_refused(
            "parse_action escapes",
            functools.partial(_parse_is_legal, game, state, text),
            (NotationError, IllegalActionError),
            text,
        )
        assert finding is None, str(finding)
    assert json.dumps(state.to_json()) == before


def _parse_is_legal(game: chaosgames.Game[Any, Any], state: chaosgames.State[Any], text: Any) -> None:
    action = game.parse_action(state, text)
    assert action in state.legal_actions(), f"{text!r} parsed to {action!r}, which is not legal"


# -- actions -----------------------------------------------------------------------------

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)


def _out_of_range(action: Any, rng: random.Random) -> Any:
    """The action with one field changed to a value the game never makes (or a plain copy)."""
    strange = rng.choice([-1, 99, 1000, 10**20, "", "zz", None, 1.5, True, (), (1,)])
    if isinstance(action, tuple) and hasattr(action, "_replace") and action:
        named: Any = action  # a NamedTuple
        field = rng.choice(named._fields)
        return named._replace(**{field: strange})
    if dataclasses.is_dataclass(action) and not isinstance(action, type):
        # Only the fields a game's own code could set (a cached hash is not one).
        fields = [f.name for f in dataclasses.fields(action) if f.init]
        if fields:
            return dataclasses.replace(action, **{rng.choice(fields): strange})
    if isinstance(action, tuple):
        return tuple(action)
    return strange


@pytest.mark.parametrize("name", GAMES)
@hypothesis_settings
@given(index=st.integers(0, 10_000), seed=st.integers(0, 2**32 - 1), stranger=_json)
def test_wrong_type_and_out_of_range_actions_are_refused_and_change_nothing(
    name: str, index: int, seed: int, stranger: Any
) -> None:
    _, state, _ = _state_and_texts(name, index)
    legal = state.legal_actions()
    before = json.dumps(state.to_json())
    rng = random.Random(seed)
    tries = [stranger, *(_out_of_range(rng.choice(legal), rng) for _ in range(3))] if legal else [stranger]
    if legal and isinstance(legal[0], tuple):
        tries.append(tuple(legal[0]))  # equal to a NamedTuple action, but not one
    for action in tries:
        is_legal = any(type(a) is type(action) and a == action for a in legal)
        if is_legal:
            continue
        finding = harness.check_refused(
            "apply_action escapes",
            functools.partial(state.apply_action, action),
            IllegalActionError,
            action,
        )
        assert finding is None, str(finding)
        assert json.dumps(state.to_json()) == before, f"refusing {action!r} changed the state"


# -- options -----------------------------------------------------------------------------

_option_values = st.one_of(
    _json,
    st.sampled_from(["²", "٣", "9" * 5000, "1e999", "nan", "-0", " 3 ", "true", "[" * 1000, "@x"]),
    st.integers(),
)


@pytest.mark.parametrize("name", GAMES)
@hypothesis_settings
@given(data=st.data())
def test_bad_options_are_refused_and_accepted_ones_play(name: str, data: st.DataObject) -> None:
    cls = chaosgames.core.game_class(name)
    names = ["players", *(o.name for o in cls.option_spec), "no_such", ""]
    options = data.draw(st.dictionaries(st.sampled_from(names), _option_values, max_size=3))
    game_name = data.draw(st.sampled_from([name, name, name, name.upper(), 3, None, ""]))

    def load_and_play() -> None:
        game = chaosgames.load_game(game_name, **options)  # type: ignore[arg-type]
        json.dumps(game.options)
        harness.play_on(game, game.new_initial_state(), random.Random(1), 3)

    finding = harness.check_refused(
        "load_game escapes",
        load_and_play,
        (InvalidOptionError, UnknownGameError),
        {"game": game_name, **options},
    )
    assert finding is None, str(finding)


# -- the known findings, each with its minimal reproducer ----------------------------------


def _reproducer_params() -> list[Any]:
    fixed = [pytest.param(known, id=f"fixed {known.game}: {known.title}") for known in FIXED]
    still_open = [
        pytest.param(
            known,
            id=f"open {known.game}: {known.title}",
            marks=pytest.mark.xfail(strict=True, reason=f"open finding of {known.game}"),
        )
        for known in KNOWN
    ]
    return fixed + still_open


@pytest.mark.parametrize("known", _reproducer_params())
def test_a_finding_is_refused_or_played_on_cleanly(known: Known) -> None:
    """A fixed finding must stay fixed; an open one turns red (XPASS) once it is fixed."""
    game, doc = known.reproducer()
    finding = harness.check_state_input(game, doc, known.seed, known.steps, known.seconds)
    assert finding is None, str(finding)


@pytest.mark.parametrize("known", KNOWN, ids=lambda known: f"{known.game}: {known.title}")
def test_an_open_finding_is_one_its_reproducer_shows(known: Known) -> None:
    game, doc = known.reproducer()
    finding = harness.check_state_input(game, doc, known.seed, known.steps, known.seconds)
    assert finding is not None and known.matches(finding), f"{known.title}: {finding}"


def test_a_record_replays_through_refusals_only() -> None:
    assert harness.check_record_input("{}") is None
    assert harness.check_record_input({"format": "chaosgames-record"}) is None
    with pytest.raises(RecordError):
        chaosgames.GameRecord.from_json({"format": "chaosgames-record"})
