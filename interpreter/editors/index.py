"""Where each name is declared: the index behind the language server's go to definition, hover
and completion.

It is read from the IR of the files a check read, by the shape of the nodes, not by a list of the
language's declarations: a node outside statements and expressions that has a ``name`` (or a
scenario's place or unit, which has an ``id``) declares it; the values of an enumeration are
declared by the type that lists them. So a new kind of declaration is indexed with no change here.
"""

from __future__ import annotations

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


def declarations(path: str, text: str) -> list[Declaration] | None:
    """The names one rules file or scenario declares: [] for any other file, None for one that
    does not parse (the editor keeps what it knew)."""
    from ..load import built

    start = _STARTS.get(os.path.splitext(path)[1])
    if start is None:
        return []
    try:
        tree = built(text, path, start)
    except UmpireError:
        return None
    lines = text.splitlines()
    roots = [(tree.decls, "declaration")] if start == "rules_file" else [(tree.places, "places"), (tree.units, "units")]
    return [_declaration(node, what, lines) for root, field in roots for node, what in _walk(root, field)]


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

