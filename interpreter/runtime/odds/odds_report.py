"""The answer of `umpire odds` as a rules lawyer reads it: what was measured and how the decisions
were taken, the distribution (fractions and percentages, each fact and jointly), what the answer
rests on beyond the published rules, and a warning wherever it measured nothing."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from typing import Any

from ..common.values import show
from .odds import Odds, Recorded, Sampled, value_order
from .policies import POLICIES, Seen, decide_key

Z95 = 1.959964  # the normal quantile of a two-sided 95% interval


def report(odds: Odds, mc: tuple[Counter, float] | None = None, decide: dict[str, str] | None = None) -> list[str]:
    """The exact distribution, with a seeded Monte Carlo run of the interpreter beside it when given."""
    lines = decisions(odds.policy, odds.seen, decide)
    lines += [f"enumeration: {note}" for note in odds.notes]
    if odds.runs is None:
        lines.append(f"enumeration: infinitely many dice paths (a roll can come again without end, as a tie rolled "
                     f"again: a position met again is the same position, and the chances are solved exactly), "
                     f"{odds.seconds:.2f} s")
    else:
        lines.append(f"enumeration: {odds.runs} dice paths" + (f", {odds.cut} stopped early" if odds.cut else "")
                     + f", {odds.seconds:.2f} s")
    lines += [f"rests on: {line}" for line in odds.rests_on]
    lines += [f"the rulebook does not print: {line}" for line in odds.unprinted]
    for i, name in enumerate(odds.names):
        lines.append(f"{name}:")
        mc_marginal = marginal_counts(mc[0], i) if mc else None
        marginal = odds.marginal(i)
        width, wide = max(len(shown_value(v)) for v in marginal), _fraction_width(marginal.values())
        for value, p in marginal.items():
            lines.append(f"  {shown_value(value):>{width}}  {_fraction(p, wide)}" + _mc_text(mc_marginal, value, mc))
    if len(odds.names) > 1:
        lines.append("jointly (" + ", ".join(odds.names) + "):")
        joint = sorted(odds.outcomes.items(), key=lambda kv: tuple(value_order(v) for v in kv[0]))
        width = max(len(", ".join(shown_value(v) for v in key)) for key, _ in joint)
        wide = _fraction_width(p for _, p in joint)
        for key, p in joint:
            lines.append(f"  {', '.join(shown_value(v) for v in key):>{width}}  {_fraction(p, wide)}")
    total = odds.total
    lines.append(f"total probability: {total}" + (" (exactly)" if total == 1 else " -- NOT 1: a bug in Umpire"))
    if mc:
        runs = sum(mc[0].values())
        lines.append(f"monte carlo: {runs} seeded runs of the interpreter, {mc[1]:.2f} s; "
                     f"largest deviation {largest_deviation(odds, mc[0]):.2f} standard errors")
    return lines + warnings(odds.names, list(odds.outcomes), odds.seen)


def report_sampled(sampled: Sampled, policy: str, decide: dict[str, str] | None = None) -> list[str]:
    """A Monte Carlo estimate alone (the enumeration refused or not asked for): each value's share
    of the runs with its 95% confidence interval (Wilson's score interval)."""
    runs = sum(sampled.counts.values())
    lines = decisions(policy, sampled.seen, decide)
    lines.append(f"monte carlo: {runs} seeded runs of the interpreter, {sampled.seconds:.2f} s; "
                 f"an estimate, not exact: each share with its 95% confidence interval")
    lines += [f"rests on: {line}" for line in sampled.rests_on]
    for i, name in enumerate(sampled.names):
        lines.append(f"{name}:")
        counts = marginal_counts(sampled.counts, i)
        ordered = sorted(counts.items(), key=lambda kv: value_order(kv[0]))
        width = max(len(shown_value(v)) for v, _ in ordered)
        for value, c in ordered:
            low, high = wilson(c, runs)
            lines.append(f"  {shown_value(value):>{width}}  {c / runs:8.2%}   ({low:.2%} to {high:.2%})")
    return lines + warnings(sampled.names, list(sampled.counts), sampled.seen)


def wilson(hits: int, runs: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion: sound near 0 and 1, where the normal one is not."""
    if runs == 0:
        return 0.0, 1.0
    p = hits / runs
    centre = (p + z * z / (2 * runs)) / (1 + z * z / runs)
    half = z * math.sqrt(p * (1 - p) / runs + z * z / (4 * runs * runs)) / (1 + z * z / runs)
    return max(0.0, centre - half), min(1.0, centre + half)


def decisions(policy: str, seen: Seen, decide: dict[str, str] | None) -> list[str]:
    lines = [f"decisions: {policy} ({POLICIES[policy]})"]
    for name, answer in (decide or {}).items():
        used = "" if name in seen.decided else " (never asked)"
        lines.append(f"decisions: --decide {name}={answer}{used}")
    for (side, name), given in sorted(seen.unfit.items()):
        why = seen.ruled_out.get((side, name))
        lines.append(f"decisions: {given} did not fit {side}'s '{name}' on some paths: "
                     + (f"{why}; " if why else "") + "the first legal option was taken")
    return lines + declined(seen)


def declined(seen: Seen) -> list[str]:
    """Each optional decision the policy declined, named with how to take it instead: a policy that
    declines what the question is about (a ship's fire, an attack) answers another question."""
    return [f"decisions: the policy declined {side}'s optional '{name}' [{cite}] on some paths; to take it, "
            f"--decide {decide_key(side, name)}=first (or an option's name); to decline it without this line, "
            f"--decide {decide_key(side, name)}=pass"
            for (side, name), cite in sorted(seen.declined.items())]


def warnings(names: list[str], keys: list[tuple], seen: Seen) -> list[str]:
    """Say so when nothing was measured, naming the optional decisions the policy declined (the
    usual reason: the battle was never fought)."""
    never = [name for i, name in enumerate(names) if all(key[i] is None for key in keys)]
    if names and not never:
        return []
    lines = (["warning: nothing was measured: no path records a fact"] if not names
             else [f"warning: no path records '{name}'" for name in never])
    if seen.declined:
        declined = ", ".join(f"{side} '{name}' [{cite}]" for (side, name), cite in sorted(seen.declined.items()))
        lines.append(f"warning: the decision policy declined {declined}: if that skips what you measure, script the "
                     f"decision in the scenario or answer it with --decide SIDE:NAME=ANSWER")
    return lines


def marginal_counts(counts: Counter, i: int) -> Counter:
    out: Counter = Counter()
    for key, c in counts.items():
        out[key[i]] += c
    return out


def _mc_text(marginal: Counter | None, value: Any, mc) -> str:
    if marginal is None:
        return ""
    runs = sum(mc[0].values())
    return f"   monte carlo {marginal.get(value, 0) / runs:7.2%}"


def largest_deviation(odds: Odds, counts: Counter) -> float:
    """max over joint outcomes of |observed - expected| / standard error."""
    runs = sum(counts.values())
    worst = 0.0
    for key, p in odds.outcomes.items():
        q = float(p)
        se = math.sqrt(q * (1 - q) / runs) if 0 < q < 1 else 0.0
        if se:
            worst = max(worst, abs(counts.get(key, 0) / runs - q) / se)
    return worst


def shown_value(value: Any) -> str:
    if isinstance(value, Recorded):
        value = value.value
    return "none" if value is None else show(value)


def _fraction(p: Fraction, width: int = 18) -> str:
    return f"{str(p):>{width}}  {float(p):8.4%}"


def _fraction_width(ps) -> int:
    """18 characters, or the longest fraction when one is longer, so the percentages after it align."""
    return max([18, *(len(str(p)) for p in ps)])
