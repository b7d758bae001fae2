"""`umpire explain`: the "why" of every line of a scenario's trace.

The scenario is run as `umpire run` runs it, by an engine that also notes, for each line
it writes, the statement being executed (file:line and its source text), the procedures
and tables it runs in (with their arguments and rules), and the functions the rules
consulted and the decisions they asked since the line before (with their values). A
table's line already shows its roll, each modifier with its rule, and the row read.
"""

from __future__ import annotations

from ...digits import is_number
from ...syntax.diagnostics import Sources
from ..execution.engine import Event


def explain_lines(events: list[Event], sources: Sources, at: str | None = None) -> list[str]:
    """Every event numbered, with its explanation; `at` keeps event number N, or the events
    whose line contains a text."""
    chosen = _select(events, at)
    lines: list[str] = []
    for number, event in chosen:
        lines.append(f"#{number} {event.line()}")
        if event.where is not None:
            source = sources.line(event.where.file, event.where.line) if sources else None
            text = f": {source.strip()}" if source else ""
            lines.append(f"    by {event.where.file}:{event.where.line}{text}")
        if event.within:
            lines.append("    within " + " > ".join(event.within))
        for item in event.consulted:
            lines.append(f"    consulted {item}")
    return lines


def _select(events: list[Event], at: str | None) -> list[tuple[int, Event]]:
    numbered = list(enumerate(events, start=1))
    if at is None:
        return numbered
    if is_number(at):
        return [(i, e) for i, e in numbered if i == int(at)]
    return [(i, e) for i, e in numbered if at.lower() in e.line().lower()]
