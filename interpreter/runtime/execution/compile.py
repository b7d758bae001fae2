"""Lowering: IR expressions become Python closures, and so do the statements that never wait.

This is the "plain fast data" stage of the design: pydantic nodes are read once, here,
and the executor then only calls closures. A statement that never waits is one closure of
the frame's locals; the statements that wait or steer (roll, choose, if, for, call …) are
lowered to instructions by the machine (vm.py), which takes their halves from here
(`roll_parts`, `choice`) so both read the rules the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...ir import nodes as n
from ...lang import FUNCTION_ARGUMENTS
from ...limits import MAX_INT, MAX_LIST, MAX_POOL, MAX_STRING
from ..common.requests import ChoiceRequest, DrawRequest, RollRequest, RuleError
from ..common.spread import Spread
from ..common.values import MISSING, Die, Place, Pool, Unit, X, show, shown_at_most
from ..world import fog
from . import cups, generated_code, records
from .guards import check_int, check_list, check_string
from .operations import (
    ARITHMETIC,
    COMPARISONS,
    UNSET,
    Env,
    ExprFn,
    StmtFn,
    arithmetic,
    as_key,
    as_list,
    as_number,
    collection,
    constant,
    dice_of,
    entry,
    holds_number,
    is_number,
    is_test,
    items,
    matched,
    member,
    negative,
    ordered,
    place_of,
    place_reading,
    reader,
    rounded_division,
    unit_reading,
)
from .removal import Removal

_SHORT = 10**19  # a number between minus and plus this shows in at most 20 characters


def _no_default(record: str, name: str, span) -> ExprFn:
    """A field given no value and having no default: the checker reports it; a run that gets here stops."""
    def missing(env):
        raise RuleError(f"{record} needs a value for its field '{name}'", span)

    return missing


class Compiler:
    """Lowers the IR of one ruleset (and a scenario's expressions) against an engine."""

    def __init__(self, engine):
        self.engine = engine
        self.sym = engine.sym
        self._lets: dict[str, Any] = {}  # the latest `let` of each name compiled, to explain options
        self.cite: str | None = None  # the rule of the statement (or function) being compiled, for limit errors
        self.rule: str | None = None  # the declaration whose body is being compiled: names its generated code
        self._themselves: frozenset[str] | None = None

    def names_themselves(self) -> frozenset[str]:
        """The global names whose value is the name itself whatever the state, but for a unit of that id
        (Engine.global_value's order): sides, nations, enum values, edge kinds, and table results and
        chits that no box, track, game state, counter or cup takes."""
        if self._themselves is None:
            sym = self.sym
            taken = set(sym.boxes) | set(sym.tracks) | set(sym.game_states) | set(sym.counters)
            self._themselves = frozenset(set(sym.sides) | set(sym.nations) | set(sym.enum_values) | set(sym.edges)
                                         | set(sym.map_names) | ((sym.results() | set(sym.chits)) - taken - set(sym.cups)))
        return self._themselves

    # ───────────────────────── expressions ─────────────────────────

    def expr(self, e) -> ExprFn:
        """An expression as a function of the frame's locals: an operator or a call is written out as
        one Python function (generated_code.py); a name, a literal and the rest are closures."""
        if e.kind in generated_code.COMPOSITE and self.engine.generate:
            return generated_code.generate(self, e)
        return self.closure(e)

    def closure(self, e) -> ExprFn:
        """The expression as this compiler's closure of its kind (its subexpressions go through `expr`)."""
        return getattr(self, "x_" + e.kind)(e)

    def x_int(self, e: n.IntLit) -> ExprFn:
        v = e.value
        return lambda env: v

    def x_str(self, e: n.StrLit) -> ExprFn:
        if not e.parts:
            v = e.value
            return lambda env: v
        parts = [(p.text, self.expr(p.expr) if p.expr is not None else None) for p in e.parts]
        span, cite = e.span, self.cite

        def interpolate(env):
            pieces = []
            for text, fn in parts:
                if fn is None:
                    pieces.append(text)
                    continue
                v = fn(env)
                pieces.append(v if v.__class__ is str else show(v))  # show(text) is the text
            return check_string("".join(pieces), span, cite)

        return interpolate

    def x_bool(self, e: n.BoolLit) -> ExprFn:
        v = e.value
        return lambda env: v

    def x_none(self, e) -> ExprFn:
        return lambda env: None

    def x_x(self, e) -> ExprFn:
        return lambda env: X

    def x_place(self, e: n.PlaceLit) -> ExprFn:
        engine, pid, span = self.engine, e.id, e.span
        return lambda env: place_of(engine, pid, span)

    def x_var(self, e: n.Var) -> ExprFn:
        name, glob, span = e.name, self.engine.global_value, e.span

        def var(env):
            try:  # a local, the usual case (a try costs nothing until it fails)
                return env[name]
            except KeyError:
                return glob(name, span)

        return var

    def x_attr(self, e: n.Attr) -> ExprFn:
        if self.sym.enumeration_value(e) is not None:
            return self.qualified_value(e)
        obj, name, span = self.expr(e.obj), e.name, e.span
        general = self.engine.attribute  # explains any problem, and reads whatever is not a unit or place
        if name in self.sym.stats and name not in self.sym.place_props and name not in self.engine.faced:
            # The hot path of every rule: a printed value of a unit, read without the general lookup.
            def stat(env):
                u = obj(env)
                if u.__class__ is Unit:
                    v = u.stats.get(name)
                    if v is not MISSING:
                        return v
                return general(u, name, span)

            return stat
        on_unit = self.unit_reader(name) or (lambda u: general(u, name, span))
        on_place = self.place_reader(name) or (lambda p: general(p, name, span))

        def attr(env):
            u = obj(env)
            if u.__class__ is Unit:
                return on_unit(u)
            if u.__class__ is Place:
                return on_place(u)
            return general(u, name, span)

        return attr

    def qualified_value(self, e: n.Attr) -> ExprFn:
        """`region.west_indies`: the enumeration's value, its name (language 15); an attribute of the
        local when a local has the enumeration's name."""
        local, value, span, general = e.obj.name, e.name, e.span, self.engine.attribute
        return lambda env: general(env[local], value, span) if local in env else value

    def unit_reader(self, name: str) -> Callable[[Unit], Any] | None:
        """What Engine.attribute reads of a unit for `name` (operations.unit_reading); None when it may fail
        (a stat that may be missing, a name a unit lacks): the general path then explains."""
        reading = unit_reading(self.sym, name)
        return reader(reading) if reading is not None else None

    def place_reader(self, name: str) -> Callable[[Place], Any] | None:
        """What Engine.attribute reads of a place for `name` (operations.place_reading; None: the general path)."""
        reading = place_reading(self.sym, name)
        return reader(reading) if reading is not None else None

    def x_index(self, e: n.Index) -> ExprFn:
        if self.keyed_state(e) is not None:
            return self.keyed_reader(e)
        obj, key, span = self.expr(e.obj), self.expr(e.key), e.span

        return lambda env: entry(obj(env), key(env), span)

    def keyed_state(self, e: n.Index) -> str | None:
        """The per-key game state `e` reads or sets by key (`active[mc]`, language 6.4a), or None."""
        obj = e.obj
        return obj.name if obj.kind == "var" and self.sym.state_keys(obj.name) is not None else None

    def keyed_reader(self, e: n.Index) -> ExprFn:
        """`NAME[key]` of a per-key game state (a local of that name, when there is one, is read as any map)."""
        name, key, span, engine = e.obj.name, self.expr(e.key), e.span, self.engine

        def read(env):
            if name in env:
                return entry(env[name], key(env), span)
            return engine.keyed_state(name, key(env), span)

        return read

    def x_call(self, e: n.CallExpr) -> ExprFn:
        record = self.sym.records.get(e.func)
        if record is not None:
            return self.record_builder(record, e)
        passed = FUNCTION_ARGUMENTS.get(e.func) if e.func not in self.sym.functions else None
        args = [self.function_ref(a.value) if i == passed else self.expr(a.value) for i, a in enumerate(e.args)]
        names = [a.name for a in e.args]
        fn_decl = self.sym.functions.get(e.func)
        if fn_decl is not None:
            return self.engine.function_caller(fn_decl, args, names, e.span)
        if e.func in self.sym.tables:  # a table read at a value, in an expression (language 8.4)
            table = self.engine.table(e.func)
            return lambda env: table.value(table.bind(list(zip(names, [a(env) for a in args]))))
        impl = self.engine.builtin(e.func)
        span = e.span
        if len(args) == 1:  # count(…), units_at(…), enemy(…): no list of arguments built
            (a,) = args
            return lambda env: impl(span, a(env))
        if len(args) == 2:
            a, b = args
            return lambda env: impl(span, a(env), b(env))

        def call(env):
            return impl(span, *[a(env) for a in args])

        return call

    def function_ref(self, e) -> ExprFn:
        """A ruleset function given by its bare name to a built-in (`cheapest(…, wind_cost)`): its caller of
        two values, called through the engine as any call of it is. The checker allows nothing else."""
        if isinstance(e, n.CallExpr) and e.func in self.sym.functions:
            return self.function_partial(e)
        decl = self.sym.functions.get(e.name) if isinstance(e, n.Var) else None
        if decl is None:
            return self.expr(e)  # the built-in says what it needed
        caller = self.engine.function_passed(decl, e.span)
        return lambda env: caller

    def function_partial(self, e: n.CallExpr) -> ExprFn:
        """A ruleset function given its leading arguments (`move_cost(u)`, the mover) and passed to a
        built-in: a caller of the two values the built-in gives, after those arguments' values."""
        leading = [self.expr(a.value) for a in e.args]
        caller = self.engine.function_passed(self.sym.functions[e.func], e.span, len(leading))

        def bind(env):
            values = [a(env) for a in leading]
            return lambda a, b: caller(*values, a, b)

        return bind

    def record_builder(self, decl: n.RecordDecl, e: n.CallExpr) -> ExprFn:
        """`NAME(field: value, …)`: a new record; a field left out takes its default, computed from the
        game's names alone (the checker allows no local there)."""
        span = e.span
        given = {a.name: self.expr(a.value) for a in e.args if a.name is not None}
        defaults = {}
        for f in decl.fields:
            if f.default is not None:
                default = self.expr(f.default)
                defaults[f.name] = lambda env, d=default: d({})
            else:
                defaults[f.name] = _no_default(decl.name, f.name, span)

        def error(message: str):
            raise RuleError(message, span)

        return records.builder(decl, given, defaults, self.sym, error)

    def x_binop(self, e: n.BinOp) -> ExprFn:
        left, right, op, span, sym = self.expr(e.left), self.expr(e.right), ARITHMETIC[e.op], e.span, e.op
        cite, divides = self.cite, e.op in "/%"

        def binop(env):
            a, b = left(env), right(env)
            if a.__class__ is int and b.__class__ is int and not (divides and b == 0):  # plain numbers: no checks
                v = op(a, b)
                if -MAX_INT <= v <= MAX_INT:
                    return v
            return arithmetic(a, b, sym, span, cite)

        return binop

    def x_rounded(self, e: n.Rounded) -> ExprFn:
        left, right, mode, span, cite = self.expr(e.left), self.expr(e.right), e.mode, e.span, self.cite
        least = self.expr(e.least) if e.least is not None else None

        def rounded(env):
            return rounded_division(left(env), right(env), mode, least(env) if least is not None else None, span, cite)

        return rounded

    def x_compare(self, e: n.Compare) -> ExprFn:
        left, right, op, span = self.expr(e.left), self.expr(e.right), e.op, e.span
        if op in ("==", "!=") and constant(e.right) is not UNSET:
            return self.equal_constant(left, constant(e.right), op == "!=")
        if op in ("==", "!="):
            negate = op == "!="

            def equal(env):
                a, b = left(env), right(env)
                if (a.__class__ is Pool) != (b.__class__ is Pool):  # a roll compared with a number: its total
                    a, b = as_number(a), as_number(b)
                return (a == b) != negate

            return equal
        fn = COMPARISONS[op]

        def compare(env):
            a, b = left(env), right(env)
            if a.__class__ is int and b.__class__ is int:  # plain numbers (not a roll, not yes/no)
                return fn(a, b)
            return ordered(a, b, op, span)

        return compare

    @staticmethod
    def equal_constant(left: ExprFn, c: Any, negate: bool) -> ExprFn:
        """`x == 3`, `u.carrier != none`: the constant is never a roll, so only the left side may need its total."""
        if negate:

            def unequal(env):
                a = left(env)
                if a.__class__ is Pool:
                    a = as_number(a)
                return not (a == c)

            return unequal

        def equal(env):
            a = left(env)
            if a.__class__ is Pool:
                a = as_number(a)
            return a == c

        return equal

    def x_boolop(self, e: n.BoolOp) -> ExprFn:
        items = [self.expr(i) for i in e.items]
        if len(items) == 2:  # the common case, without a generator per evaluation
            a, b = items
            return (lambda env: a(env) and b(env)) if e.op == "and" else (lambda env: a(env) or b(env))
        if e.op == "and":

            def all_of(env):  # all(), without a generator per evaluation
                for i in items:
                    if not i(env):
                        return False
                return True

            return all_of

        def any_of(env):
            for i in items:
                if i(env):
                    return True
            return False

        return any_of

    def x_not(self, e: n.Not) -> ExprFn:
        operand = self.expr(e.operand)
        return lambda env: not operand(env)

    def x_neg(self, e: n.Neg) -> ExprFn:
        operand, span = self.expr(e.operand), e.span

        return lambda env: negative(operand(env), span)

    def x_is(self, e: n.IsTest) -> ExprFn:
        operand, name, negate, span = self.expr(e.operand), e.name, e.negate, e.span

        return lambda env: is_test(operand(env), name, negate, span)

    def x_in(self, e: n.InTest) -> ExprFn:
        item, coll, span = self.expr(e.item), self.expr(e.collection), e.span

        def in_(env):
            c = collection(coll(env), span)  # the collection first, then the item
            return member(c, item(env), span)

        return in_

    def x_has(self, e: n.Has) -> ExprFn:
        operand = self.expr(e.operand)

        def has(env):
            v = operand(env)
            return True if v.__class__ is int else holds_number(v)  # a plain number, or the general test

        return has

    def x_cond(self, e: n.CondExpr) -> ExprFn:
        test, then, orelse = self.expr(e.test), self.expr(e.then), self.expr(e.orelse)
        return lambda env: then(env) if test(env) else orelse(env)

    def x_list(self, e: n.ListLit) -> ExprFn:
        items = [self.expr(i) for i in e.items]
        return lambda env: [i(env) for i in items]

    def x_map(self, e: n.MapLit) -> ExprFn:
        entries = [(self.expr(x.key), self.expr(x.value)) for x in e.entries]
        span = e.span
        return lambda env: {as_key(k(env), span): v(env) for k, v in entries}

    def x_comprehension(self, e: n.Comprehension) -> ExprFn:
        var, iterable, span = e.var, self.expr(e.iterable), e.span
        engine, cite = self.engine, self.cite
        loop = self.comprehension_loop(e)

        def comprehension(env):
            seq = items(iterable(env), engine, span, cite)
            saved = env.get(var, UNSET)
            try:
                return loop(env, seq)
            finally:
                if saved is UNSET:
                    env.pop(var, None)
                else:
                    env[var] = saved

        return comprehension

    def comprehension_loop(self, e: n.Comprehension) -> Callable[[Env, Any], list]:
        """The items of a comprehension, its variable bound in the frame to each in turn; the common
        filter (`[u for u in … where …]`) appends the item itself without evaluating a body."""
        body, var, span, cite = self.expr(e.expr), e.var, e.span, self.cite
        where = self.expr(e.where) if e.where is not None and not e.flat else None
        if e.flat:

            def flat(env, seq):
                out: list = []
                for item in seq:
                    env[var] = item
                    out.extend(body(env))
                    if len(out) > MAX_LIST:
                        check_list(out, span, cite)
                return out

            return flat
        if where is None:

            def each(env, seq):
                out = []
                for item in seq:
                    env[var] = item
                    out.append(body(env))
                return out

            return each
        if e.expr.kind == "var" and e.expr.name == var:  # the body is the item itself

            def kept(env, seq):
                out = []
                for item in seq:
                    env[var] = item
                    if where(env):
                        out.append(item)
                return out

            return kept

        def filtered(env, seq):
            out = []
            for item in seq:
                env[var] = item
                if where(env):
                    out.append(body(env))
            return out

        return filtered

    def x_matching(self, e: n.Matching) -> ExprFn:
        dice, units, where = self.expr(e.dice), self.expr(e.units), self.expr(e.where)
        dv, uv = e.die_var, e.unit_var

        span, engine, cite = e.span, self.engine, self.cite

        def matching(env):
            ds, us = dice_of(dice(env), "the dice of 'matching'", span), as_list(units(env), "the units of 'matching'", span)
            engine.count_steps(len(ds) * len(us), span, cite)
            local = dict(env)
            edges = []
            for d in ds:
                local[dv] = d
                row = []
                for j, u in enumerate(us):
                    local[uv] = u
                    if where(local):
                        row.append(j)
                edges.append(row)
            return matched(edges, len(us), ds)

        return matching

    # ───────────────────────── statements ─────────────────────────

    def stmt(self, s) -> StmtFn:
        """A statement that never waits, as one function of the frame's locals (the machine, vm.py,
        runs every other kind itself). Its expressions carry its citation into their limit errors."""
        outer, self.cite = self.cite, s.cite
        try:
            return getattr(self, "s_" + s.kind)(s, s.cite)
        finally:
            self.cite = outer

    def expr_later(self, e) -> ExprFn:
        """`expr(e)`, made the first time it is evaluated, under the rule and citation of now."""
        rule, cite, made = self.rule, self.cite, None

        def later(env):
            nonlocal made
            if made is None:
                outer = self.rule, self.cite
                self.rule, self.cite = rule, cite
                try:
                    made = self.expr(e)
                finally:
                    self.rule, self.cite = outer
            return made(env)

        return later

    def stmt_later(self, s) -> Callable[[], StmtFn]:
        """`stmt(s)` made when first asked for, under the rule being lowered now: a statement a block runs
        itself (generated_code.block) may never need its closure. A `let` is noted now, in order, as
        `stmt` notes it, for the options it may explain."""
        if s.kind == "let":
            self._lets[s.name] = s.value
        rule = self.rule

        def made() -> StmtFn:
            outer, lets, self.rule, self._lets = self.rule, self._lets, rule, {}  # noted already
            try:
                return self.stmt(s)
            finally:
                self.rule, self._lets = outer, lets

        return made

    def s_let(self, s: n.Let, cite: str) -> StmtFn:
        value, name = self.expr(s.value), s.name
        self._lets[name] = s.value

        def let(env):
            env[name] = value(env)

        return let

    def s_set(self, s: n.SetStmt, cite: str) -> StmtFn:
        value = self.expr(s.value)
        assign = self.assigner(s.target, cite)

        return lambda env: assign(env, value(env))

    def assigner(self, target, cite: str) -> Callable[[Env, Any], None]:
        engine = self.engine
        if isinstance(target, n.Var):
            name = target.name
            is_global = name in self.sym.game_states

            def set_var(env, v):
                if name in env or not is_global:
                    env[name] = v
                else:
                    engine.set_global(name, v, cite)

            return set_var
        if isinstance(target, n.Index) and self.keyed_state(target) is not None:
            name, key, span = target.obj.name, self.expr(target.key), target.span

            def set_keyed(env, v):
                if name in env:
                    env[name][as_key(key(env), span)] = v
                else:
                    engine.set_keyed_state(name, key(env), v, cite, span)

            return set_keyed
        if isinstance(target, n.Index):
            obj, key = self.expr(target.obj), self.expr(target.key)

            def set_index(env, v):
                container = obj(env)
                if not isinstance(container, dict):
                    raise RuleError(f"cannot assign into {show(container)}: only maps made with {{}} can be changed", target.span)
                container[as_key(key(env), target.span)] = v

            return set_index
        obj, name = self.expr(target.obj), target.name
        return lambda env, v: engine.set_state(obj(env), name, v, cite, target.span)

    def s_adjust(self, s: n.Adjust, cite: str) -> StmtFn:
        by, span, engine = self.expr(s.by), s.span, self.engine
        target = s.target
        if isinstance(target, n.Index) and isinstance(target.obj, n.Var) and target.obj.name in self.sym.tracks:
            track, side = target.obj.name, self.expr(target.key)

            return lambda env: engine.adjust_track(track, side(env), by(env), cite, span)
        if isinstance(target, n.Var) and target.name in self.sym.tracks:
            track = target.name

            return lambda env: engine.adjust_track(track, None, by(env), cite, span)
        name = target.name

        def adjust_var(env):
            old, step = as_number(env.get(name)), as_number(by(env))
            if not (is_number(old) and is_number(step)):
                raise RuleError(f"cannot adjust {show(old)} by {show(step)}: both must be numbers", span)
            env[name] = check_int(old + step, span, cite)

        return adjust_var

    def roll_parts(self, s: n.Roll, cite: str) -> tuple[Callable[[Env], RollRequest], Callable[[Env, RollRequest, list], None]]:
        """A roll statement in two halves, the request and what its faces do, so that both executors
        (these generators, and the machine whose progress is data) share them."""
        count, span, engine = self.expr(s.count), s.span, self.engine
        die = self.sym.dice[s.die]
        label_of = self.target_label(s.target)
        assign = self.assigner(s.target, cite)
        key_of = self.expr(s.target.key) if isinstance(s.target, n.Index) else (lambda env: s.target.name if isinstance(s.target, n.Var) else None)

        def ask(env) -> RollRequest:
            k = as_number(count(env))
            if not is_number(k) or k < 0:
                raise RuleError(f"cannot roll {show(k)} dice", span)
            if k > MAX_POOL:
                raise RuleError(f"a roll of {k} dice is more than the {MAX_POOL} one roll may have", span)
            engine.count_steps(k, span, cite)  # each die rolled is a step: a loop of big rolls meets the budget
            return RollRequest(k, die.low, die.high, die.name, label_of(env), cite, span)

        def receive(env, req: RollRequest, faces: list) -> None:
            k, label = req.count, req.label
            if faces.__class__ is Spread:  # exact odds keep the roll as a distribution (runtime/common/spread.py)
                pool = faces.pool(label, key_of(env), (die.name, die.low, die.high))
            else:
                pool = Pool([Die(f, label) for f in faces], label, key_of(env), (die.name, die.low, die.high))
            if engine.narrate:
                engine.trace(cite, f"roll {label}: {k}{die.name} -> {show(pool) if k else 'no dice'}")
            assign(env, pool)

        return ask, receive

    def draw_parts(self, s: n.Draw, cite: str) -> tuple[Callable[[Env], DrawRequest], Callable[[Env, DrawRequest, list], None]]:
        """A draw from a cup in two halves, as a roll: the request (runtime/execution/cups.py) and what the
        indexes drawn do (the chits leave the cup, unless it is drawn with replacement)."""
        count = self.expr(s.count) if s.count is not None else None
        engine, name, cup, span = self.engine, s.name, s.cup, s.span
        replace = self.sym.cups[cup].replaced
        label = f"{name} from {cup}"
        face_down = self.face_down(s.known_by)

        def ask(env) -> DrawRequest:
            face_down(env)  # who 'known to' names is checked before anything is drawn
            k = 1 if count is None else cups.size_check(as_number(count(env)), "draw", span)
            chits = engine.state.cups[cup]
            cups.gone_through(engine, list(chits.values()), k, cite, span)
            return cups.request(list(chits), list(chits.values()), k, replace, label, cite, span, cup)

        def receive(env, req: DrawRequest, indexes: list) -> None:
            drawn = [req.values[i] for i in indexes]
            chits = engine.state.cups[cup]
            if not replace:
                for chit in drawn:
                    chits[chit] -= 1
            if engine.narrate:
                left = f" ({sum(chits.values())} left)" if req.weights else ""  # an empty cup says so itself
                engine.trace(cite, cups.drawn_text(req, drawn) + left, secret=face_down(env))
            env[name] = drawn if count is not None else (drawn[0] if drawn else None)

        return ask, receive

    def pick_parts(self, s: n.Pick, cite: str) -> tuple[Callable[[Env], DrawRequest], Callable[[Env, DrawRequest, list], None]]:
        """``pick … at random``: a draw without replacement from the list's elements, one of each."""
        count = self.expr(s.count) if s.count is not None else None
        options, engine, name, span = self.expr(s.options), self.engine, s.name, s.span
        face_down = self.face_down(s.known_by)

        def ask(env) -> DrawRequest:
            face_down(env)  # who 'known to' names is checked before anything is picked
            k = 1 if count is None else cups.size_check(as_number(count(env)), "pick", span)
            items = as_list(options(env), f"the list '{name}' is picked from", span)
            cups.gone_through(engine, [len(items)], k, cite, span)
            return cups.request(items, [1] * len(items), k, False, name, cite, span, None)

        def receive(env, req: DrawRequest, indexes: list) -> None:
            picked = [req.values[i] for i in indexes]
            if engine.narrate:
                engine.trace(cite, cups.drawn_text(req, picked), secret=face_down(env))
            env[name] = picked if count is not None else (picked[0] if picked else None)

        return ask, receive

    def face_down(self, known_by: n.KnownBy | None) -> Callable[[Env], bool]:
        """``known to WHO`` on a draw or a pick: whether the line naming what it gives is hidden from the
        side whose trace is written (none is: every side's whole truth is the umpire's)."""
        if known_by is None:
            return lambda env: False
        who, engine, span = self.expr(known_by.who), self.engine, known_by.span

        def hidden(env) -> bool:
            sides = fog.sides_named(who(env), self.sym.sides, span)
            return engine.viewer is not None and engine.viewer.side not in sides

        return hidden

    def s_put(self, s: n.Put, cite: str) -> StmtFn:
        chits, engine, cup, span = self.expr(s.chits), self.engine, s.cup, s.span
        face_down = self.face_down(s.known_by)
        return lambda env: cups.put(engine, cup, chits(env), cite, span, face_down(env))

    def s_remove(self, s: n.Remove, cite: str) -> StmtFn:
        chits, engine, cup, span = self.expr(s.chits), self.engine, s.cup, s.span
        return lambda env: cups.remove(engine, cup, chits(env), cite, span)

    def s_refill(self, s: n.Refill, cite: str) -> StmtFn:
        engine, cup = self.engine, s.cup
        return lambda env: cups.refill(engine, cup, cite)

    def target_label(self, target) -> ExprFn:
        if isinstance(target, n.Var):
            name = target.name
            return lambda env: name
        if isinstance(target, n.Index):
            base, key = self.target_label(target.obj) if isinstance(target.obj, (n.Var, n.Index)) else (lambda env: "?"), self.expr(target.key)
            return lambda env: f"{base(env)}[{show(key(env))}]"
        return lambda env: target.name

    def choice(self, s: n.Choose, cite: str) -> Callable[[Env], ChoiceRequest]:
        """The request of a choose statement (its answer is stored under the decision's name)."""
        chooser, options = self.expr(s.chooser), self.expr(s.options)
        amount = self.expr(s.amount) if s.amount is not None else (lambda env: 1)
        limit = self.expr(s.limit) if s.limit is not None else (lambda env: None)
        prompt = self.expr(s.prompt) if s.prompt else (lambda env: "")
        explainer = self.explainer(s.options)
        narrow = self.narrowing(s)
        remover = Removal(self, s.options, dict(self._lets)) if self.engine.explain else None
        showing = self.showing(s)
        name, mode, optional, span = s.name, s.mode, s.optional, s.span
        engine = self.engine

        def ask(env) -> ChoiceRequest:
            opts = options(env)
            if not isinstance(opts, list):
                raise RuleError(f"the options of '{name}' must be a list, not {show(opts)}", span)
            how_many, at_most = as_number(amount(env)), as_number(limit(env))
            if not is_number(how_many) or how_many < 0 or not (at_most is None or (is_number(at_most) and at_most >= 0)):
                raise RuleError(f"the counts of '{name}' must be whole numbers of 0 or more, not {show(how_many)}", span)
            who = chooser(env)
            engine.require_side(who, span)
            explain = (lambda item: explainer(env, item)) if explainer else None
            ruled_out: list = []
            if narrow is not None:
                opts, explain, ruled_out = narrow(env, opts, who, how_many, explain)
            return ChoiceRequest(
                chooser=who, name=name, mode=mode, options=opts, cite=cite, span=span, amount=how_many,
                limit=at_most, optional=optional, prompt=prompt(env), explain=explain, ruled_out=ruled_out,
                removal=(lambda item: remover.of(env, item)) if remover is not None else None,
                showing=(lambda item: showing(env, item)) if showing else None,
            )

        return ask

    def showing(self, s: n.Choose) -> Callable[[Env, Any], str] | None:
        """``showing EXPR``: the text beside an option, EXPR with the decision's name bound to it. Only a
        person at the terminal asks for it, so it is computed then, with the narration off: reading it
        (a table looked up by a function) writes nothing and changes no trace."""
        if s.showing is None:
            return None
        text, name, engine = self.expr(s.showing), s.name, self.engine

        def beside(env, item) -> str:
            narrate, engine.narrate = engine.narrate, False
            try:
                value = text({**env, name: item})
                return "" if value is None else show(value)  # none: nothing to say of this option
            finally:
                engine.narrate = narrate

        return beside

    def narrowing(self, s: n.Choose) -> Callable[..., tuple[list, Any, list]] | None:
        """The overlays' restrictions of the decision (``restrict decision``, language §19a.1), applied
        where its options are computed: the options they leave, an explanation that names the
        restriction (its amendment, citation and reason) for an option it rules out, and the options
        ruled out (an answer may name one of them, whatever kind of value it is). None when no
        overlay restricts the decision."""
        rules = [(r, self.restriction_test(r)) for r in self.sym.restrictions.get(s.name, ())]
        if not rules:
            return None
        name, mode, optional, span = s.name, s.mode, s.optional, s.span

        def narrow(env, opts: list, who: str, how_many: int, explain):
            kept, ruled = [], []
            for item in opts:
                r = next((r for r, holds in rules if not holds(env, item)), None)
                (kept.append(item) if r is None else ruled.append((item, r)))
            need = how_many if mode == "exactly" else 1
            if ruled and not optional and mode in ("one", "exactly") and len(kept) < need <= len(opts):
                r = ruled[0][1]
                raise RuleError(
                    f"{who} must decide '{name}', but the restriction {r.by} [{r.cite}] leaves "
                    f"{_how_many(len(kept))} of its {len(opts)} option(s) ({', '.join(show(o) for o, _ in ruled)} "
                    f"ruled out: {r.reason})", span, r.cite.text if r.cite else None,
                    hint=f"the restriction is written at {r.span.file}:{r.span.line}")

            def why(item):
                r = next((r for o, r in ruled if o is item or o == item), None)
                if r is not None:
                    return f"{show(item)} is ruled out by {r.by} [{r.cite}]: {r.reason}"
                return explain(item) if explain else None

            return kept, why, [o for o, _ in ruled]

        return narrow

    def restriction_test(self, r: n.Restriction) -> Callable[[Env, Any], bool]:
        """Whether an option passes a restriction: its test, with its variable bound to the option."""
        outer, self.cite = self.cite, r.cite.text if r.cite else self.cite
        try:
            test = self.expr(r.where)
        finally:
            self.cite = outer
        var = r.var

        def holds(env, item) -> bool:
            local = dict(env)
            local[var] = item
            return bool(test(local))

        return holds

    def explainer(self, options) -> Callable[[Env, Any], str | None] | None:
        """For options written as a comprehension, say which condition an excluded item fails."""
        if isinstance(options, n.Var) and options.name in self._lets:
            options = self._lets[options.name]
        if isinstance(options, n.BinOp) and options.op == "+":
            parts = [p for p in (self.explainer(options.left), self.explainer(options.right)) if p]
            return (lambda env, item: next((r for r in (p(env, item) for p in parts) if r), None)) if parts else None
        if not isinstance(options, n.Comprehension) or options.where is None:
            return None
        where = options.where
        conjuncts = list(where.items) if isinstance(where, n.BoolOp) and where.op == "and" else [where]
        tests = [(c, self.expr(c)) for c in conjuncts]
        var, source = options.var, self.engine.source_text
        iterable, iterable_span = self.expr(options.iterable), options.iterable.span

        def explain(env, item):
            local = dict(env)
            try:
                if item not in iterable(local):
                    return f"{show(item)} is not in '{source(iterable_span)}'"
            except RuleError:
                return None
            local[var] = item
            for node, test in tests:
                try:
                    if not test(local):
                        return f"for {show(item)}, '{source(node.span)}' does not hold"
                except RuleError:
                    return None
            return None

        return explain

    def s_move(self, s: n.Move, cite: str) -> StmtFn:
        units, to, engine, span = self.expr(s.units), self.expr(s.to), self.engine, s.span

        return lambda env: engine.move(engine.as_units(units(env), span), to(env), cite, span)

    def s_embark(self, s: n.Embark, cite: str) -> StmtFn:
        units, carrier, engine, span = self.expr(s.units), self.expr(s.carrier), self.engine, s.span

        return lambda env: engine.embark(engine.as_units(units(env), span), carrier(env), cite, span)

    def s_change_side(self, s: n.ChangeSide, cite: str) -> StmtFn:
        units, side, engine, span = self.expr(s.units), self.expr(s.side), self.engine, s.span

        return lambda env: engine.change_side(engine.as_units(units(env), span), side(env), cite, span)

    def s_say(self, s: n.Say, cite: str) -> StmtFn:
        text, engine = self.expr(s.text), self.engine
        quiet = self.unread_text(s.text)
        face_down = self.face_down(s.known_by)
        seen = self.expr(s.face_down) if s.face_down is not None else None

        def say(env):
            if engine.narrate:
                engine.trace(cite, text(env), secret=face_down(env), face_down=None if seen is None else lambda: seen(env))
            else:
                quiet(env)

        return say

    def unread_text(self, e: n.StrLit) -> StmtFn:
        """A text nobody will read (Engine.narrate off): its values evaluated in the same order, with the
        same errors, as `expr(e)` evaluates them, but not shown; the text is built only when it may be
        too long (check_string's error, with its length)."""
        parts = [(p.text, p.expr is not None) for p in e.parts]
        # The values as one list, evaluated left to right as the text's are (one function, as the text is).
        evaluate = self.expr(n.ListLit.model_construct(items=tuple(p.expr for p in e.parts if p.expr is not None), span=e.span))
        fixed = sum(len(t) for t, shown in parts if not shown)
        span, cite = e.span, self.cite

        def unread(env):
            values = evaluate(env)
            size = fixed
            for v in values:  # text and numbers (the commonest) measured here, the rest by shown_at_most
                cls = v.__class__
                size += len(v) if cls is str else 20 if cls is int and -_SHORT < v < _SHORT else shown_at_most(v)
            if size > MAX_STRING:
                shown = iter(values)
                check_string("".join(show(next(shown)) if is_value else t for t, is_value in parts), span, cite)

        return unread

    def s_record(self, s: n.Record, cite: str) -> StmtFn:
        key, value, engine = self.expr(s.key), self.expr(s.value), self.engine

        return lambda env: engine.record(key(env), value(env), cite)

    def s_ensure(self, s: n.Ensure, cite: str) -> StmtFn:
        test, message, engine = self.expr(s.test), self.expr(s.message), self.engine

        def ensure(env):
            if not test(env):
                engine.violation(message(env), cite)

        return ensure


def _how_many(k: int) -> str:
    return "none" if k == 0 else f"only {k}"
