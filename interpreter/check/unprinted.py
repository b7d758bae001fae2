"""What a scenario is told when it runs a table or procedure its ruleset declares `missing` (the rulebook
does not print it): where the declaration is, and whether and how the game's demo data stands in.

A ruleset read as written has no such table: the demo data the game header names is read by `umpire
play`, and by a scenario only through a ruleset that includes it (a test harness). "Unknown", with a
"did you mean" to a neighbouring name, would send the writer to the wrong table.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from ..files import demo_path
from ..ir import nodes as n
from ..ir.symbols import Symbols
from ..syntax.diagnostics import Diagnostic


def missing_run(sc: n.Scenario, name: str, span, sym: Symbols, with_demo: Callable[[], Symbols | None]) -> Diagnostic | None:
    """The error for a scenario's ``run NAME(…)`` when NAME is declared missing; None otherwise.
    ``with_demo()`` gives the symbols of the ruleset read with its game's demo data (None when that
    reading fails): the front end reads it, only when the error needs it."""
    decl = sym.missing.get(name)
    if decl is None:
        return None
    cite = f" [{decl.cite}]" if decl.cite else ""
    message = f"{decl.what} '{name}' is declared missing: the rulebook does not print it, and {sc.uses} does not supply it"
    notes = [f"declared at {decl.span.file}:{decl.span.line}{cite}: {decl.description}"]
    game = sym.game
    if game is None or not game.demo_data:
        return Diagnostic("error", message, span, "the game names no demo data to stand in for it", notes)
    ruleset = game.span.file
    demo = demo_path(ruleset, game.demo_data)
    named = game.span_of(game.demo_data)
    supplied = _supplied_by_demo(with_demo(), name)
    if supplied is None:
        notes.append(f"the game's demo data {demo} (named at {named.file}:{named.line}) does not supply it either")
        return Diagnostic("error", message, span, "no data stands in for it: a scenario cannot run it", notes)
    notes.append(f"the game's demo data {demo} (named at {named.file}:{named.line}) supplies it at "
                 f"{supplied.file}:{supplied.line}, invented, as 'umpire play' reads it: run the scenario on a ruleset "
                 f"that includes both, a harness such as include \"{_from(sc, ruleset)}\" then "
                 f"include \"{_from(sc, demo)}\" (paths from the scenario's folder)")
    return Diagnostic("error", message, span, "the game's demo data stands in for it: see below", notes)


def _supplied_by_demo(sym: Symbols | None, name: str):
    """Where the ruleset read with its game's demo data defines ``name`` (None when it does not, or when
    it could not be read)."""
    found = None if sym is None else sym.tables.get(name) or sym.procedures.get(name)
    return None if found is None else found.span


def _from(sc: n.Scenario, path: str) -> str:
    """``path`` as a file in the scenario's folder names it."""
    return os.path.relpath(path, os.path.dirname(sc.file) or ".").replace(os.sep, "/")
