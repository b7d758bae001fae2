"""How deep a parse tree nests, measured without recursion, before anything recursive reads it.

Lark's LALR parser builds a tree of any depth with its own stack, but every later stage
(the IR builder's string parts, the checker, the compiler, the closures it makes) walks
the tree or the IR by recursion, and Python stops a recursion at about a thousand calls.
So the depth is limited here, where a clear diagnostic can say where: blocks in blocks
(an 'else if' is a block in an 'else'), and the levels of one expression, where every
operator, call, argument and literal counts one and a chain such as 'a + b + c' nests
once per operator (it is read as '(a + b) + c').
"""

from __future__ import annotations

from lark import Tree

from ..limits import MAX_BLOCK_DEPTH, MAX_EXPR_DEPTH
from .diagnostics import Diagnostic, Span

BLOCKS = frozenset({"block", "else_if"})

# The grammar's expression rules (the names of its '-> alias'es); 'args' groups the arguments
# of a call and builds no node of its own, so it does not count.
EXPRESSIONS = frozenset({
    "cond_expr", "or_", "and_", "not_", "compare", "is_", "is_not", "in_", "has", "binop", "rounded", "neg", "pos",
    "attr", "index", "call_expr", "pos_arg", "kw_arg", "int_lit", "str_lit", "true_lit", "false_lit",
    "none_lit", "x_lit", "var", "place_lit", "list_lit", "comprehension", "empty_map", "map_lit",
    "map_entry", "matching", "target",
})
TRANSPARENT = frozenset({"args"})


def too_deep(tree: Tree, filename: str) -> Diagnostic | None:
    """The first place, in reading order, where the tree nests past a limit; None if nowhere."""
    stack: list[tuple[Tree, int, int]] = [(tree, 0, 0)]
    while stack:
        node, blocks, exprs = stack.pop()
        kind = node.data
        if kind in BLOCKS:
            blocks += 1
            if blocks > MAX_BLOCK_DEPTH:
                return _diagnostic(node, filename, f"blocks nest more than {MAX_BLOCK_DEPTH} deep here",
                                   "move the inner part into a procedure of its own and call it")
        if kind in EXPRESSIONS:
            exprs += 1
            if exprs > MAX_EXPR_DEPTH:
                return _diagnostic(node, filename, f"this expression nests more than {MAX_EXPR_DEPTH} deep",
                                   "split it with 'let' into parts, or into ruleset functions")
        elif kind not in TRANSPARENT:
            exprs = 0
        # Children pushed last first, so that the first offending node in the text is found first.
        for child in reversed(node.children):
            if isinstance(child, Tree):
                stack.append((child, blocks, exprs))
    return None


def _diagnostic(node: Tree, filename: str, message: str, hint: str) -> Diagnostic:
    meta = node.meta
    line = getattr(meta, "line", 1) or 1
    col = getattr(meta, "column", 1) or 1
    span = Span(file=filename, line=line, col=col, end_line=line, end_col=col + 1)
    return Diagnostic("error", message, span, hint)
