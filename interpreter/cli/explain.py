"""`umpire explain`: a scenario run with every line of its trace explained (rule, statement, calls,
values); --why tells a line's story in rules, --why-not the rule that removed an option, --draw the
picture of the position after a line (draw.py)."""

from __future__ import annotations

import sys

from ..load import ready_scenario
from ..syntax.diagnostics import Sources
from .run import finish


def cmd_explain(path: str, at: str | None, overlays: list[str] = (), why: str | None = None, draw: str | None = None,
                force: bool = False, why_not: str | None = None) -> int:
    from ..runtime.games.explain import explain_lines
    from ..runtime.games.scenario import run_scenario

    if draw is not None:
        problem = _explain_draw_problem(at, draw, force)
        if problem:
            print(f"umpire: error: {problem}", file=sys.stderr)
            return 1
    sources = Sources()
    ready = ready_scenario(path, sources, overlays)
    if ready is None:
        return 1
    scenario, loaded, set_up = ready
    outcome = run_scenario(scenario, loaded.symbols, sources, explain=True, why_not=why_not, set_up=set_up)
    print(f"explain: {scenario.title}" + (f" [{scenario.cite}]" if scenario.cite else ""))
    if why is not None:
        return _explain_why(scenario, loaded.symbols, outcome, why)
    if why_not is not None:
        return _explain_why_not(outcome, why_not, at)
    lines = explain_lines(outcome.events, sources, at)
    if at is not None and not lines:
        print(f"umpire: error: no event matches '{at}' (the trace has {len(outcome.events)} events)", file=sys.stderr)
        return 1
    print("\n".join(lines))
    if draw is not None and outcome.error is None:
        from .draw import DrawArgs, cmd_draw

        return cmd_draw(DrawArgs(path, at, out=draw, force=force, overlays=tuple(overlays)))
    return finish(outcome, sources)


def _explain_draw_problem(at: str | None, draw: str, force: bool) -> str | None:
    """`explain --draw FILE` draws the position after the line --at chooses (its first, chosen by a text)."""
    from .draw import output_problem

    if at is None:
        return "--draw draws the position after one line: choose it with --at N (or --at TEXT: the first line holding it)"
    return output_problem(draw, force)


def _explain_why(scenario, sym, outcome, text: str) -> int:
    """`explain --why TEXT`: the story of the first line holding TEXT, told by rules (runtime/games/why.py)."""
    from ..runtime.games.why import why_lines

    ids = {u.id for u in scenario.units} | set(sym.counters)
    error = outcome.error.message if outcome.error is not None else None
    lines = why_lines(outcome.events, ids, text, error)
    if not lines:
        print(f"umpire: error: no event matches '{text}' (the trace has {len(outcome.events)} events)", file=sys.stderr)
        return 1
    print("\n".join(lines))
    return 0


def _explain_why_not(outcome, name: str, at: str | None) -> int:
    """`explain --why-not OPTION`: which rule removed the option at the first decision (after line
    --at) that left it out (runtime/games/why.py)."""
    from ..runtime.games.why import why_not_lines

    lines = why_not_lines(outcome.events, name, at)
    if not lines:
        where = f" after '{at}'" if at else ""
        print(f"umpire: error: no decision{where} leaves out '{name}' among options of its kind "
              f"(the trace has {len(outcome.events)} events)", file=sys.stderr)
        return 1
    print("\n".join(lines))
    return 0
