"""The story of a game as the table sees it: what each action did, where, and how to read it.

A board that changes under the players must say what just changed. Each game tells, for
every action it applies (a player's decision or a chance outcome), one `Told` per viewer:

- `now`: one plain sentence while the action belongs to the latest turn (the last
  decision and the chance outcomes after it). It may say what everyone saw for a moment
  at the table: the die's face, the card a wrong guess showed, why a car crashed.
- `kept`: the sentence the viewer may keep for the rest of the game (the move log). In a
  game that hides information it leaves out what the viewer may not look up later (in
  Royal Racers without the memory aid: past die faces, the cards turned face down).
- `places`: the places of the picture the action changed (`data-place` ids of
  `Game.render_svg`), marked `last-action` on the board for the latest turn.

A game's pictures follow these conventions, so the web page can mark, animate and explain
any game the same way:

- `data-place="<id>"` on the element(s) of every square, space, card, tile or gate: the
  places actions name (`Game.action_places`) and the places a turn changed (`Told.places`).
- `data-piece="<id>"` on a group (`<g>`) per movable thing (a piece, pawn, cruiser, car,
  tile, board, flag, obstacle, card), its id stable from one position to the next: the
  page slides it from where it was, lets it land where it is new, flips it when its face
  changed. An id never tells what a viewer may not see (a face-down card is known by its
  square, not its rank). A thing with no stable identity (a checkers piece) has an id of
  its square and says where it stands with `data-at="<place>"`; `Told.moves` says where
  it came from.
- a `<title>` first in a place's or piece's element: what it is and what it can do (the
  page shows it on hover, on a tap and under the keyboard's cursor).

`Game.legend` gives the key to the picture as data (the page draws it as HTML beside the
board), and `Game.rules_section` the heading of the rules summary an action belongs to.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Told:
    """How one action reads to one viewer (see the module docstring)."""

    notation: str
    """The action's notation as the viewer may keep it (hidden parts left out)."""
    kept: str
    """One plain sentence the viewer may keep for the rest of the game."""
    now: str
    """One plain sentence while the action belongs to the latest turn."""
    places: tuple[str, ...] = ()
    """The places of the picture the action changed."""
    moves: tuple[tuple[str, str], ...] = ()
    """`(from, to)` places of things the action moved that have no stable `data-piece` id
    (a checkers piece is known by its square only): the page slides what stands at `to`
    (its `data-at`) from where `from` was drawn."""


@dataclass(frozen=True, slots=True)
class LegendEntry:
    """One line of a legend: a swatch (a CSS colour, or a short symbol) and its meaning."""

    text: str
    colour: str | None = None
    symbol: str | None = None


@dataclass(frozen=True, slots=True)
class LegendSection:
    """A titled part of a legend (shield colours, stress die faces, race progress ...)."""

    title: str
    entries: tuple[LegendEntry, ...]


def slug(heading: str) -> str:
    """The anchor of a heading of a rules summary: 'The chaos round' -> 'the-chaos-round'.

    `Game.rules_section` answers with one; the rules page gives each heading its slug.
    """
    plain = unicodedata.normalize("NFKD", heading).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")
