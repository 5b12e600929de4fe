"""PDN for plain checkers: export, import, and agreement with pydraughts (an outside reader)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import chaosgames
from chaosgames.core.records import GameRecord
from chaosgames.games.chaos_checkers.pdn import (
    PdnError,
    _pdn_move,
    _resolve,
    pdn_records,
    pdn_to_record,
    read_pdn,
    record_to_pdn,
)
from chaosgames.games.chaos_checkers.plain import PlainState

OPENING = ["10-15", "22-17", "7-10", "17-14", "9x18", "23x14x7", "3x10"]


def plain() -> chaosgames.Game[Any, Any]:
    return chaosgames.load_game("chaos-checkers", chaos=False)


def record_of(moves: list[str], players: tuple[str, str] = ("Ann", "Bob")) -> GameRecord:
    game = plain()
    state = game.new_initial_state()
    record = GameRecord.start(game, list(players))
    for text in moves:
        action = game.parse_action(state, text)
        record.append(action)
        state.apply_action(action)
    record.finish(state)
    return record


def random_record(seed: int) -> GameRecord:
    game = plain()
    rng = random.Random(seed)
    state = game.new_initial_state()
    record = GameRecord.start(game, ["random", "random"])
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        record.append(action)
        state.apply_action(action)
    record.finish(state)
    return record


def test_export_writes_the_roster_gametype_21_and_numbered_pairs() -> None:
    assert record_to_pdn(record_of(OPENING)) == (
        '[Event "?"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n'
        '[Black "Ann"]\n[White "Bob"]\n[Result "*"]\n[GameType "21"]\n\n'
        "1. 10-15 22-17 2. 7-10 17-14 3. 9x18 23x7 4. 3x10 *\n"
    )


def test_a_finished_game_gets_its_result_black_first_player_winning_is_0_1() -> None:
    black_wins = next(r for r in map(random_record, range(50)) if r.result == [1.0, 0.0])
    white_wins = next(r for r in map(random_record, range(50)) if r.result == [0.0, 1.0])
    assert '[Result "0-1"]' in record_to_pdn(black_wins) and record_to_pdn(black_wins).endswith(" 0-1\n")
    assert '[Result "1-0"]' in record_to_pdn(white_wins)


def test_only_plain_checkers_with_forced_captures_is_exported() -> None:
    chaos = GameRecord.start(chaosgames.load_game("chaos-checkers"), ["a", "b"])
    with pytest.raises(chaosgames.RecordError, match="Only plain checkers records"):
        record_to_pdn(chaos)
    free = GameRecord.start(
        chaosgames.load_game("chaos-checkers", chaos=False, forced_capture=False), ["a", "b"]
    )
    with pytest.raises(chaosgames.RecordError, match="forced_capture=false"):
        record_to_pdn(free)


ANNOTATED = r"""% a database of two games
[Event "Club \"night\" \\ 1"]
[Black "Ann"]
[White "Bob"]
[Result "1/2-1/2"]
[GameType "21,B,8,8,N1,0"]
{The Old Fourteenth} 1. 10-15! 22-17 $1 2. 7-10 (2. 9-13 17x10) 17-14?!
3. 9x18 {forced} 23x14x7 4... 3x10 ; a line comment
1/2-1/2

[Event "second"]
1. 11-15 23-19 2. 8-11 *
"""


def test_import_reads_tags_comments_variations_and_several_games() -> None:
    first, second = read_pdn(ANNOTATED)
    assert first.tags["Event"] == 'Club "night" \\ 1'
    assert first.moves == OPENING
    assert first.comments == [(0, "The Old Fourteenth"), (5, "forced")]
    assert first.result == "1/2-1/2"
    assert second.moves == ["11-15", "23-19", "8-11"] and second.result == "*"
    records = pdn_records(ANNOTATED)
    assert [r.actions for r in records] == [OPENING, ["11-15", "23-19", "8-11"]]
    assert records[0].players == ["Ann", "Bob"] and records[1].players == ["Black", "White"]
    assert records[0].result is None  # agreed draw: the game itself is not over
    assert records[0].meta["pdn"]["Result"] == "1/2-1/2"
    assert records[0].meta["pdn_comments"] == [[0, "The Old Fourteenth"], [5, "forced"]]


def test_import_then_export_keeps_tags_and_comments() -> None:
    record = pdn_records(ANNOTATED)[0]
    text = record_to_pdn(record)
    assert '[Event "Club \\"night\\" \\\\ 1"]' in text and '[Result "1/2-1/2"]' in text
    movetext = " ".join(text.split("\n\n")[1].split())
    assert (
        movetext == "{The Old Fourteenth} 1. 10-15 22-17 2. 7-10 17-14 3. 9x18 {forced} 23x7 4. 3x10 1/2-1/2"
    )
    again = pdn_to_record(read_pdn(text)[0])
    assert again.actions == record.actions
    assert again.meta["pdn_comments"] == record.meta["pdn_comments"]
    assert again.meta["pdn"] == {
        **record.meta["pdn"],
        "Site": "?",
        "Date": "????.??.??",
        "Round": "?",
        "GameType": "21",
    }


def test_a_capture_may_give_its_end_square_only() -> None:
    assert pdn_records("1. 10-15 22-17 2. 7-10 17-14 3. 9x18 23x7 *")[0].actions[-1] == "23x14x7"
    assert pdn_records("1. 10-15 22-17 2. 7-10 17-14 3. 9:18 23x14x7 *")[0].actions[4] == "9x18"


def two_way_capture() -> PlainState:
    """A Black king on 2 that can take the four White men around 11 either way round."""
    game = plain()
    board = ".B....w.......ww....w.ww........"
    state = game.state_from_json(
        {"game": game.name, "options": game.options, "board": board, "turn": 0, "ply": 0, "repetition": []}
    )
    assert isinstance(state, PlainState)
    return state


def test_captures_sharing_start_and_end_are_written_and_read_with_their_landings() -> None:
    state = two_way_capture()
    both = [a for a in state.legal_actions() if str(a).startswith("2x11")]
    assert sorted(_pdn_move(state, a) for a in both) == ["2x11x18x27x20x11", "2x11x20x27x18x11"]
    game = read_pdn("1. 2x11 *")[0]
    with pytest.raises(PdnError, match=r"could be 2x11x18x27x20x11 or 2x11x20x27x18x11; write the squares"):
        _resolve(state, "2x11", game, 0)
    assert str(_resolve(state, "2x18x20x11", game, 0)) == "2x11x18x27x20x11"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "1. 11-15 24-20 2. 15-19 20-16 *",
            r"Move 2 of game 1 \(White, '20-16'\) is not a legal move; legal moves are 23x16",
        ),
        ('[GameType "20"]\n1. 32-28 *', "GameType 20; only American checkers"),
        ('[FEN "W:W21,22:B1,2"]\n1. 21-17 *', "starts from a set-up position"),
        ("1. 11-15 (23-19 *", "leaves a variation open"),
        ("1. 11-15 23-19 ) *", "closes a variation that was never opened"),
        ("1. 11-15 @@ *", r"Line 1 of the PDN \(game 1\): '@@ \*' cannot be read as PDN"),
        ("1. 11-15 /setup/ *", "sets up a position inside the moves"),
        ("", "holds no game"),
    ],
)
def test_unreadable_or_illegal_pdn_is_refused_with_a_sentence(text: str, message: str) -> None:
    with pytest.raises(PdnError, match=message):
        pdn_records(text)


# -- agreement with pydraughts, an independent implementation ------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_pydraughts_reads_our_pdn_and_replays_the_same_moves(seed: int) -> None:
    draughts = pytest.importorskip("draughts")
    from draughts.PDN import PDNReader

    record = random_record(seed)
    game = PDNReader(pdn_text=record_to_pdn(record)).games[0]
    assert game.variant == "english"
    board = draughts.Board("english")
    replayed = []
    for text in game.moves:
        move = draughts.Move(board, pdn_move=text)
        replayed.append(
            "x".join(map(str, move.steps_move)) if move.captures else "-".join(map(str, move.steps_move))
        )
        board.push(move)
    assert replayed == record.actions


@pytest.mark.parametrize("seed", range(12))
def test_we_read_pdn_written_by_pydraughts_and_replay_its_moves(seed: int) -> None:
    draughts = pytest.importorskip("draughts")
    from draughts.PDN import PDNWriter

    rng = random.Random(seed)
    board = draughts.Board("english")
    for _ in range(rng.randrange(10, 150)):
        moves = board.legal_moves()
        if not moves or board.is_over():
            break
        board.push(rng.choice(moves))
    text = PDNWriter("", board=board, tags={"Event": "pydraughts"}, game_ending="*").pdn_text
    (record,) = pdn_records(text)
    assert [list(map(int, a.replace("x", "-").split("-"))) for a in record.actions] == [
        m.steps_move for m in board.move_stack
    ]
    assert record.replay().is_terminal() == board.is_over()
