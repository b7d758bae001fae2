"""Parse tree → IR. One method per grammar rule, named after it (as in jlox's parser).

Lark gives us trees whose optional parts are simply absent, so each method sorts
its children by kind. Everything that is not well-formed but parsed (for instance
an assignment to something that is not a variable, index or attribute) is
reported here as a diagnostic with its span.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from types import FunctionType
from typing import Any, NamedTuple

from lark import Token, Transformer_NonRecursive, Tree, v_args
from lark.visitors import _VArgsWrapper

from ..limits import MAX_TURNS
from ..syntax import onepass
from ..syntax.diagnostics import Diagnostic, Span, UmpireError
from ..syntax.parse import LimitError, parse, parser
from . import nodes as n
from .trust import trusted


class _Range(NamedTuple):
    """``LOW..HIGH`` of a row, as the row rule receives it (apart from the row's block)."""

    low: int | None  # None: an open end ('..2', '16..')
    high: int | None


@dataclass(frozen=True)
class _ResultCall:
    """A cell naming a declared result with arguments: 'lose(2)' (8.3a)."""

    name: Token
    args: tuple


@dataclass(frozen=True)
class _ResultParams:
    """The parameters of a declared result, kept apart from its effect (both are tuples)."""

    params: tuple


@dataclass(frozen=True)
class _Roll:
    """A table's ``roll 2 d6 [cite]``, or ``roll dice d6`` with the count the parameter ``dice``."""

    count: int
    die: str
    die_span: Span
    cite: n.Citation | None
    count_param: str | None
    read_at: str | None = None  # 'read at points': no dice (count 0, die ""), the row is the parameter's value
    read_also: tuple[str, ...] = ()  # 'read at severity, zone': the further keys


@dataclass(frozen=True)
class _Needs:
    """``needs TABLE, …`` of a procedure or step: the missing tables it reads."""

    tables: tuple[str, ...]


@dataclass(frozen=True)
class _Rounding:
    """``rounded down|up|nearest`` on a ``columns odds(…)`` line: how odds between two columns are read."""

    how: str
    span: Span


@dataclass(frozen=True)
class _Policy:
    """A table's ``beyond: POLICY [cite]`` (``field`` "beyond"), ``beyond columns: …`` ("columns_beyond"),
    ``below columns: …`` ("columns_below") or ``above columns: …`` ("columns_above")."""

    field: str
    policy: str
    span: Span
    cite: n.Citation | None

    def fields(self) -> dict[str, Any]:
        return {self.field: self.policy, f"{self.field}_span": self.span, f"{self.field}_cite": self.cite}


def _span(file: str, meta: Any) -> Span:
    if getattr(meta, "empty", True):
        return Span(file=file, line=0, col=0, end_line=0, end_col=0)
    return Span(file=file, line=meta.line, col=meta.column, end_line=meta.end_line, end_col=meta.end_column)


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


class TextToken(Token):
    """A text written in pieces ('"the first half " "the second half"'), read as the one string token
    the pieces make: its value is their bodies joined between one pair of quotes, its position runs
    from the first piece to the end of the last, and ``pieces`` keeps the tokens as written, so that an
    expression inside '{…}' is still found where it stands in the file."""

    pieces: tuple[Token, ...]


def joined(pieces: list[Token]) -> Token:
    """The one string token that adjacent string tokens make (the only piece itself when there is one)."""
    if len(pieces) == 1:
        return pieces[0]
    first, last = pieces[0], pieces[-1]
    value = '"' + "".join(piece[1:-1] for piece in pieces) + '"'
    tok = TextToken("STRING", value, first.start_pos, first.line, first.column, last.end_line, last.end_column,
                    last.end_pos)
    tok.pieces = tuple(pieces)
    return tok


def _in_file(tok: Token, offset: int) -> tuple[int, int]:
    """The line and column (1-based) of the character at ``offset`` in the body of a string token as written."""
    for piece in getattr(tok, "pieces", (tok,)):
        body = len(piece) - 2
        if offset < body:
            return piece.line, piece.column + 1 + offset
        offset -= body
    return tok.end_line, tok.end_column


def unquoted(tok: Token) -> str:
    """The text of a string token; only \\n, \\t, \\" and \\\\ are escapes (other text, accents included, is kept)."""
    body = tok[1:-1]
    if "\\" not in body:
        return body
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), "\\" + m.group(1)), body)


def _tokens(children: list, type_: str) -> list[Token]:
    return [c for c in children if isinstance(c, Token) and c.type == type_]


def first_token(children: list, type_: str) -> Token | None:
    found = _tokens(children, type_)
    return found[0] if found else None


def citation_of(children: list) -> n.Citation | None:
    return next((c for c in children if isinstance(c, n.Citation)), None)


def _known_to(children: list) -> n.KnownTo | None:
    return next((c for c in children if isinstance(c, n.KnownTo)), None)


def _known_by(children: list) -> n.KnownBy | None:
    return next((c for c in children if isinstance(c, n.KnownBy)), None)


def _of(children: list, cls: type) -> list:
    return [c for c in children if isinstance(c, cls)]


def _does(children: list) -> n.CallStmt | None:
    """The one procedure a result, row, step or hook is written as ('= retreat(defenders, 1)'), if it is."""
    return next((c for c in children if isinstance(c, n.CallStmt)), None)


_INTERP = re.compile(r"\{([^{}]*)\}")


def plain_methods(cls: type) -> type:
    """Undo the cost of ``v_args`` on a transformer class (apply it after): Lark wraps every public
    method, and its wrapper makes a new wrapper (functools.update_wrapper) at every attribute
    access, so every node built and every helper called (``self.sp``) paid for one, a few percent
    of a cold check. Each method becomes its plain function again, carrying v_args' calling convention
    as ``visit_wrapper``, which Lark reads through the bound method; the calls are the same."""
    for name, value in list(vars(cls).items()):
        if isinstance(value, _VArgsWrapper) and isinstance(value.base_func, FunctionType):
            value.base_func.visit_wrapper = value.visit_wrapper
            setattr(cls, name, value.base_func)
    return cls


@plain_methods
@v_args(meta=True)
class Builder(Transformer_NonRecursive):
    """Transforms a parse tree of one file into IR nodes.

    Non-recursive (Lark's own stack), so that a deep tree is never a Python recursion here;
    how deep a tree may be is limited when it is parsed (syntax/nesting.py)."""

    def __init__(self, file: str):
        super().__init__()
        self.file = file
        self.errors: list[Diagnostic] = []
        # One Span object per region of the file: spans are frozen, and a node and its first token,
        # a statement and its expression often cover the same text; each pydantic object costs
        # about 250 bytes, most of a ruleset's memory per line (bench/memory.py).
        self._spans: dict[tuple, Span] = {}

    # ── helpers ──
    def sp(self, meta: Any) -> Span:
        if getattr(meta, "empty", True):
            return self._shared(0, 0, 0, 0)
        return self._shared(meta.line, meta.column, meta.end_line, meta.end_column)

    def ts(self, tok: Token) -> Span:
        return self._shared(tok.line, tok.column, tok.end_line, tok.end_column)

    def _shared(self, line: int, col: int, end_line: int, end_col: int) -> Span:
        key = (line, col, end_line, end_col)
        span = self._spans.get(key)
        if span is None:
            span = self._spans[key] = Span(file=self.file, line=line, col=col, end_line=end_line, end_col=end_col)
        return span

    def string(self, tok: Token) -> n.StrLit:
        text = unquoted(tok)
        span = self.ts(tok)
        parts: list[n.StrPart] = []
        pos = 0
        # Braces are never escaped, so the k-th {…} of the text is the k-th of the raw token.
        raw_starts = [m.start(1) for m in _INTERP.finditer(str(tok)[1:-1])]
        for k, m in enumerate(_INTERP.finditer(text)):
            if m.start() > pos:
                parts.append(n.StrPart(text=text[pos : m.start()]))
            # Where the expression starts in the file (exact when the string has no escapes).
            line, col = _in_file(tok, raw_starts[k] if k < len(raw_starts) else m.start(1))
            built, fault = _interpolated(m.group(1), self.file)
            if built is not None:
                parts.append(n.StrPart(expr=_shift(built, line, col - 1)))
            elif fault is not None:  # a limit passed inside {…} is reported as it is, where it is
                self.errors.append(Diagnostic("error", fault.message, _shift(fault.span, line, col - 1), fault.hint))
            else:
                where = Span(file=self.file, line=line, col=col - 1, end_line=line, end_col=col + len(m.group(1)) + 1)
                self.errors.append(Diagnostic("error", f"cannot read '{{{m.group(1)}}}' inside this string as an expression", where))
            pos = m.end()
        if parts and pos < len(text):
            parts.append(n.StrPart(text=text[pos:]))
        return n.StrLit(span=span, value=text, parts=tuple(parts))

    def turn_count(self, tok: Token) -> int:
        """A number of turns (a game header's, an overlay's, a scenario's 'until turn'), within the limit."""
        turns = int(tok)
        if turns > MAX_TURNS:
            self.error(f"{turns} turns is more than a game may last: at most {MAX_TURNS}", self.ts(tok))
        return turns

    def error(self, message: str, span: Span, hint: str | None = None) -> None:
        self.errors.append(Diagnostic("error", message, span, hint))

    # ── citations ──
    def text(self, meta, children):
        return joined(children)

    def cite(self, meta, children):
        tok = children[0]
        text = tok[1:-1].strip()
        section, _, qualifier = text.partition(" ")
        return n.Citation(span=self.ts(tok), text=text, section=section, qualifier=qualifier.strip())

    # ── expressions ──
    def int_lit(self, meta, c):
        return n.IntLit(span=self.sp(meta), value=int(c[0]))  # the lexer keeps numbers to 18 digits

    def str_lit(self, meta, c):
        return self.string(c[0])

    def true_lit(self, meta, c):
        return n.BoolLit(span=self.sp(meta), value=True)

    def false_lit(self, meta, c):
        return n.BoolLit(span=self.sp(meta), value=False)

    def none_lit(self, meta, c):
        return n.NoneLit(span=self.sp(meta))

    def x_lit(self, meta, c):
        return n.XLit(span=self.sp(meta))

    def var(self, meta, c):
        return n.Var(span=self.sp(meta), name=str(c[0]))

    def place_lit(self, meta, c):
        return n.PlaceLit(span=self.sp(meta), id=str(c[0]))

    def attr(self, meta, c):
        return n.Attr(span=self.sp(meta), obj=c[0], name=str(c[1]), name_span=self.ts(c[1]))

    def index(self, meta, c):
        return n.Index(span=self.sp(meta), obj=c[0], key=c[1])

    def call_expr(self, meta, c):
        return n.CallExpr(span=self.sp(meta), func=str(c[0]), args=c[1])

    def args(self, meta, c):
        return tuple(a for a in c if a is not None)

    def pos_arg(self, meta, c):
        return n.Arg(value=c[0], span=self.sp(meta))

    def kw_arg(self, meta, c):
        return n.Arg(name=str(c[0]), value=c[1], span=self.sp(meta))

    def binop(self, meta, c):
        return n.BinOp(span=self.sp(meta), op=str(c[1]), left=c[0], right=c[2])

    def rounded(self, meta, c):
        op = str(c[1])
        if op != "/":
            self.error(f"only a division is rounded, not '{op}'", self.ts(c[1]), "write 'a / b rounded up' (or down, or nearest)")
        return n.Rounded(span=self.sp(meta), op=op, left=c[0], right=c[2], mode=str(c[3]), mode_span=self.ts(c[3]),
                         least=c[4] if len(c) > 4 else None)

    def compare(self, meta, c):
        return n.Compare(span=self.sp(meta), op=str(c[1]), left=c[0], right=c[2])

    def _boolop(self, meta, op, c):
        items = []
        for x in c:  # flatten a and b and c into one node
            items.extend(x.items if isinstance(x, n.BoolOp) and x.op == op else [x])
        return n.BoolOp(span=self.sp(meta), op=op, items=tuple(items))

    def or_(self, meta, c):
        return self._boolop(meta, "or", c)

    def and_(self, meta, c):
        return self._boolop(meta, "and", c)

    def not_(self, meta, c):
        return n.Not(span=self.sp(meta), operand=c[0])

    def neg(self, meta, c):
        return n.Neg(span=self.sp(meta), operand=c[-1])

    def pos(self, meta, c):
        return c[-1]

    def is_(self, meta, c):
        return n.IsTest(span=self.sp(meta), operand=c[0], name=str(c[1]), name_span=self.ts(c[1]))

    def is_not(self, meta, c):
        return n.IsTest(span=self.sp(meta), operand=c[0], name=str(c[1]), name_span=self.ts(c[1]), negate=True)

    def in_(self, meta, c):
        return n.InTest(span=self.sp(meta), item=c[0], collection=c[1])

    def has(self, meta, c):
        return n.Has(span=self.sp(meta), operand=c[0])

    def cond_expr(self, meta, c):
        return n.CondExpr(span=self.sp(meta), test=c[0], then=c[1], orelse=c[2])

    def list_lit(self, meta, c):
        return n.ListLit(span=self.sp(meta), items=tuple(x for x in c if x is not None))

    def comprehension(self, meta, c):
        body, rest = c[0], list(c[1:])
        where = rest.pop() if len(rest) % 2 else None
        gens = [(str(rest[i]), rest[i + 1]) for i in range(0, len(rest), 2)]
        span = self.sp(meta)
        # The last generator holds the body and the condition; each one before it joins the lists.
        var, iterable = gens.pop()
        node = n.Comprehension(span=span, expr=body, var=var, iterable=iterable, where=where)
        while gens:
            var, iterable = gens.pop()
            node = n.Comprehension(span=span, expr=node, var=var, iterable=iterable, flat=True)
        return node

    def empty_map(self, meta, c):
        return n.MapLit(span=self.sp(meta), entries=())

    def map_lit(self, meta, c):
        return n.MapLit(span=self.sp(meta), entries=tuple(c))

    def map_entry(self, meta, c):
        return n.MapEntry(key=c[0], value=c[1])

    def matching(self, meta, c):
        return n.Matching(span=self.sp(meta), die_var=str(c[0]), dice=c[1], unit_var=str(c[2]), units=c[3], where=c[4])

    # ── statements ──
    def block(self, meta, c):
        return tuple(c)

    def target(self, meta, c):
        node = c[0]
        if not isinstance(node, (n.Var, n.Index, n.Attr)):
            self.error("only a variable, an index such as hits[s] or an attribute such as u.flipped can be assigned", node.span)
        return node

    def let(self, meta, c):
        return n.Let(span=self.sp(meta), name=str(c[0]), value=c[1], cite=citation_of(c))

    def set_(self, meta, c):
        return n.SetStmt(span=self.sp(meta), target=c[0], value=c[1], cite=citation_of(c))

    def adjust(self, meta, c):
        return n.Adjust(span=self.sp(meta), target=c[0], by=c[1], cite=citation_of(c))

    def if_(self, meta, c):
        blocks = [x for x in c if isinstance(x, tuple)]
        orelse = blocks[1] if len(blocks) > 1 else ()
        return n.If(span=self.sp(meta), test=c[0], body=blocks[0], orelse=orelse, cite=citation_of(c))

    def else_block(self, meta, c):
        return c[0]

    def else_if(self, meta, c):
        return (c[0],)

    def repeat(self, meta, c):
        unit = next((str(x) for x in c if isinstance(x, Token)), None)
        var = next((x["as"] for x in c if isinstance(x, dict) and "as" in x), None)
        limit = next((x["up to"] for x in c if isinstance(x, dict) and "up to" in x), None)
        return n.Repeat(span=self.sp(meta), body=c[-1], var=var, limit=limit, unit=unit, cite=citation_of(c))

    def repeat_times(self, meta, c):
        return n.RepeatTimes(span=self.sp(meta), count=c[0], body=c[-1], cite=citation_of(c))

    # The optional parts of a loop, as one-key maps: told apart from the body (a tuple) and the citation.
    def repeat_as(self, meta, c):
        return {"as": str(c[0])}

    def repeat_limit(self, meta, c):
        return {"up to": c[0]}

    def impulses(self, meta, c):
        limit = next((x["up to"] for x in c if isinstance(x, dict)), None)
        return n.Impulses(span=self.sp(meta), unit=str(c[0]), var=str(c[1]), order=c[2], limit=limit, body=c[-1],
                          cite=citation_of(c))

    def pass_(self, meta, c):
        return n.Pass(span=self.sp(meta), cite=citation_of(c))

    def stop(self, meta, c):
        return n.Stop(span=self.sp(meta), cite=citation_of(c))

    def stop_when(self, meta, c):
        why = next((self.string(x) for x in c if isinstance(x, Token)), None)
        return n.Stop(span=self.sp(meta), when=c[0], why=why, cite=citation_of(c))

    def return_(self, meta, c):
        value = c[0] if c and not isinstance(c[0], n.Citation) else None
        return n.Return(span=self.sp(meta), value=value, cite=citation_of(c))

    def end_game(self, meta, c):
        return n.EndGame(span=self.sp(meta), why=self.string(c[0]), cite=citation_of(c))

    def include_decl(self, meta, c):
        return n.IncludeDecl(span=self.sp(meta), path=unquoted(c[0]), path_span=self.ts(c[0]), cite=citation_of(c))

    def use_decl(self, meta, c):
        return n.UseDecl(span=self.sp(meta), name=str(c[0]), name_span=self.ts(c[0]), cite=citation_of(c),
                         bindings=tuple(_of(c, n.UseBinding)), recites=tuple(_of(c, n.UseRecite)))

    def use_recite(self, meta, c):
        return n.UseRecite(span=self.sp(meta), paragraph=c[0], cite=c[1])

    def use_binding(self, meta, c):
        return n.UseBinding(span=self.sp(meta), name=str(c[0]), value=c[1], cite=citation_of(c))

    def setting_decl(self, meta, c):
        params = next((x for x in c if isinstance(x, tuple)), ())
        default = next((x for x in c[1:] if isinstance(x, n.Node) and not isinstance(x, n.Citation)), None)
        names = _tokens(c, "NAME")
        return n.SettingDecl(span=self.sp(meta), name=str(c[0]), params=params, default=default, cite=citation_of(c),
                             returns=str(names[1]) if len(names) > 1 else None)

    def for_(self, meta, c):
        return n.ForEach(span=self.sp(meta), var=str(c[0]), iterable=c[1], body=c[-1] if isinstance(c[-1], tuple) else c[-2], cite=citation_of(c))

    def roll(self, meta, c):
        return n.Roll(span=self.sp(meta), target=c[0], count=c[1], die=str(c[2]), die_span=self.ts(c[2]), cite=citation_of(c))

    def choose(self, meta, c):
        mode, options, amount, limit = c[2]
        prompt = first_token(c, "STRING")
        showing = next((x[1] for x in c[3:] if isinstance(x, tuple) and x[0] == "showing"), None)
        return n.Choose(
            span=self.sp(meta), name=str(c[0]), chooser=c[1], mode=mode, options=options, amount=amount,
            limit=limit, optional=first_token(c, "MAY") is not None, prompt=self.string(prompt) if prompt else None,
            showing=showing, cite=citation_of(c),
        )

    def showing(self, meta, c):
        return ("showing", c[0])

    def choose_from(self, meta, c):
        if len(c) > 1:
            mode, amount = c[1]
            return (mode, c[0], amount, None)
        return ("one", c[0], None, None)

    def choose_split(self, meta, c):
        return ("split", c[1], c[0], c[2] if len(c) > 2 else None)

    def count_exactly(self, meta, c):
        return ("exactly", c[0])

    def count_up_to(self, meta, c):
        return ("up_to", c[0])

    def lookup(self, meta, c):
        return n.Lookup(span=self.sp(meta), name=str(c[0]), table=str(c[1]), table_span=self.ts(c[1]), args=c[2], cite=citation_of(c))

    def eliminate(self, meta, c):
        because = first_token(c, "STRING")
        return n.Eliminate(span=self.sp(meta), units=c[0], because=self.string(because) if because else None, cite=citation_of(c))

    def move(self, meta, c):
        return n.Move(span=self.sp(meta), units=c[0], to=c[1], cite=citation_of(c))

    def say(self, meta, c):
        face_down = next((x[1] for x in c if isinstance(x, tuple) and x[0] == "face_down"), None)
        return n.Say(span=self.sp(meta), text=self.string(c[0]), known_by=_known_by(c), face_down=face_down,
                     cite=citation_of(c))

    def say_else(self, meta, c):
        return ("face_down", self.string(c[0]))

    def call(self, meta, c):
        return n.CallStmt(span=self.sp(meta), proc=str(c[0]), proc_span=self.ts(c[0]), args=c[1], cite=citation_of(c))

    def let_call(self, meta, c):
        return n.CallStmt(span=self.sp(meta), proc=str(c[1]), proc_span=self.ts(c[1]), args=c[2], cite=citation_of(c),
                          result=str(c[0]))

    def reroll(self, meta, c):
        return n.Reroll(span=self.sp(meta), pools=c[0], order=c[1], side_var=str(c[2]), spend=c[3], cite=citation_of(c))

    def simult(self, meta, c):
        return n.Simultaneously(span=self.sp(meta), body=c[-1], cite=citation_of(c))

    def secret(self, meta, c):
        return n.Secretly(span=self.sp(meta), body=c[-1], cite=citation_of(c))

    def record(self, meta, c):
        return n.Record(span=self.sp(meta), key=self.string(c[0]), value=c[1], cite=citation_of(c))

    def ensure(self, meta, c):
        return n.Ensure(span=self.sp(meta), test=c[0], message=self.string(c[1]), cite=citation_of(c))

    # ── declarations ──
    def rules_file(self, meta, c):
        return n.Ruleset(file=self.file, decls=tuple(c))

    def game(self, meta, c):
        title = first_token(c, "STRING")
        fields: dict[str, Any] = {"sides": (), "nations": (), "dice": (), "files_named": ()}
        for item in c:
            if isinstance(item, tuple) and item:
                self.header_tuple(fields, item)
            elif isinstance(item, n.Die):
                fields["dice"] += (item,)
            elif isinstance(item, n.ScenarioChoice):
                fields["scenarios"] = fields.get("scenarios", ()) + (item,)
                fields["files_named"] += (n.FileRef(span=item.file_span, path=item.file),)
            elif isinstance(item, n.TurnNames):
                self.keep_turn_names(fields, item)
        return n.Game(span=self.sp(meta), name=str(c[0]), title=unquoted(title) if title else None, cite=citation_of(c), **fields)

    @staticmethod
    def header_tuple(fields: dict, item: tuple) -> None:
        """A header line its rule method gives as a tuple, its kind first, into the Game's fields; a
        path the header names is reported at its own string."""
        kind = item[0]
        if kind in ("sides", "nations", "turns"):
            fields[kind], fields[f"{kind}_cite"] = item[1], item[2]
        elif kind == "demo":
            fields[f"demo_{item[1]}"] = item[2]
            fields["files_named"] += (n.FileRef(span=item[3], path=item[2]),)
        elif kind == "errata":
            fields["errata"] = item[1]
            fields["files_named"] += (n.FileRef(span=item[2], path=item[1]),)
        elif kind in ("outcome", "worth"):
            fields[kind] = item[1]

    def sides(self, meta, c):
        return ("sides", tuple(_of(c, n.NameLabel)), citation_of(c))

    def nations(self, meta, c):
        return ("nations", tuple(_of(c, n.NameLabel)), citation_of(c))

    def name_label(self, meta, c):
        label = first_token(c, "STRING")
        return n.NameLabel(span=self.sp(meta), name=str(c[0]), label=unquoted(label) if label else None)

    def die_decl(self, meta, c):
        return n.Die(span=self.sp(meta), name=str(c[0]), low=int(c[1]), high=int(c[2]), cite=citation_of(c))

    def demo(self, meta, c):
        return ("demo", str(c[0]), unquoted(c[1]), self.ts(c[1]))

    def outcome_decl(self, meta, c):
        pairs = [x for x in c if isinstance(x, tuple)]
        return ("outcome", n.HeaderRef(span=self.sp(meta), name=str(c[0]), sides=tuple((v, side) for v, side, _ in pairs),
                                       sides_span=tuple(span for *_, span in pairs), cite=citation_of(c)))

    def outcome_side(self, meta, c):
        return (unquoted(c[0]), str(c[1]), self.ts(c[1]))

    def worth_decl(self, meta, c):
        return ("worth", n.HeaderRef(span=self.sp(meta), name=str(c[0]), cite=citation_of(c)))

    def scenario_choice(self, meta, c):
        return n.ScenarioChoice(span=self.sp(meta), name=str(c[0]), file=unquoted(c[1]), file_span=self.ts(c[1]), cite=citation_of(c))

    def errata_decl(self, meta, c):
        return ("errata", unquoted(c[0]), self.ts(c[0]))

    def turns(self, meta, c):
        return ("turns", self.turn_count(c[0]), citation_of(c))

    def keep_turn_names(self, fields: dict, item: n.TurnNames) -> None:
        """The game's one list of turn names (a second list would leave which one holds unclear)."""
        if fields.get("turn_names") is not None:
            first = fields["turn_names"].span
            self.error(f"the turns' names are given twice (first at line {first.line})", item.span,
                       "give them once, as one list: it may go on over as many lines as it needs")
            return
        fields["turn_names"] = item

    def turn_names(self, meta, c):
        names = _tokens(c, "STRING")
        return n.TurnNames(span=self.sp(meta), names=tuple(unquoted(t) for t in names),
                           name_spans=tuple(self.ts(t) for t in names), cite=citation_of(c))

    def _named(self, cls, meta, c, **extra):
        label = first_token(c, "STRING")
        return cls(span=self.sp(meta), name=str(c[0]), label=unquoted(label) if label else None, cite=citation_of(c), **extra)

    def stat_decl(self, meta, c):
        return self._named(n.StatDecl, meta, c)

    def flag_decl(self, meta, c):
        return self._named(n.FlagDecl, meta, c)

    def class_decl(self, meta, c):
        return self._named(n.ClassDecl, meta, c)

    def unit_state_decl(self, meta, c):
        return n.UnitStateDecl(span=self.sp(meta), name=str(c[0]), type=c[1], cite=citation_of(c))

    def face_decl(self, meta, c):
        holder, state, value = [x for x in c if isinstance(x, Token) and x.type in ("NAME", "INT")][:3]
        values = next((x for x in c if isinstance(x, tuple)), ())
        shown = int(value) if value.type == "INT" else str(value)
        return n.FaceDecl(span=self.sp(meta), holder=str(holder), holder_span=self.ts(holder), state=str(state),
                          state_span=self.ts(state), value=shown, value_span=self.ts(value), values=values, cite=citation_of(c))
    def cup_decl(self, meta, c):
        chits = tuple(chit for line in c if isinstance(line, list) for chit in line)
        replaced = any(x is True for x in c)
        return self._named(n.CupDecl, meta, c, replaced=replaced, chits=chits)

    def cup_replaced(self, meta, c):
        if str(c[0]) != "replacement":
            self.error(f"a cup is drawn 'with replacement', not 'with {c[0]}'", self.ts(c[0]),
                       "write 'with replacement', or nothing for a cup whose drawn chits stay out")
        return True

    def chits(self, meta, c):
        cite = citation_of(c)
        chits = [x for x in c if isinstance(x, tuple)]  # (name, count, span) from `chit`
        return [n.ChitCount(span=span, name=name, count=count, cite=cite) for name, count, span in chits]

    def chit(self, meta, c):
        count = 1
        if len(c) > 1:
            written = str(c[1])
            if re.fullmatch(r"x\d{1,4}", written) is None:
                self.error(f"'{written}' is not a count of chits", self.ts(c[1]),
                           "write how many with an x, as in 'red x3' (a name alone is one chit)")
            else:
                count = int(written[1:])
        return (str(c[0]), count, self.sp(meta))

    def draw(self, meta, c):
        count = c[1] if not isinstance(c[1], Token) else None
        cup = c[2] if count is not None else c[1]
        return n.Draw(span=self.sp(meta), name=str(c[0]), count=count, cup=str(cup), cup_span=self.ts(cup),
                      known_by=_known_by(c), cite=citation_of(c))

    def pick(self, meta, c):
        exprs = [x for x in c[1:] if not isinstance(x, (n.Citation, n.KnownBy))]
        count, options = (exprs[0], exprs[1]) if len(exprs) == 2 else (None, exprs[0])
        return n.Pick(span=self.sp(meta), name=str(c[0]), count=count, options=options, known_by=_known_by(c),
                      cite=citation_of(c))

    def known_by(self, meta, c):
        return n.KnownBy(span=self.sp(meta), who=c[0])

    def put(self, meta, c):
        return n.Put(span=self.sp(meta), chits=c[0], cup=str(c[1]), cup_span=self.ts(c[1]), known_by=_known_by(c),
                     cite=citation_of(c))

    def remove(self, meta, c):
        return n.Remove(span=self.sp(meta), chits=c[0], cup=str(c[1]), cup_span=self.ts(c[1]), cite=citation_of(c))

    def refill(self, meta, c):
        return n.Refill(span=self.sp(meta), cup=str(c[0]), cup_span=self.ts(c[0]), cite=citation_of(c))

    def view_decl(self, meta, c):
        return n.ViewDecl(span=self.sp(meta), function=str(c[0]), cite=citation_of(c))

    def hidden_decl(self, meta, c):
        return n.HiddenDecl(span=self.sp(meta), name=str(c[0]), name_span=self.ts(c[0]), seen_as=unquoted(c[1]),
                            cite=citation_of(c))

    def look_decl(self, meta, c):
        names = _tokens(c, "NAME")
        extra = {}
        if len(names) > 1:
            extra.update(name=str(names[1]), name_span=self.ts(names[1]))
        if len(names) > 2:
            extra.update(value=str(names[2]), value_span=self.ts(names[2]))
        settings = tuple(x for x in c if isinstance(x, n.LookSetting))
        return n.LookDecl(span=self.sp(meta), subject=str(names[0]), subject_span=self.ts(names[0]), settings=settings,
                          cite=citation_of(c), **extra)

    def look_setting(self, meta, c):
        quoted = len(c) == 2 and c[1].type == "STRING"
        words = (unquoted(c[1]),) if quoted else tuple(str(x) for x in c[1:])
        return n.LookSetting(span=self.sp(meta), name=str(c[0]), words=words, quoted=quoted)

    def place_state_decl(self, meta, c):
        return n.PlaceStateDecl(span=self.sp(meta), name=str(c[0]), type=c[1], known_to=_known_to(c), cite=citation_of(c))

    def known_to(self, meta, c):
        return n.KnownTo(span=self.ts(c[0]), side=str(c[0]))

    def embark(self, meta, c):
        return n.Embark(span=self.sp(meta), units=c[0], carrier=c[1], cite=citation_of(c))

    def change_side(self, meta, c):
        return n.ChangeSide(span=self.sp(meta), units=c[0], side=c[1], cite=citation_of(c))

    def game_state_decl(self, meta, c):
        per, per_span = next((x for x in c[2:] if isinstance(x, tuple)), (None, None))
        return n.GameStateDecl(span=self.sp(meta), name=str(c[0]), type=c[1], per=per, per_span=per_span,
                               known_to=_known_to(c), cite=citation_of(c))

    def state_keys(self, meta, c):
        """`per side`, `per nation`, `per NAME`: what keys the state's values ("side", "nation" or the
        enumeration's name), and where that is written."""
        token = c[0]
        per = {"PER_SIDE": "side", "PER_NATION": "nation"}.get(token.type, str(token))
        return (per, self.ts(token))

    def enumeration_decl(self, meta, c):
        names = _tokens(c, "NAME")
        return self._named(n.EnumerationDecl, meta, c, values=tuple(str(x) for x in names[1:]))

    def simple_type(self, meta, c):
        return n.TypeName(span=self.sp(meta), name=str(c[0]))

    def enum_type(self, meta, c):
        return n.TypeName(span=self.sp(meta), enum=tuple(str(x) for x in c))

    def type_decl(self, meta, c):
        names = _tokens(c, "NAME")
        values = next((x for x in c if isinstance(x, tuple)), ())
        return self._named(n.TypeDecl, meta, c, parent=str(names[1]), parent_span=self.ts(names[1]), values=values)

    def counter_decl(self, meta, c):
        names = _tokens(c, "NAME")
        values = next((x for x in c if isinstance(x, tuple)), ())
        return self._named(
            n.CounterDecl, meta, c, type=str(names[1]), type_span=self.ts(names[1]), side=str(names[2]),
            side_span=self.ts(names[2]), values=values,
        )

    def stat_block(self, meta, c):
        return tuple(c)

    def stat_set(self, meta, c):
        raw = c[1]
        if isinstance(raw, Token) and raw.type == "X":
            value: int | str = "X"
        elif isinstance(raw, Token) and raw.type == "MISSING":
            value = "?"
        else:
            value = raw
        return n.StatValue(span=self.sp(meta), name=str(c[0]), value=value, cite=citation_of(c))

    def signed_int(self, meta, c):
        sign = -1 if len(c) == 2 and c[0] == "-" else 1
        return sign * int(c[-1])

    def name_lit(self, meta, c):
        return str(c[0])

    def flag_set(self, meta, c):
        return n.StatValue(span=self.sp(meta), name=str(c[0]), is_flag=True, cite=citation_of(c))

    def map_decl(self, meta, c):
        grid = next((x for x in c if isinstance(x, n.Grid)), None)
        return n.MapDecl(
            span=self.sp(meta), name=str(c[0]), grid=grid, props=tuple(_of(c, n.PlaceProp)), edges=tuple(_of(c, n.EdgeDecl)),
            wraps=tuple(_of(c, n.Wrap)), borders=tuple(_of(c, n.BorderProp)), coasts=tuple(_of(c, n.CoastDecl)), cite=citation_of(c),
        )

    def secondary_map(self, meta, c):
        label = first_token(c[1:], "STRING")
        die = next(x for x in c[1:] if isinstance(x, Token) and x.type == "NAME")
        return n.SecondaryMap(span=self.sp(meta), name=str(c[0]), label=unquoted(label) if label else None, die=str(die),
                              die_span=self.ts(die), points=tuple(_of(c, n.MapPoint)), cite=citation_of(c))

    def map_point(self, meta, c):
        return n.MapPoint(span=self.sp(meta), name=str(c[0]), paths=tuple(_of(c, n.MapPath)), cite=citation_of(c))

    def map_path(self, meta, c):
        return n.MapPath(span=self.sp(meta), low=c[0].low, high=c[0].high, to=str(c[1]))

    def wrap_decl(self, meta, c):
        names = [str(x) for x in c if not isinstance(x, n.Citation)]
        on = dict(zip(("on_axis", "on_low", "on_high"), names[3:6]))
        return n.Wrap(span=self.sp(meta), axis=names[0], low=names[1], high=names[2], **on, cite=citation_of(c))

    def border_prop(self, meta, c):
        return n.BorderProp(span=self.sp(meta), name=str(c[0]), type=c[1], cite=citation_of(c))

    def coast_decl(self, meta, c):
        return self._named(n.CoastDecl, meta, c)

    def edges_decl(self, meta, c):
        return self._named(n.EdgeDecl, meta, c)

    def grid(self, meta, c):
        names = _tokens(c, "NAME")
        fmt = first_token(c, "STRING")
        return n.Grid(
            span=self.sp(meta), shape=str(names[0]), id_format=unquoted(fmt) if fmt else None,
            columns=str(names[1]) if len(names) > 1 else None, cite=citation_of(c),
        )

    def place_prop(self, meta, c):
        return n.PlaceProp(span=self.sp(meta), name=str(c[0]), type=c[1], cite=citation_of(c))

    def place_state(self, meta, c):
        return n.PlaceProp(span=self.sp(meta), name=str(c[0]), type=c[1], mutable=True, known_to=_known_to(c), cite=citation_of(c))

    def box_decl(self, meta, c):
        return self._named(
            n.BoxDecl, meta, c, per_side=first_token(c, "PER_SIDE") is not None, per_turn=first_token(c, "PER_TURN") is not None
        )

    def track_decl(self, meta, c):
        ints = _tokens(c, "INT")
        excess = next((x[1] for x in c if isinstance(x, tuple) and x and x[0] == "excess"), None)
        start = next((x[1] for x in c if isinstance(x, tuple) and x and x[0] == "start"), ())
        return self._named(
            n.TrackDecl, meta, c, per_side=first_token(c, "PER_SIDE") is not None, per_nation=first_token(c, "PER_NATION") is not None,
            low=int(ints[0]), high=int(ints[1]),
            excess=excess, start=start,
        )

    def overflow(self, meta, c):
        return ("excess", str(c[0]))

    def track_start_one(self, meta, c):
        return ("start", (n.TrackStart(span=self.sp(meta), value=int(c[0])),))

    def track_start(self, meta, c):
        return ("start", tuple(n.TrackStart(span=self.ts(c[i]), side=str(c[i]), value=int(c[i + 1])) for i in range(0, len(c), 2)))

    def missing_decl(self, meta, c):
        return n.MissingDecl(span=self.sp(meta), what=str(c[0]), name=str(c[1]), description=unquoted(c[2]), cite=citation_of(c))

    def unencoded_decl(self, meta, c):
        extent = str(c[0]).split()[0]  # 'not encoded' → not, 'partly encoded' → partly
        return n.Unencoded(span=self.sp(meta), extent=extent, reason=unquoted(c[1]), cite=citation_of(c))

    def record_decl(self, meta, c):
        return self._named(n.RecordDecl, meta, c, fields=tuple(_of(c, n.RecordField)))

    def record_field(self, meta, c):
        default = next((x for x in c[2:] if not isinstance(x, n.Citation)), None)
        return n.RecordField(span=self.sp(meta), name=str(c[0]), type=c[1], default=default, cite=citation_of(c))

    def params(self, meta, c):
        return tuple(p for p in c if p is not None)

    def param(self, meta, c):
        return n.Param(span=self.sp(meta), name=str(c[0]), type=str(c[1]))

    def table_decl(self, meta, c):
        label = first_token(c, "STRING")
        params = next((x for x in c if isinstance(x, tuple) and all(isinstance(p, n.Param) for p in x)), ())
        roll = _of(c, _Roll)[0]
        policies = {k: v for p in _of(c, _Policy) for k, v in p.fields().items()}
        columns = _of(c, n.Columns)
        return n.TableDecl(
            span=self.sp(meta), name=str(c[0]), label=unquoted(label) if label else None, params=params, cite=citation_of(c),
            count=roll.count, die=roll.die, die_span=roll.die_span, roll_cite=roll.cite, count_param=roll.count_param, read_at=roll.read_at,
            read_also=roll.read_also,
            modifiers=tuple(_of(c, n.Modifier)), rows=tuple(_of(c, n.Row)), columns=columns[0] if columns else None,
            shifts=tuple(_of(c, n.ColumnShift)), results=tuple(_of(c, n.TableResult)), **policies,
        )

    def table_roll(self, meta, c):
        # 'roll 2 d6', or 'roll dice d6' with the count a parameter (checked to be one, read at lookup).
        if c[0].type == "INT":
            return _Roll(int(c[0]), str(c[1]), self.ts(c[1]), citation_of(c), None)
        return _Roll(1, str(c[1]), self.ts(c[1]), citation_of(c), str(c[0]))

    def table_read_at(self, meta, c):
        # 'read at points': the table rolls nothing; its row is the value of the parameter (language 8.4).
        names = _tokens(c, "NAME")
        return _Roll(0, "", self.ts(c[0]), citation_of(c), None, str(c[0]), tuple(str(x) for x in names[1:]))

    def modifier(self, meta, c):
        exprs = [x for x in c[1:] if not isinstance(x, (n.Citation, Token))]
        return n.Modifier(span=self.sp(meta), name=str(c[0]), value=exprs[0], when=exprs[1] if len(exprs) > 1 else None, cite=citation_of(c))

    def row(self, meta, c):
        keys = _of(c, _Range)
        label = first_token(c, "STRING")
        effect = next((x for x in c if isinstance(x, tuple) and not isinstance(x, _Range)), ())
        does = _does(c)
        if does is not None:
            effect = (does,)
        # The cells, in order: result names, numbers and '?' (a result the rulebook does not print).
        raw = [x for x in c if isinstance(x, (int, _ResultCall)) or (isinstance(x, Token) and x.type in ("NAME", "MISSING"))]
        span = self.sp(meta)
        spans = tuple(self.ts(x.name if isinstance(x, _ResultCall) else x) if isinstance(x, (Token, _ResultCall)) else span for x in raw)
        given = tuple(x.args if isinstance(x, _ResultCall) else None for x in raw)
        raw = [x.name if isinstance(x, _ResultCall) else x for x in raw]
        common = dict(span=span, low=keys[0].low, high=keys[0].high, more=tuple(tuple(k) for k in keys[1:]),
                      label=unquoted(label) if label else None, effect=effect, does=does is not None, cite=citation_of(c),
                      cell_args=given if any(a is not None for a in given) else ())
        if len(raw) == 1 and isinstance(raw[0], int):  # '1..2 -> 3': a row that gives a number (8.5)
            return n.Row(result=str(raw[0]), value=raw[0], **common)
        cells = tuple(str(x) for x in raw)
        values = tuple(x if isinstance(x, int) else None for x in raw) if any(isinstance(x, int) for x in raw) else ()
        return n.Row(result=cells[0], cells=cells, cell_spans=spans, cell_values=values, **common)

    def result_params(self, meta, c):
        return _ResultParams(c[0])

    def result_call(self, meta, c):
        return _ResultCall(c[0], c[1])

    def range(self, meta, c):
        return _Range(c[0], c[1] if len(c) > 1 else c[0])

    def range_above(self, meta, c):
        return _Range(c[0], None)

    def range_below(self, meta, c):
        return _Range(None, c[0])

    def out_of_range(self, meta, c):
        return _Policy("beyond", str(c[0]), self.ts(c[0]), citation_of(c))

    def columns_beyond(self, meta, c):
        return _Policy("columns_beyond", str(c[0]), self.ts(c[0]), citation_of(c))

    def columns_below(self, meta, c):
        return _Policy("columns_below", str(c[0]), self.ts(c[0]), citation_of(c))

    def columns_above(self, meta, c):
        return _Policy("columns_above", str(c[0]), self.ts(c[0]), citation_of(c))

    def columns(self, meta, c):
        args = tuple(x for x in c[1:] if not isinstance(x, (n.Citation, Token, n.ColumnHeader, _Rounding)))
        rounding = _of(c, _Rounding)
        how = dict(rounding=rounding[0].how, rounding_span=rounding[0].span) if rounding else {}
        return n.Columns(span=self.sp(meta), by=str(c[0]), by_span=self.ts(c[0]), args=args,
                         headers=tuple(_of(c, n.ColumnHeader)), cite=citation_of(c), **how)

    def odds_rounding(self, meta, c):
        return _Rounding(str(c[0]), self.ts(c[0]))

    def ratio_header(self, meta, c):
        a, b = int(c[0]), int(c[1])
        return n.ColumnHeader(span=self.sp(meta), label=f"{a}:{b}", ratio=(a, b))

    def printed_ratio_header(self, meta, c):
        # '3-2', as the rulebook prints the column, and as the trace shows it.
        a, b = (int(x) for x in str(c[0]).split("-"))
        return n.ColumnHeader(span=self.sp(meta), label=f"{a}-{b}", ratio=(a, b))

    def range_header(self, meta, c):
        low, high = c[0]
        label = first_token(c, "STRING")
        shown = unquoted(label) if label else n.show_range(low, high)
        return n.ColumnHeader(span=self.sp(meta), label=shown, low=low, high=high)

    def column_shift(self, meta, c):
        exprs = [x for x in c[1:] if not isinstance(x, (n.Citation, Token))]
        return n.ColumnShift(span=self.sp(meta), name=str(c[0]), value=exprs[0], when=exprs[1] if len(exprs) > 1 else None, cite=citation_of(c))

    def table_result(self, meta, c):
        label = first_token(c, "STRING")
        params = next((x.params for x in c if isinstance(x, _ResultParams)), ())  # 'result recall(s: side)'
        effect = next((x for x in c if isinstance(x, tuple) and not isinstance(x, _ResultParams)), ())
        does = _does(c)
        return n.TableResult(span=self.sp(meta), name=str(c[0]), params=params, label=unquoted(label) if label else None,
                             effect=(does,) if does is not None else effect, does=does is not None, cite=citation_of(c))

    def result_does(self, meta, c):
        return n.CallStmt(span=self.sp(meta), proc=str(c[0]), proc_span=self.ts(c[0]), args=c[1])

    def function_decl(self, meta, c):
        needs = next((x.tables for x in c if isinstance(x, _Needs)), ())
        return n.FunctionDecl(span=self.sp(meta), name=str(c[0]), params=c[1], body=c[-1], needs=needs, cite=citation_of(c))

    def procedure_decl(self, meta, c):
        needs = next((x.tables for x in c if isinstance(x, _Needs)), ())
        return n.ProcedureDecl(span=self.sp(meta), name=str(c[0]), params=c[1], body=c[-1], needs=needs, cite=citation_of(c))

    def hook_decl(self, meta, c):
        names = _tokens(c, "NAME")
        var = str(names[1]) if len(names) > 1 else None
        does = _does(c)
        return n.HookDecl(span=self.sp(meta), event=str(c[0]), var=var, body=(does,) if does is not None else c[-1],
                          does=does is not None, cite=citation_of(c))

    def invariant_decl(self, meta, c):
        return n.InvariantDecl(span=self.sp(meta), name=str(c[0]), body=c[-1], cite=citation_of(c))

    def sequence_decl(self, meta, c):
        return n.SequenceDecl(span=self.sp(meta), phases=tuple(_of(c, n.PhaseDecl)), cite=citation_of(c))

    def phase(self, meta, c):
        names = _tokens(c, "NAME")
        return n.PhaseDecl(
            span=self.sp(meta), name=str(names[0]), active=str(names[1]) if len(names) > 1 else None,
            steps=tuple(_of(c, n.StepDecl)), cite=citation_of(c),
        )

    def step(self, meta, c):
        body = next((x for x in c if isinstance(x, tuple)), None)
        does = _does(c)
        if does is not None:
            body = (does,)
        needs = next((x.tables for x in c if isinstance(x, _Needs)), ())
        return n.StepDecl(span=self.sp(meta), name=str(c[0]), body=body or (), pending=body is None, needs=needs,
                          does=does is not None, cite=citation_of(c))

    def needs(self, meta, c):
        return _Needs(tuple(str(x) for x in c))

    # ── scenarios ──
    def scenario_file(self, meta, c):
        fields: dict[str, list] = {k: [] for k in ("notes", "fixtures", "places", "adjacency", "map_data", "units", "tracks", "states", "dice", "decisions",
                                                   "expects", "overlays", "places_from", "stands_in")}
        extra: dict[str, Any] = {}
        for item in c[2:]:
            if isinstance(item, tuple) and item and item[0] == "places":
                fields["places"].extend(item[1])
                fields["adjacency"].extend(item[2])
                fields["map_data"].extend(item[3])
            elif isinstance(item, tuple) and item and isinstance(item[0], str) and item[0] in fields:
                fields[item[0]].extend(item[1])
            else:
                _scenario_extra(item, extra)
        extra["agents"] = tuple(d for d in fields["decisions"] if isinstance(d, n.SidePlays))
        fields["decisions"] = [d for d in fields["decisions"] if isinstance(d, n.Decision)]
        return n.Scenario(
            span=self.sp(meta), file=self.file, title=unquoted(c[0]), uses=unquoted(c[1]), uses_span=self.ts(c[1]),
            cite=citation_of(c), **{k: tuple(v) for k, v in fields.items()}, **extra,
        )

    def note(self, meta, c):
        return ("notes", [unquoted(c[0])])

    def stops(self, meta, c):
        return ("stops", unquoted(c[0]), citation_of(c))

    def places_from(self, meta, c):
        return ("places_from", [n.FileRef(span=self.ts(c[0]), path=unquoted(c[0]))])

    def overlay_use(self, meta, c):
        return ("overlays", [n.FileRef(span=self.ts(c[0]), path=unquoted(c[0]))])

    def fixture(self, meta, c):
        return ("fixtures", [n.Fixture(span=self.sp(meta), text=unquoted(c[0]), cite=citation_of(c))])

    def stands_in(self, meta, c):
        return ("stands_in", [n.StandsIn(span=self.sp(meta), what=str(c[0]), name=str(c[1]), text=unquoted(c[2]),
                                         cite=citation_of(c))])

    def places(self, meta, c):
        defs = [x for x in c if isinstance(x, n.PlaceDef)]
        adj = [x for x in c if isinstance(x, n.Adjacency)]
        data = [x for x in c if isinstance(x, (n.BorderDef, n.ExitDef, n.CoastDef))]
        return ("places", defs, adj, data)

    def place_def(self, meta, c):
        values = next((x for x in c[2:] if isinstance(x, tuple)), ())
        note = first_token(c[2:], "STRING")
        name = first_token(c[2:], "PLACE_NAME")
        at = next((tuple(x) for x in c[2:] if isinstance(x, list)), None)
        return n.PlaceDef(span=self.sp(meta), shape=str(c[0]), id=str(c[1]), name=str(name) if name else None, values=values,
                          note=unquoted(note) if note else None, at=at)

    def place_name(self, meta, c):
        return Token("PLACE_NAME", unquoted(c[0]))  # a token of its own: the place's note is the STRING after it

    def place_at(self, meta, c):
        return [c[0], c[1]]  # a list: the place's values are the tuple

    def adjacent(self, meta, c):
        return n.Adjacency(span=self.sp(meta), place=str(c[0]), neighbours=tuple(str(x) for x in c[1:]))

    def edge(self, meta, c):
        return n.Adjacency(span=self.sp(meta), kind=str(c[0]), place=str(c[1]), neighbours=tuple(str(x) for x in c[2:]))

    def border_def(self, meta, c):
        return n.BorderDef(span=self.sp(meta), a=str(c[0]), b=str(c[1]), values=c[2])

    def exit_def(self, meta, c):
        return n.ExitDef(span=self.sp(meta), number=int(c[0]), place=str(c[1]), to=tuple(str(x) for x in c[2:]))

    def coast_def(self, meta, c):
        return n.CoastDef(span=self.sp(meta), name=str(c[0]), places=tuple(str(x) for x in c[1:]))

    def units(self, meta, c):
        return ("units", list(c))

    def unit_def(self, meta, c):
        where, loc_tok, *index = c[3]
        values = next((x for x in c[4:] if isinstance(x, tuple)), ())
        note = first_token(c[4:], "STRING")
        return n.UnitDef(
            span=self.sp(meta), id=str(c[0]), type=str(c[1]), type_span=self.ts(c[1]), side=str(c[2]),
            side_span=self.ts(c[2]), where=where, location=str(loc_tok), location_span=self.ts(loc_tok), values=values,
            box_index=index[0] if index else None,
            note=unquoted(note) if note else None,
        )

    def loc_at(self, meta, c):
        return ("at", c[0])

    def loc_aboard(self, meta, c):
        return ("aboard", c[0])

    def loc_box(self, meta, c):
        return ("in", c[0], int(c[1]) if len(c) > 1 else None)

    def until(self, meta, c):
        return ("until", self.turn_count(c[0]))

    def at(self, meta, c):
        phase, step = (str(c[1]), str(c[2])) if len(c) > 2 and c[1] is not None else (None, None)
        if c[0].type == "STRING":
            return n.StepAt(span=self.sp(meta), turn=0, turn_name=unquoted(c[0]), phase=phase, step=step)
        return n.StepAt(span=self.sp(meta), turn=int(c[0]), phase=phase, step=step)

    def track_set(self, meta, c):
        names = _tokens(c, "NAME")
        side = str(names[1]) if len(names) > 1 else None
        return ("tracks", [n.TrackSet(span=self.sp(meta), track=str(names[0]), side=side, value=int(c[-1]))])

    def state_set(self, meta, c):
        return ("states", [c[0]])

    def state_key_set(self, meta, c):
        value = "X" if isinstance(c[2], Token) and c[2].type == "X" else "?" if isinstance(c[2], Token) and c[2].type == "MISSING" else c[2]
        return ("states", [n.StatValue(span=self.sp(meta), name=str(c[0]), key=str(c[1]), value=value)])

    def run_step(self, meta, c):
        return n.RunTarget(span=self.sp(meta), step=str(c[0]), more_steps=tuple(str(x) for x in c[1:]))

    def run_call(self, meta, c):
        return n.RunTarget(span=self.sp(meta), proc=str(c[0]), args=c[1])

    def dice(self, meta, c):
        return ("dice", list(c))

    def die_entry(self, meta, c):
        label = first_token(c, "STRING")
        return n.ScriptedDie(span=self.sp(meta), value=int(c[0]), label=unquoted(label) if label else None)

    def draw_entry(self, meta, c):
        chit = c[0]
        label = c[1] if len(c) > 1 else None
        return n.ScriptedDraw(span=self.sp(meta), chit=unquoted(chit) if chit.type == "STRING" else str(chit),
                              label=unquoted(label) if label is not None else None)

    def decisions(self, meta, c):
        return ("decisions", list(c))

    def side_plays(self, meta, c):
        return n.SidePlays(span=self.sp(meta), side=str(c[0]), agent=str(c[1]), agent_span=self.ts(c[1]))

    def decision(self, meta, c):
        dep = next((x for x in c[3:] if isinstance(x, n.Departure)), None)
        refusal = next((x for x in c[3:] if isinstance(x, n.Refusal)), None)
        return n.Decision(span=self.sp(meta), side=str(c[0]), name=str(c[1]), answer=c[2], departure=dep,
                          refusal=refusal)

    def refused(self, meta, c):
        return n.Refusal(span=self.sp(meta), text=unquoted(_tokens(c, "STRING")[0]), cite=citation_of(c))

    def departs(self, meta, c):
        strings = _tokens(c, "STRING")
        instead = next((x for x in c if isinstance(x, n.Answer)), None)
        return n.Departure(span=self.sp(meta), tag=str(c[0]), reason=unquoted(strings[0]), instead=instead, cite=citation_of(c))

    def answer_pass(self, meta, c):
        return n.Answer(span=self.sp(meta), passes=True)

    def answer_list(self, meta, c):
        return n.Answer(span=self.sp(meta), items=tuple(c))

    def answer_item(self, meta, c):
        return n.AnswerItem(name=str(c[0]), die=int(c[1]) if len(c) > 1 and c[1] is not None else None)

    def answer_place(self, meta, c):
        return n.AnswerItem(name=str(c[0]))

    def answer_box(self, meta, c):
        return n.AnswerItem(name=f"{c[0]}[{c[1]}]")  # one box of a per-side or per-turn box

    def answer_split(self, meta, c):
        return n.Answer(span=self.sp(meta), split=tuple(c))

    def split_item(self, meta, c):
        return n.SplitItem(span=self.sp(meta), name=str(c[0]), points=int(c[1]))

    def expect(self, meta, c):
        return ("expects", list(c))

    def expectation(self, meta, c):
        label = first_token(c, "STRING")
        departure = next((x for x in c if isinstance(x, n.PrintedDeparture)), None)
        return n.Expectation(span=self.sp(meta), expr=c[0], label=unquoted(label) if label else None, departure=departure)

    def printed_departure(self, meta, c):
        reason = _tokens(c, "STRING")[0]
        return n.PrintedDeparture(span=self.sp(meta), tag=str(c[0]), reason=unquoted(reason), printed=c[-1], cite=citation_of(c))


@functools.lru_cache(maxsize=4096)
def _interpolated(text: str, file: str) -> tuple[Any, Diagnostic | None]:
    """The expression of a string's {…} part, its spans as if it were the whole text of line 1
    (``_shift`` moves them to where the part stands): (the expression, None); or (None, the
    diagnostic) for a limit passed; or (None, None) for a text that is no expression. Kept by text
    within the process, for the rules write the same few parts ("{u}", "{side}") again and again,
    and each parse of one cost about as much as a line of the rules."""
    try:
        tree = parse(text, file, "expr")
        return Builder(file).transform(tree), None
    except LimitError as err:
        return None, err.diagnostics[0]
    except UmpireError:
        return None, None


def _shift(node: Any, line: int, col_offset: int) -> Any:
    """Move the spans of an expression parsed from inside a string to where it stands in the file."""
    if isinstance(node, Span):
        return node.model_copy(update={"line": line, "end_line": line, "col": node.col + col_offset, "end_col": node.end_col + col_offset})
    if isinstance(node, tuple):
        return tuple(_shift(x, line, col_offset) for x in node)
    if isinstance(node, n.BaseModel):
        return node.model_copy(update={k: _shift(v, line, col_offset) for k, v in node if isinstance(v, (Span, tuple, n.BaseModel))})
    return node


def build(tree: Tree, file: str) -> Any:
    """Transform a parse tree to IR; raise UmpireError on any construct error."""
    builder = Builder(file)
    with trusted():  # the builder makes every field of its declared type (trust.py)
        result = builder.transform(tree)
    if builder.errors:
        raise UmpireError(builder.errors)
    return result


def parse_and_build(text: str, file: str, start: str) -> Any:
    """A file's text parsed and built into its IR, as ``build(parse(text, file, start), file)`` gives it,
    in one pass where it can (syntax/onepass.py: about a third of a cold check's parse and build). A
    text that does not parse, nests too deep or that the builder complains of is read the two-pass
    way, which says what is wrong in its own words."""
    builder = Builder(file)
    with trusted():
        result = onepass.parse_and_build(parser(), text, start, builder)
    if result is None or builder.errors:
        return build(parse(text, file, start), file)
    return result


def _scenario_extra(item: Any, extra: dict[str, Any]) -> None:
    """A scenario line held once, not in a list: where it starts, until when, its stop, its run."""
    if isinstance(item, n.StepAt):
        extra["at"] = item
    elif isinstance(item, tuple) and item and item[0] == "until":
        extra["until"] = item[1]
    elif isinstance(item, tuple) and item and item[0] == "stops":
        extra["stops"], extra["stops_cite"] = item[1], item[2]
    elif isinstance(item, n.RunTarget):
        extra["run"] = item

