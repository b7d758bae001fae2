"""Printed numbers written in more than one place: each should be one named value.

A rule that reads a printed value (a modifier, a cost, a turn) in two places and writes the
number out in both is changed in one place only by an erratum that replaces one of them. This
pass finds the same number written under the same citation at two or more places of a
ruleset and warns at each later place, naming the first, so that the author names the value
once (a function with no parameter, language 9.1a) and reads it everywhere.

What counts, so that the warning stays rare and meaningful (language 20.1):
- a whole-number literal in a modifier, a column shift, a row's or result's effect, a
  function's body, a procedure, a hook, an invariant or a step; a literal with its minus
  sign (`-3`) is one number;
- its citation is the nearest one written around it (the statement's, the modifier's, the
  row's, the function's); two literals are the same printed value when their numbers are
  equal and their citations are written the same (`[6.4]` and `[6.4]`);
- a place is one citation as written: literals under the same written citation (one
  statement, one modifier, one function) are one place, however often they occur in it;
- a function with no parameter whose body is a number is that value's name, the one place it
  is written: two names may hold the same number.

Left out: 0, 1 and -1 (counts, indexes, steps of one); a row's keys and cells (dice faces and
results, each printed once in its own cell); the number of dice a roll throws; a number
that multiplies or divides (halving, doubling, a percentage); an argument passed to a
function, procedure or table (a key of a chart, not a value the rules define); and a
citation qualified `demo`, invented data that no rulebook prints.
"""

from __future__ import annotations

from collections.abc import Iterator

from pydantic import BaseModel

from ..ir import nodes as n
from ..ir.symbols import Symbols
from ..ir.visit import node_fields_backwards
from ..syntax.diagnostics import Diagnostic, Span

_SCALING = ("*", "/")


def repeated_numbers(sym: Symbols) -> list[Diagnostic]:
    """A warning at each later place where a printed number is written again under the same citation."""
    first: dict[tuple[int, str], Span] = {}  # (number, citation) -> where it is first written
    places: set[tuple[int, Span]] = set()  # (number, written citation): a place already seen
    out = []
    for value, cite, span in sorted(_literals(sym), key=lambda lit: _reading_order(sym, lit[2])):
        if abs(value) <= 1 or cite is None or _demo(cite) or (value, cite.span) in places:
            continue
        places.add((value, cite.span))
        seen = first.setdefault((value, cite.text), span)
        if seen is not span:
            out.append(Diagnostic(
                "warning", f"the number {value} [{cite.text}] is written again here; it is first written at "
                f"{seen.file}:{seen.line}:{seen.col}", span,
                f"name the printed value once (function NAME() [{cite.text}] = {value}) and read it in every place, "
                "so that an erratum changes them all"))
    return out


def _reading_order(sym: Symbols, span: Span) -> tuple:
    """The ruleset's own file first, then its parts and data files by name; within a file, by position."""
    main = sym.game.span.file if sym.game is not None else ""
    return (span.file != main, span.file, span.line, span.col)


def _demo(cite: n.Citation) -> bool:
    return "demo" in cite.text.replace(";", " ").replace(",", " ").split()


def _literals(sym: Symbols) -> Iterator[tuple[int, n.Citation | None, Span]]:
    """Every counted literal of the ruleset's bodies: its number, the citation it stands under, its span."""
    for t in sym.tables.values():
        parts = (t.modifiers, t.shifts, [r.effect for r in t.rows], [r.effect for r in t.results])
        yield from _walk(parts, t.cite)
    functions = [f for f in sym.functions.values() if not _named_value(f)]
    bodies = [*functions, *sym.procedures.values(), *sym.hooks, *sym.invariants, *sym.steps().values()]
    yield from _walk(bodies, None)


def _named_value(f: n.FunctionDecl) -> bool:
    """`function works_cost() [6.4] = 2`: the one place a printed value is written, which the
    others read by its name; two such names may hold the same number."""
    return not f.params and _number(f.body) is not None


def _walk(roots, cite: n.Citation | None) -> list[tuple[int, n.Citation | None, Span]]:
    """The counted literals under the roots, depth first, each with the citation it stands under
    (a stack of its own: a generator for each level of nesting passed every literal up each level)."""
    out = []
    stack: list[tuple[object, n.Citation | None]] = [(roots, cite)]
    while stack:
        node, cite = stack.pop()
        if isinstance(node, (tuple, list)):
            stack.extend((item, cite) for item in reversed(node))
            continue
        if not isinstance(node, BaseModel) or isinstance(node, Span):
            continue
        own = node.__dict__.get("cite")  # a field where there is one (a miss through getattr raises inside pydantic)
        cite = own if isinstance(own, n.Citation) else cite
        number = _number(node)
        if number is not None:
            out.append((number, cite, node.span))
            continue
        values = node.__dict__  # its fields, read by name (fields_backwards: in reverse order, for the stack)
        stack.extend([(value, cite) for name in node_fields_backwards(type(node)) if name != "cite"
                      and isinstance(value := values[name], (tuple, list, BaseModel)) and not _left_out(node, name, value)])
    return out


def _number(node) -> int | None:
    """The number a literal writes: `3`, or `-3` with its sign."""
    if isinstance(node, n.IntLit):
        return node.value
    if isinstance(node, n.Neg) and isinstance(node.operand, n.IntLit):
        return -node.operand.value
    return None


def _left_out(node, name: str, value) -> bool:
    """A literal that is not a value the rules define: the dice a roll throws, a factor that scales,
    an argument passed to a call."""
    if isinstance(node, n.Roll) and name == "count":
        return True
    if isinstance(node, n.BinOp | n.Rounded) and node.op in _SCALING:
        return _number(value) is not None
    if isinstance(node, n.Arg):
        return _number(value) is not None
    return False
