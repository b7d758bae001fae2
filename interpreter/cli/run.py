"""`umpire run`: a scenario run, narrated with rule citations, its expectations checked; as text or
(--json) as one document built from the same outcome."""

from __future__ import annotations

import sys

from ..load import prepared_scenario, ready_scenario
from ..style import enabled, report_lines
from ..syntax.diagnostics import NO_SPAN, Diagnostic, Sources, UmpireError, render


def finish(outcome, sources: Sources) -> int:
    """Exit 1, with the error rendered, when the run stopped on one."""
    if outcome.error is not None:
        print(render(outcome.error, sources, colour=enabled(sys.stderr)), file=sys.stderr)
        return 1
    return 0


def cmd_run(path: str, overlays: list[str] = (), detail: bool = False, side: str | None = None,
            fixtures: bool = False) -> int:
    from ..runtime.games.scenario import run_scenario

    sources = Sources()
    ready = ready_scenario(path, sources, overlays)
    if ready is None:
        return 1
    scenario, loaded, set_up = ready
    problem = unknown_side(side, loaded.symbols)
    if problem:
        print(f"umpire: error: {problem}", file=sys.stderr)
        return 1
    outcome = run_scenario(scenario, loaded.symbols, sources, detail=detail, side=side, fixtures=fixtures, set_up=set_up)
    print(report_lines(outcome.lines, sys.stdout))
    return finish(outcome, sources) or (0 if outcome.ok else 1)


def unknown_side(side: str | None, sym) -> str | None:
    """The message for a --side that is not a side of the game, with the sides it has."""
    if side is None or side in sym.sides:
        return None
    return f"--side: '{side}' is not a side of this game (its sides: {', '.join(sym.sides)})"


def json_run(path: str, overlays: list[str] = (), detail: bool = False, side: str | None = None) -> int:
    """`umpire run --json`: the trace (the narration, or with --detail all of it), the departures,
    each expectation and whether it held, the error that stopped the run if one did."""
    from .. import report_json as rj
    from ..runtime.execution.calendar import names_of
    from ..runtime.games.scenario import run_scenario

    sources = Sources()
    try:
        scenario, loaded, set_up = prepared_scenario(path, sources, overlays)
    except UmpireError as err:
        return rj.stopped("run", err.diagnostics, scenario=path)
    sym = loaded.symbols
    problem = unknown_side(side, sym)
    if problem:
        return rj.stopped("run", [Diagnostic("error", problem, NO_SPAN)], scenario=path)
    outcome = run_scenario(scenario, sym, sources, detail=detail, side=side, set_up=set_up)
    active = rj.active_sides(sym)
    names = names_of(sym.game)
    trace = [rj.event(i, e, active, names) for i, e in enumerate(outcome.events, start=1) if detail or not e.detail]
    code = 1 if outcome.error is not None or not outcome.ok else 0
    met = sum(1 for h in outcome.checks if h.held)
    rj.emit(rj.document(
        "run", scenario=path, title=scenario.title, cite=str(scenario.cite) if scenario.cite else None,
        ruleset=scenario.uses, game=sym.game.title if sym.game else None, overlays=rj.overlays(sym.overlays),
        notes=outcome.notes, fixtures=outcome.fixtures, trace=trace, stopped=outcome.stopped, departures=outcome.departures,
        expectations=[rj.held(h) for h in outcome.checks], met=met, total=len(outcome.checks), ok=outcome.ok,
        errors=[rj.diagnostic(outcome.error)] if outcome.error is not None else [], exit=code))
    return code
