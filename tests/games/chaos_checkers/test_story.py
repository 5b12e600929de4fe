"""The table tells the story: what each action did, where, and how to read the picture.

Rulebook situations first (set up, act, read the sentence, the squares and the moves),
then the picture (turned for the seat, potion badges a finger can tap), then random games
checked as a whole.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

import chaosgames
from chaosgames.core.chance import sample_outcome
from chaosgames.core.story import Told, slug
from chaosgames.games.chaos_checkers.state import ChaosState
from tests.games.chaos_checkers.helpers import chaos_position, piece, plain_position, play

FAR = {32: piece("blue"), 28: piece("blue")}
RED, BLUE = "red/orange/yellow", "blue/lightblue/purple"
SVG = "{http://www.w3.org/2000/svg}"


def told(state: chaosgames.State[Any], text: str, viewer: int | None = None) -> Told:
    """Apply the action written `text` to `state` and tell it."""
    before = state.clone()
    action = state.game.parse_action(state, text)
    state.apply_action(action)
    return state.game.tell(before, action, state, viewer)


# -- the story of a game, as the table sees it ------------------------------------------------


def test_a_step_names_the_player_and_the_squares_and_slides_the_piece() -> None:
    state = chaos_position({11: piece("red"), 9: piece("red"), **FAR})
    story = told(state, "11-15")
    assert story.now == story.kept == f"{RED} moves the piece on 11 to 15."
    assert story.notation == "11-15"
    assert story.places == ("11", "15")
    assert story.moves == (("11", "15"),)


def test_a_capture_says_which_piece_and_why_its_shield_did_not_stop_it() -> None:
    state = chaos_position({14: piece("red"), 9: piece("red"), 18: piece("blue", shield="orange"), **FAR})
    story = told(state, "14x23")
    assert story.now == (
        f"{RED}'s piece on 14 captures {BLUE}'s piece on 18 "
        "(its orange shield does not stop a red piece), landing on 23."
    )
    assert story.places == ("14", "23", "18")
    assert story.moves == (("14", "23"),)
    # Then the reward: "Discard your current shield ... replace it with a new random shield".
    assert told(state, "draw-shield=blue").now == (
        f"{RED} draws a blue shield for the piece on 23: blue pieces cannot capture it."
    )
    drawn = told(state, "draw-potion=orange")
    assert drawn.now == (
        f"{RED} draws an orange Leap potion for the piece on 23 (a capture may jump over one or two "
        "squares in a straight line; it is kept after use)."
    )
    assert drawn.places == ("23",)


def test_a_multi_jump_names_every_captured_piece() -> None:
    state = chaos_position(
        {
            22: piece("blue"),
            18: piece("red"),
            11: piece("red", shield="purple"),
            1: piece("red"),
            32: piece("blue"),
        },
        turn=1,
    )
    story = told(state, "22x15x8")
    assert story.now == (
        f"{BLUE}'s piece on 22 captures {RED}'s piece on 18 (it had no shield) and the piece on 11 "
        "(its purple shield does not stop a blue piece), landing on 8."
    )
    assert story.places[:3] == ("22", "15", "8") and {"18", "11"} <= set(story.places)
    assert story.moves == (("22", "8"),)


def test_the_last_piece_ignores_shields_and_the_story_says_so() -> None:
    state = chaos_position({14: piece("red"), 18: piece("blue", shield="red"), 32: piece("blue")})
    story = told(state, "14x23")
    assert "(its red shield does not count: a player is down to one piece)" in story.now


def test_crowning_is_told_and_the_new_king_draws_its_potion() -> None:
    state = chaos_position({25: piece("red", potion="green"), 9: piece("red"), **FAR})
    story = told(state, "25-29")
    assert story.now == f"{RED} moves the piece on 25 to 29, and is crowned king."
    assert told(state, "draw-potion=lightblue").now == (
        f"{RED} draws a light blue Speedy potion for the new king on 29 "
        "(this piece takes a second turn after this one)."
    )


def test_setup_draws_say_who_draws_what_for_which_piece() -> None:
    game = chaosgames.load_game("chaos-checkers")
    state = game.new_initial_state()
    assert told(state, "place:12=orange").now == f"{RED} sets an orange piece on 12."
    assert told(state, "place:11=red").places == ("11",)
    rng = random.Random(1)
    while state.to_json()["phase"] == "place":
        state.apply_action(sample_outcome(state.chance_outcomes(), rng))
    assert told(state, "shield:12=lightblue").now == (
        f"{RED} draws a light blue shield for the piece on 12: light blue pieces cannot capture it."
    )


def test_telekinesis_starts_on_its_own_badge_and_says_where_the_potion_went() -> None:
    state = chaos_position({2: piece("red", potion="blue"), 3: piece("red", potion="black"), **FAR})
    game = state.game
    action = game.parse_action(state, "telekinesis@2:3>2")
    assert game.action_places(state, action) == ("potion-2", "3", "2")
    story = told(state, "telekinesis@2:3>2")
    assert story.now == (
        f"{RED} spends the Telekinesis potion on 2 to move the black Ambush potion from 3 "
        "onto the piece on 2."
    )
    assert story.places == ("2", "3") and story.moves == ()


def test_each_potion_power_reads_in_plain_words() -> None:
    state = chaos_position(
        {14: piece("red", potion="green"), 9: piece("red"), 22: piece("blue", potion="black"), **FAR}
    )
    assert told(state, "rewind@14:22").now == (
        f"{RED} spends the Rewind potion on 14 to discard {BLUE}'s black Ambush potion on 22."
    )
    state = chaos_position({14: piece("red", potion="red"), 9: piece("red"), 22: piece("blue"), **FAR})
    story = told(state, "sacrifice@14:22")
    assert story.now == (
        f"{RED} sacrifices the piece on 14 with its Sacrifice potion and eliminates {BLUE}'s piece on 22."
    )
    assert story.places == ("14", "22")
    state = chaos_position({14: piece("red", potion="yellow"), 9: piece("red"), **FAR})
    assert told(state, "wild@14=black").now == (
        f"{RED} spends the Wild potion on 14 and takes a black Ambush potion from the pouch for it instead."
    )
    state = chaos_position({14: piece("red", potion="white"), 9: piece("red"), **FAR})
    story = told(state, "revive@14:2=red")
    assert story.now == (
        f"{RED} spends the Revive potion on 14: a red piece of {RED} comes back on 2; "
        "the white potion leaves the game."
    )
    assert story.places == ("14", "2")
    state = chaos_position(
        {14: piece("red", potion="pink"), 9: piece("red", shield="blue"), **FAR}, pink=True
    )
    assert told(state, "reclaim@14:9=purple").now == (
        f"{RED} spends the Reclaim potion on 14 to give the piece on 9 a purple shield "
        "(purple pieces cannot capture it); its blue shield goes back to the bag."
    )
    state = chaos_position({14: piece("red", potion="clear"), 9: piece("red"), **FAR})
    assert told(state, "unghost@14").now == (
        f"{RED} discards the Ghost potion of the piece on 14: it can capture and be captured again."
    )


def test_speedy_tells_of_the_second_turn_and_of_a_pass() -> None:
    state = chaos_position({14: piece("red", potion="lightblue"), 9: piece("red"), **FAR})
    assert told(state, "speedy@14").now == (
        f"{RED} spends the Speedy potion on 14: that piece will take a second turn after this one."
    )
    assert told(state, "14-18").now == (
        f"{RED} moves the piece on 14 to 18. The Speedy piece on 18 now takes its second turn."
    )
    story = told(state, "pass")
    assert story.now == f"{RED} declines the second turn of the Speedy piece on 18."
    assert story.places == ("18",)


def test_ambush_and_leap_name_their_potion() -> None:
    state = chaos_position({14: piece("red", potion="black"), 9: piece("red"), 18: piece("blue"), **FAR})
    story = told(state, "ambush:14x18")
    assert story.now == (
        f"{RED}'s piece on 14 uses its Ambush potion and ambushes {BLUE}'s piece on 18 "
        "(it had no shield), landing on 18."
    )
    assert story.moves == (("14", "18"),)
    state = chaos_position({14: piece("red", potion="orange"), 9: piece("red"), 23: piece("blue"), **FAR})
    story = told(state, "leap:14x27")
    assert story.now.startswith(f"{RED}'s piece on 14 uses its Leap potion and captures {BLUE}'s piece on 23")
    assert story.places == ("14", "27", "23")


def test_a_ghost_jump_says_why_nothing_was_captured() -> None:
    state = chaos_position({14: piece("red", potion="clear"), 9: piece("red"), 18: piece("blue"), **FAR})
    story = told(state, "14~23")
    assert story.now == (
        f"{RED}'s piece on 14 jumps over {BLUE}'s piece on 18 to 23 without capturing it "
        "(it holds a Ghost potion, so it cannot capture)."
    )
    assert story.places == ("14", "23") and story.moves == (("14", "23"),)


def test_invulnerability_the_defender_is_asked_then_the_block_is_told() -> None:
    state = chaos_position({14: piece("red"), 9: piece("red"), 18: piece("blue", potion="purple"), **FAR})
    story = told(state, "14x23")
    assert story.now == (
        f"{RED}'s piece on 14 goes to capture {BLUE}'s piece on 18. The piece on 18 holds an "
        f"Invulnerability potion: {BLUE} decides whether to spend it to escape capture."
    )
    assert story.places == ("14", "18") and story.moves == ()
    defended = told(state, "invulnerable:18")
    assert defended.now == (
        f"{BLUE} spends the Invulnerability potion of the piece on 18: it is not captured. "
        f"{RED}'s piece jumps over it and ends its move on 23."
    )
    assert defended.places == ("18", "14", "23") and defended.moves == (("14", "23"),)


def test_an_ambush_on_an_invulnerable_piece_does_not_move() -> None:
    state = chaos_position(
        {14: piece("red", potion="black"), 9: piece("red"), 18: piece("blue", potion="purple"), **FAR}
    )
    play(state, "ambush:14x18")
    story = told(state, "invulnerable:18")
    assert story.now.endswith(f"{RED}'s ambushing piece does not move onto it and stays on 14.")
    assert story.moves == ()


def test_yielding_lets_the_capture_happen_and_says_so() -> None:
    state = chaos_position({14: piece("red"), 9: piece("red"), 18: piece("blue", potion="purple"), **FAR})
    play(state, "14x23")
    story = told(state, "yield:18")
    assert story.now == (
        f"{BLUE} does not spend the Invulnerability potion of the piece on 18, so it is captured. "
        f"{RED}'s piece ends its move on 23."
    )


def test_the_winning_capture_says_who_won_and_why() -> None:
    state = chaos_position({14: piece("red"), 9: piece("red"), 18: piece("blue")})
    assert told(state, "14x23").now.endswith(f"{RED} wins: {BLUE} has no pieces left.")


def test_several_draws_are_counted_and_the_keep_is_told() -> None:
    state = chaos_position(
        {22: piece("blue"), 18: piece("red"), 11: piece("red"), 1: piece("red"), 5: piece("red"), **FAR},
        turn=1,
    )
    play(state, "22x15x8")
    first = told(state, "draw-shield=red")
    assert (
        first.now
        == f"{BLUE} draws a red shield (draw 1 of 2) for the piece on 8: red pieces cannot capture it."
    )
    second = told(state, "draw-shield=orange")
    assert second.now.endswith(f"{BLUE} now keeps one of the shields drawn.")
    assert told(state, "keep-shield=orange").now == (
        f"{BLUE} keeps the orange shield for the piece on 8; the others go back to the bag."
    )


def test_plain_checkers_tells_moves_captures_and_crowns() -> None:
    game = chaosgames.load_game("chaos-checkers", chaos=False)
    state = game.new_initial_state()
    story = told(state, "11-15")
    assert story.now == "Black moves the man on 11 to 15."
    assert story.places == ("11", "15") and story.moves == (("11", "15"),)
    play(state, "22-18")
    capture = told(state, "15x22")
    assert capture.now == "Black's man on 15 captures White's man on 18 and lands on 22."
    assert capture.places == ("15", "22", "18")
    state = plain_position({26: 0, 10: 1})
    assert told(state, "26-30").now == "Black moves the man on 26 to 30, and is crowned king."
    state = plain_position({14: 0, 18: 1})
    assert told(state, "14x23").now.endswith("Black wins: White has no pieces left.")


# -- reselecting never spends a potion (issue 48, defect 3) ------------------------------------


def tap(
    placed: dict[str, tuple[str, ...]], prefix: list[str], under: list[str]
) -> tuple[list[str], str | None]:
    """The web page's board click (static/game.js) on the places `under` the pointer, top
    first: the new prefix of places picked, and the action played (None: none yet)."""

    def candidates(head: list[str]) -> list[str]:
        return [n for n, p in placed.items() if len(p) >= len(head) and list(p[: len(head)]) == head]

    def following(head: list[str]) -> set[str]:
        return {placed[n][len(head)] for n in candidates(head) if len(placed[n]) > len(head)}

    def choose(head: list[str]) -> tuple[list[str], str | None]:
        found = candidates(head)
        complete = [n for n in found if len(placed[n]) == len(head)]
        return (head, complete[0]) if len(complete) == 1 and len(found) == 1 else (head, None)

    place = next((p for p in under if p in following(prefix)), None)
    if place is not None:
        return choose([*prefix, place])
    for p in under:
        finishing = [n for n in candidates(prefix) if len(placed[n]) > len(prefix) and placed[n][-1] == p]
        if finishing:
            return prefix, finishing[0] if len(finishing) == 1 else None
    place = next((p for p in under if p in following([])), None)
    return choose([place]) if place is not None else ([], None)


def test_tapping_own_pieces_two_three_two_only_changes_the_selection() -> None:
    state = chaos_position({2: piece("red", potion="blue"), 3: piece("red", potion="black"), **FAR})
    game = state.game
    placed = {str(a): game.action_places(state, a) for a in state.legal_actions()}
    prefix: list[str] = []
    for square in ("2", "3", "2"):
        prefix, played = tap(placed, prefix, [square])
        assert played is None and prefix == [square]
    # Spending the potion is its own choice: its badge, then the potion to move, then where.
    prefix, played = tap(placed, [], ["potion-2", "2"])
    assert prefix == ["potion-2"] and played is None
    prefix, played = tap(placed, prefix, ["3"])
    prefix, played = tap(placed, prefix, ["2"])
    assert played == "telekinesis@2:3>2"


def _own(state: ChaosState, place: str, player: int) -> bool:
    if not place.isdigit():
        return False
    found = state.board[int(place) - 1]
    return found is not None and found.owner == player


@pytest.mark.parametrize("seed", range(6))
def test_no_action_goes_from_one_own_piece_to_another(seed: int) -> None:
    game = chaosgames.load_game("chaos-checkers", pink=True)
    for state in _positions(game, seed, 300):
        assert isinstance(state, ChaosState)
        player = state.current_player()
        for action in state.legal_actions():
            places = game.action_places(state, action)
            if places and _own(state, places[0], player):
                assert not any(_own(state, p, player) and p != places[0] for p in places[1:]), str(action)


# -- the picture -------------------------------------------------------------------------------


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def _width(root: ET.Element) -> float:
    return float(root.get("viewBox", "").split()[2])


def test_the_board_is_turned_so_the_viewers_pieces_are_at_the_bottom() -> None:
    game = chaosgames.load_game("chaos-checkers")
    state = chaos_position({1: piece("red"), 32: piece("blue")})

    def square_y(viewer: int | None, square: str) -> float:
        root = _parse(game.render_svg(state, viewer, legend=False))
        rect = next(e for e in root.iter(f"{SVG}rect") if e.get("data-place") == square)
        return float(rect.get("y", "0"))

    # The first player starts on 1-12: at the bottom for them and for a spectator, as
    # lichess shows white; the second player sees 21-32 at the bottom.
    assert square_y(0, "1") == square_y(None, "1") == 420 and square_y(0, "32") == 0
    assert square_y(1, "1") == 0 and square_y(1, "32") == 420
    plain = chaosgames.load_game("chaos-checkers", chaos=False)
    start = plain.new_initial_state()
    assert 'data-place="1"' in plain.render_svg(start, 0) and game is not plain


def test_potion_badges_are_places_a_finger_can_tap_with_a_title() -> None:
    state = chaos_position(
        {14: piece("red", king=True, shield="blue", potion="lightblue"), 9: piece("red"), **FAR}
    )
    svg = state.game.render_svg(state, 0, legend=False)
    root = _parse(svg)
    least = 24 * _width(root) / 360
    badge = next(e for e in root.iter(f"{SVG}g") if e.get("data-place") == "potion-14")
    title = badge.find(f"{SVG}title")
    assert title is not None and title.text == (
        "Potion on 14: a light blue Speedy potion: this piece takes a second turn after this one. "
        "To use it, tap this potion, then what it acts on."
    )
    circle = badge.find(f"{SVG}circle")
    assert circle is not None and 2 * float(circle.get("r", "0")) >= least
    holder = next(e for e in root.iter(f"{SVG}g") if e.get("data-piece") == "14")
    assert holder.get("data-at") == "14"
    first = holder[0]
    assert first.tag == f"{SVG}title" and first.text == (
        f"Square 14: {RED}'s red king with a blue shield (blue pieces cannot capture it) and a light "
        "blue Speedy potion (this piece takes a second turn after this one)."
    )


@pytest.mark.parametrize("chaos", [True, False])
def test_the_board_alone_fits_a_phone(chaos: bool) -> None:
    game = chaosgames.load_game("chaos-checkers", chaos=chaos)
    state = next(iter(_positions(game, 3, 40, every=40)))
    root = _parse(game.render_svg(state, 1, legend=False))
    width = _width(root)
    assert width == 480 and root.get("viewBox") == "0 0 480 480"  # the board alone
    for node in root.iter():
        if node.get("data-place") is not None and node.tag == f"{SVG}rect":
            assert float(node.get("width", "0")) >= 24 * width / 360
        if node.get("font-size") is not None:
            assert float(node.get("font-size", "0")) >= 11 * width / 360


def test_every_square_and_piece_says_what_it_is() -> None:
    state = chaos_position({14: piece("red"), 9: piece("red"), **FAR})
    root = _parse(state.game.render_svg(state, None, legend=False))
    squares = [e for e in root.iter() if e.get("data-place", "").isdigit()]
    assert {e.get("data-place") for e in squares} == {str(n) for n in range(1, 33)}
    for node in (*squares, *(e for e in root.iter() if e.get("data-piece"))):
        assert node[0].tag == f"{SVG}title" and node[0].text
    empty = next(e for e in squares if e.get("data-place") == "15")
    assert empty[0].text == "Square 15: empty."


# -- the legend, the list of choices, the rules --------------------------------------------------


def test_the_legend_has_the_pieces_shields_potions_bags_and_turn() -> None:
    state = chaos_position({14: piece("red", potion="lightblue"), 9: piece("red"), **FAR})
    sections = {s.title: s for s in state.game.legend(state, 1)}
    assert list(sections) == ["Pieces", "Shields", "Potions", "Bags and eliminated pieces", "Turn"]
    pieces = [e.text for e in sections["Pieces"].entries]
    assert (
        pieces[0] == f"{RED}: red, orange and yellow pieces, starting on 1-12, at the top, and moving first."
    )
    assert pieces[4].startswith(f"{BLUE} (you): ") and "at the bottom" in pieces[4]
    speedy = next(e for e in sections["Potions"].entries if e.symbol == "S")
    assert (
        speedy.text == "Speedy (light blue): this piece takes a second turn after this one. In the pouch: 4."
    )
    assert speedy.colour == "#7ec8f0"
    bags = [e.text for e in sections["Bags and eliminated pieces"].entries]
    assert (
        bags[0] == f"{RED}: shield bag 5 blue, 5 purple, 5 light blue; pieces lost 2 red, 4 orange, 4 yellow."
    )
    assert sections["Turn"].entries[0].text == f"{RED} to move: a potion first, if any, then a move."
    rings = [e.text for e in sections["Shields"].entries[1:]]
    assert "purple ring: purple pieces cannot capture it." in rings


def test_the_list_puts_moves_first_then_potions_by_power() -> None:
    state = chaos_position(
        {
            14: piece("red", potion="lightblue"),
            9: piece("red", potion="green"),
            22: piece("blue", potion="black"),
            **FAR,
        }
    )
    game = state.game
    groups = [game.action_group(state, a) for a in state.legal_actions()]
    ordered = sorted(groups, key=lambda g: g[0])
    assert ordered[0] == (0, "Moves and captures")
    headings = list(dict.fromkeys(h for _, h in ordered))
    assert headings == ["Moves and captures", "Speedy potion", "Rewind potion"]


def test_every_action_links_to_a_heading_of_the_rules() -> None:
    from importlib import resources

    text = resources.files("chaosgames.games.chaos_checkers").joinpath("rules.md").read_text()
    headings = {slug(line.lstrip("#").strip()) for line in text.splitlines() if line.startswith("#")}
    game = chaosgames.load_game("chaos-checkers", pink=True)
    seen = set()
    for state in _positions(game, 4, 400):
        for action in state.legal_actions():
            section = game.rules_section(state, action)
            assert section in headings, (str(action), section)
            seen.add(section)
    assert {"moves-and-captures", "speedy-light-blue"} <= seen


def test_chance_forms_are_not_offered_to_a_player() -> None:
    state = chaos_position({14: piece("red"), 9: piece("red"), **FAR})
    with pytest.raises(chaosgames.ChaosGamesError) as refused:
        state.game.parse_action(state, "nonsense")
    assert "draw-shield" not in str(refused.value) and "place:12" not in str(refused.value)
    assert "keep-shield=blue" in str(refused.value)


# -- random games: every action told, every place on a picture ------------------------------------

A_VOWEL = re.compile(r"\ba [aeiou]|\(s\)", re.IGNORECASE)


def _positions(game: chaosgames.Game[Any, Any], seed: int, decisions: int, every: int = 1) -> Any:
    """The positions where a player decides, in a seeded random game."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    made = 0
    while not state.is_terminal() and made < decisions:
        if state.current_player() == chaosgames.CHANCE:
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
            continue
        if made % every == 0:
            yield state.clone()
        state.apply_action(rng.choice(state.legal_actions()))
        made += 1


def _pictured(
    game: chaosgames.Game[Any, Any], state: chaosgames.State[Any], viewer: int | None
) -> tuple[set[str], set[str]]:
    """The data-place ids and the data-at squares of pieces of the board alone."""
    root = _parse(game.render_svg(state, viewer, legend=False))
    places = {e.get("data-place", "") for e in root.iter() if e.get("data-place")}
    ids = [e.get("data-piece") for e in root.iter() if e.get("data-piece")]
    assert len(ids) == len(set(ids)), "data-piece ids repeat"
    return places, {e.get("data-at", "") for e in root.iter() if e.get("data-piece")}


@pytest.mark.parametrize(
    ("seed", "options"), [(1, {}), (2, {"pink": True}), (3, {}), (4, {"chaos": False}), (5, {"chaos": False})]
)
def test_random_games_tell_every_action_on_the_picture(seed: int, options: dict[str, Any]) -> None:
    game = chaosgames.load_game("chaos-checkers", **options)
    rng = random.Random(seed)
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal() and steps < 700:
        before = state.clone()
        if state.current_player() == chaosgames.CHANCE:
            action = sample_outcome(state.chance_outcomes(), rng)
        else:
            legal = state.legal_actions()
            picture = _pictured(game, state, state.current_player())[0]
            for choice in legal:
                assert set(game.action_places(state, choice)) <= picture, str(choice)
                assert not A_VOWEL.search(game.describe_action(state, choice)), str(choice)
            action = rng.choice(legal)
        state.apply_action(action)
        steps += 1
        was, was_at = _pictured(game, before, 0)
        now, now_at = _pictured(game, state, 0)
        stories = {viewer: game.tell(before, action, state, viewer) for viewer in (None, 0, 1)}
        story = stories[None]
        assert stories[0] == stories[1] == story  # checkers hides nothing
        assert story.now.endswith(".") and not A_VOWEL.search(story.now), story.now
        assert str(action) not in story.now.split()  # the notation is shown beside, not inside
        assert set(story.places) <= was | now, (str(action), story.places)
        for start, end in story.moves:
            assert start in was_at and end in now_at, (str(action), story.moves)
        assert game.changed_places(before, action, state) == story.places
    assert steps > 50
