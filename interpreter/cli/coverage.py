"""`umpire coverage`: how much of the rulebook's numbered sections a ruleset encodes (coverage.py
measures it), printed as a table of sections with the totals, or (--json) as one document; with
--shape, how many of its code lines are data and how many statements (shape.py)."""

from __future__ import annotations

import re
import sys
from collections import Counter

from .. import library
from ..coverage import STATUSES, Coverage, Section, load_coverage, unknown_diagnostics
from ..ir.nodes import Citation
from ..load import load_rules
from ..shape import LONG_LINE, FileShape, measure
from ..style import enabled
from ..syntax.diagnostics import Sources, UmpireError, render, render_all

_EXAMPLES_SHOWN = 3


def cmd_coverage(rules_path: str, sections_path: str | None = None, missing_only: bool = False) -> int:
    """Print the coverage of a ruleset; exit 1 when it or its sections file cannot be read."""
    sources = Sources()
    try:
        loaded, sections_path, cov = load_coverage(rules_path, sections_path, sources)
    except UmpireError as err:
        print(render_all(err.diagnostics, sources, colour=enabled(sys.stderr)), file=sys.stderr)
        return 1
    if loaded.errors:
        print(f"note: {rules_path} has {len(loaded.errors)} error(s) (see umpire check); its citations are counted as written",
              file=sys.stderr)
    print(f"rule coverage of {rules_path} against {sections_path}")
    print("\n".join(report(cov, missing_only)))
    for diag in unknown_diagnostics(cov, sections_path):
        print(render(diag, sources, colour=enabled(sys.stderr)), file=sys.stderr)
    return 0


def json_coverage(rules_path: str, sections_path: str | None = None, missing_only: bool = False) -> int:
    """`umpire coverage --json`: every section (those not fully encoded, with --missing) with its status
    and citations, the count of each status, the percentage, the rulings and examples cited."""
    from .. import report_json as rj

    sources = Sources()
    try:
        loaded, sections_path, cov = load_coverage(rules_path, sections_path, sources)
    except UmpireError as err:
        return rj.stopped("coverage", err.diagnostics, ruleset=rules_path)
    tally, total = cov.tally(), len(cov.sections)
    rows = [s for s in cov.sections.values() if not missing_only or cov.status(s.number) != "encoded"]
    rj.emit(rj.document(
        "coverage", ruleset=rules_path, sections_file=sections_path, ruleset_errors=len(loaded.errors),
        sections=[rj.section(cov, s) for s in rows], total=total, by_status={s: tally[s] for s in STATUSES},
        encoded=tally["encoded"], percentage=round(100 * tally["encoded"] / total, 1), percent=percent(tally["encoded"], total),
        rulings={r: [f"{c.span.file}:{c.span.line}" for c in cites] for r, cites in cov.rulings.items()},
        examples=dict(cov.examples), warnings=[rj.diagnostic(d) for d in unknown_diagnostics(cov, sections_path)],
        exit=0))
    return 0


def _shapes(rules_path: str, sources: Sources) -> list[FileShape]:
    loaded = load_rules(rules_path, sources)
    if loaded.errors:
        print(f"note: {rules_path} has {len(loaded.errors)} error(s) (see umpire check); its lines are measured as written",
              file=sys.stderr)
    # A library mechanic's lines are Umpire's, written once for every game: the game's shape is its own files'.
    return measure(loaded.ruleset, {name: sources.text(name) or "" for name in sources.names() if not library.is_library(name)})


def _mechanics(sources: Sources) -> list[str]:
    """The library mechanics a ruleset uses, by name."""
    return [name.removeprefix(library.PREFIX).removesuffix(".rules") for name in sources.names() if library.is_library(name)]


def cmd_shape(rules_path: str) -> int:
    """Print the shape of a ruleset, file by file; exit 1 when it cannot be read."""
    sources = Sources()
    try:
        shapes = _shapes(rules_path, sources)
    except UmpireError as err:
        print(render_all(err.diagnostics, sources, colour=enabled(sys.stderr)), file=sys.stderr)
        return 1
    print(f"shape of {rules_path}: code lines as data and declarations, and as statements")
    print("\n".join(shape_report(shapes)))
    used = _mechanics(sources)
    if used:
        print(f"library mechanics used (Umpire's own files, not counted): {', '.join(used)}")
    return 0


def json_shape(rules_path: str) -> int:
    """`umpire coverage --shape --json`: each file's code, data and statement lines and long lines, and the totals."""
    from .. import report_json as rj

    sources = Sources()
    try:
        shapes = _shapes(rules_path, sources)
    except UmpireError as err:
        return rj.stopped("shape", err.diagnostics, ruleset=rules_path)
    code, statements = sum(len(s.code) for s in shapes), sum(len(s.statements) for s in shapes)
    rj.emit(rj.document(
        "shape", ruleset=rules_path, long_line=LONG_LINE,
        files=[{"file": s.path, "code": len(s.code), "data": s.data, "statements": len(s.statements),
                "long_lines": [{"line": line, "length": length} for line, length in sorted(s.long.items())]} for s in shapes],
        code=code, data=code - statements, statements=statements, statement_share=percent(statements, code),
        library=_mechanics(sources), exit=0))
    return 0


def shape_report(shapes: list[FileShape]) -> list[str]:
    """One line per file (code lines, data, statements and their share, long lines), then the totals
    and the longest lines."""
    width = max(len("total"), *(len(s.path) for s in shapes))
    out = [f"{'file':<{width}}  {'code':>5}  {'data':>5}  {'statements':>10}  {'share':>6}  long"]
    for s in shapes:
        out.append(_shape_row(s.path, width, len(s.code), len(s.statements), len(s.long)))
    code, statements = sum(len(s.code) for s in shapes), sum(len(s.statements) for s in shapes)
    out.append(_shape_row("total", width, code, statements, sum(len(s.long) for s in shapes)))
    longest = sorted(((length, s.path, line) for s in shapes for line, length in s.long.items()), reverse=True)[:_EXAMPLES_SHOWN]
    out.append(f"statements are {percent(statements, code) if code else '0.0%'} of the code lines; "
               f"{sum(len(s.long) for s in shapes)} line(s) over {LONG_LINE} characters"
               + (": the longest " + ", ".join(f"{path}:{line} ({length})" for length, path, line in longest) if longest else ""))
    return out


def _shape_row(name: str, width: int, code: int, statements: int, long: int) -> str:
    share = percent(statements, code) if code else "-"
    return f"{name:<{width}}  {code:>5}  {code - statements:>5}  {statements:>10}  {share:>6}  {long:>4}"


# ─────────────────────────────── the report ───────────────────────────────


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%"


def report(cov: Coverage, missing_only: bool = False) -> list[str]:
    """The lines ``umpire coverage`` prints: one per section (with what is left out of it, for
    ``--missing``), then the totals, the sections by status and, in full, the rulings."""
    rows = [s for s in cov.sections.values() if not missing_only or cov.status(s.number) != "encoded"]
    width = max([len("section")] + [len(s.number) + 2 * s.depth for s in cov.sections.values()])
    title_width = max([len("title")] + [len(s.title) for s in cov.sections.values()])
    out = [f"{'section':<{width}}  {'title':<{title_width}}  {'status':<15}  cites  where"]
    for s in rows:
        cites = cov.cited[s.number]
        number = "  " * s.depth + s.number
        out.append(f"{number:<{width}}  {s.title:<{title_width}}  {cov.status(s.number):<15}  {len(cites):>5}  {_where(cites)}".rstrip())
        if missing_only:
            out.extend(f"{' ' * (width + 2)}{line}" for line in _left_out(cov, s.number))
    out.append("")
    out.extend(_totals(cov))
    if not missing_only:
        out.extend(_rulings(cov))
        if cov.tally()["encoded"] < len(cov.sections):
            out.append("what is left out of each section not encoded, and why: umpire coverage --missing")
    if cov.examples:
        out.append("examples cited (not rule numbers): " + _tally(cov.examples))
    if cov.unknown:
        out.append(f"rule numbers cited that the list does not hold: {len(cov.unknown)} (each a warning, on standard error)")
    return out


def _left_out(cov: Coverage, number: str) -> list[str]:
    """What the ruleset declares it leaves out of a section, each with where it says so."""
    return [f"- {d.text} ({_where([d.cite])})" for d in cov.declared.get(number, ())]


def _totals(cov: Coverage) -> list[str]:
    total, tally = len(cov.sections), cov.tally()
    encoded = tally["encoded"]
    out = [f"coverage: {encoded} of {total} sections encoded ({percent(encoded, total)}); "
           "the percentage counts 'encoded' sections only",
           "by status: " + ", ".join(f"{tally[status]} {status}" for status in STATUSES)
           + f"; {total - tally['not cited']} of {total} cited at all ({percent(total - tally['not cited'], total)})"]
    for status in STATUSES[1:]:
        label = "covered only through subsections" if status == "via subsections" else status
        out.extend(_listing(label, [s for s in cov.sections.values() if cov.status(s.number) == status]))
    return out


def _rulings(cov: Coverage) -> list[str]:
    """Each ruling the ruleset cites, with every line that cites it."""
    if not cov.rulings:
        return []
    width = max(len(r) for r in cov.rulings)
    out = [f"rulings cited (not rule numbers): {len(cov.rulings)}, where each applies"]
    for ruling in sorted(cov.rulings, key=_natural):
        out.append(f"  {ruling:<{width}}  {_where(cov.rulings[ruling], shown=None)}")
    return out


def _where(cites: list[Citation], shown: int | None = _EXAMPLES_SHOWN) -> str:
    """The lines that cite a section (the first few, unless ``shown`` is None), grouped by file:
    ``a.rules:3, 9; b.rules:12 ...``."""
    lines = sorted({(c.span.file, c.span.line) for c in cites})
    shown = len(lines) if shown is None else shown
    by_file: dict[str, list[str]] = {}
    for file, line in lines[:shown]:
        by_file.setdefault(file, []).append(str(line))
    text = "; ".join(f"{file}:{', '.join(numbers)}" for file, numbers in by_file.items())
    return text + (" ..." if len(lines) > shown else "")


def _listing(label: str, sections: list[Section]) -> list[str]:
    if not sections:
        return []
    return [f"{label} ({len(sections)}): " + ", ".join(f"{s.number} {s.title}" for s in sections)]


def _tally(counts: Counter[str]) -> str:
    return ", ".join(f"{name} ({count})" for name, count in sorted(counts.items(), key=lambda kv: _natural(kv[0])))


def _natural(text: str) -> list:
    return [int(t) if t.isdigit() else t for t in re.split(r"([0-9]+)", text)]
