"""State documents: a document is accepted only when the rules can carry on from it, and
actions that are not the position's own are refused (issue 12)."""

from __future__ import annotations

import json
from typing import Any

import pytest

import chaosgames
from chaosgames import IllegalActionError, InvalidStateError
from chaosgames.games.chaos_checkers.actions import ChaosMove, Draw, PotionUse, SetupDraw
from chaosgames.games.chaos_checkers.colours import CODE
from chaosgames.games.chaos_checkers.moves import PlainMove
from chaosgames.games.chaos_checkers.phases import Phase
from chaosgames.games.chaos_checkers.powers import Power
from tests.games.chaos_checkers.helpers import chaos_position, piece, play

FAR = {32: piece("blue"), 28: piece("blue")}


def _document(state: chaosgames.State[Any]) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(json.dumps(state.to_json()))
    return doc


def _refused(state: chaosgames.State[Any], doc: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidStateError, match=message):
        state.game.state_from_json(doc)


def _after_a_capture() -> chaosgames.State[Any]:
    """Red's man on 14 (shielded) has just captured on 18: its shield reward is drawn next."""
    state = chaos_position(
        {
            14: piece("red", shield="blue", potion="green"),
            9: piece("red", shield="purple"),
            18: piece("blue", shield="orange", potion="black"),
            **FAR,
        }
    )
    play(state, "14x23")
    assert state.phase == "draw-shield"
    return state


def test_a_plain_document_needs_a_whole_number_turn() -> None:
    game = chaosgames.load_game("chaos-checkers", chaos=False)
    doc = game.new_initial_state().to_json()
    with pytest.raises(InvalidStateError, match=r"turn must be 0 or 1, not 0\.0"):
        game.state_from_json({**doc, "turn": 0.0})
    with pytest.raises(InvalidStateError, match="turn must be 0 or 1, not true"):
        game.state_from_json({**doc, "turn": True})


def test_errors_name_the_field_at_fault() -> None:
    state = chaos_position({14: piece("red"), 9: piece("red"), **FAR})
    doc = _document(state)
    doc["board"][13]["king"] = "yes"
    _refused(state, doc, r"board\[13\]\.king must be true or false, not \"yes\"")


def test_the_reward_goes_to_the_piece_that_put_its_shield_back() -> None:
    # "Discard your current shield on the piece making the capture and replace it": while
    # the new shield is drawn the capturing piece holds none, so another shielded piece
    # cannot be the one rewarded.
    state = _after_a_capture()
    doc = _document(state)
    assert doc["reward"]["square"] == 23 and doc["board"][22]["shield"] is None
    doc["reward"]["square"] = 9
    _refused(state, doc, "reward.square must hold a piece without a shield")


def test_a_reward_draws_no_more_than_the_bag_holds_or_the_move_earned() -> None:
    state = _after_a_capture()
    doc = _document(state)
    _refused(state, {**doc, "draws_left": 1000}, "draws_left must be between 0 and 12, not 1000")
    _refused(state, {**doc, "draws_left": 4}, r"cannot hold more draws than the move earned \(1\)")


def test_a_reward_draws_no_more_than_the_shield_bag_holds() -> None:
    # Nine red men wear shields: six are left in the bag once the capturing man's is back.
    shields = ["blue"] * 3 + ["lightblue"] * 3 + ["purple"] * 3
    colours = ["red"] * 4 + ["orange"] * 4 + ["yellow"]
    state = chaos_position(
        {
            **{square: piece(colours[square - 1], shield=shields[square - 1]) for square in range(1, 10)},
            14: piece("yellow", shield="blue"),
            18: piece("blue"),
            **FAR,
        }
    )
    play(state, "14x23")
    doc = _document(state)
    doc["reward"]["captures"] = 12
    _refused(state, {**doc, "draws_left": 7}, r"between 1 and what is left to draw \(6\)")
    assert state.game.state_from_json({**doc, "draws_left": 6}).chance_outcomes()


def test_draws_wait_only_in_the_draw_phases() -> None:
    state = chaos_position({14: piece("red"), 9: piece("red"), **FAR})
    _refused(state, {**_document(state), "draws_left": 1}, "draws_left must be 0 outside the draw phases")


def test_a_setup_document_holds_only_the_setup_draws() -> None:
    game = chaosgames.load_game("chaos-checkers")
    state = game.new_initial_state()
    play(state, "place:12=red")
    doc = _document(state)
    assert game.state_from_json(doc).to_json() == state.to_json()
    for change in (
        {"eliminated": [{"red": 2}, {}]},
        {"moves_made": 3},
        {"turn": 1},
        {"removed_from_game": {"white": 1}},
        {"turn_quiet": False},
    ):
        _refused(state, {**doc, **change}, "holds only the setup draws")


def test_a_waiting_capture_must_be_one_a_piece_can_make() -> None:
    # Blue's man on 18 holds Invulnerability: red's capture 14x23 waits for blue's answer.
    state = chaos_position({14: piece("red"), 9: piece("red"), 18: piece("blue", potion="purple"), **FAR})
    play(state, "14x23")
    assert state.phase == "defend"
    doc = _document(state)
    assert doc["pending_move"]["path"] == [14, 23]
    _refused(state, {**doc, "pending_move": {**doc["pending_move"], "path": [14, 30]}}, "pending_move.path")
    _refused(state, {**doc, "pending_move": {**doc["pending_move"], "at": 9}}, "pending_move.at")
    _refused(state, {**doc, "pending_move": {**doc["pending_move"], "step": 1}}, "pending_move.step")
    other = {**doc, "pending_move": {**doc["pending_move"], "victims": [22]}}
    _refused(state, other, "pending_move.path")


def test_the_positions_of_a_quiet_run_end_with_the_current_one() -> None:
    state = chaos_position({1: piece("red", king=True), 32: piece("blue", king=True)})
    play(state, "1-5", "32-28")
    doc = _document(state)
    assert len(doc["repetition"]) == 3
    doc["repetition"] = doc["repetition"][:2]
    _refused(state, doc, "repetition must end with the current position")


def test_a_game_that_goes_on_has_pieces_of_both_players() -> None:
    state = chaos_position({14: piece("red"), 9: piece("red"), **FAR})
    doc = _document(state)
    doc["board"][31] = doc["board"][27] = None
    doc["eliminated"][1]["blue"] = 4
    _refused(state, doc, "board must hold pieces of both players")


@pytest.mark.parametrize("chaos", [True, False])
def test_actions_out_of_range_or_of_the_wrong_type_are_refused_and_change_nothing(chaos: bool) -> None:
    if chaos:
        state: chaosgames.State[Any] = _after_a_capture()
        legal = state.legal_actions()
        first = legal[0]
        assert isinstance(first, Draw)
        strangers: list[Any] = [
            Draw(Phase.DRAW_SHIELD, 1000),
            Draw(Phase.KEEP_POTION, -7),
            SetupDraw(Phase.PLACE, 99, CODE["red"]),
            ChaosMove(None, (13, 99), (-1,)),
            PotionUse(Power.WILD, 13, colour=99),
            (first.kind, first.colour),  # a plain tuple of the legal draw's fields is not the draw
        ]
    else:
        state = chaosgames.load_game("chaos-checkers", chaos=False).new_initial_state()
        legal = state.legal_actions()
        first = legal[0]
        assert isinstance(first, PlainMove)
        strangers = [
            PlainMove((8, 99), 0, 1 << 8, 1 << 99),
            (first.path, first.captured, first.src, first.dst),  # a plain tuple of its fields is not the move
        ]
    before = json.dumps(state.to_json())
    for stranger in strangers:
        with pytest.raises(IllegalActionError) as refused:
            state.apply_action(stranger)
        assert len(str(refused.value)) < 1000
    assert json.dumps(state.to_json()) == before
    assert state.legal_actions() == legal
