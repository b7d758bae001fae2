"""Citations: what one names, every one a ruleset writes, and the one a statement runs under.

A citation is an IR node (`nodes.Citation`) with its own span, built where it is written.
Three questions are asked of them, each answered here once:
- what rule numbers, rulings and examples one citation names (`names`), for coverage;
- every citation a ruleset writes (`written`), read from the IR, each once, for coverage;
- the citation a statement runs under (`effective`): its own, else its nearest enclosing
  statement's, else its construct's (procedure, row, step, hook, invariant); and a table's
  parts likewise (`table`). The runtime asks once per body, when it compiles, so every
  trace line carries a rule number. The checker reads the citations as written.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from . import nodes as n
from .visit import blocks, descendants

_RULE_NUMBER = re.compile(r"\d+(?:\.\d+)+[a-z]*")
_RULING = re.compile(r"[A-Z][A-Za-z]*-\d+[a-z]?")
_EXAMPLE_TAG = re.compile(r"[A-Z]+\d+[a-z]?")  # [E13]: an example of the rulebook


def names(text: str) -> tuple[list[str], list[str], list[str]]:
    """The rule numbers, rulings and examples one citation names.

    Parts are separated by ``;`` or ``,``; a part's first word decides what it is, and a
    part that is none of them (``demo`` in ``6.6 errata; demo``) qualifies the one before.
    """
    numbers: list[str] = []
    rulings: list[str] = []
    examples: list[str] = []
    for part in re.split(r"[;,]", text):
        words = part.split()
        if not words:
            continue
        head = words[0]
        number = _RULE_NUMBER.match(head)
        if number:  # '9.1', '9.1.2a', '6.2-errata' → 6.2
            numbers.append(number.group())
        elif head == "EoP" or head.startswith(("TC-", "EX-")) or _EXAMPLE_TAG.fullmatch(head):
            examples.append(head)
        elif head.startswith("Example"):
            examples.append(" ".join(words))
        elif _RULING.fullmatch(head):
            rulings.append(head)
    return numbers, rulings, examples


def written(roots: Iterable[object]) -> list[n.Citation]:
    """Every citation written under the roots, in the order of the text's declarations, each once.

    A statement an overlay moved keeps the citation it ran under (`effective`): the same
    written citation then stands in two places, and is counted at the place it was written.
    """
    seen: set[tuple[str, int, int]] = set()
    found: list[n.Citation] = []
    for node in descendants(roots):
        if isinstance(node, n.Citation):
            key = (node.span.file, node.span.line, node.span.col)
            if key not in seen:
                seen.add(key)
                found.append(node)
    return found


def effective(stmts: tuple, cite: n.Citation | None) -> tuple:
    """The statements, each carrying the citation it runs under: its own, else ``cite``.

    Nested blocks inherit from the statement that holds them, so a statement without a
    citation of its own reads as the nearest rule written around it.
    """
    return tuple(_effective(s, cite) for s in stmts)


def table(decl: n.TableDecl) -> n.TableDecl:
    """The table with each part carrying the citation it is traced under: a row, modifier,
    column shift, result or policy (``roll``, ``beyond``) its own, else the table's."""
    cite = decl.cite
    return decl.model_copy(update={
        "rows": tuple(_part(r, cite) for r in decl.rows),
        "results": tuple(_part(r, cite) for r in decl.results),
        "modifiers": tuple(_part(m, cite) for m in decl.modifiers),
        "shifts": tuple(_part(s, cite) for s in decl.shifts),
        "roll_cite": decl.roll_cite or cite,
        "beyond_cite": decl.beyond_cite or cite,
        "columns_beyond_cite": decl.columns_beyond_cite or cite,
        "columns_below_cite": decl.columns_below_cite or cite,
        "columns_above_cite": decl.columns_above_cite or cite,
    })


def _part(part, cite: n.Citation | None):
    own = part.cite or cite
    update = {"cite": own}
    if isinstance(part, n.Row | n.TableResult):
        update["effect"] = effective(part.effect, own)
    return part.model_copy(update=update)


def _effective(stmt, cite: n.Citation | None):
    here = stmt.cite or cite
    update = {name: effective(value, here) for name, value in blocks(stmt)}
    if stmt.cite is None and here is not None:
        update["cite"] = here
    return stmt.model_copy(update=update) if update else stmt


def by_line(roots: Iterable[object]) -> dict[tuple[str, int], tuple[n.Citation, ...]]:
    """The citations each line of the text is written under: first that of the innermost node
    covering the line which carries one, or that it inherits (a statement from the statements
    around it, a row from its table, an expression from its statement), as `effective` and
    `table` say; then every other citation written on the line (a table's `roll … [6.2]`, the
    inner statement of a one-line block). `umpire rule` reads a section's lines from it."""
    inner: dict[tuple[str, int], n.Citation] = {}
    on_line: dict[tuple[str, int], list[n.Citation]] = {}
    stack: list[tuple[object, n.Citation | None]] = [(r, None) for r in reversed(list(roots))]
    while stack:
        node, around = stack.pop()
        if isinstance(node, tuple | list):
            stack.extend((child, around) for child in reversed(node))
            continue
        if isinstance(node, n.Citation):
            on_line.setdefault((node.span.file, node.span.line), []).append(node)
            continue
        if not isinstance(node, n.Node):
            continue
        here = getattr(node, "cite", None) or around
        span = node.span
        if here is not None and span.line > 0:
            for line in range(span.line, span.end_line + 1):
                inner[(span.file, line)] = here  # an inner node, walked later, overrides its lines
        stack.extend((getattr(node, name), here) for name in reversed(type(node).model_fields))
    return {key: (cite, *[c for c in on_line.get(key, ()) if c is not cite]) for key, cite in inner.items()}


def recited(node, cite: n.Citation, paragraphs: dict[str, n.Citation] | None = None):
    """``node`` with every citation written in it replaced by ``cite``, or by the one ``paragraphs``
    gives for its text: a library mechanic's declarations cited as the rules of the game that uses
    it (language §9.0a)."""
    if isinstance(node, n.Citation):
        return (paragraphs or {}).get(node.text, cite)
    if isinstance(node, tuple):
        parts = tuple(recited(x, cite, paragraphs) for x in node)
        return node if all(a is b for a, b in zip(parts, node)) else parts
    if isinstance(node, n.IRModel):
        changes = {}
        for name in type(node).model_fields:
            value = getattr(node, name)
            again = recited(value, cite, paragraphs)
            if again is not value:
                changes[name] = again
        return node.model_copy(update=changes) if changes else node
    return node
