"""A variant: one game with one complete set of options, named and found again exactly.

Every stored game belongs to a variant: its game and its options with every default filled
in. A variant is named by the label its designer gave it (`simulate --label long-oval`) or,
without one, by a short stable hash of its game and options (`v-1a2b3c4d`), never by its raw
options (a course is a document of dozens of tile coordinates).

A selection picks one stored variant, exactly: by its label or hash, by a JSON file of
options (`@variant.json`), by a mapping of options (from Python), or by option text
(`course=@long-oval.json,laps=3`, `course={"name": ...}`: commas inside a JSON value do not
split it). Option values are read as the game reads them (`--option` text, a preset's name,
a document) and compared with the stored value exactly. A selection that fits several stored
variants is refused with their names: variants are never pooled.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import chaosgames.core.safejson as safejson
from chaosgames.core import ChaosGamesError, game_class
from chaosgames.core.errors import quote, shorten
from chaosgames.core.options import Option
from chaosgames.core.pairs import name_value_pairs
from chaosgames.sim.storage import LabError, canonical_json

LABEL_LIMIT = 40
"""A label is at most this long: it heads tables and names plots."""

SHOWN_VALUE = 24
"""An option value longer than this (as JSON) is named by its document's name and hash."""


def variant_key(game: str, options: Mapping[str, Any]) -> str:
    """The variant's short stable hash: the same options give the same key on every machine."""
    return hashlib.sha256(canonical_json([game, dict(options)]).encode()).hexdigest()[:8]


def check_label(label: object) -> str:
    """A label as given, checked: a short name of letters, digits, spaces and - _ . + ( ) : , '
    (never '=', which option text uses), not starting with '@' or 'v-' (files and hashes)."""
    if not isinstance(label, str) or not label.strip():
        raise LabError(f"A variant's label is a short name such as long-oval, not {quote(label)}.")
    text = label.strip()
    if len(text) > LABEL_LIMIT:
        raise LabError(f"A variant's label has at most {LABEL_LIMIT} characters, not {len(text)}.")
    allowed = set("-_.+() :,'")
    if not all(c.isalnum() or c in allowed for c in text) or not text.isprintable():
        raise LabError(
            f"A variant's label is made of letters, digits, spaces and - _ . + ( ) : , ', not {quote(text)}."
        )
    if text.startswith(("@", "v-")) or text[0] in "-_.":
        raise LabError(f"A variant's label cannot start with '@', 'v-', '-', '_' or '.': {quote(text)}.")
    return text


def option_spec(game: str) -> dict[str, Option]:
    """The game's options, `players` included, by name."""
    cls = game_class(game)
    return {o.name: o for o in (cls._players_option(), *cls.option_spec)}


def defaults(game: str) -> dict[str, Any]:
    return {name: o.default for name, o in option_spec(game).items()}


def shown_value(value: Any) -> str:
    """An option value in a name: itself when short, else its document's name and hash."""
    text = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
    if len(text) <= SHOWN_VALUE:
        return text
    digest = hashlib.sha256(canonical_json(value).encode()).hexdigest()[:6]
    name = value.get("name") if isinstance(value, dict) else None
    if isinstance(name, str) and name:
        return f"{shorten(name, SHOWN_VALUE)} (document #{digest})"
    return f"document #{digest}"


def describe(game: str, options: Mapping[str, Any]) -> str:
    """The options that differ from the game's defaults, short ('laps=3, course=long-oval
    (document #ab12cd)'), or 'standard options'."""
    try:
        standard = defaults(game)
    except ChaosGamesError:  # a game no longer in the registry: every option is shown
        standard = {}
    changed = [
        f"{name}={shown_value(value)}"
        for name, value in sorted(options.items())
        if name not in standard or canonical_json(standard[name]) != canonical_json(value)
    ]
    return ", ".join(changed) if changed else "standard options"


@dataclass(frozen=True)
class VariantName:
    """A stored variant: its game, options, key and label (if its designer gave one)."""

    game: str
    options: Mapping[str, Any] = field(hash=False)
    key: str
    label: str | None = None

    @property
    def name(self) -> str:
        """The label, or the hash: what tables, plots and --compare call the variant."""
        return self.label or f"v-{self.key}"

    @property
    def description(self) -> str:
        return describe(self.game, self.options)

    @property
    def title(self) -> str:
        """'long-oval (chaos-cruisers: course=long-oval (document #ab12cd))'."""
        return f"{self.name} ({self.game}: {self.description})"


# -- selections --------------------------------------------------------------------------


@dataclass(frozen=True)
class Selection:
    """What one --compare names: a label or hash, or options (text or JSON values)."""

    text: str
    label: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)


def split_top_level(text: str) -> list[str]:
    """`text` split at the commas outside brackets, braces and quotes."""
    parts, depth, quoted, escaped, start = [], 0, False, False, 0
    for i, c in enumerate(text):
        if quoted:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                quoted = False
        elif c == '"':
            quoted = True
        elif c in "[{":
            depth += 1
        elif c in "]}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def read_json_file(name: str, what: str) -> Any:
    return safejson.load_file(Path(name), what=what, error=LabError)


def parse_selection(given: str | Mapping[str, Any]) -> Selection:
    """A --compare value: a label ('long-oval'), a hash ('v-1a2b3c4d'), '@variant.json' (a
    JSON object of options), option text ('course=@long.json,laps=3'), or a mapping."""
    if isinstance(given, Mapping):
        return Selection(shorten(json.dumps(given, default=str)), options=dict(given))
    if not isinstance(given, str):
        raise LabError(f"A variant is named by a label, a file or options, not {quote(given)}.")
    text = given.strip()
    if text.startswith("@"):
        document = read_json_file(text[1:], "variant file")
        if not isinstance(document, dict) or not document:
            raise LabError(
                f"The variant file {quote(text[1:])} holds {quote(document)}, not a JSON object of "
                'options such as {"course": "grand-loop", "laps": 3}.'
            )
        return Selection(text, options=document)
    if "=" not in split_top_level(text)[0]:
        if not text:
            raise LabError(
                "An empty --compare names no variant: give a label, @variant.json or option=value."
            )
        return Selection(text, label=text)
    given_options = name_value_pairs(
        split_top_level(text),
        lambda item: LabError(
            f"Cannot read {quote(item)} in --compare {quote(text)}: write option=value, "
            "several separated by commas (e.g. --compare players=3 --compare players=4), "
            "a label or @variant.json."
        ),
        lambda key: LabError(f"The option {quote(key)} is given twice in --compare {quote(text)}."),
    )
    options: dict[str, Any] = {
        key: read_json_file(value[1:], "option file") if value.startswith("@") else value
        for key, value in given_options.items()
    }
    return Selection(text, options=options)


def _coerced(game: str, options: Mapping[str, Any]) -> dict[str, Any] | str:
    """The selection's values as the game reads them, or why it cannot read them."""
    spec = option_spec(game)
    out = {}
    for name, value in options.items():
        try:
            out[name] = spec[name].coerce(value)
        except ChaosGamesError as exc:
            return str(exc)
    return out


def resolve(selection: Selection, variants: Sequence[VariantName]) -> VariantName:
    """The one stored variant `selection` names; a LabError when none or several do."""
    if selection.label is not None:
        return _by_label(selection.label, variants)
    known = {name for v in variants for name in v.options}
    unknown = sorted(set(selection.options) - known)
    if unknown:
        raise LabError(
            f"No stored game has option {', '.join(shorten(str(n), 40) for n in unknown)}; "
            f"the options are {', '.join(sorted(known))}."
        )
    matched: list[VariantName] = []
    problems: list[str] = []
    readings: dict[str, dict[str, Any] | str] = {}
    for variant in variants:
        if not set(selection.options) <= set(variant.options):
            continue
        if variant.game not in readings:
            readings[variant.game] = _coerced(variant.game, selection.options)
        wanted = readings[variant.game]
        if isinstance(wanted, str):
            problems.append(wanted)
            continue
        if all(canonical_json(variant.options[k]) == canonical_json(v) for k, v in wanted.items()):
            matched.append(variant)
    shown = selection_name(selection)
    if not matched:
        if problems:
            raise LabError(problems[0])
        raise LabError(f"No stored game matches {shown}.")
    if len(matched) > 1:
        names = ", ".join(v.name for v in matched[:6]) + (" ..." if len(matched) > 6 else "")
        raise LabError(
            f"{shown} matches {len(matched)} stored variants ({names}), which are not pooled: "
            "give the options that tell them apart, or a variant's label or hash (see 'chaosgames report')."
        )
    return matched[0]


def selection_name(selection: Selection) -> str:
    """The selection as a message shows it: option names in full, long values shortened."""
    if selection.label is not None:
        return quote(selection.label)
    return ",".join(f"{name}={shown_value(value)}" for name, value in selection.options.items())


def _by_label(text: str, variants: Sequence[VariantName]) -> VariantName:
    wanted = text.casefold()
    key = wanted[2:] if wanted.startswith("v-") else wanted
    found = [v for v in variants if (v.label or "").casefold() == wanted]
    if not found and len(key) >= 4:
        found = [v for v in variants if v.key.startswith(key)]
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        games = ", ".join(sorted({v.game for v in found}))
        raise LabError(f"{quote(text)} names variants of several games ({games}); add --game to pick one.")
    labels = sorted({v.name for v in variants})
    listed = ", ".join(labels[:8]) + (" ..." if len(labels) > 8 else "")
    raise LabError(f"No stored variant is called {quote(text)}; the variants are {listed}.")
