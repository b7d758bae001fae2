"""The builder's nodes are made without validation (interpreter/ir/trust.py): every file of the
repository must build to exactly the IR that validating each node gives: the same types, values,
field order, fields set, and nodes shared in the same places. (Not the same pickle: validation
copies every str and tuple, so the trusted IR shares more of them, which pickle notices.)"""

import contextlib
import pickle
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

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
        state = BaseModel.__getstate__(value)  # pydantic's whole state (IRModel pickles a shorter one)
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


def _nodes(value: Any, out: list) -> list:
    if isinstance(value, IRModel):
        out.append(value)
        for v in value.__dict__.values():
            _nodes(v, out)
    elif isinstance(value, (tuple, list)):
        for v in value:
            _nodes(v, out)
    return out


def test_trusted_nodes_given_the_same_fields_share_one_set_of_their_names():
    nodes = [node for node in _nodes(_build("rulesets/jenkins_ear.rules"), []) if isinstance(node, n.Var)]
    sets = {id(node.__pydantic_fields_set__) for node in nodes}
    # one set, and one of its own for each copy moved from a string's {…} to the file (build._shift)
    assert len(nodes) > 100 and len(sets) * 4 < len(nodes)


def test_a_copy_that_updates_a_node_leaves_the_set_its_nodes_share_alone():
    a, b = [node for node in _nodes(_build("rulesets/jenkins_ear.rules"), []) if isinstance(node, n.Var)][:2]
    shared = set(a.__pydantic_fields_set__)
    updated = a.model_copy(update={"name": "other"})
    assert updated.name == "other" and b.__pydantic_fields_set__ == shared == a.__pydantic_fields_set__


def test_a_pickled_ir_reads_back_exactly():
    for path in ("rulesets/yellow_jack/forces.rules", "rulesets/sea_of_glory_1805/trafalgar.overlay",
                 "rulesets/guerra_a_muerte/demo_map.scenario"):
        built = _build(path)
        assert _exactly(pickle.loads(pickle.dumps(built, protocol=pickle.HIGHEST_PROTOCOL))) == _exactly(built)
