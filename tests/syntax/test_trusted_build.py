"""The builder's nodes are made without validation (interpreter/ir/trust.py): every file of the
repository must build to exactly the IR that validating each node gives: the same types, values,
field order, fields set, and nodes shared in the same places. (Not the same pickle: validation
copies every str and tuple, so the trusted IR shares more of them, which pickle notices.)"""

import contextlib
from pathlib import Path
from typing import Any

import pytest

from interpreter.ir import build as rules_builder
from interpreter.ir import nodes as n
from interpreter.ir.trust import IRModel
from interpreter.overlay import ir as overlay_builder
from interpreter.syntax.diagnostics import Span, UmpireError
from interpreter.syntax.parse import parse

ROOT = Path(__file__).resolve().parent.parent.parent
START = {".rules": "rules_file", ".scenario": "scenario_file", ".overlay": "overlay_file"}
FILES = sorted(p.relative_to(ROOT).as_posix() for folder in ("rulesets", "scenarios", "tests", "bench")
               for p in (ROOT / folder).rglob("*") if p.suffix in START)


def _build(path: str):
    text = (ROOT / path).read_text(encoding="utf-8")
    start = START[Path(path).suffix]
    try:
        tree = parse(text, path, start)
        return overlay_builder.build_overlay(tree, path) if start == "overlay_file" else rules_builder.build(tree, path)
    except UmpireError as err:
        return [(d.message, d.span) for d in err.diagnostics]


def _validating(monkeypatch) -> None:
    monkeypatch.setattr(rules_builder, "trusted", contextlib.nullcontext)
    monkeypatch.setattr(overlay_builder, "trusted", contextlib.nullcontext)


def test_every_kind_of_file_is_here():
    assert len(FILES) > 300 and {Path(f).suffix for f in FILES} == set(START)


@pytest.mark.parametrize("chunk", range(4))
def test_trusted_nodes_are_the_validated_ones(chunk, monkeypatch):
    mine = FILES[chunk::4]
    trusted = {path: _exactly(_build(path)) for path in mine if _readable(path)}
    _validating(monkeypatch)
    differ = [path for path in trusted if _exactly(_build(path)) != trusted[path]]
    assert differ == []


def _exactly(value: Any, seen: dict[int, int] | None = None) -> Any:
    """Everything the IR holds, with exact types; a node met again is named by when it was first met."""
    seen = {} if seen is None else seen
    if isinstance(value, (IRModel, Span)):
        if id(value) in seen:
            return ("again", seen[id(value)])
        seen[id(value)] = len(seen)
        state = value.__getstate__()
        fields = [(k, _exactly(v, seen)) for k, v in state["__dict__"].items()]
        return (type(value).__name__, fields, sorted(state["__pydantic_fields_set__"]),
                state["__pydantic_extra__"], state["__pydantic_private__"], sorted(state))
    if isinstance(value, (tuple, list)):
        return (type(value).__name__, [_exactly(v, seen) for v in value])
    return (type(value).__name__, value)


def _readable(path: str) -> bool:
    try:
        (ROOT / path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return False
    return True


def test_a_trusted_node_still_refuses_a_field_it_does_not_have_or_lacks():
    span = Span(file="f", line=1, col=1, end_line=1, end_col=2)
    with rules_builder.trusted():
        assert n.Var(span=span, name="x") == n.Var.model_validate({"span": span, "name": "x"})
        with pytest.raises(TypeError, match="no field nmae"):
            n.Var(span=span, name="x", nmae="y")
        with pytest.raises(TypeError, match="the field name is required"):
            n.Var(span=span)
    with pytest.raises(ValueError):  # outside, validated as ever
        n.Var(span=span, name=3)
