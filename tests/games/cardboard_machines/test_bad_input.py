"""Careless and hostile input (issue 12): documents no game reaches, actions that are not
legal actions. Each is refused with a ChaosGamesError and changes nothing."""

from __future__ import annotations

import json

import pytest

import chaosgames
from chaosgames.games.cardboard_machines.actions import Kind, MachineAction
from chaosgames.games.cardboard_machines.state import CardboardState
from tests.games.cardboard_machines.helpers import legal, new_state, play, put, table, turn_of


def _refused(st: CardboardState, doc: dict[str, object]) -> str:
    with pytest.raises(chaosgames.InvalidStateError) as refused:
        st.game.state_from_json(doc)
    return str(refused.value)


def test_a_setup_document_holds_nothing_of_a_race_in_progress() -> None:
    """Before the track is laid nobody has claimed a lap's token, taken stress or moved."""
    st = new_state(players=3)
    game = st.game
    play(st, "first:2", "board:4")
    doc = st.to_json()
    assert game.state_from_json(doc).to_json() == doc
    for field, value in (("lap_claimed", True), ("turn", 5), ("moves_left", 2), ("back", 1)):
        spoiled = {**doc, field: value}
        assert field in _refused(st, spoiled)
    spoiled = json.loads(json.dumps(doc))
    spoiled["cars"][1]["stress"] = 2
    assert "cars" in _refused(st, spoiled)


def test_a_race_with_one_car_left_is_over() -> None:
    """'The game ends when ... there is only one player left': a document of a race still
    going with one car left is refused (playing on from it hung when that car crashed)."""
    st = table([2, 0, 1, 3, 4, 5])
    doc = st.to_json()
    doc["cars"][1].update(lives=0, pos=-1)
    assert "only one player is left" in _refused(st, doc)


def test_the_last_life_lost_in_a_two_player_race_ends_it() -> None:
    """Red, on her last life, stands on the back board when blue drives off the front edge."""
    st = table([2, 0, 1, 3, 4, 5])
    st.lives[0] = 1
    put(st, 0, "2c")
    put(st, 1, "12c", gear=1)
    turn_of(st, 1)
    play(st, "gear:1", "scroll")
    assert st.is_terminal() and st.lives == [0, 3] and st.returns() == [0.0, 1.0]


def test_stress_is_returned_only_by_a_player_who_has_some() -> None:
    st = table([2, 0, 1, 3, 4, 5])
    put(st, 0, "5d", gear=1, stress=1)
    turn_of(st, 0)
    play(st, "gear:1", "move:ahead")
    assert legal(st) == ["return", "keep"]
    doc = st.to_json()
    assert st.game.state_from_json(doc).to_json() == doc
    doc["cars"][0]["stress"] = 0
    assert "stress is returned" in _refused(st, doc)


def test_a_bonus_move_never_starts_from_the_front_row() -> None:
    """A malfunction in the front row scrolls the track first, so the bonus move always has
    spaces in front; a document with the car in the front row is refused (it raised
    IndexError when asked for the legal actions)."""
    st = table([2, 0, 1, 3, 4, 5])
    put(st, 0, "11c")
    turn_of(st, 0)
    doc = st.to_json()
    doc.update(phase="bonus")
    assert [str(a) for a in st.game.state_from_json(doc).legal_actions()] == legal_bonus(st)
    doc["cars"][0]["pos"] += 6  # 12c
    assert "front row" in _refused(st, doc)


def legal_bonus(st: CardboardState) -> list[str]:
    return [f"move:{name}" for name in ("left", "ahead", "right")[: len(st.targets(st.pos[0]))]]


@pytest.mark.parametrize(
    "action",
    [
        MachineAction(Kind.GEAR, 99),
        MachineAction(Kind.PLACE, 10**6),
        MachineAction(Kind.MOVE, 7),
        ("gear", 2),  # a plain tuple equal to gear:2
        MachineAction(Kind.GEAR, True),  # equal to gear:1
        MachineAction(Kind.GEAR, 2.0),  # type: ignore[arg-type]  # equal to gear:2
        "gear:2",
        None,
    ],
    ids=repr,
)
def test_actions_that_are_not_legal_actions_are_refused(action: object) -> None:
    st = table([2, 0, 1, 3, 4, 5])
    before = st.to_json()
    with pytest.raises(chaosgames.IllegalActionError):
        st.apply_action(action)  # type: ignore[arg-type]  # deliberately no action of the game
    assert st.to_json() == before
    play(st, "gear:2")
    assert st.gear[0] == 2


@pytest.mark.parametrize("text", ["gear:٣", "place:99z", "fly", "x" * 10_000, "move: sideways"])
def test_notation_that_names_no_action_is_refused(text: str) -> None:
    st = table([2, 0, 1, 3, 4, 5])
    with pytest.raises((chaosgames.NotationError, chaosgames.IllegalActionError)) as refused:
        st.game.parse_action(st, text)
    assert len(str(refused.value)) < 1000
