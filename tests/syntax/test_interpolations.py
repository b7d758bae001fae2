"""A string's {…} parts: each is read as an expression once per text in a process (build._interpolated),
and wherever the same text is written again its expression has the spans of where it stands."""

from __future__ import annotations

import pytest

from interpreter.ir import build as builder
from interpreter.ir import nodes as n
from interpreter.syntax.diagnostics import UmpireError
from interpreter.syntax.parse import parse

_RULES = '''game g "G" {
  sides a, b
  turns 1
}
state strength: int
procedure p() {
  say "the {strength + 1} at first"
    say "again: {strength + 1}"
}
'''


def _parts(text: str, file: str) -> list[n.StrPart]:
    ruleset = builder.build(parse(text, file, "rules_file"), file)
    procedure = next(d for d in ruleset.decls if isinstance(d, n.ProcedureDecl))
    return [part for stmt in procedure.body for part in stmt.text.parts if part.expr is not None]


def test_the_same_part_written_twice_is_read_once_and_placed_where_each_stands():
    builder._interpolated.cache_clear()
    first, second = _parts(_RULES, "g.rules")
    assert builder._interpolated.cache_info().hits == 1
    assert (first.expr.span.line, first.expr.span.col, first.expr.span.end_col) == (7, 13, 25)
    assert (second.expr.span.line, second.expr.span.col, second.expr.span.end_col) == (8, 18, 30)
    assert (first.expr.left.span.col, second.expr.left.span.col) == (13, 18)
    assert first.expr.span.file == second.expr.span.file == "g.rules"


def test_a_part_read_before_in_another_file_has_the_spans_of_this_one():
    _parts(_RULES, "g.rules")
    first, _ = _parts(_RULES, "other.rules")
    assert first.expr.span.file == first.expr.left.span.file == "other.rules"


def test_a_part_that_is_no_expression_is_reported_at_each_place():
    text = _RULES.replace("strength + 1", "strength +")
    with pytest.raises(UmpireError) as err:
        _parts(text, "g.rules")
    assert [(d.span.line, d.span.col) for d in err.value.diagnostics] == [(7, 12), (8, 17)]
    assert all("cannot read '{strength +}'" in d.message for d in err.value.diagnostics)
