"""A scenario checked before anything runs: its run target, expectations and decisions, then the names
its expectations and the rules use against the position its set-up gives.

The checker runs nothing: the front end sets the scenario up (load.set_up_and_checked) and hands the
places and coasts of that position to `check_set_up`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence

from ..ir import nodes as n
from ..ir.symbols import Symbols
from ..ir.visit import descendants
from ..lang import SCENARIO_AGENTS
from ..syntax.diagnostics import Diagnostic, did_you_mean
from .maps import coast_ends
from .resolve import Checker
from .unprinted import missing_run


def static_checks(sc: n.Scenario, sym: Symbols, with_demo: Callable[[], Symbols | None]) -> list[Diagnostic]:
    """Static checks of what a scenario runs and expects, before anything runs. ``with_demo()`` reads the
    ruleset with its game's demo data, for a run of a table or procedure the rulebook does not print."""
    checker = Checker(sym, extra_values={u.id for u in sc.units})
    _check_run(checker, sc, sym, with_demo)
    for exp in sc.expects:
        checker.expr(exp.expr, set())
        if exp.departure is not None:
            checker.expr(exp.departure.printed, set())
    _check_decisions(checker, sc, sym)
    _check_agents(checker, sc, sym)
    _check_stands_in(checker, sc, sym)
    return checker.diags


def check_set_up(sc: n.Scenario, sym: Symbols, places: Collection[str], coasts: Mapping[str, Sequence[str]]) -> list[Diagnostic]:
    """What the rules and the expectations name, checked against the position the scenario's set-up gives:
    its places' ids, and each coast's places in order."""
    checker = Checker(sym, extra_values={u.id for u in sc.units})
    _check_coast_ends(checker, coasts, sc, sym)
    _check_expectation_names(checker, places, sc, sym)
    return checker.diags


def _check_stands_in(checker: Checker, sc: n.Scenario, sym: Symbols) -> None:
    """'demo map NAME' stands in for what the ruleset declares 'missing map NAME', nothing else."""
    for demo in sc.stands_in:
        declared = sym.missing.get(demo.name)
        if declared is not None and declared.what == demo.what:
            continue
        kind = [m.name for m in sym.missing.values() if m.what == demo.what]
        hint = did_you_mean(demo.name, kind) or (f"the ruleset declares missing {demo.what}: {', '.join(kind)}" if kind else
                                                 f"declare it in the ruleset: 'missing {demo.what} {demo.name} \"…\"'")
        checker.error(f"'demo {demo.what} {demo.name}': the ruleset declares no 'missing {demo.what} {demo.name}' for "
                      f"this file to stand in for", demo.span, hint)


def _expectations(sc: n.Scenario) -> list:
    return [exp.expr for exp in sc.expects] + [exp.departure.printed for exp in sc.expects if exp.departure is not None]


def _check_expectation_names(checker: Checker, places: Collection[str], sc: n.Scenario, sym: Symbols) -> None:
    """A place an expectation writes (@0201) is one the set-up has, and `fact("NAME")` names a fact some
    rule records (or the engine does): else the run would only fail the expectation at its end."""
    recorded = None  # (finding the records walks the whole ruleset: only when an expectation reads a fact)
    for node in descendants(_expectations(sc)):
        if isinstance(node, n.PlaceLit) and node.id not in places:
            checker.error(f"there is no place '{node.id}' in this scenario's set-up", node.span,
                          did_you_mean(node.id, places))
        elif isinstance(node, n.CallExpr) and node.func == "fact" and len(node.args) == 1 \
                and isinstance(node.args[0].value, n.StrLit) and not _interpolated(node.args[0].value):
            recorded = recorded if recorded is not None else recorded_facts(sym)
            name = node.args[0].value.value
            if not any(pattern.fullmatch(name) for pattern, _ in recorded):
                shown = [text for _, text in recorded]
                checker.error(f"no rule records a fact '{name}'", node.args[0].span,
                              did_you_mean(name, _spelled_out(shown, sym)) or _listed(shown))


def recorded_facts(sym: Symbols) -> list[tuple[re.Pattern, str]]:
    """Every fact a run of the ruleset can record, as a pattern and as written ('hits {s}': any text where
    the rule interpolates): the `record` statements, and what the engine records itself."""
    roots = [*sym.procedures.values(), *sym.functions.values(), *sym.tables.values(), *sym.hooks, *sym.invariants,
             *([sym.sequence] if sym.sequence else [])]
    out = [(re.compile(re.escape(name)), name) for name in ENGINE_FACTS]
    for t in sym.tables.values():
        out.append((re.compile(re.escape(f"{t.name} result")), f"{t.name} result"))
        if t.columns is not None:
            out.append((re.compile(re.escape(f"{t.name} column")), f"{t.name} column"))
    for node in sym.walked.of(roots, n.Record):
        key = node.key
        parts = key.parts or (n.StrPart(text=key.value),)
        pattern = "".join(re.escape(p.text) if p.text is not None else ".+" for p in parts)
        out.append((re.compile(pattern, re.S), key.value))
    return out


# The facts the engine records in every run, whatever the rules: the departures of a scenario's
# run, the failed rule checks (runtime/games/scenario.py, runtime/execution/engine.py).
ENGINE_FACTS = ("departures", "rule checks failed")


def _interpolated(s: n.StrLit) -> bool:
    return any(p.expr is not None for p in s.parts)


def _spelled_out(written: list[str], sym: Symbols) -> list[str]:
    """The facts as written, and each with one interpolation spelt out as each side ('hits {s}': 'hits red')."""
    out = list(written)
    for text in written:
        m = re.fullmatch(r"([^{]*)\{[^}]*\}([^{]*)", text)
        if m:
            out.extend(f"{m.group(1)}{side}{m.group(2)}" for side in sym.sides)
    return out


def _listed(written: list[str]) -> str:
    names = sorted(set(written))
    return "the facts the rules record: " + ", ".join(f"'{w}'" for w in names[:12]) + (" …" if len(names) > 12 else "")


def _check_coast_ends(checker: Checker, coasts: Mapping[str, Sequence[str]], sc: n.Scenario, sym: Symbols) -> None:
    """A place the rules write at an end of 'between(COAST, @A, @B)' lies on the coast as this scenario lists it."""
    if not sym.coasts:
        return
    roots = [*sym.procedures.values(), *sym.functions.values(), *sym.tables.values(), *sym.hooks, *sym.invariants]
    for coast, lit in coast_ends(sym.walked, roots):
        listed = coasts.get(coast)
        if listed is not None and lit.id not in listed:
            where = next(d.span for d in sc.map_data if isinstance(d, n.CoastDef) and d.name == coast)
            hint = did_you_mean(lit.id, listed) or f"the coast runs {listed[0]} … {listed[-1]}"
            checker.error(f"@{lit.id} is not on coast {coast} as {where.file}:{where.line} lists it", lit.span, hint)


def _check_run(checker: Checker, sc: n.Scenario, sym: Symbols, with_demo: Callable[[], Symbols | None]) -> None:
    """The 'run' line: a procedure or table with its arguments, or a step with the 'at' line it needs."""
    run = sc.run
    if run is None:
        # A file of places alone is a shared map ('places from'): it has nothing to run.
        if sc.units or sc.dice or sc.decisions or sc.expects or sc.at is not None or not sc.places:
            checker.error("the scenario has no 'run' line", sc.span, "add 'run step NAME' or 'run PROCEDURE(args)'")
    elif run.proc is not None:
        target = sym.procedures.get(run.proc) or sym.tables.get(run.proc)
        unprinted = missing_run(sc, run.proc, run.span, sym, with_demo) if target is None else None
        if unprinted is not None:
            checker.diags.append(unprinted)
        elif target is None:
            checker.unknown("procedure or table", run.proc, run.span, set(sym.procedures) | set(sym.tables))
        else:
            checker.check_args(run.args, [p.name for p in target.params], f"'{run.proc}'", run.span)
        for a in run.args:
            checker.expr(a.value, set())
    elif run.step is not None and sc.at is None:
        checker.error("'run step' needs an 'at turn N phase P step S' line", run.span)
    elif run.step is not None and sc.at.phase is None:
        checker.error("'run step' runs a step of the phase 'at' names, but this 'at' names only a turn", sc.at.span,
                      "write 'at turn N phase P step S', or run a procedure or a table: 'run NAME(args)'")


def _check_decisions(checker: Checker, sc: n.Scenario, sym: Symbols) -> None:
    """Each scripted decision names a side and a decision the ruleset's choose statements make."""
    if not sc.decisions:
        return  # (finding the decision names walks the whole ruleset)
    decision_names = _decision_names(sym)
    for dec in sc.decisions:
        if dec.side not in sym.sides:
            checker.unknown("side", dec.side, dec.span, sym.sides)
        if dec.name not in decision_names:
            checker.unknown("decision", dec.name, dec.span, decision_names)


def _check_agents(checker: Checker, sc: n.Scenario, sym: Symbols) -> None:
    """`SIDE plays AGENT`: a side of the game, an agent a scenario can name, and no scripted entry
    for that side (its every decision is the agent's)."""
    for plays in sc.agents:
        if plays.side not in sym.sides:
            checker.unknown("side", plays.side, plays.span, sym.sides)
        if plays.agent not in SCENARIO_AGENTS:
            checker.error(f"'{plays.agent}' is not an agent a scenario can name: {', '.join(SCENARIO_AGENTS)}",
                          plays.agent_span, did_you_mean(plays.agent, SCENARIO_AGENTS))
        scripted = next((d for d in sc.decisions if d.side == plays.side), None)
        if scripted is not None:
            checker.error(f"{plays.side} plays {plays.agent}, so its decisions are not scripted: "
                          f"remove this entry or the 'plays' line at line {plays.span.line}", scripted.span)


def _decision_names(sym: Symbols) -> set[str]:
    """Every name a ruleset's choose statements use, plus the reroll window's."""
    roots = [*sym.procedures.values(), *sym.tables.values(), *sym.hooks, *([sym.sequence] if sym.sequence else [])]
    return {"reroll"} | {node.name for node in descendants(roots) if isinstance(node, n.Choose)}
