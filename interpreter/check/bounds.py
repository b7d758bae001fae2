"""Bounds of numeric expressions: the interval analysis behind `umpire check`'s table ranges.

A set of whole numbers is kept as sorted, disjoint intervals whose ends may be infinite
(unbounded). Expressions are evaluated over such sets without running anything: a
constant is one value, a die roll the range of its totals, a stat the range of the values
printed on the declared counters and types, a parameter of a table or procedure the union
of what every call in the ruleset passes, a local name the union of everything assigned
to it anywhere in its body (the order of statements is ignored). What cannot be bounded
is unbounded, and the reason is kept for the report.

The result over-approximates: every value the rules can produce is in the set, though the
set may hold values they never produce (two conditions that exclude each other are each
taken on their own). So "no value can reach this row" is a proof; "this value can be
reached" is a strong suspicion. A truth value is the set {0, 1}: 0 false, 1 true.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from pydantic import BaseModel

from ..ir import nodes as n
from ..ir.symbols import Symbols
from ..ir.visit import dispatch, node_fields_backwards
from ..limits import MAX_REPEAT
from ..syntax.diagnostics import Span

INF = math.inf
_MAX_SPANS = 64  # more pieces than this and a set is widened to its hull
_MAX_POINTS = 256  # operands this small are combined value by value


@dataclass(frozen=True)
class Values:
    """A set of whole numbers as sorted, disjoint, non-adjacent intervals (ends may be ±inf)."""

    spans: tuple[tuple[float, float], ...] = ()

    @staticmethod
    def of(*values: int) -> Values:
        return _norm([(v, v) for v in values])

    @staticmethod
    def range(low: float, high: float) -> Values:
        return _norm([(low, high)]) if low <= high else Values()

    @property
    def low(self) -> float:
        return self.spans[0][0] if self.spans else INF

    @property
    def high(self) -> float:
        return self.spans[-1][1] if self.spans else -INF

    def empty(self) -> bool:
        return not self.spans

    def bounded(self) -> bool:
        return self.low > -INF and self.high < INF

    def size(self) -> float:
        return sum(b - a + 1 for a, b in self.spans)

    def points(self) -> Iterator[int]:
        for a, b in self.spans:
            yield from range(int(a), int(b) + 1)

    def __contains__(self, value: int) -> bool:
        return any(a <= value <= b for a, b in self.spans)

    def __or__(self, other: Values) -> Values:
        return _norm([*self.spans, *other.spans])

    def __and__(self, other: Values) -> Values:
        out = []
        for a, b in self.spans:
            for c, d in other.spans:
                if max(a, c) <= min(b, d):
                    out.append((max(a, c), min(b, d)))
        return _norm(out)

    def __sub__(self, other: Values) -> Values:
        out = list(self.spans)
        for c, d in other.spans:
            nxt = []
            for a, b in out:
                if d < a or c > b:
                    nxt.append((a, b))
                    continue
                if a < c:
                    nxt.append((a, c - 1))
                if d < b:
                    nxt.append((d + 1, b))
            out = nxt
        return _norm(out)

    def __add__(self, other: Values) -> Values:
        return _norm([(a + c, b + d) for a, b in self.spans for c, d in other.spans])

    def __neg__(self) -> Values:
        return _norm([(-b, -a) for a, b in self.spans])

    def truth(self) -> str:
        """'always', 'never' or 'maybe': whether a value of the set counts as true (non-zero)."""
        if self.empty():
            return "maybe"
        if self.spans == ((0, 0),):
            return "never"
        return "maybe" if 0 in self else "always"

    def __str__(self) -> str:
        return describe(self)


def _norm(spans: list[tuple[float, float]]) -> Values:
    spans = sorted((a, b) for a, b in spans if a <= b)
    out: list[tuple[float, float]] = []
    for a, b in spans:
        if out and a <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    if len(out) > _MAX_SPANS:
        out = [(out[0][0], out[-1][1])]
    return Values(tuple(out))


ANY = Values(((-INF, INF),))
BOOL = Values.of(0, 1)
TRUE, FALSE = Values.of(1), Values.of(0)


def _number(v: float) -> str:
    return str(int(v))


def describe(values: Values) -> str:
    """'0..9', '0 and 7..9', '3 or more', 'any number', 'no value'."""
    if values.empty():
        return "no value"
    if values == ANY:
        return "any number"
    parts = []
    for a, b in values.spans:
        if a == -INF and b == INF:
            parts.append("any number")
        elif a == -INF:
            parts.append(f"{_number(b)} or less")
        elif b == INF:
            parts.append(f"{_number(a)} or more")
        elif a == b:
            parts.append(_number(a))
        else:
            parts.append(f"{_number(a)}..{_number(b)}")
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def pointwise(left: Values, right: Values, op: Callable[[int, int], int | None], hull: Callable[[Values, Values], Values]) -> Values:
    """Combine two small sets value by value; larger ones through ``hull``, which must contain every result."""
    if left.bounded() and right.bounded() and left.size() <= _MAX_POINTS and right.size() <= _MAX_POINTS:
        results = [op(a, b) for a in left.points() for b in right.points()]
        if any(r is None for r in results):
            return ANY
        return Values.of(*results)
    return hull(left, right)


def _corners(left: Values, right: Values) -> Values:
    if not (left.bounded() and right.bounded()) or left.empty() or right.empty():
        return ANY
    corners = [a * b for a in (left.low, left.high) for b in (right.low, right.high)]
    return Values.range(min(corners), max(corners))


def _div_hull(left: Values, right: Values) -> Values:
    if right.size() == 1 and right.low > 0:
        d = int(right.low)
        return _norm([(a if a == -INF else a // d, b if b == INF else b // d) for a, b in left.spans])
    return ANY


def _round(a: int, b: int, mode: str) -> int | None:
    """a / b rounded as a `rounded` division says (None: a division by zero)."""
    if b == 0:
        return None
    a, b = (-a, -b) if b < 0 else (a, b)
    return -(-a // b) if mode == "up" else (2 * a + b) // (2 * b) if mode == "nearest" else a // b


def _rounded_hull(left: Values, right: Values, mode: str) -> Values:
    """Rounding is monotonic for a positive divisor: each span's ends, rounded, bound it."""
    if right.size() == 1 and right.low > 0:
        d = int(right.low)
        return _norm([(a if a == -INF else _round(int(a), d, mode), b if b == INF else _round(int(b), d, mode)) for a, b in left.spans])
    return ANY


def _mod_hull(left: Values, right: Values) -> Values:
    if right.size() == 1 and right.low > 0:
        return Values.range(0, right.low - 1)
    return ANY


def _minmax_hull(pick: Callable[[float, float], float]) -> Callable[[Values, Values], Values]:
    def hull(left: Values, right: Values) -> Values:
        if left.empty() or right.empty():
            return ANY
        return Values.range(pick(left.low, right.low), pick(left.high, right.high))
    return hull


_COMPARE = {
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b,
}
_NARROW = {  # the values x may take when 'x OP c' holds
    "<": lambda c: Values.range(-INF, c - 1), "<=": lambda c: Values.range(-INF, c),
    ">": lambda c: Values.range(c + 1, INF), ">=": lambda c: Values.range(c, INF),
    "==": lambda c: Values.of(c), "!=": lambda c: ANY - Values.of(c),
}
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


def compare(op: str, left: Values, right: Values) -> Values:
    """The truth of ``left OP right`` for every pair of values, as a subset of {0, 1}."""
    if left.empty() or right.empty():
        return BOOL
    if op in ("==", "!="):
        if left.size() == 1 and left == right:
            return TRUE if op == "==" else FALSE
        if (left & right).empty():
            return FALSE if op == "==" else TRUE
        return BOOL
    test = _COMPARE[op]
    # The pair least and most favourable to the test: if even the least passes, it always holds.
    if op in ("<", "<="):
        worst, best = (left.high, right.low), (left.low, right.high)
    else:
        worst, best = (left.low, right.high), (left.high, right.low)
    if test(*worst):
        return TRUE
    return BOOL if test(*best) else FALSE


# ───────────────────────────── where expressions live ─────────────────────────────


@dataclass
class Site:
    """A body of rules: a procedure, a table (its modifiers and row effects), a hook, an invariant, a step."""

    kind: str  # procedure | table | hook | invariant | step
    name: str
    cite: str | None
    span: Span
    params: tuple[str, ...]
    bodies: tuple[tuple, ...]
    assigned: dict[str, list] = field(default_factory=dict)  # local name -> the statements that bind it

    def title(self) -> str:
        cite = f" [{self.cite}]" if self.cite else ""
        return f"{self.kind} {self.name}{cite}"


@dataclass
class Call:
    """A call of a procedure or a lookup of a table: its arguments and the site it stands in."""

    args: tuple[n.Arg, ...]
    site: Site
    span: Span


@dataclass
class Ctx:
    """Where an expression is evaluated: its site, names bound around it, and the reasons collected."""

    site: Site | None
    names: dict  # name -> Values, or a function's argument not evaluated yet (a callable giving Values)
    why: list[str]

    def bind(self, **names: Values) -> Ctx:
        return Ctx(self.site, {**self.names, **names}, self.why)


def nodes(obj) -> Iterator:
    """Every IR node inside ``obj`` (a node, an argument, a tuple of them), ``obj`` first."""
    stack = [obj]  # depth first on a stack of its own: no generator for each level of nesting
    while stack:
        node = stack.pop()
        if isinstance(node, tuple):
            stack.extend(reversed(node))
        elif isinstance(node, BaseModel) and not isinstance(node, Span):
            yield node
            values = node.__dict__
            stack.extend([values[name] for name in node_fields_backwards(type(node))])


def statements(block: tuple) -> Iterator:
    """Every statement of a block, nested blocks included."""
    for s in block:
        yield s
        fields = s.__dict__  # a statement without a block has no such field: read as None, not a miss raised inside pydantic
        for name in ("body", "orelse"):
            inner = fields.get(name)
            if isinstance(inner, tuple):
                yield from statements(inner)


def sites(sym: Symbols) -> list[Site]:
    """Every body of statements in the ruleset, with the local names each binds."""
    out = [Site("procedure", p.name, p.cite, p.span, tuple(a.name for a in p.params), (p.body,)) for p in sym.procedures.values()]
    out += [Site("table", t.name, t.cite, t.span, tuple(a.name for a in t.params), tuple(r.effect for r in t.rows) + tuple(r.effect for r in t.results))
            for t in sym.tables.values()]
    out += [Site("hook", h.event, h.cite, h.span, (h.var,) if h.var else (), (h.body,)) for h in sym.hooks]
    out += [Site("invariant", i.name, i.cite, i.span, (), (i.body,)) for i in sym.invariants]
    for (phase, step), decl in sym.steps().items():
        out.append(Site("step", f"{phase}.{step}", decl.cite, decl.span, (), (decl.body,)))
    for site in out:
        for body in site.bodies:
            for s in statements(body):
                for name in _binds(s):
                    site.assigned.setdefault(name, []).append(s)
        # A name only ever `set` (never `let`, never a parameter) is a game state, not a local.
        for name in [k for k, binds in site.assigned.items() if k not in site.params and all(isinstance(b, n.SetStmt) for b in binds)]:
            del site.assigned[name]
    return out


def _binds(s) -> list[str]:
    if isinstance(s, (n.Let, n.Choose, n.Lookup, n.Draw, n.Pick)):
        return [s.name]
    if isinstance(s, n.ForEach):
        return [s.var]
    if isinstance(s, (n.Repeat, n.Impulses)) and s.var is not None:
        return [s.var]
    if isinstance(s, (n.SetStmt, n.Roll, n.Adjust)) and isinstance(s.target, n.Var):
        return [s.target.name]
    return []


# ───────────────────────────── the evaluator ─────────────────────────────


class Bounds:
    """Evaluates expressions of a checked ruleset to the sets of numbers they can take."""

    def __init__(self, sym: Symbols, all_sites: list[Site]):
        self.sym = sym
        self.sites = all_sites
        self.calls: dict[tuple[str, str], list[Call]] = {}
        for site in all_sites:
            for body in site.bodies:
                for s in statements(body):
                    if isinstance(s, n.CallStmt):
                        self.calls.setdefault(("procedure", s.proc), []).append(Call(s.args, site, s.span))
                    elif isinstance(s, n.Lookup):
                        self.calls.setdefault(("table", s.table), []).append(Call(s.args, site, s.span))
        # Tables read inside expressions (language 8.4): their arguments come from places the
        # analysis does not follow (a function's parameters), so their keys are not bounded.
        roots = [*sym.functions.values(), *sym.procedures.values(), *sym.hooks, *sym.tables.values(), sym.sequence]
        self.read_in_expressions = {e.func for e in sym.walked.of(roots, n.CallExpr)
                                    if e.func in sym.tables and e.func not in sym.functions}
        self._cache: dict[tuple, tuple[Values, list[str]]] = {}
        self._active: set[tuple] = set()
        self._stats: dict[str, tuple[Values, str]] = {}

    def _once(self, key: tuple, ctx: Ctx, compute: Callable[[list[str]], Values], loop_reason: str | None) -> Values:
        """Compute a value once (cached with its reasons); a value that depends on itself is unbounded."""
        if key in self._cache:
            values, why = self._cache[key]
        elif key in self._active:
            if loop_reason:
                ctx.why.append(loop_reason)
            return ANY
        else:
            self._active.add(key)
            why: list[str] = []
            try:
                values = compute(why)
            finally:
                self._active.discard(key)
            self._cache[key] = (values, why)
        ctx.why.extend(w for w in why if w not in ctx.why)
        return values

    # ── names ──
    def param(self, kind: str, name: str, param: str, ctx: Ctx) -> Values:
        """A parameter of a procedure or table: the union of what every call passes."""
        def compute(why: list[str]) -> Values:
            calls = self.calls.get((kind, name), [])
            if kind not in ("procedure", "table"):
                return ANY
            if kind == "table" and name in self.read_in_expressions:
                why.append(f"table '{name}' is read inside an expression, so its '{param}' is not followed")
                return ANY
            if not calls:
                verb = "reads" if kind == "table" else "calls"
                why.append(f"no rule {verb} {kind} '{name}', so its '{param}' can be any value a scenario gives")
                return ANY
            out = Values()
            for call, arg in self.arguments(kind, name, param):
                out |= ANY if arg is None else self.expr(arg, Ctx(call.site, {}, why))
            return out
        return self._once(("param", kind, name, param), ctx, compute, f"'{param}' of {kind} '{name}' is passed round a cycle of calls")

    def arguments(self, kind: str, name: str, param: str) -> list[tuple[Call, n.Expr | None]]:
        """Every call of a procedure or table, with the expression it passes for ``param``."""
        decl = self.sym.procedures.get(name) if kind == "procedure" else self.sym.tables.get(name)
        if decl is None:
            return []
        params = [p.name for p in decl.params]
        if param not in params:
            return []
        index = params.index(param)
        out = []
        for call in self.calls.get((kind, name), []):
            positional = [a for a in call.args if a.name is None]
            named = [a.value for a in call.args if a.name == param]
            out.append((call, positional[index].value if index < len(positional) else (named[0] if named else None)))
        return out

    def local(self, site: Site, name: str, ctx: Ctx) -> Values:
        """A local name: the union of every value bound to it in its site."""
        def compute(why: list[str]) -> Values:
            inner = Ctx(site, {}, why)
            out = self.param(site.kind, site.name, name, inner) if name in site.params else Values()
            for s in site.assigned[name]:
                out |= self._bound_by(s, inner)
            return out
        return self._once(("local", id(site), name), ctx, compute, f"'{name}' in {site.kind} {site.name} is computed from its own value")

    def _bound_by(self, s, ctx: Ctx) -> Values:
        if isinstance(s, (n.Let, n.SetStmt)):
            return self.expr(s.value, ctx)
        if isinstance(s, n.ForEach):
            return self.elements(s.iterable, ctx)
        if isinstance(s, n.Impulses):  # the seat whose impulse it is
            return self.elements(s.order, ctx)
        if isinstance(s, n.Repeat):  # a round counter: 1 up to the limit, or to the runaway limit
            limit = self.expr(s.limit, ctx) if s.limit is not None else Values.range(MAX_REPEAT, MAX_REPEAT)
            return Values.range(1, limit.high) if limit.bounded() and limit.high >= 1 else Values.range(1, MAX_REPEAT)
        if isinstance(s, n.Roll):
            die = self.sym.dice.get(s.die)
            count = self.expr(s.count, ctx) & Values.range(0, INF)
            if die is None or not count.bounded() or count.size() > _MAX_POINTS:
                return ANY
            return _norm([(k * die.low, k * die.high) for k in count.points()])
        if isinstance(s, n.Lookup):
            return self._table_numbers(s.table)
        if isinstance(s, n.Pick) and s.count is None:  # one of the list's elements (none when it is empty)
            return self.elements(s.options, ctx)
        return ANY  # a decision, a table's named result, an adjusted number

    def _table_numbers(self, name: str) -> Values:
        """What a lookup of a table that gives numbers (8.5) can bind: its cells' numbers (any value for a named
        result, or where a roll or a column beyond the table has no effect). A cell the rulebook does not print
        ('?') binds nothing: reading it stops the run."""
        t = self.sym.tables.get(name)
        if t is None or not t.rows or t.beyond == "no_effect":
            return ANY
        if t.columns is not None and any(t.column_end(end)[0] == "no_effect" for end in ("below", "above")):
            return ANY  # a column off the table may give none
        numbers = []
        for r in t.rows:
            values = (r.value,) if r.value is not None else r.cell_values or (None,) * len(r.cells)
            for cell, v in zip(r.cells or (r.result,), values):
                if v is None and cell != "?":
                    return ANY
                numbers += [] if v is None else [v]
        return _norm([(v, v) for v in numbers]) if numbers else ANY

    def var(self, name: str, ctx: Ctx) -> Values:
        if name in ctx.names:
            value = ctx.names[name]
            if callable(value):  # a function's argument, evaluated on first use
                value = ctx.names[name] = value()
            return value
        site = ctx.site
        if site is not None and name in site.assigned:
            return self.local(site, name, ctx)
        if site is not None and name in site.params:
            return self.param(site.kind, site.name, name, ctx)
        track = self.sym.tracks.get(name)
        if track is not None and not track.keyed:
            return Values.range(track.low, track.high)
        state = self.sym.game_states.get(name)
        if state is not None and state.type.name == "bool":
            return BOOL
        return ANY

    def stat(self, name: str, ctx: Ctx) -> Values:
        """A stat read as a number: the range of the numbers printed for it on counters and types."""
        if name not in self._stats:
            self._stats[name] = self._stat_range(name)
        values, why = self._stats[name]
        if why and why not in ctx.why:
            ctx.why.append(why)
        return values

    def _stat_range(self, name: str) -> tuple[Values, str]:
        printed: dict[str, int] = {}
        unprinted: list[str] = []
        types = self.sym.types
        for decl in list(types.values()) + list(self.sym.counters.values()):
            own = {v.name: v.value for v in decl.values if not v.is_flag}
            if isinstance(decl, n.CounterDecl) and name not in own and decl.type in types:
                own = {v.name: v.value for v in types[decl.type].values if not v.is_flag}
            value = own.get(name)
            if isinstance(value, int):
                printed[decl.name] = value
            elif value == "?":
                unprinted.append(decl.name)
        printed.update(self._face_values(name))
        if not printed:
            return ANY, f"'{name}' is printed as a number on no counter or type"
        low, high = min(printed.values()), max(printed.values())
        shown = ", ".join(f"{k} {v}" for k, v in list(printed.items())[:6]) + (", …" if len(printed) > 6 else "")
        text = f"'{name}' is printed {describe(Values.range(low, high))} ({shown})"
        if unprinted:
            names = ", ".join(unprinted[:6]) + (", …" if len(unprinted) > 6 else "")
            text += f"; not printed ('?') for {names}, taken to lie within that range"
        return Values.range(low, high), text

    def _face_values(self, name: str) -> dict[str, int]:
        """The numbers the faces give a stat (5.6): printed values too, on the other side of the counter."""
        out = {}
        for face in self.sym.faces:
            value = next((v.value for v in face.values if v.name == name and not v.is_flag), None)
            if isinstance(value, int):
                out[f"{face.holder} {face.value}"] = value
        return out

    # ── expressions ──
    def expr(self, e, ctx: Ctx) -> Values:
        return dispatch(self, "value_", e, ctx)

    def value_any(self, e, ctx: Ctx) -> Values:
        """No bound is tracked for this kind of expression: it may be anything."""
        return ANY

    value_str = value_none = value_x = value_place = value_list = value_map = value_comprehension = value_any

    def value_int(self, e: n.IntLit, ctx: Ctx) -> Values:
        return Values.of(e.value)

    def value_bool(self, e: n.BoolLit, ctx: Ctx) -> Values:
        return TRUE if e.value else FALSE

    def value_var(self, e: n.Var, ctx: Ctx) -> Values:
        return self.var(e.name, ctx)

    def value_attr(self, e: n.Attr, ctx: Ctx) -> Values:
        if self.sym.enumeration_value(e) is not None:
            return ANY  # `region.west_indies`: a name, as a bare enumeration value is
        return self.attribute(e.name, ctx)

    def value_index(self, e: n.Index, ctx: Ctx) -> Values:
        if isinstance(e.obj, n.Var) and e.obj.name in self.sym.tracks and e.obj.name not in ctx.names:
            track = self.sym.tracks[e.obj.name]
            return Values.range(track.low, track.high)
        numbers = self.chart_numbers(e.obj)
        return ANY if numbers is None else numbers

    def chart_numbers(self, e) -> Values | None:
        """The numbers a printed chart gives (`season_numbers()[m]`): a function of no parameter whose body
        is a map or list of numbers (language 9.1a); None for anything else."""
        decl = self.sym.functions.get(e.func) if isinstance(e, n.CallExpr) and not e.args else None
        if decl is None or decl.params:
            return None
        body = decl.body
        items = [x.value for x in body.entries] if isinstance(body, n.MapLit) else body.items if isinstance(body, n.ListLit) else ()
        numbers = [x.value if isinstance(x, n.IntLit) else -x.operand.value for x in items
                   if isinstance(x, n.IntLit) or isinstance(x, n.Neg) and isinstance(x.operand, n.IntLit)]
        return Values.of(*numbers) if items and len(numbers) == len(items) else None

    def value_neg(self, e: n.Neg, ctx: Ctx) -> Values:
        return -self.expr(e.operand, ctx)

    def value_binop(self, e: n.BinOp, ctx: Ctx) -> Values:
        return self.binop(e.op, self.expr(e.left, ctx), self.expr(e.right, ctx))

    def value_rounded(self, e: n.Rounded, ctx: Ctx) -> Values:
        """A division's values rounded as it says, then raised to its floor ('at least 1')."""
        left, right = self.expr(e.left, ctx), self.expr(e.right, ctx)
        if left.empty() or right.empty():
            return Values()
        out = pointwise(left, right, lambda a, b: _round(a, b, e.mode), lambda a, b: _rounded_hull(a, b, e.mode))
        if e.least is None:
            return out
        return pointwise(out, self.expr(e.least, ctx), max, _minmax_hull(max))

    def value_compare(self, e: n.Compare, ctx: Ctx) -> Values:
        return compare(e.op, self.expr(e.left, ctx), self.expr(e.right, ctx))

    def value_boolop(self, e: n.BoolOp, ctx: Ctx) -> Values:
        truths = [self.expr(item, ctx).truth() for item in e.items]
        decisive, other = ("never", "always") if e.op == "and" else ("always", "never")
        if decisive in truths:
            return FALSE if decisive == "never" else TRUE
        return (TRUE if other == "always" else FALSE) if all(t == other for t in truths) else BOOL

    def value_not(self, e: n.Not, ctx: Ctx) -> Values:
        truth = self.expr(e.operand, ctx).truth()
        return {"always": FALSE, "never": TRUE}.get(truth, BOOL)

    def value_test(self, e, ctx: Ctx) -> Values:
        return BOOL

    value_has = value_is = value_in = value_test

    def value_matching(self, e: n.Matching, ctx: Ctx) -> Values:
        return Values.range(0, INF)

    def value_cond(self, e: n.CondExpr, ctx: Ctx) -> Values:
        truth = self.expr(e.test, ctx).truth()
        then = self.expr(e.then, self.narrow(e.test, ctx)) if truth != "never" else Values()
        orelse = self.expr(e.orelse, ctx) if truth != "always" else Values()
        return then | orelse

    def value_call(self, e: n.CallExpr, ctx: Ctx) -> Values:
        return self.call(e, ctx)

    def attribute(self, name: str, ctx: Ctx) -> Values:
        sym = self.sym
        if any(r.field(name) for r in sym.records.values()):
            return ANY  # perhaps a record's field, of any value its type allows: not a unit's stat
        if name in sym.stats:
            return self.stat(name, ctx)
        if name in sym.flags:
            return BOOL
        decl = sym.unit_states.get(name) or sym.place_props.get(name)
        if decl is not None and decl.type.name == "bool":
            return BOOL
        return ANY

    def binop(self, op: str, left: Values, right: Values) -> Values:
        if left.empty() or right.empty():
            return Values()
        if op == "+":
            return left + right
        if op == "-":
            return left + -right
        if op == "*":
            return pointwise(left, right, lambda a, b: a * b, _corners)
        if op == "/":
            return pointwise(left, right, lambda a, b: a // b if b else None, _div_hull)
        if op == "%":
            return pointwise(left, right, lambda a, b: a % b if b else None, _mod_hull)
        return ANY

    def call(self, e: n.CallExpr, ctx: Ctx) -> Values:
        fn = self.sym.functions.get(e.func)
        args = [a.value for a in e.args]
        if fn is not None:
            return self.function(fn, e.args, ctx)
        if e.func in ("min", "max") and len(args) == 1:
            items = self.elements(args[0], ctx)
            return ANY if items.empty() else items
        if e.func in ("min", "max") and len(args) == 2:
            pick = min if e.func == "min" else max
            return pointwise(self.expr(args[0], ctx), self.expr(args[1], ctx), pick, _minmax_hull(pick))
        if e.func == "count":
            if len(args) == 1 and isinstance(args[0], n.ListLit):
                return Values.of(len(args[0].items))
            return Values.range(0, INF)
        if e.func == "get" and len(args) == 3 and (numbers := self.chart_numbers(args[0])) is not None:
            return numbers | self.expr(args[2], ctx)  # a printed chart read with a default
        if e.func in self.sym.tables and fn is None:  # a table read in an expression: its cells' numbers
            return self._table_numbers(e.func)
        if e.func == "cheapest":  # a sum of moves' costs 0 or more (or none, which no row reads)
            return Values.range(0, INF)
        if e.func == "turn":
            turns = self.sym.game.turns if self.sym.game else None
            return Values.range(1, turns if turns else INF)
        if e.func in ("any", "all", "diagonal"):
            return BOOL
        return ANY

    def function(self, fn: n.FunctionDecl, args: tuple[n.Arg, ...], ctx: Ctx) -> Values:
        key = ("function", fn.name)
        if key in self._active:  # a recursive function: not followed
            return ANY
        self._active.add(key)
        try:
            return self.expr(fn.body, Ctx(None, self._lazy_args(fn, args, ctx), ctx.why))
        finally:
            self._active.discard(key)

    def _lazy_args(self, fn: n.FunctionDecl, args: tuple[n.Arg, ...], ctx: Ctx) -> dict:
        """A function's parameters, each evaluated only if the body reads it as a number."""
        params = [p.name for p in fn.params]
        bound: dict = {}
        for i, a in enumerate(args):
            name = a.name if a.name is not None else (params[i] if i < len(params) else None)
            if name is not None:
                bound[name] = (lambda value=a.value: self.expr(value, ctx))
        return bound

    def elements(self, e, ctx: Ctx) -> Values:
        """The numbers a list's items can be (empty for the empty list)."""
        if isinstance(e, n.ListLit):
            out = Values()
            for item in e.items:
                out |= self.expr(item, ctx)
            return out
        if isinstance(e, n.BinOp) and e.op == "+":
            return self.elements(e.left, ctx) | self.elements(e.right, ctx)
        if isinstance(e, n.Comprehension):
            inner = ctx.bind(**{e.var: self.elements(e.iterable, ctx)})
            return self.elements(e.expr, inner) if e.flat else self.expr(e.expr, inner)
        if isinstance(e, n.CondExpr):
            return self.elements(e.then, ctx) | self.elements(e.orelse, ctx)
        if isinstance(e, n.CallExpr) and e.func in self.sym.functions and ("elements", e.func) not in self._active:
            fn = self.sym.functions[e.func]
            self._active.add(("elements", e.func))
            try:
                return self.elements(fn.body, Ctx(None, self._lazy_args(fn, e.args, ctx), ctx.why))
            finally:
                self._active.discard(("elements", e.func))
        return ANY

    def narrow(self, test, ctx: Ctx) -> Ctx:
        """The context in which ``test`` holds: 'x > 0' narrows x to 1 or more (x a name, the other side one value)."""
        if isinstance(test, n.BoolOp) and test.op == "and":
            for item in test.items:
                ctx = self.narrow(item, ctx)
            return ctx
        if isinstance(test, n.Var):
            return ctx.bind(**{test.name: self.var(test.name, ctx) - FALSE})
        if not isinstance(test, n.Compare) or test.op not in _NARROW:
            return ctx
        for var, other, op in ((test.left, test.right, test.op), (test.right, test.left, _FLIP[test.op])):
            if isinstance(var, n.Var):
                value = self.expr(other, ctx)
                if value.size() == 1:
                    return ctx.bind(**{var.name: self.var(var.name, ctx) & _NARROW[op](value.low)})
        return ctx


def show(e, limit: int = 60) -> str:
    """An expression written back as rules text (shortened), for messages."""
    text = _show(e)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _show(e) -> str:
    shown = _SHOWN.get(type(e))
    return shown(e) if shown else "…"


def _show_call(e: n.CallExpr) -> str:
    return f"{e.func}(" + ", ".join((f"{a.name}: " if a.name else "") + _show(a.value) for a in e.args) + ")"


def _show_comprehension(e: n.Comprehension) -> str:
    gens = f"for {e.var} in {_show(e.iterable)}"
    while e.flat and isinstance(e.expr, n.Comprehension):
        e = e.expr
        gens += f" for {e.var} in {_show(e.iterable)}"
    return f"[{_show(e.expr)} {gens}" + (f" where {_show(e.where)}" if e.where else "") + "]"


# One way of writing back each kind of expression; a kind not listed shows as "…".
_SHOWN = {
    n.IntLit: lambda e: str(e.value),
    n.BoolLit: lambda e: "true" if e.value else "false",
    n.NoneLit: lambda e: "none",
    n.XLit: lambda e: "X",
    n.StrLit: lambda e: f'"{e.value}"',
    n.PlaceLit: lambda e: f"@{e.id}",
    n.Var: lambda e: e.name,
    n.Attr: lambda e: f"{_show(e.obj)}.{e.name}",
    n.Index: lambda e: f"{_show(e.obj)}[{_show(e.key)}]",
    n.CallExpr: _show_call,
    n.BinOp: lambda e: f"{_show(e.left)} {e.op} {_show(e.right)}",
    n.Rounded: lambda e: f"{_show(e.left)} / {_show(e.right)} rounded {e.mode}" + (f" at least {_show(e.least)}" if e.least else ""),
    n.Compare: lambda e: f"{_show(e.left)} {e.op} {_show(e.right)}",
    n.BoolOp: lambda e: f" {e.op} ".join(_show(i) for i in e.items),
    n.Not: lambda e: f"not {_show(e.operand)}",
    n.Neg: lambda e: f"-{_show(e.operand)}",
    n.Has: lambda e: f"has {_show(e.operand)}",
    n.IsTest: lambda e: f"{_show(e.operand)} is {'not ' if e.negate else ''}{e.name}",
    n.InTest: lambda e: f"{_show(e.item)} in {_show(e.collection)}",
    n.CondExpr: lambda e: f"if {_show(e.test)} then {_show(e.then)} else {_show(e.orelse)}",
    n.ListLit: lambda e: "[" + ", ".join(_show(i) for i in e.items) + "]",
    n.Comprehension: _show_comprehension,
}
