"""What a position stands on that the rulebook does not print: the `demo map NAME` and `demo counters
NAME` lines of its set-up (its own, or those of the shared map its places come from), each for what
the ruleset declares `missing`. Odds, studies, pictures and games say so, as they say which tables
come from demo data: an answer resting on an invented map is not the published game's."""

from __future__ import annotations

from ...ir import nodes as n
from ...ir.symbols import Symbols


def stands_in(sc: n.Scenario | None, sym: Symbols) -> list[str]:
    """One line per demo stand-in, in the words of a demo table's line (odds.rests_on)."""
    lines = []
    for demo in sc.stands_in if sc is not None else ():
        missing = sym.missing.get(demo.name)
        cite = f" [{missing.cite}]" if missing is not None and missing.cite else ""
        lines.append(f"{demo.what} '{demo.name}' is not printed in the rulebook{cite}: the position uses the demo "
                     f"{demo.what} of {demo.span.file}:{demo.span.line} (invented: {demo.text}), not published data")
    return lines


def stands_in_brief(sc: n.Scenario | None) -> str | None:
    """The stand-ins in one line, for a header: None when the set-up declares none."""
    if sc is None or not sc.stands_in:
        return None
    named = ", ".join(f"{d.what} '{d.name}' ({d.span.file}:{d.span.line})" for d in sc.stands_in)
    return f"demo data: the set-up's {named}: invented, not the published game"
