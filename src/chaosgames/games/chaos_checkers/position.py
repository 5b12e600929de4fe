"""What a position of Chaos Checkers and one of plain checkers share: how the game ended,
what an observation says of it, the state document and the text the game writes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chaosgames.core.game import A, State

if TYPE_CHECKING:
    from chaosgames.games.chaos_checkers.rules_in_force import CheckersRules


class CheckersState(State[A]):
    """A position of either game (ChaosState, PlainState)."""

    __slots__ = ("outcome",)

    outcome: tuple[float, float] | None
    """Each player's share once the game is over (win 1, draw 0.5), else None."""
    game: CheckersRules[Any, Any]

    def returns(self) -> list[float]:
        return list(self.outcome) if self.outcome is not None else [0.0, 0.0]

    def _with_result(self, doc: dict[str, Any]) -> dict[str, Any]:
        """`doc`, an observation, with whether the game is over, its returns and why it ended."""
        doc["terminal"] = self.outcome is not None
        doc["returns"] = self.returns()
        if self.outcome is not None:
            doc["ended_by"] = self.ended_by()
        return doc

    def to_json(self) -> dict[str, Any]:
        return self.game.write_document(self)  # the Game holds the document module (no cycle)

    def __str__(self) -> str:
        return self.game.render_text(self)
