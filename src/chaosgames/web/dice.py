"""The server's dice: chance outcomes nobody can foresee, that replay exactly.

A game created without a `seed` gets a **secret** of 256 bits (`secrets.token_bytes`),
kept in the database with the game and sent to nobody until the game is over (its record
then shows it, so anyone can check the dice afterwards). The outcome that follows `done`
actions is drawn from HMAC-SHA256(secret, "outcome:<done>"), and a computer seat's seed for
the decision after `version` actions from HMAC-SHA256(secret, "agent:<version>"): seeing any
number of outcomes tells nothing about the next one short of guessing the secret (2^256
keys; a search of 2^31 seeds, which found the old 31-bit seeds in minutes, finds nothing).

Every outcome is stored as an action anyway, so replays and resumes never depend on the
dice: the secret only decides outcomes not yet drawn. A game created with an explicit
`seed` keeps the reproducible dice it always had (`random.Random("chaosgames:<seed>:<n>")`):
whoever sets the seed knows the dice, which is what a reproducible game is for.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets

SECRET_BYTES = 32
"""256 bits: more than the 128 a search of the key space would have to get through."""


def new_secret() -> bytes:
    return secrets.token_bytes(SECRET_BYTES)


def _keyed(secret: bytes, what: str) -> int:
    return int.from_bytes(hmac.new(secret, f"chaosgames:{what}".encode(), hashlib.sha256).digest(), "big")


def chance_rng(seed: int, done: int, secret: bytes | None = None) -> random.Random:
    """The generator for the chance outcome that follows `done` actions of a game."""
    if secret is None:
        return random.Random(f"chaosgames:{seed}:{done}")
    return random.Random(_keyed(secret, f"outcome:{done}"))


def agent_seed(seed: int, version: int, secret: bytes | None = None) -> int:
    """A computer seat's seed for the decision after `version` actions (reproducible)."""
    if secret is None:
        return (seed * 1_000_003 + version) % 2**31
    return _keyed(secret, f"agent:{version}") % 2**63
