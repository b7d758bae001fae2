"""Dispatch on a node's kind: one method per kind, found by name, and no kind left out.

A stage that treats each kind of statement or expression in its own way (the checker, the
compiler) names its methods `PREFIX + kind` (`stmt_let`, `x_binop`) and calls `dispatch`.
A kind with no method is a bug of Umpire, raised at once, never a node silently unchecked;
`missing_cases` lets a test prove that every stage covers every kind of the IR's unions
(`nodes.STATEMENT_KINDS`, `nodes.EXPRESSION_KINDS`).
"""

from __future__ import annotations

import typing
from collections.abc import Iterable, Iterator
from typing import Any

from pydantic import BaseModel

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
    stack = [r for r in reversed(list(roots))]
    while stack:
        node = stack.pop()
        if isinstance(node, tuple | list):
            stack.extend(reversed(node))
        elif isinstance(node, BaseModel):
            yield node
            stack.extend(reversed([getattr(node, name) for name in type(node).model_fields]))


def blocks(stmt: Any) -> Iterator[tuple[str, tuple]]:
    """The blocks of statements a statement holds (an if's body and orelse, a loop's body), found
    from its fields: a kind of statement new to the language is walked into with no change."""
    for name in type(stmt).model_fields:
        value = getattr(stmt, name)
        if isinstance(value, tuple) and value and isinstance(value[0], STATEMENT_CLASSES):
            yield name, value
