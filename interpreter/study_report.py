"""What a study says: outcome shares with their 95% intervals, game lengths, facts, and (with
``--compare``) whether a house rule changes the outcome; written as text, CSV, JSON and a plot.

The comparison plays the same seeds with and without the overlay, so the games are paired: the
test is McNemar's (an exact binomial test on the seeds whose outcome changed, from scipy), which
is what a paired design calls for, not a test of two independent samples.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections import Counter
from dataclasses import asdict
from statistics import mean

from .runtime.odds.odds_report import wilson
from .study import Result
from .writing import write_file

SIGNIFICANCE = 0.05


def summary(results: list[Result], outcome: str | None, facts: tuple[str, ...]) -> list[str]:
    """The study's table: outcomes with their intervals, lengths, facts, errors."""
    played = [r for r in results if r.error is None]
    lines = [f"games: {len(results)} (seeds {results[0].seed}..{results[-1].seed})" if results else "games: 0"]
    if outcome is not None:
        lines.append(f"{outcome} (95% interval, Wilson):")
        tally = sorted(Counter(r.outcome for r in played).items(), key=lambda kv: (-kv[1], kv[0]))
        width = _width(value for value, _ in tally)
        for value, count in tally:
            low, high = wilson(count, len(played))
            lines.append(f"  {value:<{width}} {count:>6}  {count / len(played):7.1%}  [{low:.1%}, {high:.1%}]")
    if played:
        turns = [r.turns for r in played]
        lines.append(f"turns: mean {mean(turns):.2f}, from {min(turns)} to {max(turns)}; "
                     f"decisions: mean {mean(r.decisions for r in played):.1f}")
    for name in facts:
        lines.append(f"{name}: " + _distribution([r.facts.get(name, "none") for r in played]))
    errors = [r for r in results if r.error is not None]
    if errors:
        lines.append(f"stopped by an error: {len(errors)} game(s); seed {errors[0].seed}: {errors[0].error}")
    return lines


def _width(values, least: int = 24) -> int:
    """The width of a column of outcomes: 24, or the longest when one is longer, so the columns after it align."""
    return max([least, *(len(str(v)) for v in values)])


def _distribution(values: list[str]) -> str:
    numbers = [int(v) for v in values if v.lstrip("-").isdigit()]
    if values and len(numbers) == len(values) and len(set(numbers)) > 6:
        return f"mean {mean(numbers):.2f}, from {min(numbers)} to {max(numbers)}"
    counts = Counter(values)
    return ", ".join(f"{v} {c} ({c / len(values):.1%})" for v, c in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def comparison(base: list[Result], other: list[Result], overlay: str) -> list[str]:
    """Each outcome's share without and with the overlay, seed by seed, and McNemar's exact test."""
    from scipy.stats import binomtest

    pairs = [(a, b) for a, b in zip(base, other, strict=True) if a.error is None and b.error is None]
    values = sorted({a.outcome for a, _ in pairs} | {b.outcome for _, b in pairs})
    lines = [f"with {overlay}: the same {len(pairs)} seeds, paired (McNemar's exact test, 5% level):",
             f"  {'outcome':<{_width(values)}} {'without':>8} {'with':>8} {'change':>8}  p-value"]
    for value in values:
        gained = sum(1 for a, b in pairs if a.outcome != value and b.outcome == value)
        lost = sum(1 for a, b in pairs if a.outcome == value and b.outcome != value)
        before = sum(1 for a, _ in pairs if a.outcome == value) / len(pairs)
        after = sum(1 for _, b in pairs if b.outcome == value) / len(pairs)
        p = binomtest(gained, gained + lost).pvalue if gained + lost else 1.0
        verdict = "significant" if p < SIGNIFICANCE else "not significant"
        lines.append(f"  {value:<{_width(values)}} {before:8.1%} {after:8.1%} {after - before:+8.1%}  {p:.3g} ({verdict})")
    return lines


def write_csv(path: str, runs: dict[str, list[Result]], facts: tuple[str, ...], force: bool) -> None:
    """One row per game: the rules it was played with (as written, or with an overlay), then its results."""
    out = io.StringIO(newline="")
    writer = csv.writer(out)
    writer.writerow(["rules", "seed", "outcome", "turns", "decisions", "error", *facts])
    for label, results in runs.items():
        for r in results:
            writer.writerow([label, r.seed, r.outcome or "", r.turns, r.decisions, r.error or "",
                             *(r.facts.get(f, "") for f in facts)])
    write_file(path, out.getvalue(), force)


def write_json(path: str, runs: dict[str, list[Result]], force: bool) -> None:
    text = json.dumps({label: [asdict(r) for r in results] for label, results in runs.items()}, indent=1)
    write_file(path, text + "\n", force)


def plot(path: str, runs: dict[str, list[Result]], outcome: str, title: str, force: bool) -> None:
    """Bars of each outcome's share, one colour per set of rules, with the 95% intervals (SVG or
    PNG by the file's extension)."""
    import matplotlib

    matplotlib.use("Agg")  # no screen: draw to a file
    import matplotlib.pyplot as plt

    plt.rcParams["svg.fonttype"] = "none"  # an SVG keeps its words as text (searchable, and a test can read them)
    plt.rcParams["svg.hashsalt"] = "umpire"  # the same study draws the same file
    values = sorted({r.outcome for results in runs.values() for r in results if r.error is None})
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    width = 0.8 / max(1, len(runs))
    for i, (label, results) in enumerate(runs.items()):
        played = [r for r in results if r.error is None]
        shares, below, above = [], [], []
        for value in values:
            count = sum(1 for r in played if r.outcome == value)
            low, high = wilson(count, len(played))
            share = count / len(played) if played else 0.0
            shares.append(share)
            below.append(share - low)
            above.append(high - share)
        xs = [x + (i - (len(runs) - 1) / 2) * width for x in range(len(values))]
        ax.bar(xs, shares, width, yerr=[below, above], capsize=4, label=label)
    ax.set_xticks(range(len(values)), values)
    ax.set_ylim(0, 1)
    ax.set_ylabel(f"share of games ({outcome})")
    ax.set_title(title)
    if len(runs) > 1:  # below the axes, where no bar is
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=len(runs), fontsize=8, frameon=False)
    fig.tight_layout()
    picture = io.BytesIO()
    kind = os.path.splitext(path)[1].lower().lstrip(".")
    fig.savefig(picture, format=kind, metadata={"Date": None} if kind == "svg" else None)
    plt.close(fig)
    write_file(path, picture.getvalue(), force)
