"""Generated code laid out to be read: one Python expression broken over lines by its brackets.

The generated code (generated_code.py) writes an expression's tree as one Python expression, which for
a rule of a few conditions runs to well over a thousand characters. Here a bracket whose text does not
fit in WIDTH puts each of its parts on a line of its own, one level deeper: a part ends after a comma,
and before `if`, `else`, `and`, `or` and `for` (a conditional's branches, a test's terms, a
comprehension's clauses). Only whitespace between tokens changes, inside brackets, so the code is the
same code (tests/runtime/test_generated_text.py compares the syntax trees).
"""

from __future__ import annotations

import io
import tokenize
from dataclasses import dataclass, field

WIDTH = 100  # columns a laid-out line aims at (a name or literal longer than that stays whole)
_OPEN, _CLOSE = "([{", ")]}"
_BEFORE = frozenset({"if", "else", "and", "or", "for"})  # a new line starts at these words


@dataclass
class _Bracket:
    start: int  # the offset of the opening bracket
    end: int = 0  # just past the closing one
    inner: list[_Bracket] = field(default_factory=list)  # brackets directly inside
    breaks: list[int] = field(default_factory=list)  # offsets where a part of its own starts, at this level


def laid_out(text: str, indent: int) -> str:
    """The one-line expression `text` as it is if it fits, else in brackets laid out over lines: its first
    line continues one that is `indent` columns deep, its inner lines go deeper by four, its closing
    bracket at `indent`."""
    if indent + len(text) <= WIDTH:
        return text
    outer = _brackets("(" + text + ")")
    only = outer.inner[0] if len(outer.inner) == 1 and not outer.breaks else None
    if only is not None and only.start == 1 and only.end == len(text) + 1 and text[0] == "(":
        return _bracket(text, _brackets(text), indent)  # in brackets already
    return _bracket("(" + text + ")", outer, indent)


def _brackets(text: str) -> _Bracket:
    """The outermost bracket of `text` (which opens and closes it) with every bracket inside it."""
    stack: list[_Bracket] = []
    outer = None
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        at = tok.start[1]
        if tok.type == tokenize.OP and tok.string in _OPEN:
            b = _Bracket(at)
            if stack:
                stack[-1].inner.append(b)
            stack.append(b)
        elif tok.type == tokenize.OP and tok.string in _CLOSE:
            b = stack.pop()
            b.end = tok.end[1]
            outer = b if not stack else outer
        elif stack and tok.type == tokenize.OP and tok.string == ",":
            stack[-1].breaks.append(tok.end[1])
        elif stack and tok.type == tokenize.NAME and tok.string in _BEFORE:
            stack[-1].breaks.append(at)
    return outer


def _bracket(text: str, b: _Bracket, indent: int, crowded: bool = False) -> str:
    """The bracket `b` whole if it fits (and its line is not `crowded`), else one part a line."""
    whole = text[b.start:b.end]
    if (indent + len(whole) <= WIDTH and not crowded) or (not b.breaks and not b.inner):
        return whole
    cuts = [b.start + 1, *b.breaks, b.end - 1]
    deeper = indent + 4
    parts = [_part(text, b.inner, start, end, deeper) for start, end in zip(cuts, cuts[1:], strict=False)]
    lines = "".join("\n" + " " * deeper + p for p in parts if p)
    return f"{text[b.start]}{lines}\n{' ' * indent}{text[b.end - 1]}"


def _part(text: str, inner: list[_Bracket], start: int, end: int, indent: int) -> str:
    """The text from `start` to `end` on a line `indent` deep, the brackets inside it laid out in turn: on
    a line too long, each bracket of more than a third of the width is laid out, though it fits alone."""
    crowded = indent + len(text[start:end].strip()) > WIDTH
    out, at = [], start
    for b in inner:
        if start <= b.start and b.end <= end:
            out.append(text[at:b.start])
            out.append(_bracket(text, b, indent, crowded and b.end - b.start > WIDTH // 3))
            at = b.end
    out.append(text[at:end])
    return "".join(out).strip()
