"""Where each name is declared: the index behind the language server's go to definition, hover
and completion.

It is read from the IR of the files a check read, by the shape of the nodes, not by a list of the
language's declarations: a node outside statements and expressions that has a ``name`` (or a
scenario's place or unit, which has an ``id``) declares it; the values of an enumeration are
declared by the type that lists them. So a new kind of declaration is indexed with no change here.
"""

from __future__ import annotations

import dataclasses
import difflib
import os
import re
import typing
from collections.abc import Iterator
from dataclasses import dataclass

from pydantic import BaseModel

from ..ir import nodes as n
from ..syntax.diagnostics import Span, UmpireError

# Nodes that name something declared elsewhere, or a local: a use, not a declaration.
_USES = frozenset({"StatValue", "Param", "Arg", "AnswerItem", "SplitItem", "Decision", "TypeName", "Citation", "HeaderRef"})
_CODE = frozenset(typing.get_args(typing.get_args(n.Stmt)[0]) + typing.get_args(typing.get_args(n.Expr)[0]))
_STARTS = {".rules": "rules_file", ".scenario": "scenario_file"}
# What a declaration without a kind of its own is called, by the field that holds it, where dropping
# the plural's 's' does not say it.
_FIELDS = {"dice": "die", "props": "place property"}


@dataclass(frozen=True)
class Declaration:
    """One declared name: what declares it, where (the name itself when it is found in the text),
    the line it is declared on, its label and its rule citation."""

    name: str
    what: str
    span: Span
    line: str
    cite: str | None = None
    label: str | None = None


@dataclass(frozen=True)
class Parsed:
    """A file's text that parsed, its tree (None for a file that is no rules file or scenario) and
    the names it declares."""

    text: str
    tree: typing.Any
    declarations: list[Declaration]


def parse(path: str, text: str) -> Parsed | None:
    """One rules file or scenario parsed, with the names it declares; None for one that does not
    parse (the editor keeps what it knew); any other file declares nothing."""
    from ..load import built

    start = _STARTS.get(os.path.splitext(path)[1])
    if start is None:
        return Parsed(text, None, [])
    try:
        tree = built(text, path, start)
    except UmpireError:
        return None
    lines = text.splitlines()
    roots = [(tree.decls, "declaration")] if start == "rules_file" else [(tree.places, "places"), (tree.units, "units")]
    return Parsed(text, tree, [_declaration(node, what, lines) for root, field in roots for node, what in _walk(root, field)])


def declarations(path: str, text: str) -> list[Declaration] | None:
    """The names one rules file or scenario declares: [] for any other file, None for one that does not parse."""
    parsed = parse(path, text)
    return None if parsed is None else parsed.declarations


def unchanged_lines(before: str, after: str) -> dict[int, int]:
    """The lines (1-based) an edit left as they were: each line of ``before`` -> its line in ``after``."""
    old, new = before.splitlines(), after.splitlines()
    out: dict[int, int] = {}
    for tag, i1, i2, j1, _ in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal":
            out.update({i1 + k + 1: j1 + k + 1 for k in range(i2 - i1)})
    return out


def moved(last: Parsed, text: str) -> list[Declaration]:
    """The declarations of a file's last text that parsed, on the lines of its text now, for a text that
    does not parse: those on lines the edit left unchanged, where those lines now are."""
    lines = unchanged_lines(last.text, text)
    out = []
    for d in last.declarations:
        line = lines.get(d.span.line)
        if line is not None:
            shift = line - d.span.line
            out.append(dataclasses.replace(d, span=d.span.model_copy(update={"line": line, "end_line": d.span.end_line + shift})))
    return out


def declarations_in(decls, text_of) -> list[Declaration]:
    """The names a list of declarations already built declares (an amended ruleset's, whose
    nodes come from several files), each found in the text of its own file (``text_of(path)``)."""
    return [_declaration(node, what, (text_of(node.span.file) or "").splitlines())
            for node, what in _walk(decls, "declaration")]


def _walk(node, field: str) -> Iterator[tuple[BaseModel, str]]:
    """Every declaring node under ``node`` with what it is: its kind, or the field that holds it
    ('sides' -> side); the values of an enumeration as (type, 'value of OWNER'). Statements and
    expressions are not entered: what they name is a use, or a local."""
    if isinstance(node, tuple | list):
        for item in node:
            yield from _walk(item, field)
        return
    if not isinstance(node, BaseModel) or type(node) in _CODE:
        return
    kind = getattr(node, "kind", None)
    what = kind.replace("_", " ") if isinstance(kind, str) else _FIELDS.get(field, field.removesuffix("s"))
    if type(node).__name__ not in _USES and isinstance(getattr(node, "name", None) or getattr(node, "id", None), str):
        yield node, what
    for child in type(node).model_fields:
        value = getattr(node, child)
        if isinstance(value, n.TypeName) and value.enum:
            yield from ((value.model_copy(update={"name": v}), f"value of {getattr(node, 'name', what)}") for v in value.enum)
        else:
            yield from _walk(value, child)


def _declaration(node, what: str, lines: list[str]) -> Declaration:
    name = node.name if isinstance(getattr(node, "name", None), str) else node.id
    cite = getattr(node, "cite", None)
    label = getattr(node, "label", None)
    return Declaration(name, what, _name_span(node.span, name, lines), _line(lines, node.span.line),
                       str(cite) if cite is not None else None, label if isinstance(label, str) else None)


def _name_span(span: Span, name: str, lines: list[str]) -> Span:
    """Where the name is written in its declaration: its first whole word from the declaration's
    start, on the lines the declaration covers; the declaration's start when it is not found."""
    word = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])")
    for number in range(span.line, min(span.end_line, len(lines)) + 1):
        found = word.search(lines[number - 1], span.col - 1 if number == span.line else 0)
        if found:
            return span.model_copy(update={"line": number, "col": found.start() + 1, "end_line": number,
                                           "end_col": found.end() + 1})
    return span.model_copy(update={"end_line": span.line, "end_col": span.col})


def _line(lines: list[str], number: int) -> str:
    return lines[number - 1].strip() if 1 <= number <= len(lines) else ""


def word_at(text: str, line: int, character: int) -> str | None:
    """The name under a 0-based position of a text, or None."""
    lines = text.splitlines()
    if not 0 <= line < len(lines):
        return None
    row = lines[line]
    for found in re.finditer(r"[A-Za-z_][A-Za-z0-9_]*", row):
        if found.start() <= character <= found.end():
            return found.group(0)
    return None

