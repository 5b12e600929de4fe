"""The story of a race as the table tells it: rulebook situations, each action's sentence,
the places it changed, the picture's pieces and titles, the legend, and what is kept
without the memory aid (issue 48).

The standard position (helpers.py's deck-order deal, two players, flags on the first
free cards):

    6  As S1   Ah M3   Ad      Ac S2   2s M4   2h
    5  2d      2c      3s      3h      3d      3c
    4  4s      4h      4d S5@S 4c      5s      5h
    3  5d M2   5c S4   6s      6h M5@M 6d M1   6c S3
"""

from __future__ import annotations

import json
import re

import pytest

from chaosgames import InvalidStateError
from chaosgames.core.story import Told, slug
from chaosgames.games.royal_racers import story
from chaosgames.games.royal_racers.state import RoyalRacersState
from tests.games.royal_racers.helpers import arrange, dealt, game, play, raced, rolled


def view_width(svg: str) -> int:
    """The width of the picture's viewBox."""
    found = re.search(r'viewBox="0 0 (\d+) ', svg)
    assert found is not None
    return int(found.group(1))


PIECE = re.compile(r'data-piece="([^"]*)"')


def standard(**options: object) -> RoyalRacersState:
    return raced(game(players=2, **options), ["c4", "d3"])


def told(state: RoyalRacersState, text: str, viewer: int | None = None) -> Told:
    """Apply `text` to `state` (in place) and say how it reads to `viewer`."""
    before = state.clone()
    action = state.game.parse_action(state, text)
    state.apply_action(action)
    return state.game.tell(before, action, state, viewer)


def card_line(svg: str, square: str) -> str:
    """The picture's line for the card on `square` (each card is one group on one line)."""
    return next(line for line in svg.splitlines() if f'data-at="{square}"' in line)


class TestSetup:
    def test_a_deal_names_its_card_only_for_the_moment(self) -> None:
        state = game(players=2).new_initial_state()
        t = told(state, "deal:7h")
        assert t.now == "The 7 of hearts is laid face up on a6."
        # The card may be turned face down later: the log keeps its square only.
        assert (t.notation, t.kept) == ("deal", "A card is laid face up on a6.")
        assert t.places == ("a6",)

    def test_with_the_memory_aid_the_log_keeps_the_card(self) -> None:
        t = told(game(players=2, memory_aid=True).new_initial_state(), "deal:7h")
        assert (t.notation, t.kept) == ("deal:7h", "The 7 of hearts is laid face up on a6.")

    def test_the_last_card_says_who_chooses_a_start(self) -> None:
        state = game(players=2).new_initial_state()
        for card in [f"{r}{s}" for r in "A23456789" for s in "shdc"][:-1]:
            play(state, f"deal:{card}")
        assert told(state, "deal:9c").kept == (
            "A card is laid face up on f1. The grid is laid out: suns chooses a starting square first."
        )

    def test_a_start_puts_the_highest_flag_under_the_pawn(self) -> None:
        t = told(dealt(game(players=2)), "start:c4")
        assert (
            t.kept
            == t.now
            == (
                "suns starts on c4 (north-west quadrant) with the suns' 5 flag under the pawn: "
                "the race ends there."
            )
        )
        assert t.places == ("c4",)

    def test_a_flag_placement_says_whose_flag_and_when_it_is_touched(self) -> None:
        state = play(dealt(game(players=2)), "start:c4", "start:d3")
        t = told(state, "place:e3")  # the suns place the moons' first flag in the moons' quadrant
        assert t.kept == "suns places the moons' ace flag on e3: moons must touch it first."
        assert t.places == ("e3",)

    def test_the_last_placement_starts_the_race(self) -> None:
        state = play(dealt(game(players=2, flags=2)), "start:c4", "start:d3", "place:e3")
        assert told(state, "place:a6").kept == (
            "moons places the suns' ace flag on a6: suns must touch it first. "
            "Every flag is placed: the race begins, suns first."
        )


class TestTheDieAndTheFlip:
    def test_the_die_is_told_for_the_turn_and_kept_without_its_face(self) -> None:
        t = told(standard(), "roll:2")
        assert t.now == "The die shows 2 for suns: suns must turn a 2 face down."
        assert (t.notation, t.kept) == ("roll", "The die is rolled for suns.")
        assert t.places == ()

    def test_a_roll_says_what_the_player_may_do(self) -> None:
        assert told(standard(), "roll:null").now == "The die shows null for suns: no card flips this turn."
        state = arrange(standard(), down=["a5"])
        assert told(state, "roll:2").now == (
            "The die shows 2 for suns: suns turns a 2 face down, or tries to turn one face up from memory."
        )
        state = arrange(standard(), down=["a5", "b5", "e6", "f6"], pawns=["c4", "d3"])
        assert told(state, "roll:2").now == (
            "The die shows 2 for suns: no 2 can go face down, so suns must try to turn a 2 face up "
            "from memory."
        )

    def test_every_card_of_the_rank_under_a_pawn(self) -> None:
        g = game(players=4)
        state = raced(g, ["c4", "d4", "c3", "d3"])
        arrange(state, pawns=["a4", "b4", "c4", "d4"], down=["a5"])  # the four 4s, each under a pawn
        assert told(state, "roll:4").now == (
            "The die shows 4 for suns: every 4 is under a pawn, so suns turns any face-down card face up."
        )
        t = told(state, "reveal:a5")
        assert t.now == "Every 4 is under a pawn, so suns turns a5 face up: the 2 of diamonds."
        assert t.kept == "suns turns a5 face up (every card of the rank rolled is under a pawn)."

    def test_a_card_turned_down_is_kept_by_its_square_only(self) -> None:
        state = rolled(standard(), "ace")
        t = told(state, "down:c6")
        assert t.now == "suns turns the ace of diamonds on c6 face down: no pawn may land there."
        assert (t.notation, t.kept) == ("down:c6", "suns turns c6 face down: no pawn may land there.")
        assert t.places == ("c6",)

    def test_a_flag_turned_down_is_named(self) -> None:
        # c6 is the only ace without a flag; once it is down, the flagged ones may go.
        state = rolled(arrange(standard(), down=["c6"]), "ace")
        t = told(state, "down:a6")
        assert t.kept == "suns turns a6 face down: no pawn may land there. It carries the suns' ace flag."

    def test_a_right_guess_keeps_no_rank(self) -> None:
        state = rolled(arrange(standard(), down=["a5"]), "2")
        t = told(state, "up:a5")
        assert t.now == "Right: a5 is the 2 of diamonds; suns turns it face up."
        assert t.kept == "suns guessed a5 right and turned it face up."
        assert t.places == ("a5",)

    def test_a_wrong_guess_is_told_and_shown_until_the_next_decision(self) -> None:
        # The case: a 5 rolled, b6 named, but b6 is the ace of hearts.
        state = rolled(arrange(standard(), pawns=["b4", "d3"], down=["b6", "e4"]), "5")
        t = told(state, "up:b6")
        assert t.now == "Wrong: b6 is the ace of hearts; suns goes back to c4."
        assert t.kept == "suns guessed b6 wrong and went back to c4."
        assert t.places == ("b4", "c4", "b6")  # the pawn's squares and the card shown
        g = state.game
        # Everyone sees the card, face up with a wrong mark, during the rest of the turn.
        for viewer in (0, 1, None):
            assert state.observation(viewer)["last_flip"] == {
                "kind": "up",
                "square": "b6",
                "ok": False,
                "card": "Ah",
            }
        line = card_line(g.render_svg(state, None, legend=False), "b6")
        assert "A♥" in line and "✗" in line and "wrong guess" in line
        assert "!Ah" in g.render_text(state, 1)
        sections = {s.title: s for s in g.legend(state, None)}
        assert any("Wrong guess: b6 is the ace of hearts" in e.text for e in sections["Race 1 of 1"].entries)
        # The move is the next decision: the card is a back again everywhere, and b6 changed.
        t = told(state, "move:c5")
        assert t.places == ("c4", "c5", "b6")
        assert state.observation(None)["last_flip"] is None
        svg = g.render_svg(state, None, legend=False)
        assert "A♥" not in svg and "b6: face down" in card_line(svg, "b6")
        assert "Ah" not in g.render_text(state, None)

    def test_the_nearest_free_card_is_named_when_the_flag_is_taken(self) -> None:
        state = rolled(arrange(standard(), pawns=["f4", "d6"], down=["a5", "c6"], progress=[2, 0]), "2")
        t = told(state, "up:c6")
        assert t.now == "Wrong: c6 is the ace of diamonds; suns goes back to e6, the nearest free card to d6."

    def test_a_forfeited_move_is_said(self) -> None:
        # The suns boxed in on a6 by face-down cards and the moons.
        state = arrange(standard(), pawns=["a6", "b6"], down=["a5"])
        t = told(state, "roll:null")
        assert (
            t.now
            == "The die shows null for suns: no card flips this turn. suns has no legal move and forfeits it."
        )
        assert t.kept == "The die is rolled for suns. suns has no legal move and forfeits it."


class TestMovesAndRaces:
    def test_a_move_and_a_flag_touched(self) -> None:
        state = rolled(standard(), "null")
        t = told(state, "move:b4")
        assert t.kept == t.now == "suns moves from c4 to b4."
        assert t.places == ("b4", "c4")
        state = rolled(arrange(standard(), pawns=["a5", "d3"]), "null")
        assert (
            told(state, "move:a6").kept
            == "suns moves from a5 to a6 and touches the suns' ace flag: 1 of 5 flags."
        )

    def test_coming_home_wins(self) -> None:
        state = rolled(arrange(standard(), pawns=["c5", "d3"], progress=[4, 0]), "null")
        assert (
            told(state, "move:c4").kept == "suns comes home to c4, touching the last flag, and wins the race!"
        )

    def test_a_campaign_race_ends_with_coins_and_a_new_shuffle(self) -> None:
        state = raced(game(players=2, races=2), ["c4", "d3"])
        rolled(arrange(state, pawns=["c5", "d3"], progress=[4, 1]), "null")
        t = told(state, "move:c4")
        assert t.kept == (
            "suns comes home to c4, touching the last flag, and wins the race! Coins for the flags "
            "touched: suns 5, moons 1. Race 2 of 2 begins: the cards are gathered and shuffled."
        )
        assert len(t.places) == 36  # every card is gathered

    def test_the_cap_stops_the_race(self) -> None:
        state = raced(game(players=2, max_rounds=1), ["c4", "d3"])
        play(state, "roll:null", "move:b4", "roll:null")
        t = told(state, "move:e3")  # the moons touch their ace flag as the round ends
        assert t.kept == (
            "moons moves from d3 to e3 and touches the moons' ace flag: 1 of 5 flags. "
            "The race stops at the round cap (1 rounds); most flags touched: moons (1)."
        )

    def test_stay(self) -> None:
        state = rolled(standard(optional_move=True), "null")
        t = told(state, "stay")
        assert t.kept == "suns stays on c4."


class TestWhatTheTableShows:
    def test_the_die_is_shown_only_for_the_turn_in_progress(self) -> None:
        state = rolled(standard(), "ace")
        assert state.observation(1)["roll"] == "ace"
        play(state, "down:c6")
        assert state.observation(None)["roll"] == "ace"  # the move is still to come
        assert state.observation(None)["last_flip"]["card"] == "Ad"
        play(state, "move:b4")
        obs = state.observation(None)
        assert obs["roll"] is None and obs["last_flip"] is None
        assert state.to_json()["roll"] == "ace"  # the full state keeps it
        g = state.game
        assert "die: -" in g.render_svg(state) and "die: ace" in g.render_svg(state, reveal=True)

    def test_with_the_memory_aid_the_die_stays_in_view(self) -> None:
        state = play(rolled(standard(memory_aid=True), "ace"), "down:c6", "move:b4")
        assert state.observation(None)["roll"] == "ace"

    def test_a_flip_kept_after_its_turn_is_refused_in_a_document(self) -> None:
        state = play(rolled(standard(), "ace"), "down:c6", "move:b4")
        doc = state.to_json()
        doc["last_flip"] = {"kind": "down", "square": "c6", "ok": True, "card": "Ad"}
        with pytest.raises(InvalidStateError, match="last_flip is kept only until the next decision"):
            state.game.state_from_json(doc)

    def test_a_flip_before_a_forfeited_move_lasts_until_the_next_roll(self) -> None:
        state = rolled(arrange(standard(), pawns=["a6", "d3"], down=["a5", "c6"]), "ace")
        t = told(state, "down:b6")  # the suns' last way out goes down: their move is forfeited
        assert t.kept == (
            "suns turns b6 face down: no pawn may land there. It carries the moons' 3 flag. "
            "suns has no legal move and forfeits it."
        )
        assert state.observation(None)["phase"] == "roll"
        assert state.observation(None)["last_flip"]["card"] == "Ah"
        again = state.game.state_from_json(json.loads(json.dumps(state.to_json())))
        assert again.to_json() == state.to_json()
        play(state, "roll:null")
        assert state.observation(None)["last_flip"] is None

    def test_pieces_are_known_by_square_owner_and_number(self) -> None:
        state = play(rolled(standard(), "ace"), "down:c6")
        svg = state.game.render_svg(state, None, legend=False)
        pieces = PIECE.findall(svg)
        assert len(pieces) == len(set(pieces)) == 36 + 10 + 2
        assert 'data-piece="card-c6" data-at="c6"' in svg
        assert {"flag-suns-ace", "flag-moons-5", "pawn-suns", "pawn-moons"} <= set(pieces)
        assert all(
            re.fullmatch(r"card-[a-f][1-6]|flag-[a-z]+-(null|ace|[2-5])|pawn-[a-z]+", p) for p in pieces
        )

    def test_titles_say_what_a_thing_is_and_what_it_can_do(self) -> None:
        state = arrange(standard(), down=["c6"])
        svg = state.game.render_svg(state, None, legend=False)
        assert "<title>a6: the ace of spades, face up; a roll of an ace may turn it face down. " in svg
        assert "The suns' ace flag lies here.</title>" in svg
        assert "<title>c6: face down, its rank hidden (remember it!)." in svg
        assert (
            "<title>The suns' pawn on c4: 0 of 5 flags touched; next: the suns' ace flag on a6.</title>"
            in svg
        )
        assert "<title>The moons' 5 flag on d3: moons started on it and wins by coming back" in svg

    def test_the_board_alone_is_cropped_and_readable_on_a_phone(self) -> None:
        state = standard()
        g = state.game
        board = g.render_svg(state, None, legend=False)
        width = view_width(board)
        assert width == 432 and "Race 1 of 1" not in board
        assert view_width(g.render_svg(state)) > width
        # A card is 58 units: 48 CSS px at 360 px wide (24 needed); no text under 11 px there.
        assert 58 * 360 / width >= 24
        sizes = [int(s) for s in re.findall(r'font-size="(\d+)"', board)]
        assert min(sizes) * 360 / width >= 11


class TestLegendGroupsAndRules:
    def test_the_legend_keys_the_picture(self) -> None:
        state = rolled(arrange(standard(), progress=[1, 0], pawns=["a6", "d3"]), "2")
        sections = {s.title: [e.text for e in s.entries] for s in state.game.legend(state, 0)}
        assert list(sections) == ["Race 1 of 1", "Pawns and flags", "Cards", "The die"]
        assert sections["Race 1 of 1"][:2] == ["Round 1: suns flips a card.", "The die shows 2 for suns."]
        assert sections["Pawns and flags"][0] == (
            "suns (S) on a6: 1 of 5 flags touched; next: the suns' 2 flag on d6."
        )
        assert "Memory aid off: face-down ranks are not shown anywhere; remember them." in sections["Cards"]
        memory = standard(memory_aid=True)
        assert any("Memory aid on" in e.text for s in memory.game.legend(memory) for e in s.entries)

    def test_flips_are_grouped_down_first_then_guesses(self) -> None:
        state = rolled(arrange(standard(), down=["a5"]), "2")
        g = state.game
        groups = [g.action_group(state, a) for a in state.legal_actions()]
        assert groups[0] == (0, "Turn a card face down")
        assert groups[-1] == (1, "Try to turn a card face up (from memory)")

    def test_every_kind_of_action_links_to_a_heading_of_the_rules(self) -> None:
        from importlib import resources

        text = resources.files("chaosgames.games.royal_racers").joinpath("rules.md").read_text()
        headings = {slug(line.lstrip("#")) for line in text.splitlines() if line.startswith("#")}
        for kind, (_, heading) in story.CHOICES.items():
            assert slug(heading) in headings, kind
        state = standard()
        assert state.game.rules_section(state, state.legal_actions()[0]) == "the-die"
