"""The server's dice cannot be foreseen (issue 49, finding 4): chance outcomes come from a
256-bit secret kept with the game, which no client sees before the game ends."""

from __future__ import annotations

import json
import random
import secrets

from fastapi.testclient import TestClient

from chaosgames.core.chance import sample_outcome
from chaosgames.core.constants import CHANCE
from chaosgames.core.registry import load_game
from chaosgames.web.dice import chance_rng
from tests.web.conftest import create, service, view
from tests.web.test_api import wait_for
from tests.web.test_security import everything_seen

SEARCHED = 100_000
"""Seeds a test search tries, each checked against the outcomes a spectator has seen."""


def spectators_outcomes(client: TestClient, game_id: str) -> list[tuple[int, str]]:
    """(sequence number, notation) of every chance outcome a spectator has seen."""
    return [(e["seq"] - 1, e["notation"]) for e in view(client, game_id)["log"] if e["actor"] == CHANCE]


def old_outcome(seed: int, done: int, outcomes: list[tuple[object, float]]) -> str:
    """The outcome the server's former dice drew: Random("chaosgames:<seed>:<n>")."""
    return str(sample_outcome(outcomes, random.Random(f"chaosgames:{seed}:{done}")))


def test_the_outcomes_a_spectator_sees_do_not_give_the_dice_away(client: TestClient) -> None:
    created = create(client, "chaos-checkers", ["human", "human"])  # no seed: the server's dice
    seen = spectators_outcomes(client, created["id"])
    assert len(seen) >= 60  # the shields and potions drawn at the start
    stored = service(client).store.load(created["id"])
    assert stored is not None and stored.secret is not None
    assert len(bytes.fromhex(stored.secret)) * 8 == 256
    # The attack of the review: a search over 31-bit seeds for the one that draws what was
    # seen. The first outcome rules out most seeds, the next ones the rest.
    state = load_game("chaos-checkers").new_initial_state()
    first_done, first = seen[0]
    assert state.current_player() == CHANCE  # a checkers game starts by drawing
    outcomes = state.chance_outcomes()
    candidates = [stored.seed, *(random.randrange(2**31) for _ in range(SEARCHED))]
    matching = [s for s in candidates if old_outcome(s, first_done, outcomes) == first]
    game = state.game
    for seed in matching:
        replayed = state.clone()
        agrees = True
        for done, notation in seen:
            if old_outcome(seed, done, replayed.chance_outcomes()) != notation:
                agrees = False
                break
            replayed.apply_action(game.parse_action(replayed, notation))
        assert not agrees, f"seed {seed} draws every outcome seen"


def test_the_outcomes_follow_the_secret_and_nothing_a_search_could_enumerate(client: TestClient) -> None:
    created = create(client, "chaos-checkers", ["human", "human"])
    stored = service(client).store.load(created["id"])
    assert stored is not None and stored.secret is not None
    secret = bytes.fromhex(stored.secret)
    seen = spectators_outcomes(client, created["id"])
    state = load_game("chaos-checkers").new_initial_state()
    drawn = []
    for done, _ in seen:
        outcome = sample_outcome(state.chance_outcomes(), chance_rng(stored.seed, done, secret))
        drawn.append((done, str(outcome)))
        state.apply_action(outcome)
    assert drawn == seen  # the secret (with the outcome's number) decides every outcome
    # One bit of the secret changed: other dice.
    flipped = bytes([secret[0] ^ 1]) + secret[1:]
    state = load_game("chaos-checkers").new_initial_state()
    other = [str(sample_outcome(state.chance_outcomes(), chance_rng(stored.seed, seen[0][0], flipped)))]
    for _ in range(20):
        other_secret = secrets.token_bytes(32)
        other.append(str(sample_outcome(state.chance_outcomes(), chance_rng(stored.seed, 0, other_secret))))
    assert len(set(other)) > 1
    # Two games' secrets differ; their stored seeds (all a 31-bit search could go through) do not.
    again = service(client).store.load(create(client, "chaos-checkers", ["human", "human"])["id"])
    assert again is not None and again.secret != stored.secret and again.seed == stored.seed


def test_the_secret_reaches_nobody_before_the_game_ends_and_everybody_after(client: TestClient) -> None:
    created = create(client, "chaos-checkers", ["human", "random"])
    game_id, token = created["id"], created["seats"][0]["token"]
    stored = service(client).store.load(game_id)
    assert stored is not None and stored.secret is not None
    for who in (token, None):
        payloads = everything_seen(client, game_id, who)
        assert not [p for p in payloads if stored.secret in p]
    assert "secret" not in json.loads(client.get(f"/api/games/{game_id}/record").text)["meta"]
    # Computer seats alone play a game to its end; then the record shows the secret.
    ended = create(client, "chaos-checkers", ["random", "random"])
    wait_for(client, ended["id"], lambda v: v["status"] == "finished", seconds=120)
    record = json.loads(client.get(f"/api/games/{ended['id']}/record").text)
    ended_stored = service(client).store.load(ended["id"])
    assert ended_stored is not None and record["meta"]["secret"] == ended_stored.secret


def test_a_game_created_with_a_seed_keeps_its_reproducible_dice(client: TestClient) -> None:
    first = create(client, "chaos-checkers", ["human", "human"], seed=42)
    second = create(client, "chaos-checkers", ["human", "human"], seed=42)
    assert spectators_outcomes(client, first["id"]) == spectators_outcomes(client, second["id"])
    stored = service(client).store.load(first["id"])
    assert stored is not None and stored.secret is None and stored.seed == 42
    state = load_game("chaos-checkers").new_initial_state()
    done, notation = spectators_outcomes(client, first["id"])[0]
    assert old_outcome(42, done, state.chance_outcomes()) == notation
