"""End of the game: one player left, all round tokens claimed, or the turn cap reached."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chaosgames.games.cardboard_machines.phases import GEAR, OVER

if TYPE_CHECKING:
    from chaosgames.games.cardboard_machines.table import Table


def end_turn(st: Table) -> None:
    """'Then continue with the next player': clockwise, skipping players out of the race."""
    game = st.game
    st.turn += 1
    if game.max_turns and st.turn >= game.max_turns:
        finish_by_score(st)
        return
    # Someone else is still in the race (the game ends when one player is left), so this
    # finds the next player within one round of the table.
    n, lives, mover = game.num_players, st.lives, st.mover
    for i in range(1, n + 1):
        if lives[(mover + i) % n] > 0:
            st.mover = (mover + i) % n
            break
    st.reset_turn_fields()
    st.phase = GEAR


def last_player_wins(st: Table) -> None:
    """'when there is only one player left, ... she is the winner'."""
    st.result = final_result(st)
    st.phase = OVER
    st.pending = []
    st.ghost_pending = False


def ranking_key(st: Table, player: int) -> tuple[int, int, int]:
    """Most lives plus round tokens, then most round tokens, then least stress."""
    return (st.lives[player] + st.tokens[player], st.tokens[player], -st.stress[player])


def final_result(st: Table) -> list[float]:
    """The last player left wins; otherwise the best ranking among the players still in the
    race wins, and players still tied share the win."""
    alive = st.alive()
    best = max(ranking_key(st, p) for p in alive)
    winners = [p for p in alive if ranking_key(st, p) == best]
    return [1.0 / len(winners) if p in winners else 0.0 for p in range(st.game.num_players)]


def finish_by_score(st: Table) -> None:
    """All round tokens claimed (or the turn cap reached): scored by the ranking."""
    st.result = final_result(st)
    st.phase = OVER
    st.pending = []
    st.ghost_pending = False
