"""Seeded random races, every action and every viewer: the story answers, its places are
on the pictures, pieces are unique and titled, the pictures change only where the story
says, and without the memory aid nothing a seat or a spectator is sent lets them look a
face-down card up once a later decision has been made (issue 48).

What is searched, at every position of every game, for every seat and a spectator: the
observation, the picture with and without its legend, the text, the legend, the legal
actions' descriptions; and, for every action, `tell(...).kept` and `.notation`. Two ways:

- the written forms of every secret card (`Ad`, `A♦`, `the ace of diamonds`) never occur
  (a card is secret when it lies face down and is not the flip of the latest decision);
  the log (kept, notation) names no card at all; the die is not shown once a card turned
  face down since it was rolled is secret (its face would be that card's rank);
- what is sent is the same in a twin world where the hidden part differs: two secret
  cards of different ranks exchanged (the position's views), or another card named by the
  action (the log: every face of the die, every card a deal could lay, another card of the
  rank rolled turned down, another card found by a guess with the same outcome).
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

import pytest

from chaosgames import CHANCE
from chaosgames.core.chance import sample_outcome
from chaosgames.core.story import Told
from chaosgames.games.royal_racers import setup
from chaosgames.games.royal_racers.actions import DIE_FACES, FLIP_KINDS, Kind, RacerAction
from chaosgames.games.royal_racers.board import (
    CARD_NAMES,
    CARD_SUIT_SYMBOLS,
    NUM_CARDS,
    RANK_NAMES,
    RANK_OF,
    SQUARE_NAMES,
    SQUARES,
    card_words,
)
from chaosgames.games.royal_racers.game import RoyalRacersGame
from chaosgames.games.royal_racers.state import FLIP_PHASE, MOVE_PHASE, RoyalRacersState
from tests.games.royal_racers.helpers import game

PLACE = re.compile(r'data-place="([^"]*)"')
PIECE = re.compile(r'data-piece="([^"]*)"')
UNTITLED = re.compile(r'<\w+[^>]* data-(?:place|piece)="[^"]*"[^>]*>(?!<title>)')
AT = re.compile(r'data-at="([^"]*)"')

HIDDEN_OPTIONS = [
    {"players": 2, "flags": 3},
    {"players": 3, "flags": 4, "races": 2, "max_rounds": 8},
    {"players": 4, "flag_variant": True, "optional_move": True, "max_rounds": 12},
]
SEEDS = (1, 2)
STEPS = 220
"""Actions per game after the deal (a race of random players rarely ends sooner)."""


def forms(card: int) -> tuple[str, ...]:
    """Every way a card is written: notation, picture and sentence (case matters: `As` is
    the ace of spades, `as` a word)."""
    label = f"{RANK_NAMES[RANK_OF[card]]}{CARD_SUIT_SYMBOLS[card % 4]}"
    words = card_words(card)
    return (CARD_NAMES[card], label, words, words.capitalize())


def written(cards: list[int]) -> re.Pattern[str] | None:
    if not cards:
        return None
    alternatives = "|".join(re.escape(form) for card in cards for form in forms(card))
    return re.compile(rf"(?<![0-9A-Za-z])(?:{alternatives})(?![0-9A-Za-z])")


ANY_CARD = written(list(range(NUM_CARDS)))


def secret_cards(state: RoyalRacersState, fresh: int) -> list[int]:
    """Face-down cards nobody may see now: all but the one the latest decision flipped
    (`fresh`, -1 for none; known from the actions played, not from the state)."""
    return [state.cards[sq] for sq in range(SQUARES) if state.down >> sq & 1 and sq != fresh]


def viewers(g: RoyalRacersGame) -> list[int | None]:
    return [*range(g.num_players), None]


def sent(g: RoyalRacersGame, state: RoyalRacersState, viewer: int | None) -> list[str]:
    """Everything a viewer is sent of a position."""
    legend = [
        f"{s.title}: " + " ".join(f"{e.symbol or ''} {e.text}" for e in s.entries)
        for s in g.legend(state, viewer)
    ]
    return [
        json.dumps(state.observation(viewer), ensure_ascii=False),
        g.render_svg(state, viewer, legend=False),
        g.render_svg(state, viewer),
        g.render_text(state, viewer),
        *legend,
        *(g.describe_action(state, a) for a in state.legal_actions() if state.current_player() != CHANCE),
    ]


def drawings(svg: str) -> dict[str, str]:
    """The picture's line of each square's card, each flag and each pawn."""
    found = {}
    for line in svg.splitlines():
        piece = PIECE.search(line)
        if piece and piece.group(1).startswith("card-"):
            found[AT.search(line).group(1)] = line  # type: ignore[union-attr]
        elif piece:
            found[piece.group(1)] = line
        elif line.startswith("<rect") and (place := PLACE.search(line)):
            found[place.group(1)] = line
    return found


def flag_slot(state: RoyalRacersState, piece: str) -> int:
    """The flag slot (owner * flags + index) of a `flag-<owner>-<face>` piece."""
    _, owner, face = piece.split("-")
    first = setup.flag_face(state.nflags, 0)
    return state.game.player_names().index(owner) * state.nflags + DIE_FACES.index(face) - first


def exchanged(state: RoyalRacersState, sq: int, card: int, roll: int | None = None) -> RoyalRacersState:
    """A twin of `state` with `card` on `sq` and the card of `sq` where `card` was."""
    twin = state.clone()
    old, other = twin.cards[sq], twin.where[card]
    twin.cards[sq], twin.where[card] = card, sq
    twin.cards[other], twin.where[old] = old, other
    if roll is not None:
        twin.roll = roll
    twin._invalidate()
    return twin


def twin_tellings(
    g: RoyalRacersGame, before: RoyalRacersState, action: RacerAction, after: RoyalRacersState
) -> list[Told]:
    """How the same action reads where what it hides differs (see the module docstring)."""
    kind, arg = action.kind, action.arg
    twins: list[tuple[RoyalRacersState, RacerAction]] = []
    if kind is Kind.ROLL:
        moving = after.phase in (FLIP_PHASE, MOVE_PHASE)
        for other in before.legal_actions():
            twin = before.clone()
            twin.apply_action(other)
            if (twin.phase in (FLIP_PHASE, MOVE_PHASE)) == moving and len(twin.race_winners) == len(
                after.race_winners
            ):
                twins.append((before, other))
    elif kind is Kind.DEAL:
        twins += [(before, other) for other in before.legal_actions()]
    elif kind in FLIP_KINDS:
        rank = RANK_OF[before.cards[arg]]
        right = rank == before.roll
        for card in range(NUM_CARDS):
            other_rank = RANK_OF[card]
            if card == before.cards[arg] or other_rank > 5 or before.where[card] in before.pawns:
                continue
            same_outcome = (other_rank == before.roll) == right and (other_rank != rank or right)
            if kind is Kind.DOWN and other_rank != rank:
                twins.append((exchanged(before, arg, card, roll=other_rank), action))
            elif kind is Kind.REVEAL or (kind is Kind.UP and same_outcome):
                twins.append((exchanged(before, arg, card), action))
    told = []
    for twin, other in twins:
        twin_after = twin.clone()
        twin_after.apply_unchecked(other)
        told.append(g.tell(twin, other, twin_after, None))
    return told


@dataclass
class Race:
    """One seeded game played at random, checked at every step."""

    g: RoyalRacersGame
    rng: random.Random
    state: RoyalRacersState = field(init=False)
    secrets_met: int = 0
    twins_compared: int = 0
    fresh: int = -1
    """The square the latest decision flipped, until the next decision (-1: none)."""
    turned_down: set[int] = field(default_factory=set)
    """Squares turned face down since the last roll: the die must not be shown once one of
    them is secret, or its rank could be read off it."""

    def __post_init__(self) -> None:
        self.state = self.g.new_initial_state()

    def play(self, steps: int) -> None:
        views = self.views(self.state)
        for _ in range(steps):
            if self.state.is_terminal():
                return
            before = self.state.clone()
            if before.current_player() == CHANCE:
                action = sample_outcome(before.chance_outcomes(), self.rng)
            else:
                action = self.rng.choice(before.legal_actions())
            self.state.apply_action(action)
            self.remember(action)
            after_views = self.views(self.state)
            self.check_action(before, action, views[None][1], after_views[None][1])
            self.check_position(self.state, after_views)
            views = after_views

    def remember(self, action: RacerAction) -> None:
        kind, arg = action.kind, action.arg
        if kind not in (Kind.DEAL, Kind.ROLL):
            self.fresh = arg if kind in FLIP_KINDS else -1
        if kind is Kind.ROLL or self.state.dealt < SQUARES:
            self.turned_down = set()
        if kind is Kind.DOWN:
            self.turned_down.add(arg)

    def views(self, state: RoyalRacersState) -> dict[int | None, list[str]]:
        """What each viewer is sent (`sent`); only the spectator's picture while dealing."""
        if state.dealt < SQUARES:
            return {None: ["", self.g.render_svg(state, None, legend=False)]}
        return {viewer: sent(self.g, state, viewer) for viewer in viewers(self.g)}

    def check_action(self, before: RoyalRacersState, action: RacerAction, old: str, new: str) -> None:
        g, after = self.g, self.state
        tellings = [g.tell(before, action, after, v) for v in viewers(g)]
        assert all(t == tellings[0] for t in tellings)  # every seat sees the same table
        told = tellings[0]
        assert told.kept and told.now and told.notation
        assert (told.notation, told.kept) == g.action_seen(before, action, None)
        on_pictures = set(PLACE.findall(old)) | set(PLACE.findall(new))
        assert set(told.places) <= on_pictures, (str(action), told.places)
        assert set(g.action_places(before, action)) <= set(told.places)
        self.check_changes(before, told, drawings(old), drawings(new))
        if not g.hides_information():
            assert told.kept == told.now
            return
        assert told.notation in (str(action), action.kind.value)
        for text in (told.kept, told.notation):
            assert ANY_CARD is None or not ANY_CARD.search(text), (str(action), text)
        for twin in twin_tellings(g, before, action, after):
            assert (twin.kept, twin.notation) == (told.kept, told.notation), (str(action), twin.kept)

    def check_changes(
        self, before: RoyalRacersState, told: Told, old: dict[str, str], new: dict[str, str]
    ) -> None:
        """A square's drawing changes only where the story marks a change; a pawn or a flag
        only where it stood or stands (or, for a pawn, where its next flag was placed)."""
        after = self.state
        marked = set(told.places)
        for key in set(old) | set(new):
            if old.get(key) == new.get(key):
                continue
            if key.startswith("pawn-"):
                seat = after.game.player_names().index(key[5:])
                moved = {SQUARE_NAMES[sq] for sq in {before.pawns[seat], after.pawns[seat]} - {-1}}
                goal = after.flag_sq[seat * after.nflags + min(after.progress[seat], after.nflags - 1)]
                # Its title says where it stands and its next flag (placed in the setup).
                assert moved <= marked or SQUARE_NAMES[goal] in marked, key
            elif key.startswith("flag-"):
                slot = flag_slot(after, key)
                stood = {before.flag_sq[slot], after.flag_sq[slot]} - {-1}
                assert {SQUARE_NAMES[sq] for sq in stood} <= marked, key
            else:
                assert key in marked, (key, told.places)
        for viewer in viewers(self.g):
            seen = before.observation(viewer), after.observation(viewer)
            for sq, name in enumerate(SQUARE_NAMES):
                if seen[0]["cards"][sq] != seen[1]["cards"][sq]:
                    assert name in marked
                if (name in seen[0]["face_down"]) != (name in seen[1]["face_down"]):
                    assert name in marked

    def check_position(self, state: RoyalRacersState, views: dict[int | None, list[str]]) -> None:
        if state.dealt < SQUARES:
            return
        g = self.g
        legal = state.legal_actions()
        for texts in views.values():
            for svg in texts[1:3]:  # the board alone, and with its legend
                pieces = PIECE.findall(svg)
                assert len(pieces) == len(set(pieces))
                assert not UNTITLED.search(svg)
                on_picture = set(PLACE.findall(svg))
                for action in legal:
                    assert set(g.action_places(state, action)) <= on_picture
        if not g.hides_information():
            return
        secret = secret_cards(state, self.fresh)
        self.secrets_met += len(secret)
        pattern = written(secret)
        if pattern is not None:
            for texts in views.values():
                for text in texts:
                    assert not pattern.search(text), (pattern.search(text), text[:300])
        if any(state.cards[sq] in secret for sq in self.turned_down):
            for viewer, texts in views.items():
                assert state.observation(viewer)["roll"] is None
                assert (
                    "die: -" in texts[2]
                    and ", rolled " not in texts[3]
                    and "The die shows" not in " ".join(texts[4:])
                )
        self.check_twin_position(state, views)

    def check_twin_position(self, state: RoyalRacersState, views: dict[int | None, list[str]]) -> None:
        """Two secret cards of different ranks exchanged: nobody is sent anything else."""
        secret = secret_cards(state, self.fresh)
        pair = next(((a, b) for a in secret for b in secret if RANK_OF[a] < RANK_OF[b]), None)
        if pair is None or self.rng.random() > 0.25:  # a quarter of the positions suffice
            return
        doc = state.to_json()
        a, b = (CARD_NAMES[card] for card in pair)
        doc["cards"] = [b if c == a else a if c == b else c for c in doc["cards"]]
        twin = self.g.state_from_json(doc)
        assert isinstance(twin, RoyalRacersState) and twin.to_json() != state.to_json()
        for viewer, texts in views.items():
            assert sent(self.g, twin, viewer) == texts
        self.twins_compared += 1


@pytest.mark.parametrize("options", HIDDEN_OPTIONS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_random_races_tell_every_action_and_keep_no_face_down_rank(options: dict[str, Any]) -> None:
    secrets = twins = 0
    for seed in SEEDS:
        race = Race(game(**options), random.Random(seed))
        race.play(SQUARES + STEPS)
        secrets += race.secrets_met
        twins += race.twins_compared
    assert secrets > 500 and twins > 30  # many positions with face-down cards were searched


def test_with_the_memory_aid_the_story_keeps_everything_and_marks_every_change() -> None:
    race = Race(game(players=3, flags=3, memory_aid=True, races=2, max_rounds=10), random.Random(5))
    race.play(2 * SQUARES + 2 * STEPS)
    assert race.state.race == 1 or race.state.is_terminal()  # the second race was reached
