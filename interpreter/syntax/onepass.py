"""A text parsed and built in one pass: each grammar rule's builder method called as the LALR parser
reduces the rule, with no parse tree made first and walked again.

Lark's own way of doing this (``Lark(transformer=...)``) hands a rule's callback no positions, and
the builder makes every node's span from them. Here each reduction computes its rule's positions
exactly as Lark's ``propagate_positions`` computes a tree node's (from the first and last of its
children that have one, an inlined rule's text included), filters its children as Lark does
(anonymous tokens dropped, ``_rule``s spliced in, ``None`` for a ``[part]`` left out), then calls
the builder's method of the rule's name with that ``meta`` and those children: the same call,
with the same arguments, that a transformer walking the tree makes. A rule the builder has no
method for gives the ``Tree`` a transformer's default gives.

How deep the text nests (syntax/nesting.py) is measured on the way, bottom up: a node's blocks
and its longest chain of expressions below it. The pass gives up (``None``) on anything but a
text that parses, builds without a complaint and nests within the limits: the caller then
parses and builds the text the two-pass way, which says what is wrong, where, in the same words.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from lark import Lark, Token, Tree
from lark.parse_tree_builder import maybe_create_child_filter
from lark.parsers.lalr_analysis import Shift
from lark.visitors import _vargs_meta

from ..limits import MAX_BLOCK_DEPTH, MAX_EXPR_DEPTH
from .nesting import BLOCKS, EXPRESSIONS, TRANSPARENT


class Meta:
    """A rule's positions, as Lark's ``tree.Meta`` holds them (a field not yet set is absent)."""

    __slots__ = ("empty", "line", "column", "start_pos", "end_line", "end_column", "end_pos", "container_line",
                 "container_column", "container_start_pos", "container_end_line", "container_end_column",
                 "container_end_pos")

    def __init__(self) -> None:
        self.empty = True


class Built:
    """A reduced rule on the parser's stack: what its method made, its positions and how deep it nests
    (blocks below it, itself included; the longest chain of expressions from it down)."""

    __slots__ = ("value", "meta", "blocks", "exprs")

    def __init__(self, value: Any, meta: Meta, blocks: int, exprs: int) -> None:
        self.value = value
        self.meta = meta
        self.blocks = blocks
        self.exprs = exprs


class TooDeep(Exception):
    """The text nests past a limit: the two-pass way says where."""


def _first_meta(children) -> Any:
    """Lark's ``PropagatePositions._pp_get_meta``: the first child that has a position."""
    for c in children:
        if type(c) is Built or isinstance(c, Tree):
            if not c.meta.empty:
                return c.meta
        elif isinstance(c, Token):
            return c
    return None


def _place(meta: Any, children: list) -> None:
    """Lark's ``PropagatePositions.__call__`` on a node's ``meta``: where it starts and ends (if not yet
    known) and the extent of its container (the text of every child, inlined rules and tokens too)."""
    first = _first_meta(children)
    if first is None:
        return
    if not hasattr(meta, "line"):
        meta.line = getattr(first, "container_line", first.line)
        meta.column = getattr(first, "container_column", first.column)
        meta.start_pos = getattr(first, "container_start_pos", first.start_pos)
        meta.empty = False
    meta.container_line = getattr(first, "container_line", first.line)
    meta.container_column = getattr(first, "container_column", first.column)
    meta.container_start_pos = getattr(first, "container_start_pos", first.start_pos)
    last = _first_meta(reversed(children))
    if not hasattr(meta, "end_line"):
        meta.end_line = getattr(last, "container_end_line", last.end_line)
        meta.end_column = getattr(last, "container_end_column", last.end_column)
        meta.end_pos = getattr(last, "container_end_pos", last.end_pos)
        meta.empty = False
    meta.container_end_line = getattr(last, "container_end_line", last.end_line)
    meta.container_end_column = getattr(last, "container_end_column", last.end_column)
    meta.container_end_pos = getattr(last, "container_end_pos", last.end_pos)


def _new_meta(children: list) -> Meta:
    """``_place`` on a new node's positions, made quicker by what is known of them: none is set yet,
    and every positioned ``Meta`` made here has its container's extent (a token has none)."""
    meta = Meta()
    for c in children:
        if type(c) is Built or type(c) is Tree:
            m = c.meta
            if m.empty:
                continue
            meta.line = meta.container_line = m.container_line
            meta.column = meta.container_column = m.container_column
            meta.start_pos = meta.container_start_pos = m.container_start_pos
        elif isinstance(c, Token):
            meta.line = meta.container_line = c.line
            meta.column = meta.container_column = c.column
            meta.start_pos = meta.container_start_pos = c.start_pos
        else:
            continue
        break
    else:
        return meta
    meta.empty = False
    for c in reversed(children):
        if type(c) is Built or type(c) is Tree:
            m = c.meta
            if m.empty:
                continue
            meta.end_line = meta.container_end_line = m.container_end_line
            meta.end_column = meta.container_end_column = m.container_end_column
            meta.end_pos = meta.container_end_pos = m.container_end_pos
        elif isinstance(c, Token):
            meta.end_line = meta.container_end_line = c.end_line
            meta.end_column = meta.container_end_column = c.end_column
            meta.end_pos = meta.container_end_pos = c.end_pos
        else:
            continue
        return meta
    return meta


def _as_filtered(children: list) -> list:
    return children


class _Reduction:
    """What the parser calls when it reduces one grammar rule."""

    __slots__ = ("plan", "name", "keep", "single", "inlined", "method", "direct", "block", "kind")

    def __init__(self, plan: _Plan, rule: Any, method: Callable | None, maybe_placeholders: bool) -> None:
        options = rule.options
        self.plan = plan
        self.name = rule.alias or options.template_source or rule.origin.name
        # Lark's child filter, made as its tree builder makes it, giving the filtered children back.
        keep = maybe_create_child_filter(rule.expansion, options.keep_all_tokens, False,
                                         options.empty_indices if maybe_placeholders else None)
        self.keep = keep(_as_filtered) if keep is not None else None
        self.single = bool(options.expand1 and not rule.alias)  # a '?rule' with one child is that child
        self.inlined = rule.origin.name.startswith("_")  # a '_rule': its children are spliced into the parent's
        self.method = method
        self.direct = method is not None and getattr(method, "visit_wrapper", None) is _vargs_meta
        self.block = self.name in BLOCKS
        self.kind = 1 if self.name in EXPRESSIONS else 0 if self.name in TRANSPARENT else -1

    def __call__(self, children: list) -> Any:
        filtered = self.keep(children) if self.keep is not None else children
        if self.single and len(filtered) == 1:
            only = filtered[0]
            # Alone, a child's positions are already its container's (placing them again changes nothing).
            if (type(only) is Built or isinstance(only, Tree)) and (len(children) > 1 or children[0] is not only):
                _place(only.meta, children)
            return only
        meta = _new_meta(children)
        if self.inlined:
            return Tree(self.name, filtered, meta)
        blocks = exprs = 0
        values = []
        for c in filtered:
            if type(c) is Built:
                blocks = c.blocks if c.blocks > blocks else blocks
                exprs = c.exprs if c.exprs > exprs else exprs
                c = c.value
            values.append(c)
        if self.block:
            blocks += 1
        if self.kind > 0:
            exprs += 1
            if exprs > MAX_EXPR_DEPTH:
                raise TooDeep
        elif self.kind < 0:
            exprs = 0
        return Built(self._made(meta, values), meta, blocks, exprs)

    def _made(self, meta: Meta, values: list) -> Any:
        builder = self.plan.builder
        if self.method is None:
            return builder.__default__(self.name, values, meta)
        if self.direct:
            return self.method(builder, meta, values)
        bound = self.method.__get__(builder)
        return self.method.visit_wrapper(bound, self.name, values, meta)


class _Plan:
    """The reductions of one builder class on one parser, made once; the builder of the text being
    parsed is set for the pass (a builder method may parse a text of its own: a string's '{…}')."""

    def __init__(self, lark: Lark, builder_class: type) -> None:
        self.builder: Any = None
        maybe_placeholders = lark.options.maybe_placeholders
        # What each reduction does, by the rule's identity (the parse table holds the rules themselves):
        # how many values it takes off the stack, what it makes of them, the rule it makes.
        self.reductions: dict[int, tuple[int, _Reduction | None, str]] = {}
        for rule in lark.rules:
            name = rule.alias or rule.options.template_source or rule.origin.name
            method = None if rule.origin.name.startswith("_") else getattr(builder_class, name, None)
            reduction = _Reduction(self, rule, method, maybe_placeholders)
            # A '?rule' of one child that Lark keeps as it is (``?sum: product``, most of an expression's
            # reductions) gives that child, its positions unchanged: None, for the loop to leave it be.
            passes = reduction.single and reduction.keep is None and len(rule.expansion) == 1
            self.reductions[id(rule)] = (len(rule.expansion), None if passes else reduction, rule.origin.name)
        self.lark = lark  # kept alive: the plan is found by the parser's identity, a reduction by its rule's
        self.table = lark.parser.parser.parser.parse_table
        self.lexers = lark.parser.lexer.lexers  # the contextual lexer's, one for each state of the parser
        self.scanners: dict[int, tuple] = {}

    def scanner(self, state: int) -> tuple:
        """What the lexer of a parser state needs to read the next token, found once per state."""
        found = self.scanners.get(state)
        if found is None:
            lexer = self.lexers[state]
            scanner = lexer.scanner  # made on first use: its callbacks too
            found = self.scanners[state] = (scanner._mres, lexer.ignore_types, lexer.newline_types, lexer.callback)
        return found

    def run(self, text: str, start: str) -> Any:
        """Lark's LALR parse of ``text`` with its contextual lexer (``ParserState.feed_token`` and
        ``BasicLexer.next_token`` written out in one loop, the same steps in the same order); raises on
        any text it cannot read (the caller takes the two-pass way, which says why)."""
        states, reductions = self.table.states, self.reductions
        end_state = self.table.end_states[start]
        state_stack, value_stack = [self.table.start_states[start]], []
        pos, line, line_start, end = 0, 1, 0, len(text)
        while True:
            token = self._next_token(text, pos, line, line_start, end, state_stack[-1])
            if token is None:
                break
            pos, line, line_start = token.end_pos, token.end_line, token.end_pos - token.end_column + 1
            ttype = token.type
            while True:
                action, arg = states[state_stack[-1]][ttype]
                if action is Shift:
                    state_stack.append(arg)
                    value_stack.append(token)
                    break
                size, reduce, origin = reductions[id(arg)]
                if reduce is None:
                    state_stack.pop()
                else:
                    if size:
                        children = value_stack[-size:]
                        del state_stack[-size:]
                        del value_stack[-size:]
                    else:
                        children = []
                    value_stack.append(reduce(children))
                state_stack.append(states[state_stack[-1]][origin][1])
        while True:  # the end of the text: the reductions it completes
            action, arg = states[state_stack[-1]]["$END"]
            if action is Shift:
                raise ValueError("the end of the text shifted")
            size, reduce, origin = reductions[id(arg)]
            if reduce is None:
                state_stack.pop()
            else:
                if size:
                    children = value_stack[-size:]
                    del state_stack[-size:]
                    del value_stack[-size:]
                else:
                    children = []
                value_stack.append(reduce(children))
            state_stack.append(states[state_stack[-1]][origin][1])
            if state_stack[-1] == end_state:
                return value_stack[-1]

    def _next_token(self, text: str, pos: int, line: int, line_start: int, end: int, state: int) -> Token | None:
        """The next token the lexer of ``state`` reads from ``pos`` (the ignored ones skipped), or None
        at the end of the text."""
        mres, ignore, newlines, callback = self.scanner(state)
        new_str = str.__new__
        while pos < end:
            for mre in mres:
                m = mre.match(text, pos, end)
                if m:
                    break
            else:
                raise ValueError("no token")
            value, type_ = m.group(0), m.lastgroup
            ignored = type_ in ignore
            start_line, start_col, start = line, pos - line_start + 1, pos
            if type_ in newlines:
                count = value.count("\n")
                if count:
                    line += count
                    line_start = pos + value.rindex("\n") + 1
            pos += len(value)
            if ignored and type_ not in callback:
                continue
            # Token(type_, value, start, start_line, start_col, line, end column, pos), as Token._future_new makes it
            t = new_str(Token, value)
            t.type, t.start_pos, t.value, t.line, t.column = type_, start, value, start_line, start_col
            t.end_line, t.end_column, t.end_pos = line, pos - line_start + 1, pos
            if type_ in callback:
                t = callback[type_](t)
            if not ignored:
                return t
        return None


_PLANS: dict[tuple[int, type], _Plan] = {}
_LOCK = threading.RLock()


def parse_and_build(lark: Lark, text: str, start: str, builder: Any) -> Any | None:
    """``builder``'s value of ``text`` read from ``start``, built as it is parsed; None when the text
    does not parse, nests too deep or raises anything on the way (the caller takes the two-pass way)."""
    with _LOCK:
        plan = _PLANS.get((id(lark), type(builder)))
        if plan is None:
            plan = _PLANS[(id(lark), type(builder))] = _Plan(lark, type(builder))
        outer, plan.builder = plan.builder, builder
        try:
            top = plan.run(text, start)
        except Exception:  # a syntax error, a token past a limit, nesting too deep, a builder's complaint
            return None
        finally:
            plan.builder = outer
    if type(top) is not Built or top.blocks > MAX_BLOCK_DEPTH:
        return None
    return top.value
