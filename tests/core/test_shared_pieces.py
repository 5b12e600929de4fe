"""The pieces games share from core: document schemas, notation grammars, SVG building."""

from __future__ import annotations

from typing import Any

import pytest

import chaosgames
from chaosgames import IllegalActionError, InvalidStateError, NotationError, RecordError
from chaosgames.core.document import (
    Anything,
    Bool,
    Check,
    Choice,
    Default,
    Dict,
    Document,
    Int,
    List,
    Map,
    Nullable,
    Number,
    Object,
    Spec,
    Str,
    Tuple,
)
from chaosgames.core.notation import Form, Notation, compact, notation_problems
from chaosgames.core.svg import element, escape, picture, points, raw

# -- documents -----------------------------------------------------------------------------

PHASES = ("roll", "move", "over")
CAR = Object({"pos": Int(-1, 71), "gear": Int(1, 6), "lives": Int(0, 3), "ghost": Bool()})
SCHEMA = Document(
    {
        "phase": Choice(PHASES),
        "cars": List(CAR, length=4),
        "winner": Nullable(Int(0, 3)),
        "square": Tuple(Int(), Int()),
        "colour": Choice({"red": 0, "blue": 1}),
        "bag": Dict(Choice(["red", "blue"]), Int(0)),
        "coins": Map(List(Int(2, 5), unique=True), lambda coins: sum(1 << c for c in coins)),
        "note": Default(Str(max_length=20), ""),
        "result": Nullable(List(Number(0, 1))),
        "extra": Anything(),
    }
)


def car(**changes: Any) -> dict[str, Any]:
    return {"pos": 3, "gear": 2, "lives": 3, "ghost": False, **changes}


def document(**changes: Any) -> dict[str, Any]:
    doc = {
        "game": "g",
        "options": {},
        "phase": "move",
        "cars": [car() for _ in range(4)],
        "winner": None,
        "square": [1, -2],
        "colour": "blue",
        "bag": {"red": 2},
        "coins": [2, 5],
        "result": None,
        "extra": {"anything": [1]},
    }
    doc.update(changes)
    return doc


def test_a_document_reads_as_its_checked_values() -> None:
    fields = SCHEMA.read(document())
    assert fields["square"] == (1, -2)  # tuples for fixed-length lists
    assert fields["colour"] == 1  # a mapping choice reads as what it maps to
    assert fields["coins"] == (1 << 2) | (1 << 5)
    assert fields["note"] == ""  # left out: the default
    assert "game" not in fields and "options" not in fields  # Game.state_from_json checks those


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"cars": [car(), car(), car(lives=7), car()]}, "cars[2].lives must be between 0 and 3, not 7"),
        ({"cars": [car(), car(), car(gear=True), car()]}, "cars[2].gear must be a whole number, not true"),
        ({"cars": [car(), car(), car(gear=2.0), car()]}, "cars[2].gear must be a whole number, not 2.0"),
        ({"cars": [car()]}, "cars must list exactly 4 entries, not 1"),
        ({"cars": "four"}, 'cars must be a list, not "four"'),
        (
            {"cars": [car(), car(), car(), car(wings=2)]},
            'cars[3] has no field "wings"; its fields are "pos", "gear", "lives" or "ghost"',
        ),
        ({"phase": "fly"}, 'phase must be "roll", "move" or "over", not "fly"'),
        ({"winner": 0.0}, "winner must be a whole number, not 0.0"),
        ({"square": [1]}, "square must be a list of 2 entries, not [1]"),
        ({"square": [1, "x"]}, 'square[1] must be a whole number, not "x"'),
        ({"colour": 0}, 'colour must be "red" or "blue", not 0'),
        ({"bag": {"green": 1}}, 'bag.green must be "red" or "blue", not "green"'),
        ({"bag": {"red": -1}}, "bag.red must be at least 0, not -1"),
        ({"coins": [2, 2]}, "coins must not list 2 twice"),
        ({"note": "x" * 30}, "note must be at most 20 characters long, not 30"),
        ({"result": [0.5, float("nan")]}, "result[1] must be a number, not NaN"),
        ({"result": [0.5, 2]}, "result[1] must be between 0 and 1, not 2"),
        ({"phase": ["roll"]}, 'phase must be "roll", "move" or "over", not ["roll"]'),
    ],
)
def test_errors_name_the_field_and_what_it_must_be(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidStateError) as refused:
        SCHEMA.read(document(**changes), prefix="Impossible toy position: ")
    assert str(refused.value) == f"Impossible toy position: {message}."


def test_missing_fields_and_non_objects() -> None:
    doc = document()
    del doc["phase"]
    with pytest.raises(InvalidStateError, match='the document needs the field "phase"'):
        SCHEMA.read(doc)
    with pytest.raises(InvalidStateError, match="the document must be an object, not"):
        SCHEMA.read([1, 2])


def test_the_error_class_and_cross_field_checks() -> None:
    with pytest.raises(RecordError, match="players must be a list"):
        Object({"players": List(Str())}).read({"players": 3}, error=RecordError)
    even = Check(Int(), lambda n: n % 2 == 0, "must be even")
    with pytest.raises(InvalidStateError, match="turn must be even, not 3"):
        Object({"turn": even}).read({"turn": 3})
    error = Spec.fail(["cars", 2, "pos"], "cannot stand in terrain", prefix="Impossible: ")
    assert str(error) == "Impossible: cars[2].pos cannot stand in terrain."


def test_lenient_objects_ignore_later_fields() -> None:
    assert Object({"a": Int()}, strict=False).read({"a": 1, "b": 2}) == {"a": 1}


# -- notation ------------------------------------------------------------------------------


@pytest.fixture
def nim(toy_games: None) -> tuple[chaosgames.Game[Any, Any], chaosgames.State[Any]]:
    game = chaosgames.load_game("toy-nim", pile=5)
    return game, game.new_initial_state()


NIM = Notation(Form("take:N", r"take:[1-9]"), Form("resign", r"resign"))


def test_notation_finds_the_legal_action_forgivingly(
    nim: tuple[chaosgames.Game[Any, Any], chaosgames.State[Any]],
) -> None:
    _, state = nim
    assert NIM.parse(state, "take:2") == "take:2"
    assert NIM.parse(state, "  TAKE : 3 ") == "take:3"
    assert compact(" Take: 3 ") == "take:3"


def test_text_of_no_form_is_a_notation_error_naming_the_forms(
    nim: tuple[chaosgames.Game[Any, Any], chaosgames.State[Any]],
) -> None:
    _, state = nim
    with pytest.raises(
        NotationError, match="'grab 2' is not Toy Nim notation; actions look like take:N or resign"
    ):
        NIM.parse(state, "grab 2")
    with pytest.raises(NotationError, match="written as text"):
        NIM.parse(state, 2)  # type: ignore[arg-type]
    with pytest.raises(NotationError, match="1000000 characters"):
        NIM.parse(state, "t" * 1_000_000)


def test_well_formed_but_illegal_text_names_the_legal_actions_of_its_kind_first(
    nim: tuple[chaosgames.Game[Any, Any], chaosgames.State[Any]],
) -> None:
    _, state = nim
    with pytest.raises(IllegalActionError, match="'take:4' is not a legal action here; legal actions are"):
        NIM.parse(state, "take:4")
    # Nim offers take:1, take:2 and take:3 only; resign is well-formed but never legal.
    with pytest.raises(IllegalActionError, match="take:1, take:2 or take:3"):
        NIM.parse(state, "resign")


def test_every_legal_action_round_trips_and_is_well_formed(
    nim: tuple[chaosgames.Game[Any, Any], chaosgames.State[Any]],
) -> None:
    game, state = nim
    assert notation_problems(NIM, state) == []
    for action in state.legal_actions():
        assert NIM.parse(state, str(action)) == action
        assert game.parse_action(state, str(action)) == action  # the Game's default notation
    narrow = Notation(Form("take:1", r"take:1"))
    assert notation_problems(narrow, state) == [
        "'take:2' does not match any form of the notation",
        "'take:3' does not match any form of the notation",
    ]


def test_the_worked_example_chaos_cruisers_declares_its_notation() -> None:
    from chaosgames.games.chaos_cruisers.actions import NOTATION

    game = chaosgames.load_game("chaos-cruisers")
    assert game.notation is NOTATION
    assert NOTATION.well_formed("move: n2e1") and not NOTATION.well_formed("move:N6")


# -- SVG -----------------------------------------------------------------------------------


def test_text_and_attributes_are_escaped() -> None:
    label = element("text", "Bob & <Alice>", x=10, y=20.5, font_size=12, class_="name", data_place="11")
    assert label == (
        '<text x="10" y="20.5" font-size="12" class="name" data-place="11">Bob &amp; &lt;Alice&gt;</text>'
    )
    assert element("title", 'say "hi"') == '<title>say "hi"</title>'
    assert element("rect", fill='x" onload="evil') == '<rect fill="x&quot; onload=&quot;evil"/>'
    assert escape("a<b") == "a&lt;b"


def test_elements_nest_without_escaping_twice() -> None:
    disc = element("circle", element("title", "red: gear 3"), cx=30, cy=30, r=20, stroke=None)
    assert disc == '<circle cx="30" cy="30" r="20"><title>red: gear 3</title></circle>'
    group = element("g", [disc, None, raw("<defs/>")], 7)
    assert group == f"<g>{disc}<defs/>7</g>"
    assert points([(0, 1), (2.5, 3)]) == "0,1 2.5,3"
    assert element("use", **{"xlink:href": "#a"}) == '<use xlink:href="#a"/>'


def test_a_picture_is_a_whole_svg_document() -> None:
    svg = picture(480, 240, [element("rect", width=10, height=10)])
    assert svg == (
        '<svg xmlns="http://www.w3.org/2000/svg" width="480" height="240" viewBox="0 0 480 240">'
        '<rect width="10" height="10"/></svg>'
    )
    with pytest.raises(TypeError):
        element("rect", visible=True)
