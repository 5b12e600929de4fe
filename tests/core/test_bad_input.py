"""The promise of docs/contract.md, entry point by entry point: bad input raises a
ChaosGamesError subclass with a short sentence, and a refused call changes nothing."""

from __future__ import annotations

import contextlib
import json
import math
from pathlib import Path
from typing import Any

import pytest

import chaosgames
from chaosgames import (
    GameRecord,
    IllegalActionError,
    InvalidOptionError,
    InvalidStateError,
    NotationError,
    RecordError,
    UnknownGameError,
    UnknownPlayerError,
)
from chaosgames.core import safejson
from chaosgames.core.errors import describe_choices, quote, shorten
from chaosgames.core.options import Option

GAMES = chaosgames.list_games()


def first_decision(name: str) -> chaosgames.State[Any]:
    """A state of `name` where a player decides, reached by the first outcomes and moves."""
    state: chaosgames.State[Any] = chaosgames.load_game(name).new_initial_state()
    while state.current_player() < 0:
        state.apply_action(state.legal_actions()[0])
    return state


# -- apply_action ----------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_wrong_type_and_out_of_range_actions_are_refused_and_change_nothing(name: str) -> None:
    state = first_decision(name)
    before = json.dumps(state.to_json())
    legal = state.legal_actions()
    strangers: list[Any] = [str(legal[0]), 0, 10**5000, None, [1], {"a": 1}, object(), float("nan")]
    if isinstance(legal[0], tuple):
        # A plain tuple equal to a NamedTuple action is not the action.
        strangers.append(tuple(legal[0]))
    for stranger in strangers:
        with pytest.raises(IllegalActionError) as refused:
            state.apply_action(stranger)
        assert len(str(refused.value)) < 1000
    assert json.dumps(state.to_json()) == before


def test_an_action_whose_notation_fails_is_refused_with_its_repr() -> None:
    from chaosgames.games.royal_racers.actions import Kind, RacerAction

    state = chaosgames.load_game("royal-racers").new_initial_state()
    with pytest.raises(
        IllegalActionError, match=r"RacerAction\(kind=<Kind.DEAL: 'deal'>, arg=99\) is not a legal"
    ):
        state.apply_action(RacerAction(Kind.DEAL, 99))


def test_a_look_alike_action_is_refused_and_an_equal_copy_is_played() -> None:
    # RacerAction(Kind.DEAL, 0.0) == RacerAction(Kind.DEAL, 0), but played it would put a float
    # where the state indexes a list; an equal copy of the legal action is that action.
    from chaosgames.games.royal_racers.actions import Kind, RacerAction

    game = chaosgames.load_game("royal-racers")
    state, real = game.new_initial_state(), game.new_initial_state()
    before = state.to_json()
    with pytest.raises(IllegalActionError, match=r"arg=0.0\) is not a legal action"):
        state.apply_action(RacerAction(Kind.DEAL, 0.0))  # type: ignore[arg-type]
    assert state.to_json() == before
    state.apply_action(RacerAction(Kind.DEAL, 0))  # a new object, equal to the legal one
    real.apply_action(real.legal_actions()[0])
    assert state.to_json() == real.to_json()


def test_an_action_that_cannot_be_compared_is_refused() -> None:
    class Awkward:
        def __eq__(self, other: object) -> bool:
            raise ValueError("no comparing me")

        __hash__ = object.__hash__

    state = first_decision("chaos-checkers")
    with pytest.raises(IllegalActionError):
        state.apply_action(Awkward())


@pytest.mark.parametrize("name", GAMES)
def test_apply_unchecked_plays_a_legal_action_like_apply_action(name: str) -> None:
    checked, unchecked = first_decision(name), first_decision(name)
    action = checked.legal_actions()[-1]
    checked.apply_action(action)
    unchecked.apply_unchecked(action)
    assert unchecked.to_json() == checked.to_json()
    assert unchecked.legal_actions() == checked.legal_actions()


# -- parse_action ----------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_parse_action_refuses_non_text_and_never_echoes_huge_text(name: str) -> None:
    game = chaosgames.load_game(name)
    state = first_decision(name)
    with pytest.raises(NotationError, match="written as text"):
        game.parse_action(state, 42)  # type: ignore[arg-type]
    for text in ["x" * 1_000_000, "move:" + "9" * 1_000_000, "\udcff" * 10]:
        with pytest.raises((NotationError, IllegalActionError)) as refused:
            game.parse_action(state, text)
        assert len(str(refused.value)) < 1000
        str(refused.value).encode("utf-8")  # printable


# -- state_from_json --------------------------------------------------------------------

HOSTILE_TEXTS: list[str | bytes] = [
    "[" * 100_000 + "]" * 100_000,
    "[" * 100_000,
    '{"a": ' + "1" * 5000 + "}",
    '{"a": 1e999}',
    '{"a": NaN}',
    '{"a": -Infinity}',
    b"\xff\xfe\x00",
    b'{"game": "\xc3\x28"}',
    json.dumps({"game": "x"}).encode("utf-16"),
    "",
    "null",
    "\udcff",
    " " * 10,
]


@pytest.mark.parametrize("name", GAMES)
def test_hostile_state_texts_are_invalid_state_errors(name: str) -> None:
    game = chaosgames.load_game(name)
    for text in HOSTILE_TEXTS:
        with pytest.raises(InvalidStateError) as refused:
            game.state_from_json(text)
        assert len(str(refused.value)) < 500


@pytest.mark.parametrize("name", GAMES)
def test_dict_documents_are_checked_before_the_game_reads_them(name: str) -> None:
    game = chaosgames.load_game(name)
    good = game.new_initial_state().to_json()
    deep: list[Any] = []
    for _ in range(200):
        deep = [deep]
    for key, value in [
        ("phase", deep),
        ("phase", float("nan")),
        ("phase", 10**500),
        ("phase", {1: "a"}),
        ("phase", (1, 2)),
        ("phase", {"a"}),
        ("phase", b"bytes"),
    ]:
        with pytest.raises(InvalidStateError):
            game.state_from_json({**good, key: value})


@pytest.mark.parametrize("name", GAMES)
def test_a_document_that_breaks_the_reader_is_still_an_invalid_state_error(name: str) -> None:
    game = chaosgames.load_game(name)
    good = game.new_initial_state().to_json()
    for key in good:
        if key in ("game", "options"):
            continue
        junks: list[object] = [None, 0, -1, 10**90, "", [], {}, [None] * 3, True, 0.0]
        for junk in junks:
            with contextlib.suppress(InvalidStateError):
                game.state_from_json({**good, key: junk})


# -- load_game and options -------------------------------------------------------------


@pytest.mark.parametrize(
    "name", [3, None, ["chaos-checkers"], "", "x" * 10_000, "\udcff"], ids=lambda name: quote(name, 20)
)
def test_unknown_game_names_of_any_kind(name: Any) -> None:
    with pytest.raises(UnknownGameError) as refused:
        chaosgames.load_game(name)
    assert len(str(refused.value)) < 300


@pytest.mark.parametrize(
    "value",
    ["²", "٣", "9" * 5000, 10**5000, "3.0", 3.0, True, "", " ", "1e3", "0x3", "+-3", None, [3]],
    ids=lambda value: quote(value, 20),
)
def test_players_must_be_a_plain_whole_number(value: Any) -> None:
    with pytest.raises(InvalidOptionError) as refused:
        chaosgames.load_game("royal-racers", players=value)
    assert len(str(refused.value)) < 300


@pytest.mark.parametrize("game", ["chaos-checkers", "chaos-cruisers", "cardboard-machines", "royal-racers"])
@pytest.mark.parametrize("key", ["name", "self"])
def test_an_option_named_like_an_argument_is_an_unknown_option(game: str, key: str) -> None:
    # `load_game(name, **options)` and `Game(**options)` take these as options, not arguments.
    with pytest.raises(InvalidOptionError, match=f"has no option {key}; its options are"):
        chaosgames.load_game(game, **{key: "x"})


def test_whole_numbers_come_as_ascii_digits_of_bounded_length() -> None:
    option = Option("n", int, 1, "a count")
    assert option.coerce(" 12 ") == 12 and option.coerce("-3") == -3 and option.coerce(7) == 7
    for bad in ["12" * 10, "١٢", "1_000", "1.5"]:
        with pytest.raises(InvalidOptionError):
            option.coerce(bad)


def test_numbers_must_be_finite() -> None:
    option = Option("x", float, 0.5, "a share")
    assert option.coerce("0.25") == 0.25 and option.coerce(2) == 2.0
    for bad in ["nan", "inf", "1e999", float("inf"), float("nan"), "١.٥", "1" * 50]:
        with pytest.raises(InvalidOptionError):
            option.coerce(bad)


def test_structured_options_are_read_as_safe_json() -> None:
    option = Option("course", object, "loop", "a preset or a document")
    assert option.coerce('{"tiles": [[0, 0]]}') == {"tiles": [[0, 0]]}
    assert option.coerce("grand-loop") == "grand-loop"  # not JSON: a name
    for bad in [
        "[" * 100 + "]" * 100,
        '{"a": NaN}',
        "[" + "1" * 200 + "]",
        {"a": float("nan")},
        {"a": {1, 2}},
    ]:
        with pytest.raises(InvalidOptionError):
            option.coerce(bad)


def test_an_option_check_that_breaks_is_an_invalid_option_error() -> None:
    def check(value: Any) -> Any:
        return value["tiles"]  # a KeyError on a document without tiles

    option = Option("course", object, None, "a course", check=check)
    with pytest.raises(InvalidOptionError, match="Option 'course'"):
        option.coerce("{}")


# -- observation ----------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_a_viewer_that_is_no_player_is_refused(name: str) -> None:
    state = first_decision(name)
    players = state.game.num_players
    for stranger in [players, -1, "0", [0], float("nan"), True, 0.0]:
        with pytest.raises(UnknownPlayerError, match=f"a player number 0-{players - 1}"):
            state.observation(stranger)  # type: ignore[arg-type]
    assert state.observation(None) == first_decision(name).observation(None)  # a spectator


def test_a_numpy_whole_number_is_the_player_it_numbers() -> None:
    numpy = pytest.importorskip("numpy")
    state = first_decision("chaos-checkers")
    assert state.observation(numpy.int64(1)) == state.observation(1)


# -- records ----------------------------------------------------------------------------

GOOD = {"format": "chaosgames-record", "game": "chaos-checkers", "options": {}, "players": ["a", "b"]}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"result": [float("nan"), 1.0]}, "finite"),
        ({"result": "won"}, "result must be a list"),
        ({"result": [1.0]}, "one number per player"),
        ({"result": [True, False]}, "result[0] must be a number"),
        ({"meta": []}, "meta must be an object"),
        ({"version": 999}, "version must be 1, not 999"),
        ({"players": ["a", 2]}, "players[1] must be text"),
        ({"actions": ["11-15", 16]}, "actions[1] must be text"),
        ({"game": None}, "game must be text"),
        ({"options": []}, "options must be an object"),
    ],
)
def test_malformed_records_name_the_field(changes: dict[str, Any], message: str) -> None:
    doc = {**GOOD, "actions": [], **changes}
    with pytest.raises(RecordError, match=message.replace("[", r"\[").replace("]", r"\]")):
        GameRecord.from_json(doc)


def test_a_record_with_a_later_field_still_loads() -> None:
    record = GameRecord.from_json({**GOOD, "actions": [], "ended_by": "rules"})
    assert record.game == "chaos-checkers"


@pytest.mark.parametrize(
    "content",
    [b"[" * 100_000, b'{"version": ' + b"9" * 5000 + b"}", b"\xff\xfe{\x00", b'{"a": "\xc3\x28"}', b""],
)
def test_unreadable_record_files_are_record_errors(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(content)
    with pytest.raises(RecordError):
        GameRecord.load(path)


def test_a_folder_or_a_missing_file_is_not_a_record(tmp_path: Path) -> None:
    paths: list[str | Path] = [tmp_path, tmp_path / "missing.json", "bad\0path"]
    for path in paths:
        with pytest.raises(RecordError, match="Cannot read the record"):
            GameRecord.load(path)
    with pytest.raises(RecordError, match="file path"):
        GameRecord.load(3)  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="Cannot write the record"):
        GameRecord("chaos-checkers", {}, ["a", "b"]).save(tmp_path)


def test_a_record_of_an_unknown_game_or_bad_options_does_not_replay() -> None:
    with pytest.raises(RecordError, match="cannot be loaded"):
        GameRecord.from_json({**GOOD, "game": "chess", "actions": []}).replay()
    with pytest.raises(RecordError, match="cannot be loaded"):
        GameRecord.from_json({**GOOD, "options": {"players": 7}, "actions": []}).replay()


@pytest.mark.parametrize("upto", [-1, 3, 1.5, "2", True])
def test_a_replay_goes_up_to_a_whole_number_of_the_records_actions(upto: Any) -> None:
    record = GameRecord.from_json({**GOOD, "options": {"chaos": False}, "actions": ["9-13", "21-17"]})
    with pytest.raises(RecordError, match=r"A record of 2 actions replays up to 0-2 of them, not "):
        record.replay(upto)
    assert record.replay(1).to_json() != record.replay(2).to_json() == record.replay().to_json()


# -- the JSON reader and the message helpers ---------------------------------------------


def test_the_reader_refuses_before_recursing_and_reads_what_is_fine() -> None:
    assert safejson.parse('{"a": [1, 2.5, "x", true, null]}') == {"a": [1, 2.5, "x", True, None]}
    assert safejson.parse(b"\xef\xbb\xbf[1]") == [1]  # a UTF-8 byte order mark is fine
    nested = "[" * safejson.MAX_DEPTH + "]" * safejson.MAX_DEPTH
    assert safejson.parse(nested) is not None
    with pytest.raises(safejson.JsonRefused, match="nested more than 64"):
        safejson.parse("[" + nested + "]")
    with pytest.raises(safejson.JsonRefused, match="nested"):
        safejson.parse('{"a":' * 70 + "1" + "}" * 70)
    assert safejson.parse('["[[[[[[[[", "]]]"]') == ["[[[[[[[[", "]]]"]  # brackets in text do not count


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('{"a": 1,}', "is not valid JSON"),
        ("[1, 2", "is not valid JSON"),
        ("[" * 1000 + "}", "brackets do not match"),
        ("1" * 101, "101 digits"),
        ("[1e400]", "too large to be finite"),
        ("[Infinity]", "holds Infinity"),
    ],
)
def test_the_reader_says_why(text: str, reason: str) -> None:
    with pytest.raises(safejson.JsonRefused, match=reason):
        safejson.parse(text)


def test_messages_quote_input_short_and_never_fail() -> None:
    assert shorten("a" * 10) == "a" * 10
    assert len(shorten("a" * 10_000)) == 60 and "…" in shorten("a" * 10_000)
    assert quote(10**5000) == "a number of about 5000 digits"
    deep: list[Any] = []
    for _ in range(100_000):
        deep = [deep]
    assert quote(deep) == "a list"
    assert describe_choices(list(range(100))).startswith("one of 100 (for example 0, 1")
    assert math.isnan(float("nan"))
