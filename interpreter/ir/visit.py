"""Dispatch on a node's kind: one method per kind, found by name, and no kind left out.

A stage that treats each kind of statement or expression in its own way (the checker, the
compiler) names its methods `PREFIX + kind` (`stmt_let`, `x_binop`) and calls `dispatch`.
A kind with no method is a bug of Umpire, raised at once, never a node silently unchecked;
`missing_cases` lets a test prove that every stage covers every kind of the IR's unions
(`nodes.STATEMENT_KINDS`, `nodes.EXPRESSION_KINDS`).
"""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Iterable, Iterator
from typing import Any

from pydantic import BaseModel

from ..syntax.spans import Span
from . import nodes as n

STATEMENT_CLASSES = typing.get_args(typing.get_args(n.Stmt)[0])  # the node classes of the statement union


def dispatch(stage: Any, prefix: str, node: Any, *args: Any) -> Any:
    method = getattr(stage, prefix + node.kind, None)
    if method is None:
        raise NotImplementedError(f"{type(stage).__name__} has no method '{prefix}{node.kind}': "
                                  f"the node kind '{node.kind}' is not handled by this stage")
    return method(node, *args)


def missing_cases(stage: type, prefix: str, kinds: tuple[str, ...]) -> list[str]:
    """The kinds a stage has no method for (a test requires none)."""
    return [k for k in kinds if not callable(getattr(stage, prefix + k, None))]


def descendants(roots: Iterable[Any]) -> Iterator[BaseModel]:
    """Every node under the roots (themselves included), depth first, children found from the
    pydantic fields: one walker for every stage that looks for nodes of a kind anywhere."""
    stack = list(roots)
    stack.reverse()
    pop, extend = stack.pop, stack.extend
    while stack:
        node = pop()
        if isinstance(node, (tuple, list)):
            extend(reversed(node))
        elif isinstance(node, BaseModel):
            yield node
            values = node.__dict__  # a node's fields (and nothing else a memo may have put there, by name)
            extend([values[name] for name in fields_backwards(type(node))])


class Walked:
    """The nodes under each root, found once and kept by their class: the checker asks the same
    whole-ruleset questions (which cups are filled, which facts are recorded, which places end a
    coast) once for the ruleset and again for every scenario checked against it, and walking every
    node for each was most of a cold check. The IR is immutable, so what lies under a root never
    changes: a root is known by its identity, and kept here so that identity is not reused.
    The answers are those of `descendants`, in its order (spans aside: none is asked for). One is kept for the process (WALKED): the
    readings of a ruleset share their declarations (load._built); ``keep`` roots at most are kept,
    all forgotten at once past that (a long-lived language server reads ruleset after ruleset)."""

    def __init__(self, keep: int) -> None:
        self._keep = keep
        self._roots: dict[int, tuple[Any, tuple, dict[type, list[int]]]] = {}

    def of(self, roots: Iterable[Any], classes: type | tuple[type, ...]) -> Iterator[Any]:
        """The nodes under the roots that are instances of ``classes``, as `descendants` gives them."""
        for root in roots:
            found, by_class = self._walk(root)
            matched = [at for cls, at in by_class.items() if issubclass(cls, classes)]
            for i in matched[0] if len(matched) == 1 else sorted(i for at in matched for i in at):
                yield found[i]

    def _walk(self, root: Any) -> tuple[tuple, dict[type, list[int]]]:
        kept = self._roots.get(id(root))
        if kept is not None and kept[0] is root:
            return kept[1], kept[2]
        if len(self._roots) >= self._keep:
            self._roots.clear()
        found = _nodes_under(root)
        by_class: dict[type, list[int]] = {}
        for i, node in enumerate(found):
            by_class.setdefault(type(node), []).append(i)
        self._roots[id(root)] = (root, found, by_class)
        return found, by_class


# The roots the process keeps walked: a ruleset has a few thousand declarations and bodies. Each root
# keeps its whole tree alive, so a process that reads many rulesets (the tests, the language server)
# holds a few rulesets' worth at most.
WALKED = Walked(keep=10_000)


def _nodes_under(root: Any) -> tuple:
    """The nodes `descendants` finds under ``root``, in its order, but for the spans: found without
    walking into the fields that hold no node (a name, a number, a span: `node_fields_backwards`),
    which are most of a ruleset's values (about a third of a cold check went to walking them)."""
    found = []
    stack = [root]
    pop, extend, keep = stack.pop, stack.extend, found.append
    while stack:
        node = pop()
        if isinstance(node, (tuple, list)):
            extend(reversed(node))
        elif isinstance(node, BaseModel) and not isinstance(node, Span):
            keep(node)
            values = node.__dict__
            extend([values[name] for name in node_fields_backwards(type(node))])
    return tuple(found)


@functools.cache
def node_fields_backwards(model: type[BaseModel]) -> tuple[str, ...]:
    """``fields_backwards`` without the fields whose declared type holds no node but a span: their
    values are never walked into. The IR's fields hold their declared types (the builder's trusted
    nodes are checked to be those validation gives: ir/trust.py)."""
    backwards = fields_backwards(model)
    return tuple(name for name in backwards if not _holds_no_node(model.model_fields[name].annotation))


_LEAVES = frozenset({str, int, bool, float, type(None)})


def _holds_no_node(annotation: Any) -> bool:
    """A declared type whose values are plain (str, int, bool, a literal, None), spans, or tuples
    and unions of those."""
    if annotation in _LEAVES or (isinstance(annotation, type) and issubclass(annotation, Span)):
        return True
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return True
    if origin in (typing.Union, types.UnionType, tuple):
        return all(arg is Ellipsis or _holds_no_node(arg) for arg in typing.get_args(annotation))
    return False


@functools.cache
def fields_backwards(model: type[BaseModel]) -> tuple[str, ...]:
    """A model's field names, last first: a walk on a stack pushes a node's fields in this order to
    visit them in theirs. A node's fields are read from its ``__dict__`` by these names (faster than
    getattr, and blind to anything else a memo may keep there)."""
    return tuple(reversed(model.model_fields))


def blocks(stmt: Any) -> Iterator[tuple[str, tuple]]:
    """The blocks of statements a statement holds (an if's body and orelse, a loop's body), found
    from its fields: a kind of statement new to the language is walked into with no change."""
    for name in type(stmt).model_fields:
        value = getattr(stmt, name)
        if isinstance(value, tuple) and value and isinstance(value[0], STATEMENT_CLASSES):
            yield name, value
