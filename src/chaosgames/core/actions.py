"""What an action is to core: the type of any game's action and the type variable of one's.

A leaf module: core's `game`, `notation`, `encoding` and `information` name these, and it
names nothing of theirs (so none of them is in a circle with `game`, not even for the type
checker). `chaosgames.core.game` re-exports both, where the contract names them.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TypeAlias, TypeVar

Action: TypeAlias = Hashable
"""Any game's action: an immutable, hashable value whose `str()` is its notation."""

A = TypeVar("A", bound=Hashable)
"""One game's action type (a game has one: a frozen dataclass, or a union of them)."""
