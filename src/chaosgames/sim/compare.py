"""Two stored variants side by side, each difference tested, with its interval and its n.

Where both variants were played by the same lineup with the same job seed, game i of one
and game i of the other had the same dice seed and the same agent seeds (common random
numbers): such games are compared in pairs (exact McNemar for outcomes that are 0 or 1, the
paired t-test for the rest), which needs fewer games for the same certainty. Otherwise the
samples are compared as independent (Fisher's exact test, Welch's t-test). Every test of a
comparison is corrected for the others (Holm), and a difference that does not show says how
many games it would need. Where the variants were played by several lineups of one agent in
every seat (greedy, MCTS), each lineup is compared alone too, and a verdict that depends on
the player is said.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from chaosgames.sim.stats import (
    ALPHA,
    Test,
    games_needed_difference,
    holm,
    mean,
    paired_test,
    unpaired_test,
    variance,
)
from chaosgames.sim.storage import GameRow, LabError
from chaosgames.sim.summary import finish_of
from chaosgames.sim.variants import VariantName, variant_key

MIN_PAIRS = 5
"""Fewer games in common random numbers than this: the variants are compared unpaired."""


@dataclass
class CompareLine:
    metric: str
    a: float
    b: float
    test: Test
    percent: bool
    needed: int | None = None
    """Games (pairs when paired) per variant for this difference to show, if it does not."""

    @property
    def comparison(self) -> Test:
        return self.test


@dataclass
class CompareResult:
    labels: tuple[str, str]
    titles: tuple[str, str]
    sizes: tuple[int, int]
    paired: int
    """Pairs of games in common random numbers the tests rest on (0: compared unpaired)."""
    lines: list[CompareLine]
    disagreements: list[str] = field(default_factory=list)
    """Where one player's games say otherwise than another's."""


Metric = tuple[float | None, bool]
"""A game's figure (None: it has none) and whether it is a rate (shown in %)."""


def game_figures(row: GameRow, finishes: Sequence[str]) -> dict[str, Metric]:
    """The figures one game gives a comparison."""
    rules = row.ended_by_rules and row.returns is not None
    out: dict[str, Metric] = {}
    finish = finish_of(row)
    for name in finishes:
        out[f"ended: {name}"] = (float(finish == name), True)
    for seat in range(len(row.seats)):
        out[f"win rate of seat {seat + 1}"] = (row.returns[seat] if rules and row.returns else None, True)
    for agent in sorted(set(row.seats)) if len(set(row.seats)) > 1 else []:
        # One agent in every seat wins every game: its rate is the fair share by construction.
        share = None
        if rules and row.returns:
            mine = [r for a, r in zip(row.seats, row.returns, strict=True) if a == agent]
            share = sum(mine) / len(mine)
        out[f"win rate of {agent}"] = (share, True)
    out["draws"] = (float(row.winner is None) if rules else None, True)
    comeback = None
    if rules and row.winner is not None and row.leader_at_half is not None:
        comeback = float(row.winner != row.leader_at_half)
    out["comebacks"] = (comeback, True)
    out["rounds per game"] = (float(row.rounds), False)
    out["decisions per game"] = (None if row.decisions is None else float(row.decisions), False)
    out["lead changes"] = (float(row.lead_changes), False)
    feel = row.feel or {}
    out["drama"] = (feel.get("drama"), False)
    out["winner clear at (share of the game)"] = (feel.get("decided_at"), False)
    judged = feel.get("judged") or 0
    out["real decisions (share)"] = (feel["real"] / judged if judged else None, True)
    return out


def _pair_key(row: GameRow, jobs: Mapping[str, tuple[int, list[str], int]]) -> tuple[object, ...] | None:
    job = jobs.get(row.job)
    return None if job is None else (tuple(row.lineup), job[0], job[2], row.idx)


def compare_variants(
    a_rows: Sequence[GameRow],
    b_rows: Sequence[GameRow],
    names: tuple[VariantName, VariantName],
    jobs: Mapping[str, tuple[int, list[str], int]],
    *,
    by_lineup: bool = True,
) -> CompareResult:
    """Variant b against variant a: every figure's difference (b - a), tested."""
    if names[0].key == names[1].key:
        raise LabError(f"Both sides name the same variant ({names[0].name}): compare two variants.")
    keyed_a = {k: r for r in a_rows if (k := _pair_key(r, jobs)) is not None}
    keyed_b = {k: r for r in b_rows if (k := _pair_key(r, jobs)) is not None}
    common = sorted(set(keyed_a) & set(keyed_b), key=repr)
    finishes = sorted({finish_of(r) for r in (*a_rows, *b_rows)})
    if len(common) >= MIN_PAIRS:
        pairs = [(keyed_a[k], keyed_b[k]) for k in common]
        lines, spreads = _paired_lines(pairs, finishes)
        paired = len(pairs)
    else:
        lines, spreads = _unpaired_lines(a_rows, b_rows, finishes)
        paired = 0
    lines = _corrected(lines, spreads)
    result = CompareResult(
        (names[0].name, names[1].name),
        (names[0].title, names[1].title),
        (len(a_rows), len(b_rows)),
        paired,
        lines,
    )
    if by_lineup:
        result.disagreements = _disagreements(a_rows, b_rows, names, jobs)
    return result


def _paired_lines(
    pairs: Sequence[tuple[GameRow, GameRow]], finishes: Sequence[str]
) -> tuple[list[CompareLine], list[float]]:
    figures = [(game_figures(a, finishes), game_figures(b, finishes)) for a, b in pairs]
    lines: list[CompareLine] = []
    spreads: list[float] = []
    for metric in figures[0][0]:
        values = [(fa[metric][0], fb[metric][0]) for fa, fb in figures if metric in fa and metric in fb]
        both = [(x, y) for x, y in values if x is not None and y is not None]
        if len(both) < 2:
            continue
        xs, ys = [x for x, _ in both], [y for _, y in both]
        binary = all(v in (0.0, 1.0) for v in (*xs, *ys))
        test = paired_test(xs, ys, binary)
        spread = variance([y - x for x, y in both]) ** 0.5
        percent = figures[0][0][metric][1]
        lines.append(CompareLine(metric, mean(xs), mean(ys), test, percent, None))
        spreads.append(spread)
    return lines, spreads


def _unpaired_lines(
    a_rows: Sequence[GameRow], b_rows: Sequence[GameRow], finishes: Sequence[str]
) -> tuple[list[CompareLine], list[float]]:
    fa = [game_figures(r, finishes) for r in a_rows]
    fb = [game_figures(r, finishes) for r in b_rows]
    metrics = list(dict.fromkeys([m for f in (*fa, *fb) for m in f]))
    lines: list[CompareLine] = []
    spreads: list[float] = []
    for metric in metrics:
        xs = [v for f in fa if metric in f and (v := f[metric][0]) is not None]
        ys = [v for f in fb if metric in f and (v := f[metric][0]) is not None]
        if not xs or not ys:
            continue
        binary = all(v in (0.0, 1.0) for v in (*xs, *ys))
        test = unpaired_test(xs, ys, binary)
        spread = ((variance(xs) + variance(ys)) / 2) ** 0.5
        percent = next(f[metric][1] for f in (*fa, *fb) if metric in f)
        lines.append(CompareLine(metric, mean(xs), mean(ys), test, percent, None))
        spreads.append(spread)
    return lines, spreads


def _corrected(lines: list[CompareLine], spreads: Sequence[float]) -> list[CompareLine]:
    """Holm over the comparison; the games a difference would need, at Holm's first level."""
    adjusted = holm([line.test.p_value for line in lines])
    out = []
    for line, p, spread in zip(lines, adjusted, spreads, strict=True):
        test = replace(line.test, adjusted=p)
        needed = None if test.significant else games_needed_difference(test, spread, ALPHA / len(lines))
        out.append(replace(line, test=test, needed=needed))
    return out


def _one_agent_lineups(rows: Sequence[GameRow]) -> set[tuple[str, ...]]:
    return {tuple(r.lineup) for r in rows if len(set(r.lineup)) == 1}


def _disagreements(
    a_rows: Sequence[GameRow],
    b_rows: Sequence[GameRow],
    names: tuple[VariantName, VariantName],
    jobs: Mapping[str, tuple[int, list[str], int]],
) -> list[str]:
    lineups = sorted(_one_agent_lineups(a_rows) & _one_agent_lineups(b_rows))
    if len(lineups) < 2:
        return []
    verdicts: dict[str, dict[str, CompareLine]] = {}
    for lineup in lineups:
        sub = compare_variants(
            [r for r in a_rows if tuple(r.lineup) == lineup],
            [r for r in b_rows if tuple(r.lineup) == lineup],
            names,
            jobs,
            by_lineup=False,
        )
        verdicts[lineup[0]] = {line.metric: line for line in sub.lines}
    out = []
    metrics = sorted({m for v in verdicts.values() for m in v if not m.startswith("win rate of ")})
    for metric in metrics:
        said = {agent: lines[metric] for agent, lines in verdicts.items() if metric in lines}
        signs = {agent: _verdict(line) for agent, line in said.items()}
        if len(set(signs.values())) > 1:
            parts = "; ".join(
                f"with {agent} in every seat: {signs[agent]} ({_change(said[agent])})" for agent in said
            )
            out.append(f"{metric}: the player changes the verdict. {parts}.")
    return out


def _verdict(line: CompareLine) -> str:
    if not line.test.significant:
        return "no difference shown"
    return "higher" if line.test.estimate > 0 else "lower"


def _change(line: CompareLine) -> str:
    a, b = (f"{100 * v:.1f}%" if line.percent else f"{v:.2f}" for v in (line.a, line.b))
    p = line.test.p_value if line.test.adjusted is None else line.test.adjusted
    return f"{a} to {b}, n {line.test.n}, Holm p {p:.3f}"


def variant_rows(rows: Sequence[GameRow], variant: VariantName) -> list[GameRow]:
    return [r for r in rows if variant_key(r.game, r.options) == variant.key]
