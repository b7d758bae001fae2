"""`umpire find RULESET NAME`: where a name is declared, among all the files a ruleset reads;
`umpire find RULESET --missing`: where each piece of data the rulebook does not print is declared
and what stands in for it.

A ruleset of many parts (a main file, its included parts, its demo data) declares each name in
one of them; the reader who meets a name in a trace, a diagnostic or a rule wants the file and
line that declare it. The declarations are the language server's (editors/index.py: go to
definition answers from the same index), and a decision, which is declared where a procedure
asks it (`choose NAME`), is found at every place it is asked. The missing data is the ruleset's
`missing` declarations, read with the demo data as `play` reads it: a table of the same name there
is what the game plays with.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from ..editors.index import declarations, declarations_in
from ..files import RULES, command_line_file
from ..ir import nodes as n
from ..ir.visit import descendants
from ..load import demo_path, load_rules
from ..style import enabled
from ..syntax.diagnostics import Sources, UmpireError, did_you_mean, render_all


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


def cmd_find(rules_path: str, name: str | None, missing: bool = False, overlays: list[str] = ()) -> int:
    """Print where ``name`` is declared in the ruleset and the files it reads, and in the overlays
    applied to it (or, with ``missing``, the data the rulebook does not print); exit 1 when the
    name is declared nowhere (with the closest names), the ruleset cannot be read, or neither
    (or both) is asked."""
    if (name is None) == (not missing):
        print("umpire find: error: give a NAME to find, or --missing (not both)", file=sys.stderr)
        return 1
    sources = Sources()
    try:
        command_line_file(rules_path, "umpire find reads", (RULES,))
        loaded = load_rules(rules_path, sources, with_demo=True, overlays=overlays)
    except UmpireError as err:
        print(render_all(err.diagnostics, sources, colour=enabled(sys.stderr)), file=sys.stderr)
        return 1
    if missing:
        print("\n".join(_missing_lines(rules_path, loaded)))
        return 0
    if loaded.errors and overlays:  # an overlay that does not apply: its errors, as check gives them
        print(render_all(loaded.errors, sources, colour=enabled(sys.stderr)), file=sys.stderr)
        return 1
    every = _declared(sources, loaded) + _decisions(loaded.ruleset, sources)
    found = [f for f, declared in every if declared == name]
    if not found:
        close = did_you_mean(name, (declared for _, declared in every))
        print(f"umpire: '{name}' is declared nowhere in {rules_path} or the files it reads"
              + (f"; {close}" if close else ""), file=sys.stderr)
        return 1
    for f in found:
        print("\n".join(f.lines(name)))
    return 0


def _declared(sources: Sources, loaded) -> list[tuple[Found, str]]:
    """Every name the files read declare (the editor index), in the order the files were read, then
    what the overlays add; a declaration of data the rulebook does not print says what it is
    ('missing table')."""
    missing = {d.name: f"missing {d.what}" for d in loaded.ruleset.decls if isinstance(d, n.MissingDecl)}
    amending = {o.file for o in loaded.overlays}
    found = [d for path in sources.names() for d in declarations(path, sources.text(path) or "") or ()]
    found += [d for d in declarations_in(loaded.ruleset.decls, sources.text) if d.span.file in amending]
    return [(Found(d.span.file, d.span.line, d.span.col, missing.get(d.name, d.what) if d.what == "missing" else d.what,
                   d.cite, d.line), d.name) for d in found]


def _decisions(ruleset: n.Ruleset, sources: Sources) -> list[tuple[Found, str]]:
    """Every place a decision is asked: a decision has no declaration of its own but its 'choose'."""
    out = []
    for c in descendants(ruleset.decls):
        if isinstance(c, n.Choose):
            text = (sources.line(c.span.file, c.span.line) or "").strip()
            cite = str(c.cite) if c.cite is not None else None
            out.append((Found(c.span.file, c.span.line, c.span.col, "decision asked", cite, text), c.name))
    return out


def _missing_lines(rules_path: str, loaded) -> list[str]:
    """One line per `missing` declaration: what and where it is declared and, for a table, the demo
    table of its name that stands in for it in play; then the count of each and the demo files."""
    rows = [(f"{m.what} {m.name}", f"{m.span.file}:{m.span.line}", _demo_table(m, loaded))
            for m in loaded.ruleset.decls if isinstance(m, n.MissingDecl)]
    if not rows:
        return [f"{rules_path} declares no missing data"]
    wide = [max(len(r[i]) for r in rows) for i in (0, 1)]
    tables = [r for r in rows if r[0].startswith("table ")]
    demo = sum(1 for r in tables if r[2].startswith("demo"))
    lines = [f"data the rulebook does not print, declared 'missing' in {rules_path}; for a table, the demo table "
             "that stands in for it in play:"]
    lines += [f"  {a.ljust(wide[0])}  {b.ljust(wide[1])}  {c}".rstrip() for a, b, c in rows]
    lines.append(f"{len(rows)} missing: {len(tables)} table(s), {demo} with a demo table, {len(tables) - demo} with none; "
                 f"{len(rows) - len(tables)} other (maps, counters, charts, rules)")
    game = loaded.symbols.game
    demo_files = [f"{what} {demo_path(game.span.file, path)}" for what, path in
                  (("the demo data", game and game.demo_data), ("the demo set-up", game and game.demo_setup)) if path]
    if demo_files:
        lines.append(f"play reads {' and '.join(demo_files)} in their stead")
    return lines


def _demo_table(m: n.MissingDecl, loaded) -> str:
    if m.what != "table":
        return ""
    table = loaded.symbols.tables.get(m.name)
    return f"demo table {table.span.file}:{table.span.line}" if table is not None else "no table supplies it"
