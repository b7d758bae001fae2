"""The shape of the front end: every stage that treats node kinds one by one covers every kind of
the IR's unions, and the keyword lists are the ones the IR declares (issue 12)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from interpreter import amend
from interpreter.check.bounds import Bounds
from interpreter.check.resolve import Checker
from interpreter.ir import nodes as n
from interpreter.ir.visit import dispatch, missing_cases
from interpreter.runtime.compile import Compiler
from interpreter.syntax import parse

STAGES = [
    (Checker, "stmt_", n.STATEMENT_KINDS),
    (Checker, "expr_", n.EXPRESSION_KINDS),
    (Compiler, "s_", n.STATEMENT_KINDS),
    (Compiler, "x_", n.EXPRESSION_KINDS),
    (Bounds, "value_", n.EXPRESSION_KINDS),
]


@pytest.mark.parametrize("stage,prefix,kinds", STAGES, ids=lambda v: getattr(v, "__name__", v if isinstance(v, str) else ""))
def test_every_stage_has_a_method_for_every_kind(stage, prefix, kinds):
    assert missing_cases(stage, prefix, kinds) == []


def test_the_kinds_are_those_of_the_unions():
    assert "change_side" in n.STATEMENT_KINDS and "matching" in n.EXPRESSION_KINDS
    assert len(set(n.STATEMENT_KINDS)) == len(n.STATEMENT_KINDS) == 20
    assert amend.STATEMENT_KINDS == n.STATEMENT_KINDS  # what an overlay may name as a clause keyword


def test_the_parser_s_statement_keywords_are_the_statement_kinds():
    # The syntax layer lists the keywords in the order its messages show them; the set is the IR's.
    assert set(parse._STATEMENTS) == {kind.split("_")[0] for kind in n.STATEMENT_KINDS}


def test_a_kind_no_stage_handles_is_a_bug_raised_at_once():
    class Half:
        def stmt_let(self, node):
            return "let"

    assert dispatch(Half(), "stmt_", SimpleNamespace(kind="let")) == "let"
    with pytest.raises(NotImplementedError, match="Half has no method 'stmt_stop'"):
        dispatch(Half(), "stmt_", SimpleNamespace(kind="stop"))
    assert missing_cases(Half, "stmt_", ("let", "stop")) == ["stop"]
