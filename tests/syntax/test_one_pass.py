"""A text parsed and built in one pass (syntax/onepass.py, ``ir.build.parse_and_build``) gives exactly
the IR that parsing it to a tree and walking the tree with the builder gives: every rules and scenario
file of the repository, spans and shared nodes included. A text the one pass cannot build (a syntax
error, nesting past a limit, a builder's complaint) is read the two-pass way, with its diagnostic."""

from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from interpreter.ir import build as rules_builder
from interpreter.ir.trust import IRModel
from interpreter.limits import MAX_BLOCK_DEPTH, MAX_EXPR_DEPTH
from interpreter.syntax import onepass
from interpreter.syntax.diagnostics import Span, UmpireError
from interpreter.syntax.parse import parse, parser

ROOT = Path(__file__).resolve().parent.parent.parent
START = {".rules": "rules_file", ".scenario": "scenario_file"}
BUILT = sorted(p.relative_to(ROOT).as_posix() for folder in ("rulesets", "scenarios", "tests", "bench")
               for p in (ROOT / folder).rglob("*") if p.suffix in START)


def _exactly(value: Any, seen: dict[int, int] | None = None) -> Any:
    """Everything the IR holds, with exact types; a node met again is named by when it was first met."""
    seen = {} if seen is None else seen
    if isinstance(value, (IRModel, Span)):
        if id(value) in seen:
            return ("again", seen[id(value)])
        seen[id(value)] = len(seen)
        state = BaseModel.__getstate__(value)
        fields = [(k, _exactly(v, seen)) for k, v in state["__dict__"].items()]
        return (type(value).__name__, fields, sorted(state["__pydantic_fields_set__"]))
    if isinstance(value, (tuple, list)):
        return (type(value).__name__, [_exactly(v, seen) for v in value])
    return (type(value).__name__, value)


def _readable(path: str) -> bool:
    try:
        (ROOT / path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _two_pass(text: str, path: str, start: str):
    try:
        return rules_builder.build(parse(text, path, start), path)
    except UmpireError as err:
        return [(d.message, d.span, d.hint) for d in err.diagnostics]


def _one_pass(text: str, path: str, start: str):
    try:
        return rules_builder.parse_and_build(text, path, start)
    except UmpireError as err:
        return [(d.message, d.span, d.hint) for d in err.diagnostics]


@pytest.mark.parametrize("chunk", range(4))
def test_one_pass_builds_what_two_passes_build(chunk):
    differ, fell_back = [], []
    for path in BUILT[chunk::4]:
        if not _readable(path):
            continue
        text, start = (ROOT / path).read_text(encoding="utf-8"), START[Path(path).suffix]
        two = _two_pass(text, path, start)
        if _exactly(_one_pass(text, path, start)) != _exactly(two):
            differ.append(path)
        builder = rules_builder.Builder(path)
        if not isinstance(two, list) and onepass.parse_and_build(parser(), text, start, builder) is None:
            fell_back.append(path)
    assert differ == []
    assert fell_back == []  # every file that builds is built in the one pass


def _nested_blocks(depth: int) -> str:
    body = "say \"x\""
    for _ in range(depth):
        body = f"if true {{ {body} }}"
    return f"procedure p() [1.1] {{ {body} }}\n"


def _nested_expression(depth: int) -> str:
    return f"function f() [1.1] = {'- ' * depth}1\n"  # each '-' an expression in the one below


@pytest.mark.parametrize("text", [
    _nested_blocks(MAX_BLOCK_DEPTH + 1), _nested_expression(MAX_EXPR_DEPTH + 1),
    "procedure p() [1.1] { let = 3 }\n",  # a syntax error
    "function f() [1.1] = 1234567890123456789012345\n",  # a number past the limit
    "procedure p() [1.1] { 3 = x }\n",  # parsed, refused by the builder
    "procedure p() [1.1] { say \"{1 +}\" }\n",  # a '{…}' part that is no expression
])
def test_what_one_pass_cannot_build_is_read_two_passes_with_the_same_diagnostic(text):
    two = _two_pass(text, "t.rules", "rules_file")
    assert isinstance(two, list) and two  # each is refused, with its diagnostic
    builder = rules_builder.Builder("t.rules")
    assert onepass.parse_and_build(parser(), text, "rules_file", builder) is None or builder.errors
    assert _one_pass(text, "t.rules", "rules_file") == two


@pytest.mark.parametrize("nested, limit", [(_nested_blocks, MAX_BLOCK_DEPTH), (_nested_expression, MAX_EXPR_DEPTH)])
def test_one_pass_stops_where_the_nesting_limits_do(nested, limit):
    """Around each limit, the one pass builds exactly the texts the two-pass way accepts."""
    accepted = []
    for depth in range(limit - 3, limit + 2):
        text = nested(depth)
        two = not isinstance(_two_pass(text, "t.rules", "rules_file"), list)
        one = onepass.parse_and_build(parser(), text, "rules_file", rules_builder.Builder("t.rules")) is not None
        assert one == two, depth
        accepted.append(two)
    assert True in accepted and False in accepted  # the limit is within the depths tried
