"""Parse rules and scenario text with the Lark grammar in ``grammar/umpire.lark``.

Lark's exceptions never escape this module: a syntax error becomes a Diagnostic
that says where, what was found and what was expected, in the language's own words:
"a declaration", "a statement", "an expression" rather than a list of thirty token
names; with a hint where a common slip is recognised (a misspelt keyword, a bracket
that is not a rule citation, a '{' never closed, '=' written for '==').
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from lark import Lark, Token, Tree, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.lexer import PatternStr

from ..digits import foreign_digit
from ..limits import MAX_DIGITS, MAX_STRING_LITERAL
from .diagnostics import Diagnostic, Span, UmpireError, did_you_mean
from .nesting import too_deep

_HERE = Path(__file__).resolve().parent
# The grammar is installed inside the package, and lives at the repository root in a checkout.
_GRAMMAR_CANDIDATES = (_HERE.parent / "grammar" / "umpire.lark", _HERE.parent.parent / "grammar" / "umpire.lark")

START_SYMBOLS = ("rules_file", "scenario_file", "overlay_file", "expr")

# How the grammar's named token types read in an error message. Keywords and punctuation
# ("game", "{", "->") are quoted as written; their Lark names are looked up in the grammar.
_TOKEN_WORDS = {
    "NAME": "a name",
    "INT": "a whole number",
    "STRING": "a quoted string",
    "CITE": "a rule citation such as [9.1]",
    "COMPOP": "a comparison ('==', '<'...)",
    "MULOP": "'*', '/' or '%'",
    "MISSING": "'?'",
    "X": "'X'",
    "MAY": "'may'",
    "PER_SIDE": "'per side'",
    "ENCODING": "'not encoded' or 'partly encoded'",
    "$END": "the end of the file",
}

# Families of tokens that are described as one thing when most of them are expected.
_DECLARATIONS = ("game", "stat", "type", "counter", "table", "function", "procedure", "flag", "class", "unit", "state",
                 "map", "secondary", "box", "track", "missing", "on", "invariant", "sequence", "include", "place", "view",
                 "hidden", "look", "face", "ENCODING", "cup", "record", "enumeration", "use", "setting")  # ENCODING: 'not encoded', 'partly encoded', one token
_SCENARIO_ITEMS = ("note", "fixture", "demo", "places", "units", "at", "until", "track", "state", "run", "dice",
                   "decisions", "expect", "stops", "with")
_CHANGES = ("replace", "remove", "add", "set", "disable", "change", "note")
_EXPRESSION_STARTS = {"NAME", "INT", "STRING", "LPAR"}
_OPERATORS = ("COMPOP", "PLUS", "MINUS", "MULOP", "and", "or", "is", "in", ".")

_CITE_FORMS = "a rule citation looks like [9.1], [9.1.2a], [9.1 step 2], [A-05] or [EoP]"
_MAX_WORDS = 8


def grammar_path() -> Path:
    for candidate in _GRAMMAR_CANDIDATES:
        if candidate.exists():
            return candidate
    raise FileNotFoundError("grammar/umpire.lark is missing from this installation")


class LimitError(UmpireError):
    """A text past one of the limits (a number, a string, nesting): not a syntax error, so a string's
    {…} part that passes one reports it as it is."""


class _TokenTooLong(Exception):
    """A token over a size limit (or a number not in ASCII digits), refused by the lexer as soon as it is read."""

    def __init__(self, token: Token, message: str, width: int):
        super().__init__(message)
        self.token = token
        self.message = message
        self.width = width  # of the caret: a huge token is marked by its start


def _number_fault(text: str) -> str | None:
    """What is wrong with a number as written, if anything."""
    # The lexer's \d takes the digits of every script, and int() reads them: digits.py.
    other = foreign_digit(text)
    if other is not None:
        return f"this number is written with {other}; numbers are written with the ASCII digits 0-9"
    # No count, value or hex number of a board game needs more digits; a longer number is a slip,
    # and Python refuses to convert one of thousands of digits at all.
    digits = len(text.lstrip("+-"))
    if digits > MAX_DIGITS:
        return f"this number has {digits} digits; a number has at most {MAX_DIGITS}"
    return None


def _check_number(token: Token) -> Token:
    fault = _number_fault(str(token))
    if fault is not None:
        raise _TokenTooLong(token, fault, len(token))
    return token


def _check_odds(token: Token) -> Token:
    """A printed odds column ('3-2'): each of its two numbers is read as a number."""
    for part in str(token).split("-"):
        fault = _number_fault(part)
        if fault is not None:
            raise _TokenTooLong(token, fault, len(token))
    return token


def _check_string(token: Token) -> Token:
    # A text for a narration line or a label; a huge one would be copied at every stage after this.
    if len(token) - 2 > MAX_STRING_LITERAL:
        raise _TokenTooLong(token, f"this string has {len(token) - 2} characters; a string in the rules "
                                   f"has at most {MAX_STRING_LITERAL}", 1)
    return token


@functools.cache
def parser(start: str | None = None) -> Lark:
    """One LALR parser for all start symbols, built once per process.

    Its tables ship with the package (``tables.py``); when they are not for this grammar, Lark
    builds them and caches them in the temporary folder (keyed by the grammar's text and options),
    so a later process loads them instead of rebuilding them.
    """
    return _parser()


# How the parser is made; the shipped tables are keyed by these (but for the callbacks).
OPTIONS = {
    "parser": "lalr",
    "start": list(START_SYMBOLS),
    "propagate_positions": True,
    "maybe_placeholders": True,
    "lexer_callbacks": {"INT": _check_number, "PRINTED_ODDS": _check_odds, "STRING": _check_string},
    "cache": True,
}


def grammar_text() -> str:
    return grammar_path().read_text(encoding="utf-8")


@functools.cache
def _parser() -> Lark:
    from . import tables

    grammar = grammar_text()
    return tables.load(grammar, OPTIONS) or Lark(grammar, **OPTIONS)


@functools.cache
def _literals(start: str) -> dict[str, str]:
    """Token type -> the literal text of keywords and punctuation ('GAME' -> 'game', '__ANON_0' -> '..')."""
    out = {}
    for term in parser(start).terminals:
        if isinstance(term.pattern, PatternStr):
            out[term.name] = term.pattern.value
    return out


@functools.cache
def statement_keywords() -> tuple[str, ...]:
    """The keyword each statement starts with, in the grammar's order of the `stmt` rule: read from
    the grammar, so a new statement is listed in parse errors with no change here."""
    lark, literals = _parser(), _literals(START_SYMBOLS[0])
    firsts = {r.origin.name: r.expansion[0].name for r in lark.rules if r.expansion}
    starts = dict.fromkeys(r.expansion[0].name for r in lark.rules if r.origin.name == "stmt")
    return tuple(literals[firsts[rule]] for rule in starts)


@functools.cache
def _keywords(start: str) -> frozenset[str]:
    return frozenset(v for v in _literals(start).values() if v.isalpha())


def parse(text: str, filename: str, start: str) -> Tree:
    """Parse ``text``; raise UmpireError with one diagnostic on a syntax error or a limit passed."""
    try:
        tree = parser().parse(text, start=start)
    except UnexpectedInput as err:
        raise UmpireError([syntax_diagnostic(err, text, filename, start)]) from None
    except _TokenTooLong as err:
        tok = err.token
        span = _span(filename, tok.line or 1, tok.column or 1, err.width)
        raise LimitError([Diagnostic("error", err.message, span)]) from None
    deep = too_deep(tree, filename)
    if deep is not None:
        raise LimitError([deep])
    return tree


# ───────────────────────────── describing tokens ─────────────────────────────


def _word(token_type: str, start: str) -> str:
    if token_type in _TOKEN_WORDS:
        return _TOKEN_WORDS[token_type]
    literal = _literals(start).get(token_type)
    if literal is not None:
        return f"'{literal}'"
    return token_type.lower()


def describe_expected(expected: set[str], start: str = "rules_file") -> str:
    """What the parser would have accepted, grouped and in plain words."""
    literals = _literals(start)
    by_text = {literals.get(t, t): t for t in expected}
    left = set(expected)
    groups: list[str] = []

    def family(members: tuple[str, ...], label: str, shown: int, unclaimed: bool = False) -> None:
        # unclaimed: only words no family before has taken ('remove' starts a statement and a change)
        present = [m for m in members if m in by_text and (not unclaimed or by_text[m] in left)]
        if len(present) >= max(3, len(members) // 2):
            listed = ", ".join(present[:shown]) + (", …" if len(present) > shown else "")
            groups.append(f"{label} ({listed})")
            left.difference_update(by_text[m] for m in present)

    family(_DECLARATIONS, "a declaration", 7)
    family(_SCENARIO_ITEMS, "a scenario section", 15)
    family(statement_keywords(), "a statement", 8)
    family(_CHANGES, "a change", 7, unclaimed=True)
    if _EXPRESSION_STARTS <= left:
        groups.append("an expression")
        left -= {"NAME", "INT", "STRING", "LPAR", "LSQB", "LBRACE", "MINUS", "PLUS"}
        # '@' by its text: Lark names it AT only while no keyword 'at' takes that name first.
        left -= {by_text[k] for k in ("@", "not", "has", "if", "true", "false", "none", "matching", "X") if k in by_text}
    operators = [by_text[o] for o in _OPERATORS if o in by_text]
    if len(operators) >= 3:
        left.difference_update(operators)
        left.discard("MINUS")
        left.discard("PLUS")
        operator_group = "an operator"
    else:
        operator_group = None
    if len(left) + len(groups) > 1:
        left.discard("SEMICOLON")  # an optional separator: naming it never helps
    # Keywords and punctuation first, then kinds of token ("a name"), then the end of the file.
    rest = sorted(left, key=lambda t: (t == "$END", t not in literals, _word(t, start)))
    words = groups + [_word(t, start) for t in rest]
    if operator_group:
        words.append(operator_group)
    if not words:
        return "nothing more"
    if len(words) > _MAX_WORDS:
        words = words[:_MAX_WORDS] + ["…"]
    if len(words) == 1:
        return words[0]
    if words[-1] == "…":
        return ", ".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def _describe_found(tok: Token, start: str) -> str:
    value = str(tok.value)
    if tok.type == "$END":
        return "end of file"
    if len(value) > 40:
        value = value[:37] + "..."
    if tok.type == "NAME":
        return f"name '{value}'"
    if tok.type == "INT":
        return f"number {value}"
    if tok.type == "STRING":
        return f"string {value}"
    if tok.type == "CITE":
        return f"rule citation {value}"
    literal = _literals(start).get(tok.type)
    if literal is not None and literal.isalpha():
        return f"keyword '{value}'"
    return f"'{value}'"


def _misplaced_keyword_hint(tok: Token, expected: set[str], start: str) -> bool:
    """A keyword of the other file kind (say 'unit' in a scenario) may be a misspelt section name."""
    if not _literals(start).get(tok.type, "").isalpha():
        return False
    words = {w for w in (_literals(start).get(t, "") for t in expected) if w.isalpha()}
    return "NAME" not in expected and bool(words) and did_you_mean(str(tok.value), words) is not None


# ───────────────────────────── brackets ─────────────────────────────

# The grammar's CITE token (an example tag's '[' is not written against a name: 'pool[E13]' is an index).
_CITE_RE = re.compile(r"(\[\s*(\d+\.\d+[\w.\-]*|[A-Z][A-Za-z]*-\d+[a-z]?|EoP|Example[^\]\n]*|TC-[^\]\n]*)"
                      r"|(?<![\w)\]])\[[A-Z]+\d+[a-z]?)([ ,;(][^\]\n]*)?\]")
# A bracket that was meant as an example tag ([E13]) or a rule's sub-item ([16.3(1)]).
_NEAR_EXAMPLE = re.compile(r"\[\s*[A-Za-z]+\s*\d+[a-z]?\s*\]")
_NEAR_SUB_ITEM = re.compile(r"\[\s*\d+(\.\d+)*\s*\(")
_STRING_RE = re.compile(r'"(\\.|[^"\\\n])*"')
_PAIRS = {"}": "{", ")": "(", "]": "["}


class _Brackets:
    """The brackets of a text up to an offset, skipping strings, comments and citations.

    ``open`` holds the brackets still open (innermost last); ``stray`` the first closer
    that matched nothing; ``suspect`` the first '{' whose '}' is indented like an outer
    line, the likeliest place of a forgotten '}'.
    """

    def __init__(self, text: str, stop: int):
        self.open: list[tuple[str, int]] = []
        self.stray: tuple[str, int] | None = None
        self.suspect: tuple[int, int] | None = None  # (offset of the '{', offset of its '}')
        self.last_outer: tuple[int, int] | None = None  # the last '}' that closed an outermost '{'
        i = 0
        while i < min(stop, len(text)):
            ch = text[i]
            if ch == "#":
                nl = text.find("\n", i)
                i = len(text) if nl < 0 else nl
                continue
            if ch == '"':
                m = _STRING_RE.match(text, i)
                i = m.end() if m else i + 1
                continue
            if ch == "[":
                m = _CITE_RE.match(text, i)
                if m:
                    i = m.end()
                    continue
            if ch in "{([":
                self.open.append((ch, i))
            elif ch in _PAIRS:
                if self.open and self.open[-1][0] == _PAIRS[ch]:
                    _, at = self.open.pop()
                    if ch == "}" and not self.open:
                        self.last_outer = (at, i)
                    if ch == "}" and self.suspect is None and _starts_line(text, i) \
                            and _indent(text, i) < _indent(text, at):
                        self.suspect = (at, i)
                elif self.stray is None:
                    self.stray = (ch, i)
            i += 1


def _line_start(text: str, offset: int) -> int:
    return text.rfind("\n", 0, offset) + 1


def _starts_line(text: str, offset: int) -> bool:
    return text[_line_start(text, offset):offset].strip() == ""


def _indent(text: str, offset: int) -> int:
    start = _line_start(text, offset)
    line = text[start:offset + 1]
    return len(line) - len(line.lstrip(" \t"))


def _line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col


# ───────────────────────────── building the diagnostic ─────────────────────────────


def _last_token(err: UnexpectedInput) -> Token | None:
    """The token the parser read just before the error, if Lark kept it."""
    history = getattr(err, "token_history", None)
    if history:
        return history[-1]
    ip = getattr(err, "interactive_parser", None)
    stack = getattr(getattr(ip, "parser_state", None), "value_stack", None) or []
    node = stack[-1] if stack else None
    while isinstance(node, Tree):
        node = node.children[-1] if node.children else None
    return node if isinstance(node, Token) else None


_TEST_KEYWORDS = {"IF", "WHEN", "WHERE", "ENSURE", "AND", "OR", "NOT", "THEN", "ELSE"}


def _recent_types(err: UnexpectedInput, depth: int = 3) -> set[str]:
    """The token types among the last few entries of the parser's stack."""
    ip = getattr(err, "interactive_parser", None)
    stack = getattr(getattr(ip, "parser_state", None), "value_stack", None) or []
    return {t.type for t in stack[-depth:] if isinstance(t, Token)}


def literal_of(tok: Token, start: str) -> str:
    """The keyword or punctuation a token is, or '' for names, numbers and strings."""
    return _literals(start).get(tok.type, "")


def _span(filename: str, line: int, col: int, width: int = 1) -> Span:
    return Span(file=filename, line=line, col=col, end_line=line, end_col=col + max(1, width))


def syntax_diagnostic(err: UnexpectedInput, text: str, filename: str, start: str = "rules_file") -> Diagnostic:
    """The one diagnostic for a Lark error: found what, expected what, with a hint when one helps."""
    try:
        if isinstance(err, UnexpectedToken):
            return _unexpected_token(err, text, filename, start)
        if isinstance(err, UnexpectedCharacters):
            return _unexpected_character(err, text, filename, start)
        if isinstance(err, UnexpectedEOF):
            return _end_of_file(set(err.expected), _last_token(err), text, filename, start)
    except Exception:  # a diagnostic about a diagnostic must never be a traceback
        pass
    line = getattr(err, "line", 0) or 1
    col = getattr(err, "column", 0) or 1
    return Diagnostic("error", "syntax error", _span(filename, line, col))


def _end_of_file(expected: set[str], last: Token | None, text: str, filename: str, start: str) -> Diagnostic:
    if last is not None and getattr(last, "end_line", None):
        line, col = last.end_line, last.end_column
    else:
        line, col = _end_position(text)
    msg = f"unexpected end of file; expected {describe_expected(expected, start)}"
    hint = None
    brackets = _Brackets(text, len(text))
    if brackets.open:
        ch, offset = brackets.open[-1]
        oline, ocol = _line_col(text, offset)
        closer = {"{": "}", "(": ")", "[": "]"}[ch]
        hint = f"the '{ch}' at line {oline}, column {ocol} is never closed: add '{closer}'"
        if ch == "{" and brackets.suspect is not None:
            opened, closed = brackets.suspect
            sline, scol = _line_col(text, opened)
            cline, _ = _line_col(text, closed)
            hint = (f"a '}}' is missing: the '{{' at line {sline}, column {scol} seems never closed "
                    f"(the '}}' at line {cline} is indented like an outer block)")
    return Diagnostic("error", msg, _span(filename, line, col), hint)


def _expected(err: UnexpectedToken) -> set[str]:
    """The tokens the parser accepts where it stopped.

    When the lexer, not the parser, refused the token, Lark's ``expected`` is what the lexer
    state knows, a wider set than the parser would take; asking the parser is exact.
    """
    try:
        ip = getattr(err, "interactive_parser", None)
        accepted = set(ip.accepts()) if ip is not None else set()
    except Exception:
        accepted = set()
    return accepted or set(err.expected or ())


@dataclass(frozen=True)
class _Stop:
    """Where the parser stopped: the token it refused, what it would have taken, the token before."""

    err: UnexpectedToken
    tok: Token
    expected: set[str]
    last: Token | None
    text: str
    start: str


def _unexpected_token(err: UnexpectedToken, text: str, filename: str, start: str) -> Diagnostic:
    tok = err.token
    expected = _expected(err)
    last = _last_token(err)
    if tok.type == "$END":
        # Lark gives the end-of-file token the position of the last token read.
        return _end_of_file(expected, tok if getattr(tok, "end_line", None) else last, text, filename, start)
    line, col = tok.line or 1, tok.column or 1
    width = len(str(tok.value)) if tok.end_line in (None, tok.line) else 1
    msg = f"unexpected {_describe_found(tok, start)}; expected {describe_expected(expected, start)}"
    if tok.type == "LSQB" and "CITE" in expected:
        # The lexer read '[' as a bracket: what follows is not a well-formed rule citation.
        rest = text[tok.start_pos:].split("\n", 1)[0] if tok.start_pos is not None else ""
        return _bad_citation(rest, filename, line, col)
    stop = _Stop(err, tok, expected, last, text, start)
    hint = _special_case_hint(stop)
    if hint is None:
        hint = _fallback_hint(stop)
    diag = Diagnostic("error", msg, _span(filename, line, col, width), hint)
    if hint is None:
        diag.notes.extend(_read_as_name_notes(stop))
    return diag


def _bad_citation(rest: str, filename: str, line: int, col: int) -> Diagnostic:
    """A '[' that starts no rule citation; rest is the line from the '['."""
    close = rest.find("]")
    if close < 0:
        return Diagnostic("error", "this rule citation is not closed", _span(filename, line, col, len(rest.rstrip())),
                          "a rule citation ends with ']' on the same line, as in [9.1]")
    return Diagnostic("error", f"{rest[:close + 1]} is not a rule citation", _span(filename, line, col, close + 1),
                      _near_miss_hint(rest[:close + 1]))


def _near_miss_hint(bracket: str) -> str:
    """The forms of a citation, or the one form the bracket comes close to."""
    if _NEAR_EXAMPLE.fullmatch(bracket):
        return "an example is cited by its tag in capitals, digits after, no space: [E13]"
    if _NEAR_SUB_ITEM.match(bracket):
        return "a sub-item in parentheses follows a rule number written digits.digits: [16.3(1)]"
    return _CITE_FORMS


# The common slips recognised where the parser stopped: the first case that applies gives the hint,
# even none, and the cases after it are not tried.


def _is_name_like(stop: _Stop) -> bool:
    return stop.tok.type == "NAME" or _misplaced_keyword_hint(stop.tok, stop.expected, stop.start)


def _closest_keyword(stop: _Stop) -> str | None:
    words = {_literals(stop.start).get(t, "") for t in stop.expected}
    words = {w for w in words if w.isalpha()}
    if "NAME" not in stop.expected and words:
        return did_you_mean(str(stop.tok.value), words)
    return None


def _is_assignment_in_test(stop: _Stop) -> bool:
    return stop.tok.type == "EQUAL" and ("COMPOP" in stop.expected or bool(_recent_types(stop.err) & _TEST_KEYWORDS))


def _is_then_before_block(stop: _Stop) -> bool:
    return stop.tok.type == "THEN" and "LBRACE" in stop.expected


_RETURN_IF = re.compile(r"\breturn\s+if\b")


def _is_if_after_bare_return(stop: _Stop) -> bool:
    """`return` then, on the next line, an `if` statement: the `if` was read as the returned value."""
    if "THEN" not in stop.expected or stop.tok.start_pos is None:
        return False
    before = stop.text[: stop.tok.start_pos]
    found = list(_RETURN_IF.finditer(before))
    return bool(found) and "then" not in before[found[-1].end():]


def _is_closer(stop: _Stop) -> bool:
    return stop.tok.type in ("RBRACE", "RPAR", "RSQB") and stop.tok.start_pos is not None


def _stray_closer(stop: _Stop) -> str | None:
    stray = _Brackets(stop.text, stop.tok.start_pos + 1).stray
    if stray is not None and stray[1] == stop.tok.start_pos:
        return f"this '{stop.tok.value}' closes nothing that is open"
    return None


def _is_statement_outside_blocks(stop: _Stop) -> bool:
    return literal_of(stop.tok, stop.start) in statement_keywords() and "STAT" in stop.expected and stop.tok.start_pos is not None


def _one_brace_too_many(stop: _Stop) -> str | None:
    outer = _Brackets(stop.text, stop.tok.start_pos).last_outer
    if outer is None:
        return None
    oline, _ = _line_col(stop.text, outer[0])
    cline, ccol = _line_col(stop.text, outer[1])
    return (f"a statement outside any block: the '}}' at line {cline}, column {ccol} closes the '{{' "
            f"of line {oline}; is it one '}}' too many?")


def _is_position_without_comma(stop: _Stop) -> bool:
    """`area hill at 3 4`: a place's position written without its comma."""
    return stop.tok.type == "INT" and stop.expected == {"COMMA"} and "AT" in _recent_types(stop.err)


def _is_end_game_without_reason(stop: _Stop) -> bool:
    return stop.expected == {"STRING"} and {"END", "GAME"} <= _recent_types(stop.err)


def _is_outer_line_in_a_block(stop: _Stop) -> bool:
    """A line that starts at the margin (a declaration, most often) read where a block still wants its '}'."""
    tok = stop.tok
    return "RBRACE" in stop.expected and tok.column == 1 and tok.start_pos is not None \
        and any(ch == "{" for ch, _ in _Brackets(stop.text, tok.start_pos).open)


def _unclosed_brace(stop: _Stop) -> str:
    """Where the '{' that was never closed opened: the one whose '}' is indented like an outer block, if
    one is, else the innermost still open."""
    brackets = _Brackets(stop.text, stop.tok.start_pos)
    if brackets.suspect is not None:
        opened, closed = brackets.suspect
        line, col = _line_col(stop.text, opened)
        return (f"unclosed '{{' opened at {line}:{col}: add its '}}' (the '}}' at line {_line_col(stop.text, closed)[0]} "
                "is indented like an outer block)")
    offset = next(at for ch, at in reversed(brackets.open) if ch == "{")
    line, col = _line_col(stop.text, offset)
    return f"unclosed '{{' opened at {line}:{col}: add its '}}' before this line"


def _is_after_a_quote_in_a_string(stop: _Stop) -> bool:
    """A string, then the refused token, then another '"' on the same line: most likely one string with a
    bare '"' inside it, which ended it early ("the admiral cries "Engage!" at once")."""
    tok, last = stop.tok, stop.last
    if last is None or last.type != "STRING" or tok.start_pos is None or tok.line != getattr(last, "end_line", None):
        return False
    end = stop.text.find("\n", tok.start_pos)
    return '"' in stop.text[tok.start_pos:end if end >= 0 else len(stop.text)]


def _quote_in_a_string(stop: _Stop) -> str:
    return (f"the '\"' at column {stop.last.end_column - 1} ends the string {stop.last.value}: "
            "write \\\" for a quote inside a string")


def _is_row_without_result(stop: _Stop) -> bool:
    """A table row whose '->' is followed by its label or citation, or whose key by its label: the result's
    name is missing ('6 -> "Gale" [5.2]', '6 "Gale" [5.2]')."""
    if stop.tok.type not in ("STRING", "CITE") or stop.last is None or stop.tok.start_pos is None:
        return False
    before = stop.text[_line_start(stop.text, stop.tok.start_pos):stop.tok.start_pos]
    after_arrow = literal_of(stop.last, stop.start) == "->" and "NAME" in stop.expected and '"' not in before
    after_key = stop.tok.type == "STRING" and stop.last.type == "INT" \
        and any(_literals(stop.start).get(name) == "->" for name in stop.expected)
    return after_arrow or after_key


def _row_result_hint(stop: _Stop) -> str:
    start = _line_start(stop.text, stop.tok.start_pos)
    key = stop.text[start:stop.tok.start_pos].strip().removesuffix("->").strip()
    label = stop.tok.value if stop.tok.type == "STRING" else None
    name = re.sub(r"\W+", "_", label.strip('"').lower()).strip("_") if label else ""
    shown = f"{key} -> {name or 'result'}" + (f" {label}" if label else "")
    return f"a row gives the name of its result after '->', then an optional label: {shown} [cite]"


def _is_spaced_odds_column(stop: _Stop) -> bool:
    """'3 - 2' among a table's columns: a printed odds column written with spaces."""
    if stop.tok.type != "MINUS" or stop.last is None or stop.last.type != "INT" or stop.tok.start_pos is None:
        return False
    line_start = stop.text.rfind("\n", 0, stop.tok.start_pos) + 1
    return stop.text[line_start:stop.tok.start_pos].lstrip().startswith("columns")


_SPECIAL_CASES: tuple[tuple[Callable[[_Stop], bool], Callable[[_Stop], str | None]], ...] = (
    (_is_row_without_result, _row_result_hint),
    (_is_spaced_odds_column, lambda stop: "an odds column is written as printed, with no spaces: 3-2 (or as a ratio, 3:2)"),
    (_is_after_a_quote_in_a_string, _quote_in_a_string),
    (_is_outer_line_in_a_block, _unclosed_brace),
    (_is_end_game_without_reason, lambda stop: "'end game' says why the game ends, as the trace will print it: "
                                               "end game \"WHY\" [cite]"),
    (_is_name_like, _closest_keyword),
    (_is_position_without_comma, lambda stop: "a place's position is two numbers with a comma between them: at 3, 4"),
    (_is_assignment_in_test, lambda stop: "to compare two values, write '=='"),
    (_is_then_before_block, lambda stop: "an 'if' statement takes a block, as in: if TEST { ... }"),
    (_is_if_after_bare_return, lambda stop: "a bare 'return' takes an 'if' after it as its value (return if … then … "
                                            "else …), and nothing after a 'return' runs: put the 'return' last in its block"),
    (_is_closer, _stray_closer),
    (_is_statement_outside_blocks, _one_brace_too_many),
)


def _special_case_hint(stop: _Stop) -> str | None:
    for applies, hint in _SPECIAL_CASES:
        if applies(stop):
            return hint(stop)
    return None


def _fallback_hint(stop: _Stop) -> str | None:
    """Slips seen from the text around the token, whatever the token is."""
    text, tok, last, start = stop.text, stop.tok, stop.last, stop.start
    hint = _glued_keyword_hint(text, tok, start) or (_glued_keyword_hint(text, last, start) if last is not None else None)
    if hint is None and tok.start_pos is not None:
        hint = _continued_line_hint(text, tok.start_pos)
    return hint


def _read_as_name_notes(stop: _Stop) -> list[str]:
    """A keyword just before the error that the parser took for a name: what precedes it is unfinished."""
    last = stop.last
    if last is None or last.type != "NAME" or str(last.value) not in _keywords(stop.start) or "NAME" in stop.expected:
        return []
    kw_line = getattr(last, "line", None)
    return [f"'{last.value}'{f' at line {kw_line}' if kw_line else ''} was read as a name, "
            "so what comes before it is probably unfinished"]


def _glued_keyword_hint(text: str, tok: Token, start_symbol: str) -> str | None:
    """A keyword is matched without a word boundary where no name may follow it, so 'rows'
    reads as the keyword 'row' and the name 's': say so, since the error comes after it."""
    pos = getattr(tok, "start_pos", None)
    if tok.type != "NAME" or not pos or not (text[pos - 1].isalnum() or text[pos - 1] == "_"):
        return None
    start = pos
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    end = pos + len(str(tok.value))
    keyword = text[start:pos]
    if keyword not in _keywords(start_symbol):
        return None
    return f"'{text[start:end]}' reads as the keyword '{keyword}' followed by '{tok.value}': did you mean '{keyword}'?"


def _continued_line_hint(text: str, offset: int) -> str | None:
    """A line break does not end an expression: a line that starts with '-', '+', '[' or '('
    carries on the expression of the line before, which is rarely what was meant."""
    start = _line_start(text, offset)
    line = text[start:offset]
    stripped = line.lstrip()
    if not stripped or stripped[0] not in "-+[(" or start == 0:
        return None
    before = text[:start].rstrip()
    # Only when the line before ends an expression (a name, a number, a string, a bracket).
    if not before or before[-1] not in ')]"' and not before[-1].isalnum() and before[-1] != "_":
        return None
    if _CITE_RE.search(before.rsplit("\n", 1)[-1] + " ") and before.endswith("]"):
        return None  # the line before ends with a rule citation, which ends its statement
    prev_line = text.count("\n", 0, start)
    return (f"this line starts with '{stripped[0]}', so it carries on the expression of line {prev_line}; "
            "a line break does not end an expression")


_CHAR_HINTS = {
    "&": "write 'and'",
    "|": "write 'or'",
    "!": "write 'not', or '!=' to compare",
    "'": "strings are written between double quotes, as in \"Infantry\"",
    "`": "strings are written between double quotes, as in \"Infantry\"",
    "\t": None,
}


def _unexpected_character(err: UnexpectedCharacters, text: str, filename: str, start: str) -> Diagnostic:
    pos = err.pos_in_stream
    line, col = err.line or 1, err.column or 1
    ch = text[pos] if pos < len(text) else ""
    rest = text[pos:].split("\n", 1)[0]
    if ch == '"':
        return Diagnostic("error", "unterminated string", _span(filename, line, col, len(rest.rstrip())),
                          "a string must close on the same line: add the closing '\"'")
    if ch == "[":
        return _bad_citation(rest, filename, line, col)
    # Lark's list of what was allowed here is every token of the language: it would not help.
    shown = repr(ch) if ch.isprintable() else f"U+{ord(ch):04X}" if ch else "end of file"
    msg = f"unexpected character {shown}"
    hint = _CHAR_HINTS.get(ch)
    if hint is None and ch in "‘’“”":
        hint = "use plain quotes: strings are written between straight double quotes"
    return Diagnostic("error", msg, _span(filename, line, col), hint)


def _end_position(text: str) -> tuple[int, int]:
    lines = text.splitlines() or [""]
    return len(lines), len(lines[-1]) + 1
