"""The JSON shapes of `--json` (docs/output.md): the data the text reports print, as plain values.

Each function turns one kind of result (a diagnostic, a trace line, an expectation, a measured
fact, a section) into a dict of strings, numbers, booleans and lists, built from the same objects
the text is printed from, never from the text. Exact probabilities are kept exact: a fraction
string beside its float.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from fractions import Fraction
from typing import Any

from .ir.citations import names
from .syntax.diagnostics import NO_SPAN, Diagnostic

# Every document's "format" is "umpire-COMMAND/VERSION"; the version grows when a field changes meaning or goes.
VERSION = 1


def document(command: str, **fields: Any) -> dict:
    """A document of one command's result, its format named first."""
    return {"format": f"umpire-{command}/{VERSION}", **fields}


def emit(doc: dict) -> None:
    """The one document on standard output: a reader never has to scrape standard error, and standard
    output holds nothing else."""
    print(json.dumps(doc, indent=1, ensure_ascii=False))


def stopped(command: str, diags: list[Diagnostic], code: int = 1, **fields) -> int:
    """The document of a command stopped by errors before it had a result, and its exit code."""
    emit(document(command, **fields, errors=[diagnostic(d) for d in diags], exit=code))
    return code


def diagnostic(d: Diagnostic) -> dict:
    """A diagnostic: severity, its kind's code (syntax/codes.py, docs/output.md), where (1-based line and
    column, end exclusive; null for the run as a whole), message, hint and notes."""
    from .syntax.codes import code_of

    span = d.span
    where = span.file != NO_SPAN.file
    return {"severity": d.severity, "code": code_of(d), "file": span.file if where else None,
            "line": span.line if where and span.line > 0 else None, "col": span.col if where and span.line > 0 else None,
            "end_line": span.end_line if where and span.line > 0 else None,
            "end_col": span.end_col if where and span.line > 0 else None,
            "message": d.message, "hint": d.hint, "notes": list(d.notes)}


def counts(diags: list[Diagnostic]) -> dict:
    """Errors, warnings and notes, counted as `umpire check` counts them."""
    errors = sum(1 for d in diags if d.severity == "error")
    notes = sum(1 for d in diags if d.severity == "note")
    return {"errors": errors, "warnings": len(diags) - errors - notes, "notes": notes}


def citation(text: str) -> dict:
    """A citation's text and what it names: rule numbers, rulings and examples (ir/citations.py)."""
    rules, rulings, examples = names(text)
    return {"cite": text, "rules": rules, "rulings": rulings, "examples": examples}


def event(number: int, e, active: dict[str, str | None], turn_names: tuple[str, ...] = ()) -> dict:
    """One trace line: its number in the whole trace (as `umpire explain --at N` counts), its
    citation, its text, its kind, and where in the sequence of play it was written (with the turn's
    name, in a game that names its turns)."""
    turn, phase, step = e.clock if e.clock is not None else (None, None, None)
    out = {"number": number, **citation(e.cite), "text": e.text, "kind": e.kind, "detail": e.detail,
           "turn": turn, "phase": phase, "step": step, "side": active.get(phase) if phase else None}
    if turn_names:
        out["turn_name"] = turn_names[turn - 1] if isinstance(turn, int) and 1 <= turn <= len(turn_names) else None
    return out


def active_sides(sym) -> dict[str, str | None]:
    """Each phase of the sequence of play, with the side it names as active (if it names one)."""
    seq = sym.sequence
    return {p.name: p.active for p in seq.phases} if seq is not None else {}


def held(h) -> dict:
    """One expectation of a scenario and whether it held."""
    return asdict(h)


def overlays(applied) -> list[dict]:
    """The overlays applied to a ruleset, in order, with the amendments each made."""
    return [{"name": o.name, "file": o.file, "title": o.title, "cite": o.cite,
             "amendments": [a.id for a in o.amendments]} for o in applied]


def probability(p: Fraction) -> dict:
    return {"fraction": str(p), "probability": float(p)}


def shown(value: Any) -> str:
    """A measured value as the text report shows it ('none' when a path records nothing)."""
    from .runtime.odds.odds_report import shown_value

    return shown_value(value)


def exact(odds) -> dict:
    """An exact distribution: every fact's values with their probabilities, then jointly."""
    from .runtime.odds.odds import value_order

    facts = [{"name": name, "values": [{"value": shown(v), **probability(p)} for v, p in odds.marginal(i).items()]}
             for i, name in enumerate(odds.names)]
    joint = sorted(odds.outcomes.items(), key=lambda kv: tuple(value_order(v) for v in kv[0]))
    return {"paths": odds.runs, "stopped_early": odds.cut, "seconds": round(odds.seconds, 3), "notes": list(odds.notes),
            "facts": facts, "jointly": [{"values": [shown(v) for v in key], **probability(p)} for key, p in joint],
            "total": probability(odds.total)}


def sampled_counts(names_: list[str], counts_, runs: int) -> list[dict]:
    """Each fact's values with their share of ``runs`` seeded runs and a 95% interval (Wilson's)."""
    from .runtime.odds.odds import value_order
    from .runtime.odds.odds_report import marginal_counts, wilson

    facts = []
    for i, name in enumerate(names_):
        ordered = sorted(marginal_counts(counts_, i).items(), key=lambda kv: value_order(kv[0]))
        facts.append({"name": name, "values": [{"value": shown(v), "runs": c, "share": c / runs,
                                                "interval95": list(wilson(c, runs))} for v, c in ordered]})
    return facts


def section(cov, s) -> dict:
    """One section of a rulebook: its number, title, depth, status, and the lines that cite it."""
    cites = cov.cited[s.number]
    return {"number": s.number, "title": s.title, "parent": s.parent, "depth": s.depth, "status": cov.status(s.number),
            "cites": len(cites), "cited_at": [f"{f}:{line}" for f, line in sorted({(c.span.file, c.span.line) for c in cites})],
            "left_out": [{"status": d.status, "text": d.text, "at": f"{d.cite.span.file}:{d.cite.span.line}"}
                         for d in cov.declared.get(s.number, ())]}
