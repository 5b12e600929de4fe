"""What a player saw of the cards and may remember (memory.py, ledger reading 18).

Standard position (see helpers): two players, suns start on c4 and moons on d3; aces lie
on a6 b6 c6 d6, twos on e6 f6 a5 b5. Flags: suns' ace a6 and 2 d6, moons' 3 b6 and 4 e6, so
the unflagged ace is c6 and the unflagged twos f6, a5, b5.
"""

from __future__ import annotations

import random

from chaosgames.core.information import ALL
from chaosgames.games.royal_racers.board import CARD_BY_NAME, CARD_NAMES, SQUARE_NAMES
from chaosgames.games.royal_racers.memory import RacersRecollection
from chaosgames.games.royal_racers.state import RoyalRacersState
from tests.games.royal_racers.helpers import game, raced, sq


def standard() -> tuple[RoyalRacersState, RacersRecollection]:
    state = raced(game(players=2), ["c4", "d3"])
    recollection = state.game.recollection(0)
    assert isinstance(recollection, RacersRecollection)
    return state, recollection


def heard(state: RoyalRacersState, recollection: RacersRecollection, *texts: str) -> RoyalRacersState:
    """Play the actions (`move` alone: the first legal move), heard by the recollection."""
    for text in texts:
        action = state.legal_actions()[0] if text == "move" else state.game.parse_action(state, text)
        recollection.hear(state, action)
        state.apply_action(action)
    return state


def two_cards_down() -> tuple[RoyalRacersState, RacersRecollection]:
    """Suns turn the ace c6 down, then moons the 2 f6; both moved after their flip."""
    state, recollection = standard()
    heard(state, recollection, "roll:ace", "down:c6", "move", "roll:2", "down:f6", "move")
    return state, recollection


def names(cards: dict[int, int]) -> dict[str, str]:
    return {SQUARE_NAMES[s]: CARD_NAMES[c] for s, c in cards.items()}


def test_a_card_seen_going_face_down_is_remembered_the_latest_first() -> None:
    state, recollection = two_cards_down()
    assert names(recollection.remembered(state)) == {"c6": "Ad", "f6": "2h"}
    assert names(recollection.remembered(state, 1)) == {"f6": "2h"}  # the one seen last
    assert recollection.remembered(state, 0) == {}
    assert recollection.complete(state) and not recollection.complete(state, 1)
    view = recollection.document(state, 1)
    assert view["cards"][sq("f6")] == "2h" and view["cards"][sq("c6")] is None
    assert view["remembered"] == ["f6"]
    assert state.observation(0)["cards"][sq("f6")] is None  # the table shows no rank


def test_a_wrong_guess_shows_its_card_and_a_right_one_leaves_nothing_to_remember() -> None:
    state, recollection = two_cards_down()
    heard(state, recollection, "roll:ace", "up:f6")  # the 2 of hearts: wrong, seen again
    assert names(recollection.remembered(state, 1)) == {"f6": "2h"}
    heard(state, recollection, "move", "roll:ace", "up:c6")  # moons find the ace
    assert not state.down >> sq("c6") & 1
    assert names(recollection.remembered(state)) == {"f6": "2h"}


def sampled(
    recollection: RacersRecollection, state: RoyalRacersState, seed: int, memory: int = ALL
) -> RoyalRacersState:
    """A position the seat cannot tell from `state`, drawn with `seed`."""
    world = recollection.sample(state, random.Random(seed), memory)
    assert isinstance(world, RoyalRacersState)
    return world


def test_a_sample_keeps_what_the_seat_knows_and_never_reads_the_rest() -> None:
    state, recollection = two_cards_down()
    # Forgetting both, the seat knows the two cards (not face up) but not which is where.
    layouts = {tuple(sampled(recollection, state, seed, 0).cards) for seed in range(12)}
    assert len(layouts) == 2
    for cards in layouts:
        assert {cards[sq("c6")], cards[sq("f6")]} == {CARD_BY_NAME["ad"], CARD_BY_NAME["2h"]}
        assert [c for s, c in enumerate(cards) if s not in (sq("c6"), sq("f6"))] == [
            c for s, c in enumerate(state.cards) if s not in (sq("c6"), sq("f6"))
        ]
    # The same draw whatever lies under the forgotten cards: the real layout is not read.
    swapped = state.clone()
    swapped.cards[sq("c6")], swapped.cards[sq("f6")] = swapped.cards[sq("f6")], swapped.cards[sq("c6")]
    for seed in range(5):
        one = sampled(recollection, state, seed, 0)
        other = sampled(recollection, swapped, seed, 0)
        assert one.cards == other.cards
        assert recollection.key(one, 0) == recollection.key(state, 0) == recollection.key(swapped, 0)
    # Remembering one, that one stays; remembering all, the sample is the position.
    assert all(sampled(recollection, state, s, 1).cards == state.cards for s in range(5))
    assert sampled(recollection, state, 0).cards == state.cards


def test_the_card_the_latest_flip_shows_is_known_while_it_is_shown() -> None:
    state, recollection = standard()
    heard(state, recollection, "roll:ace", "down:c6")  # the move has not come yet
    assert recollection.complete(state, 0)  # everyone still sees the ace turned down
    heard(state, recollection, "move")
    assert not recollection.complete(state, 0)  # and then it is a memory


def test_a_recollection_copies_and_reads_back() -> None:
    state, recollection = two_cards_down()
    again = RacersRecollection.from_json(state.game, 0, recollection.to_json())
    assert again.remembered(state) == recollection.remembered(state)
    twin = recollection.copy()
    heard(state, recollection, "roll:ace", "up:f6")
    assert twin.clock == 2 and recollection.clock == 3


def test_a_new_race_starts_with_nothing_remembered() -> None:
    state, recollection = two_cards_down()
    fresh = state.game.new_initial_state()
    recollection.hear(fresh, fresh.legal_actions()[0])
    assert recollection.seen == {}


def test_with_the_memory_aid_there_is_nothing_to_remember() -> None:
    g = game(players=2, memory_aid=True)
    assert not isinstance(g.recollection(0), RacersRecollection)
