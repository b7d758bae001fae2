"""The words of the language, read from the grammar (grammar/umpire.lark) rather than listed here.

The TextMate grammar (textmate.py) and the language server's completion (lsp.py) are made from
this, so a keyword added to the grammar reaches the editors with no change to the editor code:
the generator is run again and tests/syntax/test_textmate.py checks the committed file is its output.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from lark.lexer import PatternStr

# Terminals that are classes of text rather than keywords: each has its own rule in an editor
# (a comment, a string, a number, a citation, a name, an operator).
LEXICAL = frozenset({"NAME", "INT", "STRING", "CITE", "COMMENT", "WS", "AMEND_TAG", "COMPOP", "MULOP"})

# The rules whose alternatives declare names, and the kinds of declaration that are called
# (their names read as functions in an editor's colours).
_DECLARING_RULES = ("decl", "phase", "step")
_CALLED = frozenset({"procedure", "function", "table"})
# The rules of expressions whose keywords are operators ('and', 'is', 'has').
_OPERATOR_RULES = frozenset({"or_expr", "and_expr", "not_expr", "comparison"})


@dataclass(frozen=True)
class Vocabulary:
    """The keywords of the grammar, sorted, by the part they play."""

    keywords: tuple[str, ...]  # single words, every one the grammar has
    phrases: tuple[str, ...]  # keywords of two words, one token ('per side')
    constants: tuple[str, ...]  # keywords that are a value alone ('true', 'X')
    operators: tuple[str, ...]  # keywords of expressions' operators ('and', 'in')
    declarations: tuple[str, ...]  # keywords that start a declaration ('procedure', 'unit')
    declaring: tuple[tuple[str, ...], ...]  # the keywords before a declared name: ('unit', 'state')
    called: tuple[tuple[str, ...], ...]  # those of them that declare something called ('procedure',)
    symbols: tuple[str, ...]  # operators written with symbols ('->', '==', '+')
    patterns: dict[str, str]  # the regular expressions of the lexical terminals, by name


def terminal_words(name: str, pattern) -> list[str]:
    """The words of a keyword terminal: its text ('per side' -> per, side), or the words of its
    regular expression once escapes are dropped ('(not|partly)[ \\t]+encoded' -> not, partly, encoded)."""
    if name in LEXICAL:
        return []
    if isinstance(pattern, PatternStr):
        return pattern.value.split() if re.fullmatch(r"[A-Za-z]+( [A-Za-z]+)*", pattern.value) else []
    return re.findall(r"[A-Za-z]+", re.sub(r"\\.", " ", pattern.value))


@functools.cache
def vocabulary() -> Vocabulary:
    from ..syntax.parse import parser

    lark = parser()
    words = {t.name: terminal_words(t.name, t.pattern) for t in lark.terminals}
    forms = _declaring_forms(lark, words)
    return Vocabulary(
        keywords=tuple(sorted({w for ws in words.values() for w in ws})),
        phrases=tuple(sorted(" ".join(ws) for t, ws in words.items() if len(ws) > 1 and isinstance(_pattern(lark, t), PatternStr))),
        constants=_used_in(lark, words, {"atom"}, alone=True),
        operators=_used_in(lark, words, _OPERATOR_RULES),
        declarations=tuple(sorted({f[0] for f in forms})), declaring=tuple(forms),
        called=tuple(f for f in forms if f[-1] in _CALLED),
        symbols=_symbols(lark, words), patterns={t.name: t.pattern.value for t in lark.terminals if t.name in LEXICAL})


def _used_in(lark, words: dict[str, list[str]], rules: set[str] | frozenset[str], alone: bool = False) -> tuple[str, ...]:
    """The keywords the alternatives of ``rules`` are written with; with ``alone``, only those that
    are a whole alternative by themselves ('true' in ``atom``)."""
    found = set()
    for rule in lark.rules:
        if rule.origin.name in rules and (len(rule.expansion) == 1 or not alone):
            found.update(w for s in rule.expansion for w in words.get(s.name, ()))
    return tuple(sorted(found))


def _symbols(lark, words: dict[str, list[str]]) -> tuple[str, ...]:
    """The operators written with symbols ('->', '=', '+'), longest first; not brackets or separators."""
    found = {t.pattern.value for t in lark.terminals
             if isinstance(t.pattern, PatternStr) and not words[t.name] and t.pattern.value not in "{}[](),:;."}
    return tuple(sorted(found, key=lambda s: (-len(s), s)))


def _pattern(lark, name: str):
    return next(t.pattern for t in lark.terminals if t.name == name)


def _declaring_forms(lark, words: dict[str, list[str]]) -> list[tuple[str, ...]]:
    """The keywords each declaring rule starts with before the NAME it declares ('unit state NAME')."""
    declared = {s.name for r in lark.rules if r.origin.name == "decl" for s in r.expansion} | set(_DECLARING_RULES)
    forms: set[tuple[str, ...]] = set()
    for rule in lark.rules:
        if rule.origin.name not in declared:
            continue
        lead: list[str] = []
        for symbol in rule.expansion:
            if symbol.name == "NAME" and lead:
                forms.add(tuple(lead))
            if not words.get(symbol.name):
                break
            lead.extend(words[symbol.name])
    return sorted(forms, key=lambda f: (-len(f), f))
