"""The shape of a ruleset: how many of its code lines are data and declarations, and how many are
statements (procedures' bodies, steps' and rows' effects, functions' bodies). A rulebook is mostly
tables, stats and sequences; a ruleset written mostly as statements is programming the mechanics
the language could declare. `umpire coverage --shape` prints it (docs/coverage.md).

A code line is a line with something besides a comment, white space and braces. A code line is a
statement line when a statement's span, or a function's body, covers it: the line of a step whose
one-line body is a `say` counts as a statement, the line of a procedure's header does not. A result
declared as one standard effect (`result dr "DR" [5.5] = retreat(defenders, 1)`), or a row whose
effect is one procedure given its arguments (`3 -> storm "Storm" [6.3] = ships_lost(s, 1)`),
or a step of the sequence of play or a hook written as the one procedure it runs (`step movement [4.0] =
movement_phase(north)`), is data: it names what a code, a roll or a step does, as a row naming a
result does. So is a printed value
or chart, a function of no parameter whose body is a literal (`function straits_cost() [9.4] = 3`,
`function wind_numbers() [9.2] = {north: 1, east: 2}`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .ir import nodes as n
from .ir.visit import STATEMENT_CLASSES, descendants
from .syntax.diagnostics import Span

LONG_LINE = 160  # characters: a line longer than this is hard to read beside the rulebook (issue targets, docs/coverage.md)
_BRACES = set("{}()[] \t")


@dataclass
class FileShape:
    """One file's code lines: all of them, those holding statements, and the long ones."""

    path: str
    code: set[int] = field(default_factory=set)
    statements: set[int] = field(default_factory=set)
    long: dict[int, int] = field(default_factory=dict)  # line -> its length, for lines over LONG_LINE

    @property
    def data(self) -> int:
        return len(self.code) - len(self.statements)


def is_code(line: str) -> bool:
    """A line holding more than a comment, white space and braces."""
    text = line.strip()
    return bool(text) and not text.startswith("#") and not set(text) <= _BRACES


def statement_spans(decls: Iterable) -> list[Span]:
    """The spans of every statement and of every function's body among the declarations."""
    spans = []
    declared: set[int] = set()  # the one call a result, row, step or hook is written as: data
    for node in descendants(decls):  # depth first, a node before what it holds
        if isinstance(node, (n.TableResult, n.Row, n.StepDecl, n.HookDecl)) and node.does:
            declared.add(id((node.effect if isinstance(node, (n.TableResult, n.Row)) else node.body)[0]))
        if isinstance(node, n.FunctionDecl) and not printed_value(node):
            spans.append(node.body.span)
        elif isinstance(node, STATEMENT_CLASSES) and id(node) not in declared:
            spans.append(node.span)
    return spans


def printed_value(decl: n.FunctionDecl) -> bool:
    """A function of no parameter whose body is a literal — a number, a text, a list or a map of such
    values and names (language 9.1a): a printed value or a printed chart, data however it is written."""
    return not decl.params and not isinstance(decl.body, n.Var) and _literal(decl.body)


def _literal(e) -> bool:
    if isinstance(e, (n.IntLit, n.BoolLit, n.NoneLit, n.PlaceLit, n.Var)):
        return True
    if isinstance(e, n.Attr):  # a qualified value, 'origin.vera_cruz' (a function of no parameter reads no unit)
        return isinstance(e.obj, n.Var)
    if isinstance(e, n.StrLit):
        return all(part.expr is None for part in e.parts)
    if isinstance(e, n.Neg):
        return _literal(e.operand)
    if isinstance(e, n.ListLit):
        return all(_literal(x) for x in e.items)
    if isinstance(e, n.MapLit):
        return all(_literal(entry.key) and _literal(entry.value) for entry in e.entries)
    return False


def measure(ruleset: n.Ruleset, texts: dict[str, str]) -> list[FileShape]:
    """The shape of each file of the ruleset, in the order the files were read."""
    shapes = {}
    for path, text in texts.items():
        shape = shapes[path] = FileShape(path)
        for number, line in enumerate(text.splitlines(), start=1):
            if is_code(line):
                shape.code.add(number)
                if len(line) > LONG_LINE:
                    shape.long[number] = len(line)
    for span in statement_spans(ruleset.decls):
        shape = shapes.get(span.file)
        if shape is not None:
            shape.statements.update(line for line in range(span.line, span.end_line + 1) if line in shape.code)
    return list(shapes.values())
