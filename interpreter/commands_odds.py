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

from .style import enabled
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
    from .runtime.odds import TooLargeError, estimate, exact_odds, monte_carlo, replay_odds, sample
    from .runtime.odds_report import report, report_sampled

    if policy not in _policies():
        from .runtime.odds import OddsError

        raise OddsError(f"unknown decision policy '{policy}'", f"the policies are {', '.join(_policies())}")
    if not a.no_exact:
        guess = estimate(scenario, sym, sources, facts, policy, decide)
        print(_estimate_line(guess, a.limit))
        try:
            if a.replay:
                odds = replay_odds(scenario, sym, sources, facts, policy, a.limit, _replay_progress(), decide)
            else:
                odds = exact_odds(scenario, sym, sources, facts, policy, a.limit, _progress_bar(), decide)
        except TooLargeError as err:
            if not a.mc_runs:
                raise
            print(f"exact: refused: {err.message}")
        else:
            mc = monte_carlo(scenario, sym, sources, odds.names, a.mc_runs, a.seed, policy, decide) if a.mc_runs else None
            print("\n".join(report(odds, mc, decide)))
            return 0
    if not a.mc_runs:
        print("umpire: error: --no-exact needs --monte-carlo N", file=sys.stderr)
        return 2
    sampled = sample(scenario, sym, sources, facts, a.mc_runs, a.seed, policy, decide)
    print("\n".join(report_sampled(sampled, policy, decide)))
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


def _progress_bar():
    """A bar per roll on a terminal (positions times outcomes, as they are sent on); nothing when
    stderr is not a terminal, so logs and pipes stay clean."""
    if not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    return lambda roll, total: tqdm(total=total, desc=f"roll {roll}", unit=" outcomes", leave=False,
                                    file=sys.stderr, mininterval=0.25)


def _replay_progress():
    if not sys.stderr.isatty():
        return None

    def progress(runs: int, waiting: int) -> None:
        print(f"... {runs} dice paths run, {waiting} waiting", file=sys.stderr, flush=True)

    return progress
