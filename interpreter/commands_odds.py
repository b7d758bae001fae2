"""`umpire odds`: what was asked, how big it is, the answer, and what the answer rests on.

The header names the scenario, the ruleset and the overlays applied, what is measured (the
facts given with --fact, else those the scenario's expectations name, else every fact a path
records) and how decisions are taken. An estimate of the enumeration's size comes first; a
roll that would take it past --limit is refused before it is run, and then --monte-carlo N
answers alone, with confidence intervals.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from . import progress
from .style import enabled, report_lines
from .syntax.diagnostics import Diagnostic, Sources, render


@dataclass
class OddsArgs:
    path: str
    facts: list[str] | None
    policy: str | None
    mc_runs: int | None
    seed: int
    limit: int
    overlays: list[str]
    replay: bool = False
    decide: list[str] | None = None
    no_exact: bool = False
    list_facts: bool = False
    all_facts: bool = False
    demo: bool = False


def cmd_odds(a: OddsArgs) -> int:
    from .commands import _ready_scenario
    from .runtime.odds import OddsError, default_policy

    sources = Sources()
    ready = _ready_scenario(a.path, sources, a.overlays, a.demo)
    if ready is None:
        return 1
    scenario, loaded = ready
    if a.list_facts:
        print("\n".join(list_facts(scenario, loaded.symbols, sources)))
        return 0
    try:
        decide = _decide(a.decide)
        if a.mc_runs is not None and a.mc_runs < 1:
            raise OddsError(f"--monte-carlo takes a number of runs of at least 1, not {a.mc_runs}")
    except OddsError as err:
        print(f"umpire: error: {err.message}", file=sys.stderr)
        return 2
    policy = a.policy or default_policy(scenario)
    facts, measured = _measured(scenario, a.facts, a.all_facts)
    print("\n".join(_header(scenario, loaded.symbols, measured)))
    try:
        return _answer(a, scenario, loaded.symbols, sources, facts, policy, decide)
    except OddsError as err:
        print(render(Diagnostic("error", err.message, err.span or scenario.span, err.hint), sources, colour=enabled(sys.stderr)), file=sys.stderr)
        return 1


def _answer(a: OddsArgs, scenario, sym, sources, facts, policy, decide) -> int:
    from .runtime.odds import TooLargeError, estimate, monte_carlo, sample
    from .runtime.odds_report import report, report_sampled

    if policy not in _policies():
        from .runtime.odds import OddsError

        raise OddsError(f"unknown decision policy '{policy}'", f"the policies are {', '.join(_policies())}")
    if not a.no_exact:
        guess = estimate(scenario, sym, sources, facts, policy, decide)
        print(_estimate_line(guess, a.limit))
        try:
            odds = enumerated(a, scenario, sym, sources, facts, policy, decide)
        except TooLargeError as err:
            if not a.mc_runs:
                raise
            print(f"exact: refused: {err.message}")
        else:
            mc = monte_carlo(scenario, sym, sources, odds.names, a.mc_runs, a.seed, policy, decide) if a.mc_runs else None
            print(report_lines(report(odds, mc, decide), sys.stdout))
            return 0
    if not a.mc_runs:
        print("umpire: error: --no-exact needs --monte-carlo N", file=sys.stderr)
        return 2
    sampled = sample(scenario, sym, sources, facts, a.mc_runs, a.seed, policy, decide)
    print(report_lines(report_sampled(sampled, policy, decide), sys.stdout))
    return 0


def _policies():
    from .runtime.policies import POLICIES

    return POLICIES


def _measured(scenario, facts: list[str] | None, every: bool) -> tuple[list[str] | None, str]:
    from .runtime.odds import expected_facts

    if facts:
        return facts, "the facts named by --fact"
    named = [] if every else expected_facts(scenario)
    if every:
        return None, "every fact any path records (--all-facts)"
    if named:
        return named, "the facts the scenario's expectations name (--fact NAME to choose others)"
    return None, "every fact any path records (the scenario's expectations name none)"


def _header(scenario, sym, measured: str) -> list[str]:
    from .overlay.apply import header_line

    lines = [f"odds: {scenario.title}" + (f" [{scenario.cite}]" if scenario.cite else ""), f"ruleset: {scenario.uses}"]
    lines += [header_line(sym.overlays)] if sym.overlays else []
    return lines + [f"measured: {measured}"]


def _estimate_line(guess, limit: int) -> str:
    line = (f"estimate: about {_round(guess.paths)} dice paths; at most about {_round(guess.outcomes)} outcomes to send on "
            f"if no positions merge (Knuth's estimator, {guess.probes} sampled runs, {guess.seconds:.2f} s)")
    if guess.outcomes > limit:
        line += f"; more than --limit {limit}: a roll past it is refused before it is run, unless positions merge"
    return line


def _round(x: float) -> str:
    if x < 1000:
        return f"{x:.0f}"
    for size, word in ((1e12, "trillion"), (1e9, "billion"), (1e6, "million"), (1e3, "thousand")):
        if x >= size:
            return f"{x / size:.1f} {word}"
    return f"{x:.0f}"


def _decide(given: list[str] | None) -> dict[str, str]:
    from .runtime.odds import OddsError

    out = {}
    for item in given or []:
        name, sep, answer = item.partition("=")
        if not sep or not name.strip() or not answer.strip():
            raise OddsError(f"--decide takes NAME=ANSWER (as 'losses=ES1' or 'activate=pass'), not '{item}'")
        out[name.strip()] = answer.strip()
    return out


def list_facts(scenario, sym, sources) -> list[str]:
    """Every fact the rules may record (their templates, with the rule), and those this scenario's
    runs record (twenty seeded runs), the ones its expectations name marked."""
    from .ir import nodes as n
    from .ir.visit import descendants
    from .runtime.odds import expected_facts, sample

    lines = ["recorded by the rules ({...} is filled in as the game is played):"]
    bodies = [d for kind in (sym.procedures, sym.functions, sym.tables) for d in kind.values()] + list(sym.hooks)
    records = [r for r in descendants(bodies) if isinstance(r, n.Record)]
    for r in sorted(records, key=lambda r: (r.key.value, r.span.file, r.span.line)):
        lines.append(f"  \"{r.key.value}\" [{r.cite}]  {r.span.file}:{r.span.line}")
    lines.append("  \"TABLE result\": every table read records the result its row gives")
    sampled = sample(scenario, sym, sources, None, 20, 1, "script" if scenario.decisions else "first")
    named = expected_facts(scenario)
    lines.append("recorded by this scenario's run (20 seeded runs; * named by its expectations):")
    for name in sampled.names:
        lines.append(f"  {'*' if name in named else ' '} {name}")
    return lines


def enumerated(a: OddsArgs, scenario, sym, sources, facts, policy: str, decide):
    """The exact odds, by branching and merging positions or (--replay) by replaying every dice path;
    on a terminal a bar shows the work (progress.py): per roll, or the dice paths replayed."""
    from .runtime.odds import exact_odds, replay_odds

    if not a.replay:
        bar = (lambda roll, total: progress.bar(total, f"roll {roll}", " outcomes")) if progress.on_terminal() else None
        return exact_odds(scenario, sym, sources, facts, policy, a.limit, bar, decide)
    with progress.counting(None, "replay", " dice paths") as update:
        tick = (lambda runs, waiting: update(runs, waiting=waiting)) if progress.on_terminal() else None
        return replay_odds(scenario, sym, sources, facts, policy, a.limit, tick, decide)
