"""`umpire find RULESET NAME`: where a name is declared, among all the files a ruleset reads.

A ruleset of many parts (a main file, its included parts, its demo data) declares each name in
one of them; the reader who meets a name in a trace, a diagnostic or a rule wants the file and
line that declare it. The declarations are the language server's (editors/index.py: go to
definition answers from the same index), and a decision, which is declared where a procedure
asks it (`choose NAME`), is found at every place it is asked.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from .editors.index import declarations
from .files import RULES, command_line_file
from .ir import nodes as n
from .ir.visit import descendants
from .load import load_rules
from .style import enabled
from .syntax.diagnostics import Sources, UmpireError, did_you_mean, render_all


@dataclass(frozen=True)
class Found:
    """One place a name is declared: the file, line and column, what declares it, its rule
    citation and the text of the line."""

    file: str
    line: int
    col: int
    what: str
    cite: str | None
    text: str

    def lines(self, name: str) -> list[str]:
        cite = f" [{self.cite}]" if self.cite else ""
        return [f"{self.file}:{self.line}:{self.col}: {self.what} {name}{cite}", f"    {self.text}"]


def cmd_find(rules_path: str, name: str) -> int:
    """Print where ``name`` is declared in the ruleset and the files it reads; exit 1 when it is
    declared nowhere (with the closest names) or the ruleset cannot be read."""
    sources = Sources()
    try:
        command_line_file(rules_path, "umpire find reads", (RULES,))
        loaded = load_rules(rules_path, sources, with_demo=True)
    except UmpireError as err:
        print(render_all(err.diagnostics, sources, colour=enabled(sys.stderr)), file=sys.stderr)
        return 1
    every = _declared(sources, loaded.ruleset) + _decisions(loaded.ruleset, sources)
    found = [f for f, declared in every if declared == name]
    if not found:
        close = did_you_mean(name, (declared for _, declared in every))
        print(f"umpire: '{name}' is declared nowhere in {rules_path} or the files it reads"
              + (f"; {close}" if close else ""), file=sys.stderr)
        return 1
    for f in found:
        print("\n".join(f.lines(name)))
    return 0


def _declared(sources: Sources, ruleset: n.Ruleset) -> list[tuple[Found, str]]:
    """Every name the files read declare (the editor index), in the order the files were read; a
    declaration of data the rulebook does not print says what it is ('missing table')."""
    missing = {d.name: f"missing {d.what}" for d in ruleset.decls if isinstance(d, n.MissingDecl)}
    out = []
    for path in sources.names():
        for d in declarations(path, sources.text(path) or "") or ():
            what = missing.get(d.name, d.what) if d.what == "missing" else d.what
            out.append((Found(path, d.span.line, d.span.col, what, d.cite, d.line), d.name))
    return out


def _decisions(ruleset: n.Ruleset, sources: Sources) -> list[tuple[Found, str]]:
    """Every place a decision is asked: a decision has no declaration of its own but its 'choose'."""
    out = []
    for c in descendants(ruleset.decls):
        if isinstance(c, n.Choose):
            text = (sources.line(c.span.file, c.span.line) or "").strip()
            cite = str(c.cite) if c.cite is not None else None
            out.append((Found(c.span.file, c.span.line, c.span.col, "decision asked", cite, text), c.name))
    return out
