"""The balance book's pages: docs/results/balance.md and an HTML page with plots.

Tables are built once (`sim.tables.Table`) and laid out as Markdown and HTML; the
paragraph "what a designer should know" is written from the figures, each sentence
with the number it rests on, so a thin sample reads as such.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

from chaosgames.sim.claims import (
    Claim,
    chance_claim,
    correct,
    one_game_note,
    player_claim,
    seat_claims,
    skill_claim,
)
from chaosgames.sim.feel import SECONDS_PER_DECISION
from chaosgames.sim.feel import figures as feel_figures
from chaosgames.sim.render_html import Paragraph, Picture, Plot, Section, png, pyplot, render_page
from chaosgames.sim.render_text import markdown_table
from chaosgames.sim.stats import Test, games_needed_difference, mean, unpaired_test, variance, wilson
from chaosgames.sim.study import (
    GameFigures,
    StudySettings,
    VariantFigures,
    length_summary,
    level_specs,
)
from chaosgames.sim.summary import ENDINGS, Rate, Summary
from chaosgames.sim.tables import Table, claims_table, pct


def _rate(rate: Rate | None) -> str:
    if rate is None or not rate.games:
        return "-"
    lo, hi = rate.interval
    return f"{pct(rate.rate)} ({pct(lo)}-{pct(hi)})"


def _seats(v: VariantFigures) -> str:
    if v.level is None or not v.level.finished:
        return "-"
    return "; ".join(f"{s + 1}: {_rate(r)}" for s, r in sorted(v.level.by_seat.items()))


def _endings(v: VariantFigures) -> str:
    """Each ending with its count, rate and Wilson 95% interval."""
    if not v.games:
        return "-"
    parts = []
    for name, count in v.finishes.most_common():
        lo, hi = wilson(count, v.games)
        parts.append(f"{name} {count} ({pct(count / v.games)}, {pct(lo)}-{pct(hi)})")
    return "; ".join(parts)


def shape_table(figures: GameFigures) -> Table:
    header = (
        "variant",
        "games",
        "how they ended",
        "rounds (90%)",
        "decisions (90%)",
        f"table minutes at {SECONDS_PER_DECISION} s",
        "lead changes",
        "comebacks",
        "branching",
    )
    rows = []
    for v in figures.variants:
        s = v.level
        if s is None:
            rows.append((v.variant.label, "0", *("-" for _ in header[2:])))
            continue
        comeback = f"{pct(s.comeback_rate)} of {s.comeback_chances}" if s.comeback_chances else "-"
        rows.append(
            (
                v.variant.label,
                str(s.games),
                _endings(v),
                length_summary(s.rounds),
                length_summary(v.decisions),
                length_summary(v.table_minutes),
                f"{mean(s.lead_changes):.1f}",
                comeback,
                f"{mean(s.branching):.1f}" if s.branching else "-",
            )
        )
    return Table("Length and shape (level in every seat)", header, tuple(rows))


def fairness_table(figures: GameFigures) -> Table:
    header = ("variant", "players", "win rate by seat (95% interval)", "hard vs easy", "chance share")
    rows = []
    for v in figures.variants:
        chance = "-"
        if v.chance_pairs and v.chance_same == v.chance_pairs:
            chance = f"none: its {v.chance_pairs} replays played their games over move for move"
        elif v.chance_share is not None:
            lo, hi = v.chance_interval
            chance = f"{pct(v.chance_share)} ({pct(lo)}-{pct(hi)}) of {v.chance_pairs}"
        skill = _rate(v.skill)
        if v.skill is not None and v.skill.games:
            skill += f" of {v.skill.games}"
        rows.append((v.variant.label, str(v.players), _seats(v), skill, chance))
    return Table("Seats, skill and luck", header, tuple(rows))


def book_claims(figures: GameFigures) -> list[Claim]:
    """Every claim of a game's section, corrected together (Holm): seat balance with its
    per-seat follow-ups, skill, the chance share, and whether the player changes the ending."""
    claims: list[Claim | None] = []
    for v in figures.variants:
        if v.level is None or not v.games:
            continue
        claims.append(seat_claims(v.level))
        if v.skill is not None:
            claims.append(skill_claim(v.variant.label, v.hard, v.skill, v.players))
        claims.append(
            chance_claim(v.variant.label, v.chance_pairs, v.chance_changed, v.players, v.chance_same)
        )
        if v.cross is not None:
            lineups = {**v.level.by_lineup, **v.cross.by_lineup}
            claims.append(player_claim(v.variant.label, lineups))
            claims.append(_other_player_seats(v))
        claims.extend(_ending_claims(figures, v))
    return correct([c for c in claims if c is not None])


OTHER_SEATS = "seat balance, other player"
"""The topic of a variant's seat-balance claim from its games by the other kind of player."""


def _other_player_seats(v: VariantFigures) -> Claim | None:
    """The seat-balance test of the variant's games by the other kind of player, in the same
    correction (no seat is named from them: they are there to say whether the player changes
    the seat verdict)."""
    if v.cross is None:
        return None
    claim = seat_claims(v.cross)
    if claim is None:
        return None
    claim.topic, claim.follows = OTHER_SEATS, []
    claim.if_shown = f"{_one_agent(v.cross)} in every seat: {claim.if_shown}"
    claim.if_not = f"{_one_agent(v.cross)} in every seat: {claim.if_not}"
    return claim


def _one_agent(summary: Summary) -> str:
    return ", ".join(sorted({lineup[0] for lineup in summary.by_lineup})) or "the other player"


def _ending_claims(figures: GameFigures, v: VariantFigures) -> list[Claim]:
    """How this variant's games end against the first variant's, ending by ending (Fisher's
    exact test: the study's jobs of different variants do not share their dice's effects)."""
    base = figures.variants[0]
    if v is base or base.level is None or not base.games or not v.games:
        return []
    out = []
    ends_a, ends_b = base.finishes, v.finishes
    games_a, games_b = base.games, v.games
    for ending in sorted(set(ends_a) | set(ends_b)):
        a, b = ends_a[ending], ends_b[ending]
        test = unpaired_test([1.0] * a + [0.0] * (games_a - a), [1.0] * b + [0.0] * (games_b - b), True)
        spread = math.sqrt(max((a / games_a) * (1 - a / games_a), 1e-9))
        more = "more" if test.estimate > 0 else "less"
        out.append(
            Claim(
                v.variant.label,
                f"ending '{ending}'",
                f"games end by '{ending}' {more} often than in the {base.variant.label}: "
                f"{pct(b / games_b)} against {pct(a / games_a)}",
                f"'{ending}' in {pct(b / games_b)} of games against {pct(a / games_a)} in the "
                f"{base.variant.label}: no difference shown",
                test,
                games_needed_difference(test, spread),
                need=functools.partial(_needed_at, test, spread),
            )
        )
    return out


FEEL_COLUMNS = (
    ("balance", "balance"),
    ("first-player", "first-player advantage"),
    ("decisiveness", "winner clear from"),
    ("drama", "drama"),
    ("real decisions", "real decisions"),
    ("branching factor, first", "branching, first tenth"),
    ("branching factor, last", "branching, last tenth"),
    ("hidden share", "hidden share"),
)


def feel_table(figures: GameFigures) -> Table:
    """How each variant plays (sim/feel.py): each figure with its 95% interval; n per column."""
    rows = []
    used = [False] * len(FEEL_COLUMNS)
    cells_by_variant = []
    for v in figures.variants:
        found = {f.name: f for f in feel_figures(v.level)} if v.level is not None and v.games else {}
        cells = []
        for i, (prefix, _) in enumerate(FEEL_COLUMNS):
            match = next((f for name, f in found.items() if name.startswith(prefix)), None)
            if match is None:
                cells.append("-")
                continue
            used[i] = True
            cells.append(f"{match.text()} ({match.interval()}; n {match.n})")
        cells_by_variant.append((v.variant.label, cells))
    header = ("variant", *(title for (_, title), u in zip(FEEL_COLUMNS, used, strict=True) if u))
    for label, cells in cells_by_variant:
        rows.append((label, *(c for c, u in zip(cells, used, strict=True) if u)))
    return Table(
        "How it plays (95% intervals; n: the games that hold the figure)",
        header,
        tuple(rows),
    )


def _needed_at(test: Test, spread: float, alpha: float) -> int | None:
    return games_needed_difference(test, spread, alpha)


def designer_notes(figures: GameFigures) -> str:
    """A paragraph from the figures: what a designer should know about the game."""
    played = [v for v in figures.variants if v.level is not None and v.games]
    if not played:
        return "No game of this study is stored yet."
    base = played[0]
    assert base.level is not None
    s = base.level
    sentences = []
    games = sum(v.games for v in played)
    sentences.append(
        f"These figures rest on {games} games at the study's level over {len(played)} variants "
        f"({s.games} of the {base.variant.label}): read every rate with its interval."
    )
    rulebook = s.finished / s.games
    common = base.finishes.most_common(1)[0][0] if base.finishes else "-"
    sentences.append(
        f"In the {base.variant.label}, {pct(rulebook)} of games end by the rulebook, most often: {common}."
    )
    if base.decisions:
        sentences.append(
            f"A game takes {mean(base.decisions):.0f} decisions, about "
            f"{mean(base.table_minutes):.0f} minutes at the table, over {mean(s.rounds):.0f} rounds."
        )
    claims = book_claims(figures)
    sentences.extend(_seat_sentence(base, claims))
    if s.comeback_chances:
        sentences.append(
            f"The half-time leader lost {pct(s.comeback_rate)} of {s.comeback_chances} games; "
            f"the lead changed {mean(s.lead_changes):.1f} times a game."
        )
    if base.skill is not None and base.skill.games:
        shown = any(c.variant == base.variant.label and c.topic == "skill" and c.shown for c in claims)
        verdict = (
            "skill shows (Holm's correction over the section)"
            if shown
            else "skill is not shown at this sample size"
        )
        sentences.append(
            f"Hard against easy wins {pct(base.skill.rate)} of {base.skill.games} games (fair share "
            f"{pct(base.fair_share)}): {verdict}."
        )
    if base.chance_pairs and base.chance_same == base.chance_pairs:
        sentences.append(
            f"Replayed with other dice, each of {base.chance_pairs} games was played over move for move: "
            "the game has no chance for the dice to change."
        )
    elif base.chance_share is not None:
        sentences.append(
            f"Replayed with other dice and the same players, the winner changed in "
            f"{pct(base.chance_share)} of {base.chance_pairs} games "
            f"(a fair lottery between the seats: {pct(base.lottery_share)})."
        )
    sentences.extend(_variant_sentences(played, claims))
    sentences.extend(_shown_claims(claims))
    sentences.extend(_player_sentences(played, claims))
    if figures.plan.no_cross:
        sentences.append(f"The other-player check is left out: {figures.plan.no_cross}.")
    return " ".join(sentences)


def _shown_claims(claims: Sequence[Claim]) -> list[str]:
    """The endings that differ from the first variant, as the corrected claims say."""
    return [
        f"In the variant {c.variant}, {c.if_shown} (n {c.test.n}, Holm p {c.test.adjusted:.3f})."
        for c in claims
        if c.topic.startswith("ending ") and c.shown
    ]


def _player_sentences(played: Sequence[VariantFigures], claims: Sequence[Claim]) -> list[str]:
    out = []
    for c in claims:
        if c.topic == "player" and c.shown:
            out.append(
                f"The player changes the picture in the {c.variant}: {c.if_shown} "
                f"(Holm p {c.test.adjusted:.3f})."
            )
    by_topic = {(c.variant, c.topic): c for c in claims}
    for v in played:
        mine, other = (
            by_topic.get((v.variant.label, "seat balance")),
            by_topic.get((v.variant.label, OTHER_SEATS)),
        )
        if mine is not None and other is not None and mine.shown != other.shown:
            level, others = (c.if_shown if c.shown else c.if_not for c in (mine, other))
            out.append(
                f"The player changes the seat verdict in the {v.variant.label}: with the study's level, "
                f"{level}; with {others}."
            )
    crossed = [v for v in played if v.cross is not None and v.cross.games]
    if crossed and not out:
        out.append(
            "Neither how games end nor the seat verdict is shown to depend on the player in any variant "
            f"({sum(v.cross.games for v in crossed if v.cross is not None)} games by the other player)."
        )
    return out


def claims_section(figures: GameFigures) -> Table:
    """The section's claims with their n, p, Holm's p and the games the rest would need."""
    return claims_table(book_claims(figures), "Claims (Holm's correction over the section)")


def _seat_sentence(v: VariantFigures, claims: Sequence[Claim] = ()) -> list[str]:
    if v.level is None or not v.level.finished:
        return []
    off = _seats_off(v, claims)
    if off:
        return ["By seat: " + "; ".join(off) + "."]
    return [
        f"No seat is shown to win more or less than its fair share of {pct(v.fair_share)} "
        f"(overall seat-balance test, {v.level.finished} games, Holm's correction over the section)."
    ]


def _seats_off(v: VariantFigures, claims: Sequence[Claim] = ()) -> list[str]:
    """The seats that win more or less than their share, as the corrected claims say: the
    variant's seat-balance test first, then each seat's (never an uncorrected interval)."""
    if v.level is None or not v.level.finished:
        return []
    off = []
    for claim in claims:
        if claim.variant != v.level.name or claim.topic != "seat balance" or not claim.shown:
            continue
        for follow in claim.follows:
            if follow.test.adjusted is not None and follow.shown:
                more = "more" if follow.test.estimate > v.fair_share else "less"
                rate = v.level.by_seat[int(follow.topic.split()[1]) - 1]
                off.append(f"{follow.topic} wins {more} than its share ({_rate(rate)})")
    note = one_game_note(v.level)
    if off and note:
        off.append(note.removeprefix("; "))
    return off


def _minutes(v: VariantFigures) -> str:
    m, lo, hi = _mean_interval(v.table_minutes)
    return f"{m:.0f} minutes, 95% interval {lo:.0f}-{hi:.0f}, n {len(v.table_minutes)}"


def _variant_sentences(played: Sequence[VariantFigures], claims: Sequence[Claim] = ()) -> list[str]:
    timed = [v for v in played if v.decisions]
    if len(timed) < 2:
        return []
    short = min(timed, key=lambda v: mean(v.decisions))
    long = max(timed, key=lambda v: mean(v.decisions))
    out = [
        f"By their means, the longest variant is {long.variant.label} ({_minutes(long)}) and the "
        f"shortest {short.variant.label} ({_minutes(short)})."
    ]
    for v in played[1:]:  # the standard game's seats have a sentence of their own
        off = _seats_off(v, claims)
        if off:
            out.append(f"In the variant {v.variant.label}, " + "; ".join(off) + ".")
    capped = [v for v in played if v.level is not None and v.level.capped]
    if capped:
        parts = [
            f"{v.variant.label} {v.level.capped} of {v.level.games}" for v in capped if v.level is not None
        ]
        out.append("Games a length cap decided (counted apart): " + "; ".join(parts) + ".")
    return out


def markdown(
    figures: Sequence[GameFigures], settings: StudySettings, command: str, when: str, note: str
) -> str:
    lines = [
        "# The balance book",
        "",
        f"Written by `{command}` on {when}. {note}",
        "",
        f"Every variant the rulebooks name (or a designer's own, beside the standard game), played by "
        f"the `{settings.level}` level in every seat "
        "(each game's levels are named in its section). Per variant, these jobs in the lab's "
        f"database `{settings.db}`: up to "
        f"{settings.games} games at the level; up to {settings.skill_games} games of `hard` in one seat "
        f"against `easy` in the others (luck vs skill); the first {settings.reroll_games} games replayed "
        "with other dice and the same players with the same seeds (the chance share: how often the "
        "winner changes with the dice alone)"
        + (
            f"; and up to {settings.cross_games} games by another kind of player in every seat (greedy "
            "where the level is MCTS), where the section says it is played (the player check)"
            if settings.cross_games
            else ""
        )
        + ". Seats rotate from game to game.",
        "",
        "Win rates count a shared win as a share and are taken over the games the rulebook ended; a game "
        "that a length cap decided (each study sets one as a safety net; an option, not a rule) is counted "
        "apart. Intervals are 95%: Wilson for rates, t for means, for balance the range the seats' "
        "Wilson intervals allow at once. Table time is "
        f"estimated at {SECONDS_PER_DECISION} seconds a decision. `(90%)` is the 90th percentile. The "
        "leader is the player the game's heuristic rates highest; a comeback is a game the half-time "
        "leader did not win.",
        "",
        "**Claims.** Each section states a claim (a seat wins more than its share, hard beats easy, the "
        "dice decide, a variant ends otherwise than the first, the player changes the ending) only where "
        "its test says so after Holm's correction over every claim of the section. A seat is named only "
        "after its variant's overall seat-balance test (exact binomial with two seats, a multinomial "
        "chi-square whose null is drawn with four) rejects equal seats, and then by its own exact "
        "binomial test inside the same correction, with the share of the 5% its variant's test held "
        "(Bretz et al.'s graphical Holm procedure). Each claim's table gives its n, "
        "its p before and after the correction and, where nothing is shown, about how many games an "
        "effect of the size seen would need (power 80%, at the level the claim is tested at): the "
        "book's sample sizes are for reading the shape of a variant, not for settling small seat advantages.",
        "",
    ]
    for game in figures:
        caps = ", ".join(f"`{k}={v}`" for k, v in game.plan.cap.items()) or "none"
        lines += [
            f"## {game.title}",
            "",
            f"Levels: {_levels(game)}. Safety cap: {caps}.",
            "",
            "**What a designer should know.** " + designer_notes(game),
            "",
            markdown_table(shape_table(game)),
            markdown_table(fairness_table(game)),
            markdown_table(feel_table(game)),
            markdown_table(claims_section(game)),
        ]
    lines.append("How games ended: " + "; ".join(f"`{k}` {v}" for k, v in ENDINGS.items()) + ".")
    return "\n".join(lines) + "\n"


def _levels(game: GameFigures) -> str:
    return ", ".join(f"`{name}` = `{spec}`" for name, spec in level_specs(game.plan.game).items())


def html_page(figures: Sequence[GameFigures], command: str, when: str, note: str) -> str:
    sections = [
        Section(
            game.title,
            [
                shape_table(game),
                fairness_table(game),
                feel_table(game),
                claims_section(game),
                Paragraph(f"Levels: {_levels(game).replace('`', '')}."),
                Paragraph(designer_notes(game), lead="What a designer should know."),
                *(
                    Picture(f"{v.variant.label}: the first position", v.picture)
                    for v in game.variants
                    if v.picture
                ),
                *_plots(game),
            ],
        )
        for game in figures
    ]
    return render_page("book.html", "The balance book", sections, command=command, when=when, note=note)


def _plots(game: GameFigures) -> list[Plot]:
    figure = luck_figure(game)
    if figure is None:
        return []
    played = [v for v in game.variants if v.level is not None and v.decisions]
    return [png(figure), _seat_plot(game, played)]


def luck_figure(game: GameFigures) -> Any | None:
    """Table minutes, and the chance share beside hard's win rate against easy, per variant,
    each bar with its 95% interval, every variant named on both charts; a figure a variant
    lacks is left out (no bar), never drawn as 0."""
    played = [v for v in game.variants if v.level is not None and v.decisions]
    if not played:
        return None
    plt = pyplot()
    labels = [f"{v.variant.label} (n {v.games})" for v in played]
    positions = list(range(len(played)))
    # One above the other: each panel names the variants in full without running into the other.
    figure, (time_axes, luck_axes) = plt.subplots(2, 1, figsize=(13, 2.5 + 1.0 * len(played)))
    minutes = [_mean_interval(v.table_minutes) for v in played]
    time_axes.barh(
        positions,
        [m for m, _, _ in minutes],
        xerr=[[m - lo for m, lo, _ in minutes], [hi - m for m, _, hi in minutes]],
        capsize=2,
        color="#4c78a8",
    )
    time_axes.set_yticks(positions, labels=labels)
    time_axes.set_xlabel(f"table minutes a game (at {SECONDS_PER_DECISION} s a decision; 95% t interval)")
    time_axes.set_title(f"{game.title}: length by variant")
    time_axes.invert_yaxis()
    chance = [_share(v.chance_changed, v.chance_pairs) for v in played]
    hard = [_share(v.skill.wins, v.skill.games) if v.skill is not None else None for v in played]
    for values, shift, colour, name in (
        (chance, -0.2, "#f58518", "chance share (winner changed by other dice)"),
        (hard, 0.2, "#54a24b", "hard's win rate against easy"),
    ):
        shown = [(p + shift, value) for p, value in zip(positions, values, strict=True) if value is not None]
        luck_axes.barh(
            [y for y, _ in shown],
            [r for _, (r, _, _) in shown],
            xerr=[[r - lo for _, (r, lo, _) in shown], [hi - r for _, (r, _, hi) in shown]],
            height=0.4,
            capsize=2,
            color=colour,
            label=name,
        )
    luck_axes.scatter(
        [v.lottery_share for v in played],
        [p - 0.2 for p in positions],
        marker="|",
        s=200,
        color="black",
        label="a fair lottery's chance share",
    )
    luck_axes.scatter(
        [v.fair_share for v in played],
        [p + 0.2 for p in positions],
        marker="|",
        s=200,
        color="#7b3294",
        label="hard's fair share",
    )
    luck_axes.set_yticks(
        positions,
        labels=[
            f"{v.variant.label} (n {v.chance_pairs} replays, {v.skill.games if v.skill else 0} hard)"
            for v in played
        ],
    )
    luck_axes.set_xlabel(
        "share of games (95% Wilson interval; chance: replays, hard: its games against easy)"
    )
    luck_axes.set_title(f"{game.title}: luck and skill by variant")
    luck_axes.set_xlim(0, 1)
    luck_axes.invert_yaxis()
    luck_axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
    figure.tight_layout()
    return figure


def _share(successes: float, trials: int) -> tuple[float, float, float] | None:
    if not trials:
        return None
    lo, hi = wilson(successes, trials)
    return successes / trials, lo, hi


def _mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    m = mean(values)
    if len(values) < 2:
        return m, m, m
    from scipy import stats as sps

    half = float(sps.t.ppf(0.975, len(values) - 1)) * math.sqrt(variance(values) / len(values))
    return m, max(0.0, m - half), m + half


def _seat_plot(game: GameFigures, played: Sequence[VariantFigures]) -> Plot:
    plt = pyplot()
    figure, axes = plt.subplots(figsize=(11, 0.8 + 0.5 * len(played)))
    most = max(v.players for v in played)
    height = 0.8 / most
    for seat in range(most):
        rates: list[float] = []
        errors: list[list[float]] = [[], []]
        for v in played:
            rate: Any = v.level.by_seat.get(seat) if v.level is not None else None
            value = rate.rate if rate is not None and rate.games else 0.0
            lo, hi = rate.interval if rate is not None and rate.games else (0.0, 0.0)
            rates.append(value)
            errors[0].append(max(0.0, value - lo))
            errors[1].append(max(0.0, hi - value))
        offsets = [p - 0.4 + height * (seat + 0.5) for p in range(len(played))]
        axes.barh(offsets, rates, height=height, xerr=errors, capsize=2, label=f"seat {seat + 1}")
    axes.set_yticks(
        list(range(len(played))),
        labels=[f"{v.variant.label} (n {v.level.finished if v.level else 0})" for v in played],
    )
    axes.set_xlim(0, 1)
    axes.set_xlabel("win rate by seat (Wilson 95% interval)")
    axes.invert_yaxis()
    axes.legend(loc="lower right", fontsize=8)
    axes.set_title(f"{game.title}: seat advantage")
    return png(figure)
