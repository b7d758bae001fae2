"""How much of the rulebook's numbered sections a ruleset encodes.

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

What the ruleset declares it leaves out is read from its symbols (``declared``): ``not
encoded`` and ``partly encoded`` declarations, ``missing`` data, and the procedures and
steps that ``need`` a missing table. A section is then, in this order: *not encoded* (declared
so, and nothing else cites it), *partly encoded* (a declaration leaves part of it out),
*missing data* (data it needs is not printed), *encoded* (cited), *via subsections* (not cited
itself, but a subsection is) or *not cited*. The citation of a ``not encoded``, ``partly
encoded`` or ``missing`` declaration encodes nothing, so it does not make a section cited. The
percentage is of encoded sections only.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass, field

from .ir import citations
from .ir.nodes import Citation
from .ir.symbols import Symbols
from .load import load_rules, read
from .syntax.diagnostics import Diagnostic, Sources, Span, UmpireError, did_you_mean

_SECTION_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]+)+[a-z]?")  # ASCII digits: digits.py


@dataclass(frozen=True)
class Section:
    """One numbered section of a rulebook, as its sections file lists it."""

    number: str
    title: str
    parent: str | None
    depth: int
    span: Span


@dataclass(frozen=True)
class Declared:
    """A reason a section is not fully encoded, declared in the ruleset where ``cite`` is written."""

    status: str  # 'not encoded', 'partly encoded' or 'missing data'
    text: str  # what is left out, as the report prints it
    cite: Citation
    encodes: bool = False  # the citation also encodes the section (a procedure that needs a missing table)


# The statuses of a section, in the order the report counts them; only 'encoded' counts in the percentage.
STATUSES = ("encoded", "partly encoded", "missing data", "not encoded", "via subsections", "not cited")


@dataclass
class Coverage:
    """The citations of one ruleset sorted against the sections of its rulebook."""

    sections: dict[str, Section]
    cited: dict[str, list[Citation]] = field(default_factory=dict)  # section → citations that encode it
    declared: dict[str, list[Declared]] = field(default_factory=dict)  # section → what the ruleset leaves out of it
    unknown: list[tuple[str, Citation]] = field(default_factory=list)  # numbers not in the list
    rulings: dict[str, list[Citation]] = field(default_factory=dict)  # A-05, C-10 … → where each is cited
    examples: Counter[str] = field(default_factory=Counter)  # EoP, TC-6.3, EX-16, Example …

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
        """One of STATUSES: what the ruleset declares of the section first, then what it cites."""
        kinds = {d.status for d in self.declared.get(number, ())}
        if kinds == {"not encoded"} and not self.is_cited(number):
            return "not encoded"
        if kinds & {"not encoded", "partly encoded"}:
            return "partly encoded"
        if "missing data" in kinds:
            return "missing data"
        if self.is_cited(number):
            return "encoded"
        return "via subsections" if self.through_subsection(number) else "not cited"

    def tally(self) -> Counter[str]:
        """How many sections have each status."""
        return Counter(self.status(s) for s in self.sections)


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


def measure(sections: dict[str, Section], written: list[Citation], declared: list[Declared] = ()) -> Coverage:
    """Sort every citation against the sections, and what the ruleset declares it leaves out."""
    cov = Coverage(sections, {s: [] for s in sections})
    aside = {_key(d.cite) for d in declared if not d.encodes}  # a declaration of what is left out encodes nothing
    for citation in written:
        numbers, rulings, examples = citations.names(citation.text)
        for number in numbers:
            section = resolve(number, sections)
            if section is None:
                cov.unknown.append((number, citation))
            elif _key(citation) not in aside:
                cov.cited[section].append(citation)
        for ruling in rulings:
            cov.rulings.setdefault(ruling, []).append(citation)
        cov.examples.update(examples)
    for d in declared:
        for section in {resolve(number, sections) for number in citations.names(d.cite.text)[0]} - {None}:
            cov.declared.setdefault(section, []).append(d)
    return cov


def _key(citation: Citation) -> tuple[str, int, int]:
    return citation.span.file, citation.span.line, citation.span.col


def declared(sym: Symbols) -> list[Declared]:
    """What a ruleset declares it leaves out: its ``not encoded`` and ``partly encoded`` lines, its
    ``missing`` data, and the procedures and steps that need a missing table (they encode the rule,
    but cannot run it on the published data)."""
    found = [Declared(f"{g.extent} encoded", f"{g.extent} encoded: {g.reason}", g.cite) for g in sym.unencoded if g.cite]
    found += [Declared("missing data", f"missing {m.what} '{m.name}': {m.description}", m.cite)
              for m in sym.missing.values() if m.cite]
    needers = [(f"procedure {p.name}", p) for p in sym.procedures.values()]
    needers += [(f"step {phase}.{step}", decl) for (phase, step), decl in sym.steps().items()]
    for what, decl in needers:
        unprinted = [name for name in decl.needs if name in sym.missing]
        if unprinted and decl.cite:
            found.append(Declared("missing data", f"{what} needs the missing table(s) {', '.join(unprinted)}", decl.cite,
                                  encodes=True))
    return found


def unknown_diagnostics(cov: Coverage, sections_path: str) -> list[Diagnostic]:
    """A warning for each cited rule number the rulebook's list does not hold (a typo, most likely)."""
    return [
        Diagnostic("warning", f"rule {number} is not a section of the rulebook (not in {sections_path})", c.span,
                   did_you_mean(number, cov.sections))
        for number, c in cov.unknown
    ]


def load_coverage(rules_path: str, sections_path: str | None, sources: Sources):
    """The ruleset loaded, the path of its sections file and its coverage; an UmpireError when
    either cannot be read."""
    sections_path = sections_path or sections_path_for(rules_path)
    loaded = load_rules(rules_path, sources)
    if not os.path.exists(sections_path):
        raise UmpireError([Diagnostic(
            "error", f"no list of the rulebook's sections for {rules_path}: {sections_path} does not exist",
            Span(file=sections_path, line=0, col=0, end_line=0, end_col=0),
            "write one (docs/coverage.md) or name it with --sections FILE")])
    sections = read_sections(sections_path, sources)
    return loaded, sections_path, measure(sections, citations.written(loaded.ruleset.decls), declared(loaded.symbols))
