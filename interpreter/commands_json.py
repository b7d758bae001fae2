"""`umpire check|run|odds|coverage --json`: the command's result as one JSON document on standard output.

Each command here follows its text twin step by step (commands.py, commands_odds.py, coverage.py)
and keeps the same exit code; the document is built from the same data (report_json.py) rather
than from the printed text. Errors that stop a command are in the document too ("errors"), so a
reader never has to scrape standard error; standard output holds the one document and nothing else.
"""

from __future__ import annotations

import json

from . import report_json as rj
from .syntax.diagnostics import NO_SPAN, Diagnostic, Sources, UmpireError


def emit(doc: dict) -> None:
    print(json.dumps(doc, indent=1, ensure_ascii=False))


def stopped(command: str, diags: list[Diagnostic], code: int = 1, **fields) -> int:
    """The document of a command stopped by errors before it had a result, and its exit code."""
    emit(rj.document(command, **fields, errors=[rj.diagnostic(d) for d in diags], exit=code))
    return code


def check(paths: list[str], quiet: bool = False, overlays: list[str] = (), every: bool = False) -> int:
    """`umpire check --json`: each file's diagnostics (errors alone with --quiet) and counts, and the totals;
    with overlays, the base ruleset's warnings and notes are counted apart ("base") and listed with --all."""
    from .commands import check_file, split_base

    results, total = [], {"errors": 0, "warnings": 0, "notes": 0}
    for path in paths:
        diags, summary = check_file(path, Sources(), overlays)
        counted = rj.counts(diags)
        own, base = split_base(path, overlays, diags)
        listed = own + [d for d in base if every or d.severity == "error"]
        shown = [d for d in listed if d.severity == "error" or not quiet]
        results.append({"file": path, "diagnostics": [rj.diagnostic(d) for d in shown],
                        "summary": [] if quiet else summary, "counts": counted,
                        **({"base": rj.counts(base)} if base else {})})
        total = {k: total[k] + counted[k] for k in total}
    code = 1 if total["errors"] else 0
    emit(rj.document("check", files=results, counts=total, exit=code))
    return code


def run(path: str, overlays: list[str] = (), detail: bool = False, side: str | None = None) -> int:
    """`umpire run --json`: the trace (the narration, or with --detail all of it), the departures,
    each expectation and whether it held, the error that stopped the run if one did."""
    from .commands import prepared_scenario, unknown_side
    from .runtime.calendar import names_of
    from .runtime.scenario import run_scenario

    sources = Sources()
    try:
        scenario, loaded = prepared_scenario(path, sources, overlays)
    except UmpireError as err:
        return stopped("run", err.diagnostics, scenario=path)
    sym = loaded.symbols
    problem = unknown_side(side, sym)
    if problem:
        return stopped("run", [Diagnostic("error", problem, NO_SPAN)], scenario=path)
    outcome = run_scenario(scenario, sym, sources, detail=detail, side=side)
    active = rj.active_sides(sym)
    names = names_of(sym.game)
    trace = [rj.event(i, e, active, names) for i, e in enumerate(outcome.events, start=1) if detail or not e.detail]
    code = 1 if outcome.error is not None or not outcome.ok else 0
    met = sum(1 for h in outcome.checks if h.held)
    emit(rj.document(
        "run", scenario=path, title=scenario.title, cite=str(scenario.cite) if scenario.cite else None,
        ruleset=scenario.uses, game=sym.game.title if sym.game else None, overlays=rj.overlays(sym.overlays),
        notes=outcome.notes, fixtures=outcome.fixtures, trace=trace, stopped=outcome.stopped, departures=outcome.departures,
        expectations=[rj.held(h) for h in outcome.checks], met=met, total=len(outcome.checks), ok=outcome.ok,
        errors=[rj.diagnostic(outcome.error)] if outcome.error is not None else [], exit=code))
    return code


def coverage(rules_path: str, sections_path: str | None = None, missing_only: bool = False) -> int:
    """`umpire coverage --json`: every section (those not fully encoded, with --missing) with its status
    and citations, the count of each status, the percentage, the rulings and examples cited."""
    from .coverage import STATUSES, load_coverage, percent, unknown_diagnostics

    sources = Sources()
    try:
        loaded, sections_path, cov = load_coverage(rules_path, sections_path, sources)
    except UmpireError as err:
        return stopped("coverage", err.diagnostics, ruleset=rules_path)
    tally, total = cov.tally(), len(cov.sections)
    rows = [s for s in cov.sections.values() if not missing_only or cov.status(s.number) != "encoded"]
    emit(rj.document(
        "coverage", ruleset=rules_path, sections_file=sections_path, ruleset_errors=len(loaded.errors),
        sections=[rj.section(cov, s) for s in rows], total=total, by_status={s: tally[s] for s in STATUSES},
        encoded=tally["encoded"], percentage=round(100 * tally["encoded"] / total, 1), percent=percent(tally["encoded"], total),
        rulings={r: [f"{c.span.file}:{c.span.line}" for c in cites] for r, cites in cov.rulings.items()},
        examples=dict(cov.examples), warnings=[rj.diagnostic(d) for d in unknown_diagnostics(cov, sections_path)],
        exit=0))
    return 0


def odds(a) -> int:
    """`umpire odds --json`: what is measured and how, the estimate, the exact distribution (fractions
    and floats) or the Monte Carlo estimate, what the answer rests on, and the warnings."""
    from .commands import prepared_scenario
    from .commands_odds import _decide, _measured
    from .runtime.odds import OddsError, default_policy

    sources = Sources()
    try:
        scenario, loaded = prepared_scenario(a.path, sources, a.overlays, a.demo)
    except UmpireError as err:
        return stopped("odds", err.diagnostics, scenario=a.path)
    try:
        decide = _decide(a.decide, loaded.symbols.sides)
        if a.mc_runs is not None and a.mc_runs < 1:
            raise OddsError(f"--monte-carlo takes a number of runs of at least 1, not {a.mc_runs}")
    except OddsError as err:
        return stopped("odds", [Diagnostic("error", err.message, NO_SPAN)], scenario=a.path)
    sym = loaded.symbols
    head = {"scenario": a.path, "title": scenario.title, "cite": str(scenario.cite) if scenario.cite else None,
            "ruleset": scenario.uses, "overlays": rj.overlays(sym.overlays)}
    if a.list_facts:
        from .commands_odds import list_facts

        emit(rj.document("odds", **head, listed_facts=list_facts(scenario, sym, sources), exit=0))
        return 0
    facts, measured = _measured(scenario, a.facts, a.all_facts)
    policy = a.policy or default_policy(scenario)
    try:
        body, code = _odds_answer(a, scenario, sym, sources, facts, policy, decide)
    except OddsError as err:
        diag = Diagnostic("error", err.message, err.span or scenario.span, err.hint)
        return stopped("odds", [diag], **head, measured=measured, policy=policy)
    emit(rj.document("odds", **head, measured=measured, policy=policy, **body, exit=code))
    return code


def _odds_answer(a, scenario, sym, sources, facts, policy, decide) -> tuple[dict, int]:
    """The fields of the answer, as `_answer` (commands_odds.py) prints them, and the exit code."""
    from .commands_odds import _policies, enumerated, refusal
    from .runtime.odds import OddsError, TooLargeError, estimate, monte_carlo, sample
    from .runtime.odds_report import _largest_deviation, warnings

    if policy not in _policies():
        raise OddsError(f"unknown decision policy '{policy}'", f"the policies are {', '.join(_policies())}")
    body: dict = {}
    if not a.no_exact:
        guess = estimate(scenario, sym, sources, facts, policy, decide)
        body["estimate"] = {"paths": guess.paths, "outcomes": guess.outcomes, "probes": guess.probes,
                            "seconds": round(guess.seconds, 3), "limit": a.limit, "over_limit": refusal(a, guess) is not None}
        try:
            refused = refusal(a, guess)
            if refused is not None:
                raise refused
            odds = enumerated(a, scenario, sym, sources, facts, policy, decide)
        except TooLargeError as err:
            if not a.mc_runs:
                raise
            body["refused"] = err.message
        else:
            mc = monte_carlo(scenario, sym, sources, odds.names, a.mc_runs, a.seed, policy, decide) if a.mc_runs else None
            body |= {"decisions": _decisions(odds.policy, odds.seen, decide), "rests_on": odds.rests_on,
                     "unprinted": odds.unprinted, "exact": rj.exact(odds),
                     "warnings": warnings(odds.names, list(odds.outcomes), odds.seen)}
            if mc:
                body["monte_carlo"] = {"runs": sum(mc[0].values()), "seed": a.seed, "seconds": round(mc[1], 3),
                                       "largest_deviation": _largest_deviation(odds, mc[0]),
                                       "facts": rj.sampled_counts(odds.names, mc[0], sum(mc[0].values()))}
            return body, 0
    if not a.mc_runs:
        return body | {"errors": [rj.diagnostic(Diagnostic("error", "--no-exact needs --monte-carlo N", NO_SPAN))]}, 1
    s = sample(scenario, sym, sources, facts, a.mc_runs, a.seed, policy, decide)
    runs = sum(s.counts.values())
    body |= {"decisions": _decisions(policy, s.seen, decide), "rests_on": s.rests_on,
             "monte_carlo": {"runs": runs, "seed": a.seed, "seconds": round(s.seconds, 3),
                             "facts": rj.sampled_counts(s.names, s.counts, runs)},
             "warnings": warnings(s.names, list(s.counts), s.seen)}
    return body, 0


def _decisions(policy: str, seen, decide) -> list[str]:
    """How the decisions were taken: the report's 'decisions:' lines, without the label."""
    from .runtime.odds_report import decisions

    return [line.removeprefix("decisions: ") for line in decisions(policy, seen, decide)]
