"""``umpire coverage``: which of the rulebook's numbered sections a ruleset cites.

The rulebook's list of sections lives beside the ruleset, in a file with the same stem
(``game.sections`` for ``game.rules``): one section a line, its number then its short
title, a subsection indented under the section it belongs to (docs/coverage.md).

Every citation written in the ruleset and the files it includes is read from the IR, where
each is a node with its own span (``ir/citations.py``); citations a statement inherits from
its enclosing construct are not written, so not counted. A citation names zero or more rule numbers (``9.1 step 2a`` names 9.1,
``7.2; A-22`` names 7.2) and zero or more rulings and examples (``A-22``, ``EoP``,
``TC-6.3``), which are counted apart. A number deeper than the list goes (``9.1.2a``)
counts for the nearest listed section it extends (9.1); a number the list does not hold
at all is reported as a warning with a "did you mean".

A section is *cited* when a citation names it; a section that is not cited itself but has
a cited subsection is *covered through a subsection*. The percentage is of cited
sections; the share covered either way is printed beside it.
"""

from __future__ import annotations

import os
import re
import sys
from collections import Counter
from dataclasses import dataclass, field

from .ir import citations
from .ir.nodes import Citation
from .load import load_rules, read
from .syntax.diagnostics import Diagnostic, Sources, Span, UmpireError, did_you_mean, render, render_all

_SECTION_NUMBER = re.compile(r"\d+(?:\.\d+)+[a-z]?")
_EXAMPLES_SHOWN = 3


@dataclass(frozen=True)
class Section:
    """One numbered section of a rulebook, as its sections file lists it."""

    number: str
    title: str
    parent: str | None
    depth: int
    span: Span


@dataclass
class Coverage:
    """The citations of one ruleset sorted against the sections of its rulebook."""

    sections: dict[str, Section]
    cited: dict[str, list[Citation]] = field(default_factory=dict)  # section → citations naming it
    unknown: list[tuple[str, Citation]] = field(default_factory=list)  # numbers not in the list
    rulings: Counter[str] = field(default_factory=Counter)  # A-05, C-10 …
    examples: Counter[str] = field(default_factory=Counter)  # EoP, TC-6.3, Example …

    def is_cited(self, number: str) -> bool:
        return bool(self.cited.get(number))

    def through_subsection(self, number: str) -> bool:
        """True when the section is not cited itself but one of its subsections (at any depth) is."""
        if self.is_cited(number):
            return False
        return any(self._descends(s, number) for s in self.cited if self.cited[s])

    def _descends(self, number: str, ancestor: str) -> bool:
        parent = self.sections[number].parent
        while parent is not None:
            if parent == ancestor:
                return True
            parent = self.sections[parent].parent
        return False

    def status(self, number: str) -> str:
        if self.is_cited(number):
            return "cited"
        return "via subsections" if self.through_subsection(number) else "not cited"

    def counts(self) -> tuple[int, int, int]:
        """(sections, cited, cited or covered through a subsection)."""
        cited = sum(1 for s in self.sections if self.is_cited(s))
        either = cited + sum(1 for s in self.sections if self.through_subsection(s))
        return len(self.sections), cited, either


# ─────────────────────────────── the sections file ───────────────────────────────


def sections_path_for(rules_path: str) -> str:
    """A ruleset's list of sections is the file beside it with the same stem: ``x.rules`` → ``x.sections``."""
    return os.path.splitext(rules_path)[0] + ".sections"


def read_sections(path: str, sources: Sources) -> dict[str, Section]:
    """Parse a sections file; every malformed line is an error at its file:line:col."""
    text = read(path, sources)
    sections: dict[str, Section] = {}
    levels: list[tuple[int, str]] = []  # (indent, number) of the open sections, outermost first
    errors: list[Diagnostic] = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        problem = _section_line(path, lineno, raw.rstrip(), sections, levels)
        if problem is not None:
            errors.append(problem)
    if not errors and not sections:
        errors.append(Diagnostic("error", f"{path} lists no sections", Span(file=path, line=0, col=0, end_line=0, end_col=0),
                                 "write one section a line, such as '9.1  Naval Combat'"))
    if errors:
        raise UmpireError(errors)
    return sections


def _section_line(path: str, lineno: int, line: str, sections: dict[str, Section],
                  levels: list[tuple[int, str]]) -> Diagnostic | None:
    """Add the section one line lists to ``sections``; return the problem if the line is malformed."""
    body = line.lstrip(" ")
    if not body or body.startswith("#"):
        return None
    indent = len(line) - len(body)

    def error(message: str, width: int = 1, hint: str | None = None) -> Diagnostic:
        span = Span(file=path, line=lineno, col=indent + 1, end_line=lineno, end_col=indent + 1 + width)
        return Diagnostic("error", message, span, hint)

    if body[0].isspace():
        return error("indent sections with spaces, not tabs or other blanks")
    number, title = re.match(r"(\S+)\s*(.*)", body).groups()
    if not _SECTION_NUMBER.fullmatch(number):
        return error(f"expected a section number such as 9.1 at the start of the line, found '{number}'", len(number))
    if not title:
        return error(f"section {number} has no title", len(number), "write its heading after the number, such as '9.1  Naval Combat'")
    if number in sections:
        return error(f"section {number} is listed twice (first on line {sections[number].span.line})", len(number))
    parent, depth, problem = _place(levels, indent)
    if problem:
        return error(problem, len(number))
    levels.append((indent, number))
    span = Span(file=path, line=lineno, col=indent + 1, end_line=lineno, end_col=indent + 1 + len(number))
    sections[number] = Section(number, title, parent, depth, span)
    return None


def _place(levels: list[tuple[int, str]], indent: int) -> tuple[str | None, int, str | None]:
    """Close the sections a line at ``indent`` ends; return its parent and depth, or a problem."""
    closed_deeper = False
    while levels and levels[-1][0] > indent:
        levels.pop()
        closed_deeper = True
    if levels and levels[-1][0] == indent:  # a sibling of the section above
        levels.pop()
    elif closed_deeper:  # shallower than the section it closes, deeper than the one above that
        return None, 0, "this indentation matches no section above it"
    elif not levels and indent > 0:
        return None, 0, "an indented section needs a section above it to belong to"
    return (levels[-1][1] if levels else None), len(levels), None


def resolve(number: str, sections: dict[str, Section]) -> str | None:
    """The listed section a cited rule number names: itself, without a step letter, or the nearest listed section it extends."""
    if number in sections:
        return number
    bare = number.rstrip("abcdefghijklmnopqrstuvwxyz")
    parts = bare.split(".")
    while len(parts) >= 2:
        candidate = ".".join(parts)
        if candidate in sections:
            return candidate
        parts.pop()
    return None


def measure(sections: dict[str, Section], written: list[Citation]) -> Coverage:
    """Sort every citation against the sections."""
    cov = Coverage(sections, {s: [] for s in sections})
    for citation in written:
        numbers, rulings, examples = citations.names(citation.text)
        for number in numbers:
            section = resolve(number, sections)
            if section is None:
                cov.unknown.append((number, citation))
            else:
                cov.cited[section].append(citation)
        cov.rulings.update(rulings)
        cov.examples.update(examples)
    return cov


# ─────────────────────────────── the report ───────────────────────────────


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%"


def report(cov: Coverage, missing_only: bool = False) -> list[str]:
    """The lines ``umpire coverage`` prints: one per section, then the totals."""
    rows = [s for s in cov.sections.values() if not missing_only or not cov.is_cited(s.number)]
    width = max([len("section")] + [len(s.number) + 2 * s.depth for s in cov.sections.values()])
    title_width = max([len("title")] + [len(s.title) for s in cov.sections.values()])
    out = [f"{'section':<{width}}  {'title':<{title_width}}  {'status':<15}  cites  where"]
    for s in rows:
        cites = cov.cited[s.number]
        number = "  " * s.depth + s.number
        out.append(f"{number:<{width}}  {s.title:<{title_width}}  {cov.status(s.number):<15}  {len(cites):>5}  {_where(cites)}".rstrip())
    total, cited, either = cov.counts()
    out.append("")
    out.append(f"coverage: {cited} of {total} sections cited ({percent(cited, total)}); "
               f"{either} of {total} cited or covered through a subsection ({percent(either, total)})")
    out.extend(_listing("not cited", [s for s in cov.sections.values() if cov.status(s.number) == "not cited"]))
    out.extend(_listing("covered only through subsections", [s for s in cov.sections.values() if cov.through_subsection(s.number)]))
    if cov.rulings:
        out.append("rulings cited (not rule numbers): " + _tally(cov.rulings))
    if cov.examples:
        out.append("examples cited (not rule numbers): " + _tally(cov.examples))
    if cov.unknown:
        out.append(f"rule numbers cited that the list does not hold: {len(cov.unknown)} (warnings below)")
    return out


def _where(cites: list[Citation]) -> str:
    """The first few lines that cite a section, grouped by file: ``a.rules:3, 9; b.rules:12 ...``."""
    lines = sorted({(c.span.file, c.span.line) for c in cites})
    by_file: dict[str, list[str]] = {}
    for file, line in lines[:_EXAMPLES_SHOWN]:
        by_file.setdefault(file, []).append(str(line))
    text = "; ".join(f"{file}:{', '.join(numbers)}" for file, numbers in by_file.items())
    return text + (" ..." if len(lines) > _EXAMPLES_SHOWN else "")


def _listing(label: str, sections: list[Section]) -> list[str]:
    if not sections:
        return []
    return [f"{label} ({len(sections)}): " + ", ".join(f"{s.number} {s.title}" for s in sections)]


def _tally(counts: Counter[str]) -> str:
    return ", ".join(f"{name} ({count})" for name, count in sorted(counts.items(), key=lambda kv: _natural(kv[0])))


def _natural(text: str) -> list:
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", text)]


def unknown_diagnostics(cov: Coverage, sections_path: str) -> list[Diagnostic]:
    """A warning for each cited rule number the rulebook's list does not hold (a typo, most likely)."""
    return [
        Diagnostic("warning", f"rule {number} is not a section of the rulebook (not in {sections_path})", c.span,
                   did_you_mean(number, cov.sections))
        for number, c in cov.unknown
    ]


def cmd_coverage(rules_path: str, sections_path: str | None = None, missing_only: bool = False) -> int:
    """Print the coverage of a ruleset; exit 1 when it or its sections file cannot be read."""
    sources = Sources()
    sections_path = sections_path or sections_path_for(rules_path)
    try:
        loaded = load_rules(rules_path, sources)
        if not os.path.exists(sections_path):
            raise UmpireError([Diagnostic(
                "error", f"no list of the rulebook's sections for {rules_path}: {sections_path} does not exist",
                Span(file=sections_path, line=0, col=0, end_line=0, end_col=0),
                "write one (docs/coverage.md) or name it with --sections FILE")])
        sections = read_sections(sections_path, sources)
    except UmpireError as err:
        print(render_all(err.diagnostics, sources), file=sys.stderr)
        return 1
    if loaded.errors:
        print(f"note: {rules_path} has {len(loaded.errors)} error(s) (see umpire check); its citations are counted as written",
              file=sys.stderr)
    cov = measure(sections, citations.written(loaded.ruleset.decls))
    print(f"rule coverage of {rules_path} against {sections_path}")
    print("\n".join(report(cov, missing_only)))
    for diag in unknown_diagnostics(cov, sections_path):
        print(render(diag, sources))
    return 0
