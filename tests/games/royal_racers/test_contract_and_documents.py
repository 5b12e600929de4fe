"""Notation, state documents, observations (hidden ranks), pictures, the heuristic and
the generic contract under every option value."""

from __future__ import annotations

import json
import random
from itertools import pairwise
from xml.etree import ElementTree

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chaosgames import CHANCE, IllegalActionError, InvalidStateError, NotationError
from chaosgames.core.chance import sample_outcome
from chaosgames.core.grid import bfs_distances
from chaosgames.games.royal_racers.actions import Kind, RacerAction
from chaosgames.games.royal_racers.board import RANK_OF, SQUARE_NAMES, SQUARES
from chaosgames.games.royal_racers.evaluation import (
    FLAG_FACE_DOWN,
    FLIPPABLE_FLAG,
    OPEN_SIDE,
    _shares,
    _steps_between,
    evaluate,
    flag_exposure,
    steps_to_finish,
)
from chaosgames.games.royal_racers.state import (
    FLIP_PHASE,
    MOVE_PHASE,
    OVER,
    PHASE_NAMES,
    ROLL_PHASE,
    RoyalRacersState,
)
from tests.core.contract import check_random_game
from tests.games.royal_racers.helpers import arrange, dealt, game, play, raced, racer_actions, rolled, sq


def standard(**options: object) -> RoyalRacersState:
    return raced(game(players=2, **options), ["c4", "d3"])


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2, "flags": 2, "memory_aid": True},
        {"players": 3, "flags": 6, "flag_variant": True, "max_rounds": 30},
        {"players": 4, "flags": 3, "races": 2, "max_rounds": 15, "optional_move": True},
        {"players": 2, "flags": 4, "races": 3, "max_rounds": 10, "flag_variant": True, "memory_aid": True},
    ],
)
def test_the_contract_holds_under_every_option_value(options: dict[str, object]) -> None:
    record = check_random_game(game(**options), seed=11)
    assert record.actions


class TestNotation:
    def test_every_kind_round_trips(self) -> None:
        state = arrange(standard(optional_move=True), down=["c6"])
        g = state.game
        for action, _ in state.chance_outcomes():
            assert g.parse_action(state, str(action)) == action
        rolled(state, "ace")
        for action in state.legal_actions():
            assert g.parse_action(state, str(action)) == action
        assert str(g.parse_action(state, "  DOWN : A6 ")) == "down:a6"

    @pytest.mark.parametrize("seed", range(4))
    def test_every_action_of_a_random_match_reads_back_as_itself(self, seed: int) -> None:
        # A player types what the log shows: the text must find the very action listed (the
        # rules' shared one), and an equal copy must be equal to it, hash included.
        g = game(players=2 + seed % 3, races=2, optional_move=True, flag_variant=seed % 2 == 1, max_rounds=30)
        rng = random.Random(seed)
        state = g.new_initial_state()
        met: set[Kind] = set()
        while not state.is_terminal():
            legal = state.legal_actions()
            for action in legal:
                assert g.parse_action(state, str(action)) is action
                copy = RacerAction(action.kind, action.arg)
                assert copy == action and hash(copy) == hash(action)
                met.add(action.kind)
            state.apply_action(rng.choice(legal))
        assert met >= set(Kind) - {Kind.REVEAL}  # a reveal needs every card of a rank under pawns

    def test_die_faces_have_aliases(self) -> None:
        state = standard()
        assert str(state.game.parse_action(state, "roll:1")) == "roll:ace"
        assert str(state.game.parse_action(state, "roll:0")) == "roll:null"

    def test_garbage_is_a_notation_error_naming_the_forms(self) -> None:
        state = rolled(standard(), "null")  # the suns are to move
        for text in ("fly:a1", "move:z9", "deal:Xs", ""):
            with pytest.raises(NotationError, match="move:<square>") as refused:
                state.game.parse_action(state, text)
            forms = str(refused.value).split("look like")[1]
            assert "roll:" not in forms and "deal:" not in forms

    def test_garbage_at_a_roll_names_the_chance_forms(self) -> None:
        state = standard()  # the die is to be rolled
        with pytest.raises(NotationError, match=r"chance outcomes look like .*roll:null") as refused:
            state.game.parse_action(state, "fly:a1")
        assert "move:" not in str(refused.value)

    def test_well_formed_but_illegal_is_an_illegal_action(self) -> None:
        state = standard()
        with pytest.raises(IllegalActionError, match="legal actions are"):
            state.game.parse_action(state, "move:f1")


class TestHiddenInformation:
    def test_observation_hides_face_down_ranks_and_the_state_document_keeps_them(self) -> None:
        state = arrange(standard(), down=["c6", "a5"])
        for player in (0, 1, None):
            obs = state.observation(player)
            assert obs["cards"][sq("c6")] is None and obs["cards"][sq("a5")] is None
            assert obs["face_down"] == ["a5", "c6"]
            assert obs["cards"][sq("b6")] == "Ah"
        assert state.to_json()["cards"][sq("c6")] == "Ad"

    def test_memory_aid_shows_them(self) -> None:
        state = arrange(standard(memory_aid=True), down=["c6"])
        assert state.observation(0)["cards"][sq("c6")] == "Ad"

    def test_a_players_text_shows_face_down_cards_blank(self) -> None:
        state = arrange(standard(), down=["c6"])
        assert "Ad" not in state.game.render_text(state, 0)
        assert "##" in state.game.render_text(state, 0)
        assert "##" in state.game.render_text(state)  # a spectator sees what the players see
        assert "#Ad" in state.game.render_text(state, reveal=True)  # the replay of a record shows all
        assert "#Ad" in str(arrange(standard(memory_aid=True), down=["c6"]))


class TestStateDocuments:
    def test_every_phase_round_trips(self) -> None:
        g = game(players=2, races=2, max_rounds=3)
        rng = random.Random(4)
        state = g.new_initial_state()
        phases = set()
        while not state.is_terminal():
            phases.add(PHASE_NAMES[state.phase])
            doc = json.loads(json.dumps(state.to_json()))
            again = g.state_from_json(doc)
            assert again.to_json() == state.to_json()
            assert [str(a) for a in again.legal_actions()] == [str(a) for a in state.legal_actions()]
            if state.current_player() == CHANCE:
                state.apply_action(sample_outcome(state.chance_outcomes(), rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        assert g.state_from_json(state.to_json()).returns() == state.returns()
        assert phases >= {"deal", "start", "flags", "roll", "move"}

    @pytest.mark.parametrize(
        "change",
        [
            {"phase": "lunch"},
            {"cards": ["As"] * 36},
            {"face_down": ["c3"]},  # the 6h: cards 6-9 are never face down
            {"face_down": ["c4"]},  # a pawn stands there
            {"pawns": ["c4", "c4"]},
            {"pawns": ["c4", "z9"]},
            {"touched": [5, 0]},
            {"touched": [-1, 0]},
            {"roll": "seven"},
            {"round": 0},
            {"coins": [[1, 2]]},
            {"flags": [["a6", "a6", "f3", "b3", "c4"], ["e3", "a3", "b6", "e6", "d3"]]},
            {"flags": [["f1", "d6", "f3", "b3", "c4"], ["e3", "a3", "b6", "e6", "d3"]]},
            {"last_flip": {"kind": "sideways", "square": "a1", "ok": True}},
            {"last_flip": {"kind": "down", "square": None, "ok": True}, "roll": "ace"},
            # c6 holds the ace of diamonds, face up: it cannot have just gone face down,
            # nor have been a wrong guess for an ace.
            {"last_flip": {"kind": "down", "square": "c6", "ok": True}, "roll": "ace"},
            {"last_flip": {"kind": "up", "square": "c6", "ok": False}, "roll": "ace", "face_down": ["c6"]},
            {"last_flip": {"kind": "down", "square": "c6", "ok": True}, "face_down": ["c6"]},  # no roll
            {"touched": [True, 0]},
            {"past_rounds": 7},  # no race has finished yet
        ],
    )
    def test_impossible_positions_are_refused(self, change: dict[str, object]) -> None:
        state = standard()
        doc = {**state.to_json(), **change}
        with pytest.raises(InvalidStateError):
            state.game.state_from_json(doc)

    def test_the_setup_comes_before_the_first_round(self) -> None:
        state = play(standard().game.new_initial_state())
        doc = state.to_json()
        assert doc["phase"] == "deal"
        with pytest.raises(InvalidStateError, match="first round"):
            state.game.state_from_json({**doc, "round": 3})

    def test_a_flip_phase_has_not_flipped_yet(self) -> None:
        state = rolled(arrange(standard(), down=["c6"]), "ace")
        doc = state.to_json()
        assert doc["phase"] == "flip"
        flipped = {"kind": "down", "square": "c6", "ok": True}
        with pytest.raises(InvalidStateError, match="one card is flipped per turn"):
            state.game.state_from_json({**doc, "last_flip": flipped})

    def test_a_wrong_guess_reads_back(self) -> None:
        state = rolled(arrange(standard(), pawns=["b4", "d3"], down=["a5", "c6"]), "2")
        play(state, "up:c6")  # the ace of diamonds, not a 2
        assert state.game.state_from_json(state.to_json()).to_json() == state.to_json()

    def test_a_move_phase_without_a_legal_move_is_refused(self) -> None:
        state = rolled(standard(), "null")
        doc = state.to_json()
        assert doc["phase"] == "move"
        doc["pawns"] = ["a6", "a5"]  # boxed in: the move would have been forfeited
        doc["face_down"] = ["b6"]
        with pytest.raises(InvalidStateError, match="no legal action"):
            state.game.state_from_json(doc)
        doc["face_down"] = []
        assert state.game.state_from_json(doc).legal_actions()

    def test_missing_fields_are_refused(self) -> None:
        state = standard()
        doc = state.to_json()
        del doc["pawns"]
        with pytest.raises(InvalidStateError):
            state.game.state_from_json(doc)


class TestPictures:
    def test_text_shows_grid_flags_pawns_and_whose_turn(self) -> None:
        state = rolled(arrange(standard(), down=["c6"]), "ace")
        text = str(state)
        assert "suns to flip, rolled ace" in text
        assert "@S" in text and "@M" in text and "S1" in text and "M5" in text
        assert text.count("##") == 2  # the face-down c6 and the legend

    def test_svg_draws_cards_backs_flags_pawns_and_the_die(self) -> None:
        state = rolled(arrange(standard(), down=["c6"]), "ace")
        svg = state.game.render_svg(state)
        assert svg.startswith("<svg") and svg.endswith("</svg>")
        root = ElementTree.fromstring(svg)  # well-formed XML
        assert root.tag.endswith("svg")
        assert svg.count('fill="url(#back)"') == 1
        assert svg.count('data-piece="flag-') == 10 and svg.count('data-piece="pawn-') == 2
        assert "die: ace" in svg
        assert "A♦" not in svg  # the face-down ace of diamonds is drawn as a back

    def test_describe_action_speaks_the_games_words(self) -> None:
        state = rolled(arrange(standard(), down=["c6"]), "ace")
        g = state.game
        sentences = [g.describe_action(state, a) for a in state.legal_actions()]
        assert "Try to flip the card on c6 face up (it must be an ace)." in sentences
        play(state, "down:a6")
        assert g.describe_action(state, state.legal_actions()[0]).startswith("Move to")


class TestHeuristic:
    def test_shares_sum_to_one_and_favour_the_player_further_along(self) -> None:
        state = arrange(standard(), progress=[3, 1])
        shares = state.game.heuristic(state)
        assert sum(shares) == pytest.approx(1.0)
        assert shares[0] > shares[1]

    def test_closer_to_the_next_flag_is_better(self) -> None:
        state = arrange(standard(), pawns=["a5", "d3"])  # the suns beside their ace (a4)
        beside = state.game.heuristic(state)[0]
        arrange(state, pawns=["f1", "d3"])  # the suns in the far corner
        assert beside > state.game.heuristic(state)[0]

    def test_steps_count_the_whole_route_through_the_flags_left(self) -> None:
        state = standard()
        route = [state.pawns[0], *state.flag_sq[0 : state.nflags]]
        straight = sum(abs(a % 6 - b % 6) + abs(a // 6 - b // 6) for a, b in pairwise(route))
        exposed = sum(flag_exposure(state)[flag] for flag in route[1:])
        assert state.phase == ROLL_PHASE and state.mover() == 0
        # Nothing face down: the first leg is straight too; the suns move this round (one less).
        assert steps_to_finish(state, 0) == straight + exposed - 1

    def test_steps_left_are_the_nearest_princes_and_none_before_the_race(self) -> None:
        g = game(players=2)
        assert g.steps_left(dealt(g)) is None  # the board is laid, no pawn has started
        state = arrange(standard(), pawns=["f1", "d3"])  # the suns in the far corner
        assert steps_to_finish(state, 1) < steps_to_finish(state, 0)
        assert g.steps_left(state) == steps_to_finish(state, 1)  # the moons are nearer

    def test_a_face_down_flag_card_costs_steps_until_it_is_turned_up(self) -> None:
        state = standard()
        flag = SQUARE_NAMES[state.flag_sq[0]]
        before = steps_to_finish(state, 0)
        arrange(state, down=[flag])
        assert steps_to_finish(state, 0) == before + FLAG_FACE_DOWN

    def test_a_flag_guarded_on_every_side_by_cards_that_never_flip_costs_only_its_walk(self) -> None:
        # c2 is the 7d, beside the 7h, the 7c, the 9s and the 6h: none of them ever turns face down.
        assert flag_exposure(standard())[sq("c2")] == 0

    def test_a_flag_on_a_card_that_can_turn_face_down_costs_more_steps(self) -> None:
        # e4 is the 4d: an ace-5 may go face down. Of its sides only e3 (the 6d) never flips.
        assert flag_exposure(standard())[sq("e4")] == FLIPPABLE_FLAG + 3 * OPEN_SIDE

    def test_the_edge_of_the_board_guards_nothing(self) -> None:
        # f1 is the 9c in the corner: e1 and f2 (the 9d, the 8h) guard it; two sides are the edge.
        assert flag_exposure(standard())[sq("f1")] == 2 * OPEN_SIDE

    def test_an_exposed_flag_makes_its_owners_race_longer(self) -> None:
        # A race to two flags, the moons' ace moved from c2 to e4: from d3 and back, the same
        # walk either way, to a more exposed card.
        state = arrange(standard(flags=2), flags={1: ["c2"]})
        guarded = steps_to_finish(state, 1)
        arrange(state, flags={1: ["e4"]})
        assert steps_to_finish(state, 1) == guarded + FLIPPABLE_FLAG + 3 * OPEN_SIDE

    def test_the_exposure_reads_no_face_down_rank(self) -> None:
        # Only cards ace-5 are ever face down, so turning cards down changes nothing.
        state = standard()
        before = flag_exposure(state)
        arrange(state, down=["e5", "d4", "f4"])
        assert flag_exposure(state) == before

    def test_a_state_read_from_its_document_knows_which_cards_never_flip(self) -> None:
        state = arrange(standard(), down=["e5"])
        read = state.game.state_from_json(state.to_json())
        assert isinstance(read, RoyalRacersState)
        assert read.always_up == state.always_up
        assert read.game.heuristic(read) == state.game.heuristic(state)

    def test_a_player_whose_move_is_still_to_come_is_a_step_further_on(self) -> None:
        state = standard()
        assert state.mover() == 0
        first = steps_to_finish(state, 1)
        rolled(state, "null")
        state.apply_action(state.legal_actions()[0])  # the suns move; the moons are to roll
        assert state.mover() == 1 and steps_to_finish(state, 1) == first

    def test_a_finished_game_gives_its_returns(self) -> None:
        state = arrange(standard(), pawns=["b4", "f1"], progress=[4, 0])
        rolled(state, "null")
        play(state, "move:c4")
        assert state.game.heuristic(state) == [1.0, 0.0]


@given(
    down=st.integers(min_value=0, max_value=(1 << SQUARES) - 1),
    start=st.integers(min_value=0, max_value=SQUARES - 1),
    goal=st.integers(min_value=0, max_value=SQUARES - 1),
)
def test_the_flood_fill_distance_is_the_breadth_first_one(down: int, start: int, goal: int) -> None:
    def passable(square: tuple[int, int]) -> bool:
        x, y = square
        return 0 <= x < 6 and 0 <= y < 6 and not down >> (y * 6 + x) & 1

    expected = bfs_distances([(start % 6, start // 6)], passable).get((goal % 6, goal // 6))
    assert _steps_between(start, goal, ((1 << SQUARES) - 1) & ~down) == expected


@given(seed=st.integers(min_value=0, max_value=2**31), players=st.integers(min_value=2, max_value=4))
def test_random_play_keeps_the_table_consistent(seed: int, players: int) -> None:
    g = game(players=players, flag_variant=seed % 2 == 0, max_rounds=40)
    rng = random.Random(seed)
    state = g.new_initial_state()
    progress = [0] * players
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        placed = [p for p in state.pawns if p >= 0]
        assert len(set(placed)) == len(placed)
        assert not any(state.down >> p & 1 for p in placed)
        assert all(RANK_OF[state.cards[s]] <= 5 for s in range(SQUARES) if state.down >> s & 1)
        if ROLL_PHASE <= state.phase < OVER:  # flags touched never go back during a race
            assert all(a >= b for a, b in zip(state.progress, progress, strict=True))
            progress = list(state.progress)
    assert sum(state.returns()) == pytest.approx(1.0)


@given(seed=st.integers(min_value=0, max_value=2**31), players=st.integers(min_value=2, max_value=4))
def test_a_stored_verdict_is_the_one_computed_afresh(seed: int, players: int) -> None:
    # The heuristic keeps its verdicts by what it reads of a position; a position met
    # again (after another roll, in another playout, in another game) must get the
    # verdict it would get afresh, or the key misses something the count reads.
    g = game(players=players, races=1 + seed % 2, max_rounds=30)
    rng = random.Random(seed)
    state = g.new_initial_state()
    while not state.is_terminal():
        if state.phase != OVER:
            racing = state.phase in (ROLL_PHASE, FLIP_PHASE, MOVE_PHASE)
            assert evaluate(state) == _shares(state, racing)
        if state.current_player() == CHANCE:
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))


@given(seed=st.integers(min_value=0, max_value=2**31), players=st.integers(min_value=2, max_value=4))
def test_flips_called_alike_are_the_wrong_guesses_leaving_one_position(seed: int, players: int) -> None:
    # Every wrong guess sends the pawn back and leaves the cards: the same position but
    # for the card named (last_flip). Search plays such flips out once (same_position),
    # so no other flip may be called alike, and no two flips left apart may be alike.
    g = game(players=players, max_rounds=30)
    rng = random.Random(seed)
    state = g.new_initial_state()
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
            continue
        legal = state.legal_actions()
        if state.phase == FLIP_PHASE:
            alike = g.same_position(state, legal)
            after = []
            for action in legal:
                child = state.clone()
                child.apply_action(action)
                after.append({**child.to_json(), "last_flip": None})
            flips = racer_actions(state)
            ranks = [RANK_OF[state.cards[flip.arg]] for flip in flips]
            wrong = [i for i, flip in enumerate(flips) if flip.kind is Kind.UP and ranks[i] != state.roll]
            assert alike == [wrong[0] if i in wrong else i for i in range(len(legal))]
            for i in range(len(legal)):
                assert after[i] == after[alike[i]]
                assert all(after[i] != after[j] for j in range(i) if alike[j] == j and alike[i] == i)
        else:
            assert g.same_position(state, legal) == list(range(len(legal)))
        state.apply_action(rng.choice(legal))
