"""`umpire rule RULESET SECTION`: every line of a ruleset that encodes a section of the rulebook,
in the rulebook's order, with file:line, so that a rule can be read top to bottom as encoded.

A line encodes the section when a citation it is written under (its own, the one it inherits
from the construct around it, or one written on it: `ir/citations.by_line`) names the section or
one of its subsections (9.1 takes in 9.1a, 9.1.2 and 9.1 step 2, not 9.10). The lines are shown in places:
runs of consecutive lines of one declaration (a run of braces alone is left out), each with the comment written just above it and the
declaration it stands in. Places follow the rulebook's order of their sections (the ruleset's
sections file, when it has one, else the numbers' own order), then the order of the files.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass

from ..coverage import read_sections, sections_path_for
from ..files import RULES, command_line_file
from ..ir import citations
from ..ir import nodes as n
from ..load import load_rules
from ..shape import is_code
from ..style import enabled
from ..syntax.diagnostics import Sources, UmpireError, did_you_mean, render_all


@dataclass
class Place:
    """Consecutive lines of one file encoding the section, under the citation of the first."""

    file: str
    first: int
    last: int
    cite: n.Citation
    number: str  # the section or subsection the first line's citation names
    within: str  # the declaration the lines stand in ('procedure battle'), or ''


def cmd_rule(rules_path: str, section: str, overlays: list[str] = ()) -> int:
    """Print the lines that encode ``section``; exit 1 when none does (with the closest numbers
    cited) or the ruleset cannot be read."""
    sources = Sources()
    try:
        command_line_file(rules_path, "umpire rule reads", (RULES,))
        loaded = load_rules(rules_path, sources, with_demo=True, overlays=overlays)
    except UmpireError as err:
        print(render_all(err.diagnostics, sources, colour=enabled(sys.stderr)), file=sys.stderr)
        return 1
    found = encoding(rules_path, section, loaded.ruleset.decls, sources)
    if isinstance(found, str):
        print(f"umpire rule: error: {found}", file=sys.stderr)
        return 1
    print(found.heading)
    for place in found.places:
        print()
        print("\n".join(place))
    return 0


@dataclass
class Encoding:
    """What `umpire rule` prints of a section: its heading line, then each place's lines."""

    heading: str
    places: list[list[str]]


def encoding(rules_path: str, section: str, decls, sources: Sources) -> Encoding | str:
    """The lines of a loaded ruleset (its declarations, the sources it was read from) that encode
    ``section``, in the rulebook's order; or why there are none (the closest numbers cited)."""
    written = citations.by_line(decls)
    places = [p for p in _places(written, section, decls, sources.names())
              if any(is_code(sources.line(p.file, line) or "") for line in range(p.first, p.last + 1))]
    if not places:
        cited = sorted({num for cites in written.values() for cite in cites for num in citations.names(cite.text)[0]},
                       key=_natural)
        hint = did_you_mean(section, cited)
        return f"no line of {rules_path} cites {section}" + (f"; {hint}" if hint else "")
    titles = _titles(rules_path, sources)
    order = {number: i for i, number in enumerate(titles)}
    files = {name: i for i, name in enumerate(sources.names())}
    places.sort(key=lambda p: (order.get(p.number, len(order)), _natural(p.number), files.get(p.file, 0), p.first))
    count = sum(p.last - p.first + 1 for p in places)
    title = f" {titles[section]}" if section in titles else ""
    heading = f"rule {section}{title}: {count} line(s) of {rules_path} in {len(places)} place(s), in the rulebook's order"
    return Encoding(heading, [_shown(place, sources) for place in places])


def under(number: str, section: str) -> bool:
    """``number`` is the section or one of its subsections: 9.1a, 9.1.2 are under 9.1; 9.10 is not."""
    return number == section or (number.startswith(section) and not number[len(section)].isdigit())


def _places(written: dict[tuple[str, int], tuple[n.Citation, ...]], section: str, decls,
            file_order: list[str]) -> list[Place]:
    places: list[Place] = []
    for (file, line), cites in sorted(written.items(), key=lambda kv: (file_order.index(kv[0][0])
                                                                      if kv[0][0] in file_order else 0, kv[0][1])):
        found = [(cite, num) for cite in cites for num in citations.names(cite.text)[0] if under(num, section)]
        if not found:
            continue
        cite, number = found[0]
        last, within = places[-1] if places else None, _within(decls, file, line)
        if last is not None and (last.file, last.last, last.within) == (file, line - 1, within):
            last.last = line
        else:
            places.append(Place(file, line, line, cite, number, within))
    return places


def _within(decls, file: str, line: int) -> str:
    """The declaration a line stands in, named as the rules write it: 'procedure battle', 'table fire'."""
    for decl in decls:
        span = decl.span
        if span.file == file and span.line <= line <= span.end_line:
            if isinstance(decl, n.HookDecl):
                return f"hook on {decl.event}"
            name = getattr(decl, "name", None)
            return f"{decl.kind} {name}" if isinstance(name, str) else decl.kind
    return ""


def _shown(place: Place, sources: Sources) -> list[str]:
    """The place's heading, the comment just above it, and its lines, numbered."""
    first = place.first
    while first > 1 and (sources.line(place.file, first - 1) or "").strip().startswith("#"):
        first -= 1
    where = f"{place.file}:{place.first}" + (f"-{place.last}" if place.last > place.first else "")
    width = len(str(place.last))
    out = [f"[{place.cite.text}] {where}" + (f", in {place.within}" if place.within else "")]
    out.extend(f"  {number:>{width}} | {sources.line(place.file, number) or ''}".rstrip()
               for number in range(first, place.last + 1))
    return out


def _titles(rules_path: str, sources: Sources) -> dict[str, str]:
    """The sections file's numbers and titles, in the rulebook's order ({} without one, or when it cannot be read)."""
    path = sections_path_for(rules_path)
    if not os.path.exists(path):
        return {}
    try:
        return {number: s.title for number, s in read_sections(path, sources).items()}
    except UmpireError:
        return {}


def _natural(text: str) -> list:
    return [(0, int(t), "") if t.isdigit() else (1, 0, t) for t in re.split(r"([0-9]+)", text) if t]
