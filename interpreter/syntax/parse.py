"""Parse rules and scenario text with the Lark grammar in ``grammar/umpire.lark``.

Lark's exceptions never escape this module: a syntax error becomes a Diagnostic
that says where, what was found and what was expected, in the language's own words.
"""

from __future__ import annotations

import functools
from pathlib import Path

from lark import Lark, Tree, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .diagnostics import Diagnostic, Span, UmpireError

_HERE = Path(__file__).resolve().parent
# The grammar is installed inside the package, and lives at the repository root in a checkout.
_GRAMMAR_CANDIDATES = (_HERE.parent / "grammar" / "umpire.lark", _HERE.parent.parent / "grammar" / "umpire.lark")

START_SYMBOLS = ("rules_file", "scenario_file", "expr")

# How token types read in an error message.
_TOKEN_WORDS = {
    "NAME": "a name",
    "INT": "a whole number",
    "SIGNED_INT": "a number",
    "STRING": 'a quoted string',
    "CITE": "a rule citation such as [9.1]",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "COLON": "':'",
    "COMMA": "','",
    "EQUAL": "'='",
    "DOT": "'.'",
    "COMPOP": "a comparison",
    "ADDOP": "'+' or '-'",
    "MULOP": "'*' or '/'",
    "MINUS": "'-'",
    "PLUS": "'+'",
    "MISSING": "'?'",
    "X": "'X'",
    "MAY": "'may'",
    "PER_SIDE": "'per side'",
    "SEMICOLON": "';'",
    "AT": "'@'",
    "$END": "the end of the file",
}


def grammar_path() -> Path:
    for candidate in _GRAMMAR_CANDIDATES:
        if candidate.exists():
            return candidate
    raise FileNotFoundError("grammar/umpire.lark is missing from this installation")


@functools.cache
def parser(start: str) -> Lark:
    """One LALR parser per start symbol, built once per process."""
    return Lark(
        grammar_path().read_text(encoding="utf-8"),
        parser="lalr",
        start=start,
        propagate_positions=True,
        maybe_placeholders=True,
    )


def parse(text: str, filename: str, start: str) -> Tree:
    """Parse ``text``; raise UmpireError with one diagnostic on a syntax error."""
    try:
        return parser(start).parse(text)
    except UnexpectedInput as err:
        raise UmpireError([_syntax_diagnostic(err, text, filename)]) from None


def _describe_expected(expected: set[str]) -> str:
    words = sorted({_TOKEN_WORDS.get(t, _keyword(t)) for t in expected})
    if len(words) > 8:
        words = words[:8] + ["…"]
    return ", ".join(words)


def _keyword(token_type: str) -> str:
    # Lark names anonymous keyword terminals after the keyword itself, upper-cased.
    return f"'{token_type.lower()}'" if token_type.isalpha() else token_type


def _syntax_diagnostic(err: UnexpectedInput, text: str, filename: str) -> Diagnostic:
    line = getattr(err, "line", 0) or 1
    col = getattr(err, "column", 0) or 1
    if isinstance(err, UnexpectedToken):
        tok = err.token
        found = "the end of the file" if tok.type == "$END" else f"'{tok.value}'"
        width = max(1, len(str(tok.value))) if tok.type != "$END" else 1
        if tok.type == "$END":
            line, col = _end_position(text)
        msg = f"unexpected {found}; expected {_describe_expected(set(err.expected))}"
        span = Span(file=filename, line=line, col=col, end_line=line, end_col=col + width)
        return Diagnostic("error", msg, span)
    if isinstance(err, UnexpectedCharacters):
        ch = text[err.pos_in_stream] if err.pos_in_stream < len(text) else "?"
        hint = None
        if ch == '"':
            hint = "a string must close on the same line"
        elif ch == "[":
            hint = "a rule citation looks like [9.1], [9.1.2a], [A-05] or [EoP]"
        msg = f"unexpected character {ch!r}"
        span = Span(file=filename, line=line, col=col, end_line=line, end_col=col + 1)
        return Diagnostic("error", msg, span, hint)
    if isinstance(err, UnexpectedEOF):
        line, col = _end_position(text)
        msg = f"unexpected end of file; expected {_describe_expected(set(err.expected))}"
        return Diagnostic("error", msg, Span(file=filename, line=line, col=col, end_line=line, end_col=col + 1))
    return Diagnostic("error", "syntax error", Span(file=filename, line=line, col=col, end_line=line, end_col=col + 1))


def _end_position(text: str) -> tuple[int, int]:
    lines = text.splitlines() or [""]
    return len(lines), len(lines[-1]) + 1
