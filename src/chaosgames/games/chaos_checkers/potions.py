"""The potion abilities (1-pip pyramids): which ones a player may declare before moving.

The colour of a potion names its power (seed, "Potion Abilities"):

| colour | power | declared as | fine print (see the ledger) |
| --- | --- | --- | --- |
| black | Ambush | `ambush:14x18` (a move) | kept after use |
| purple | Invulnerability | `invulnerable:22` (defender) | spent when used |
| yellow | Wild | `wild@14=green` | the new potion is usable from the next turn |
| orange | Leap | `leap:14x25` (a move) | kept after use |
| lightblue | Speedy | `speedy@14` | the piece on 14 takes a 2nd turn |
| clear | Ghost | passive; `unghost@14` | discarding it is not a use |
| green | Rewind | `rewind@14:22` | |
| blue | Telekinesis | `telekinesis@14:9>10` | |
| white | Revive | `revive@14:2=red` | the white potion leaves the game |
| red | Sacrifice | `sacrifice@14:22` | |
| pink | Reclaim | `reclaim@14:9=blue` | only with the `pink` option |
"""

from __future__ import annotations

from collections.abc import Sequence

from chaosgames.games.chaos_checkers.actions import Piece, PotionUse
from chaosgames.games.chaos_checkers.board import HOME_ROW
from chaosgames.games.chaos_checkers.colours import CODE

RED, ORANGE, YELLOW, GREEN, BLUE = CODE["red"], CODE["orange"], CODE["yellow"], CODE["green"], CODE["blue"]
PURPLE, LIGHTBLUE, BLACK, CLEAR = CODE["purple"], CODE["lightblue"], CODE["black"], CODE["clear"]
WHITE, PINK = CODE["white"], CODE["pink"]

POWER: dict[int, str] = {
    RED: "sacrifice",
    ORANGE: "leap",
    YELLOW: "wild",
    GREEN: "rewind",
    BLUE: "telekinesis",
    PURPLE: "invulnerability",
    LIGHTBLUE: "speedy",
    BLACK: "ambush",
    CLEAR: "ghost",
    WHITE: "revive",
    PINK: "reclaim",
}


def uses(
    board: Sequence[Piece | None],
    player: int,
    pouch: Sequence[int],
    shield_bag: Sequence[int],
    eliminated: Sequence[int],
    counts: tuple[int, int],
) -> list[PotionUse]:
    """Every potion `player` may declare before moving, by square then power.

    `counts` is how many pieces each player has: a player's last piece cannot be
    eliminated by a potion (Sacrifice can neither target it nor be used on it).
    """
    out: list[PotionUse] = []
    mine = [i for i in range(32) if (p := board[i]) is not None and p.owner == player]
    theirs = [i for i in range(32) if (p := board[i]) is not None and p.owner != player]
    for s in mine:
        potion = board[s].potion  # type: ignore[union-attr]
        if potion == LIGHTBLUE:
            out.append(PotionUse("potion", "speedy", s, -1, -1, -1))
        elif potion == YELLOW:
            # The yellow potion goes back first, so any colour left in the pouch may be chosen.
            for c in range(len(pouch)):
                if pouch[c] or c == YELLOW:
                    out.append(PotionUse("potion", "wild", s, -1, -1, c))
        elif potion == GREEN:
            for t in theirs:
                if board[t].potion >= 0:  # type: ignore[union-attr]
                    out.append(PotionUse("potion", "rewind", s, t, -1, -1))
        elif potion == BLUE:
            for a in mine:
                if a != s and board[a].potion >= 0:  # type: ignore[union-attr]
                    out.extend(PotionUse("potion", "telekinesis", s, a, b, -1) for b in mine if b != a)
        elif potion == WHITE:
            for h in HOME_ROW[player]:
                if board[h] is None:
                    out.extend(PotionUse("potion", "revive", s, h, -1, c) for c in range(10) if eliminated[c])
        elif potion == RED:
            if counts[player] > 1 and counts[1 - player] > 1:
                out.extend(PotionUse("potion", "sacrifice", s, t, -1, -1) for t in theirs)
        elif potion == PINK:
            for t in mine:
                old = board[t].shield  # type: ignore[union-attr]
                for c in range(10):
                    if shield_bag[c] or c == old:
                        out.append(PotionUse("potion", "reclaim", s, t, -1, c))
    return out


def ghost_discards(board: Sequence[Piece | None], player: int) -> list[PotionUse]:
    """`unghost@s` for each of the player's Ghost pieces (allowed at the start of a turn)."""
    return [
        PotionUse("potion", "unghost", i, -1, -1, -1)
        for i in range(32)
        if (p := board[i]) is not None and p.owner == player and p.potion == CLEAR
    ]
