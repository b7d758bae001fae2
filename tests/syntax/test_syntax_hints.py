"""Hints on syntax errors beyond those the goldens of tests/bad show: a row without its result's name
written in other ways, an unclosed block found at the next declaration."""

from __future__ import annotations

import pytest

from interpreter.syntax.diagnostics import UmpireError
from interpreter.syntax.parse import parse

HEAD = 'game g "G" [1.0] {\n  sides red "Red", blue "Blue" [1.1]\n  die d6 1..6 [1.2]\n}\n'
TABLE = 'table t() "T" [5.0] {{\n  roll 1 d6\n  1..5 -> calm "Calm" [5.1]\n  {row}\n}}\n'


def diagnose(text: str):
    with pytest.raises(UmpireError) as err:
        parse(text, "t.rules", "rules_file")
    return err.value.diagnostics[0]


@pytest.mark.parametrize("row,hint", [
    ('6 "Gale" [5.2]', "a row gives the name of its result after '->', then an optional label: 6 -> gale \"Gale\" [cite]"),
    ("6 -> [5.2]", "a row gives the name of its result after '->', then an optional label: 6 -> result [cite]"),
])
def test_a_row_without_its_result_name(row, hint):
    d = diagnose(HEAD + TABLE.format(row=row))
    assert (d.span.line, d.hint) == (8, hint)


def test_an_unclosed_procedure_is_named_at_the_next_declaration():
    text = HEAD + 'procedure go() [6.0] {\n  say "x" [6.1]\n\ntable t() "T" [5.0] {\n  roll 1 d6\n  1..6 -> a [5.1]\n}\n'
    d = diagnose(text)
    assert (d.span.line, d.hint) == (8, "unclosed '{' opened at 5:22: add its '}' before this line")


def test_a_quote_inside_a_narration_line():
    text = HEAD + 'procedure go() [6.0] {\n  say "the admiral cries "Engage!" at once" [6.1]\n}\n'
    d = diagnose(text)
    assert (d.span.line, d.span.col) == (6, 27)
    assert d.hint == "the '\"' at column 26 ends the string \"the admiral cries \": write \\\" for a quote inside a string"


def test_a_printed_odds_column_written_with_spaces():
    text = HEAD + 'table t(a: int, b: int) "T" [5.0] {\n  roll 1 d6\n  columns odds(a, b) [5.0]: 1-2, 3 - 2, 2-1\n  beyond columns: clamp [5.0]\n  1..6 -> x, y, z [5.0]\n}\n'
    d = diagnose(text)
    assert (d.span.line, d.span.col) == (7, 42)
    assert d.hint == "an odds column is written as printed, with no spaces: 3-2 (or as a ratio, 3:2)"
