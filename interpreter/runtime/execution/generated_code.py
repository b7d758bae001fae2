"""Generated code: the tree of an expression written out as one Python function and compiled once.

The closures of compile.py cost a Python call for every node of an expression on every
evaluation (`u.side == s and has u.gun` is eight of them, for each unit a comprehension goes
through). Here an expression becomes the text of a single Python expression, so the tree is
one call: each node's fast case is written inline (a local read from the frame, a unit's
value read from its fields, numbers compared and added directly) and every other case calls
the same general path the closures call (operations.py's `arithmetic`, `ordered`, `entry`,
`Engine.attribute` …), so values and errors are those of the closures, message for message.

Nothing of the rules file's text reaches `compile`: every name and literal of the rules is
written with `repr`, and every other value (spans, functions, the engine's readers) sits in
the function's namespace under a name made here (`_c0`, `_c1` …). What this module does not
write (matching, comprehensions that join lists, subtrees past MAX_INLINE_DEPTH, calls while
explaining) is a call of the compiler's closure, whose own subexpressions come back here.

A run of statements that never wait is written the same way as one function (`block`): its
statements one a line, its locals Python locals written through to the frame, each statement
begun as the machine begins its instruction (vm.py). A whole body is one function too (`body`):
its runs written as blocks are, around them the statements that wait, and it begins wherever the
frame's `pc` stands.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import sys
from collections.abc import Callable
from typing import Any

from ...ir.visit import descendants
from ...lang import FUNCTION_ARGUMENTS
from ...limits import MAX_FUNCTION_DEPTH, MAX_INT, MAX_LIST
from ..common.values import MISSING, Die, Place, Pool, Unit, X, show
from . import kept_code
from . import operations as ops
from .guards import check_string, function_too_deep, over_budget
from .layout import laid_out

# Subtrees deeper than this are called as functions of their own: Python's parser refuses
# more than 200 nested brackets, and every level written here opens a few.
MAX_INLINE_DEPTH = 24

# Statements are evaluated many times but lowered once per engine: the same text is compiled
# once per process (a new engine, as every test and exact-odds worker makes, reuses the code), and
# once across processes for a program the loads keep (kept_code.py).
_CODE: dict[tuple[str, str], kept_code.Compiled] = {}  # by function name and expression text
_MAX_CODE = 20_000  # texts kept; past it the cache starts again (a process that checks many rulesets)

# Set to a file's path (or `-`, standard error), every generated function's text is appended to it as it is
# made, with where in the rules it comes from and what its constants are.
SHOW_VARIABLE = "UMPIRE_SHOW_GENERATED"

# What every generated function reads besides its own constants.
_BASE = {"_Unit": Unit, "_Place": Place, "_Pool": Pool, "_MISSING": MISSING, "_X": X,
         "_NUMBERS": frozenset({int, Die})}  # a die's face is a number as it is (not yes/no, not a roll)

_PY_ARITH = {"+": "+", "-": "-", "*": "*", "/": "//", "%": "%"}  # the language's / is whole-number division
_PY_ORDER = {"<": "<", "<=": "<=", ">": ">", ">=": ">="}

# A function whose body has at most this many nodes may be written in place of its calls (Writer.inline);
# called for each item of a comprehension (in its value or its filter), one of twice as many: a call of
# a test for every pair of a list's items is made thousands of times a turn.
MAX_INLINE_NODES = 64
MAX_INLINE_NODES_PER_ITEM = 128
# What an inlined body may not hold: a comprehension or a matching counts steps; a list or a map is
# built again at every call, where the cached value of a call is built once a state (Engine.memo).
_NOT_INLINED = frozenset({"comprehension", "matching", "list", "map"})

# Node kinds worth a function of their own: a lone name or literal is as quick as a closure.
COMPOSITE = frozenset({"attr", "index", "call", "binop", "compare", "boolop", "not", "neg", "is", "in", "has",
                       "cond", "list", "map", "comprehension", "matching", "str"})


def generate(comp, e) -> ops.ExprFn:
    """The expression `e` (one of COMPOSITE) as one compiled Python function of the frame's locals, or the
    compiler's closure when this module does not write its kind (or this case of it)."""
    writer = _Writer(comp)
    written = getattr(writer, "w_" + e.kind)(e, 1)
    if written is None:
        return comp.closure(e)
    name = function_name(comp.rule, comp.cite)
    fn = _defined(name, written, source, writer.constants, f"expression at {e.span}", comp.engine.sym)
    shown = os.environ.get(SHOW_VARIABLE)
    if shown:
        show_source(shown, f"# {e.span}", readable(name, written), writer.constants)
    return fn


def _defined(name: str, written: str, text_of: Callable[[str, str], str], constants: dict[str, Any], where: str,
             program) -> Callable:
    """The function `name` defined by `text_of(name, written)`, its constants in its namespace; named `where`
    in tracebacks, profiles and Position.key (which names a function by its qualified name). Its code is
    compiled once per process, and not at all when the keeper of `program` (the engine's symbols: the
    checked program, kept_code.py) holds it from an earlier process."""
    made = _CODE.get((name, written))
    if made is None:
        if len(_CODE) >= _MAX_CODE:
            _CODE.clear()
        made = _CODE[(name, written)] = kept_code.compiled(text_of(name, written), "<umpire expression>", program)
    else:
        kept_code.used(made, program)
    namespace = {**_BASE, **constants}
    exec(made.code, namespace)  # defines the function (the text holds only this module's templates and reprs)
    fn = namespace[name]
    fn.__code__ = fn.__code__.replace(co_filename=f"<{where}>")
    fn.__qualname__ = where
    return fn


def function_name(rule: str | None, cite: str | None) -> str:
    """The generated function's name: the rule it comes from and its citation (`green__9_1` for
    procedure green's statement cited 9.1), letters, digits and underscores only. The two are joined by
    `__`, which no other name of its namespace holds (`_c0`, `_t1`, `_Unit` …)."""
    name = re.sub(r"\W+", "_", f"{rule or 'expression'}__{cite or ''}", flags=re.ASCII)
    return "r" + name if name[0] in "_0123456789" else name


def source(name: str, written: str) -> str:
    """The function's text as it is compiled: one `return` of the expression, on one line."""
    return f"def {name}(env):\n    return {written}\n"


def readable(name: str, written: str) -> str:
    """The function's text as it is shown: the same code, the expression laid out over lines (layout.py).
    Laying out costs about as much as compiling, so a run compiles the one-line text and lays out only
    what is shown (the two are the same syntax tree: tests/runtime/test_generated_text.py)."""
    return f"def {name}(env):\n    return {laid_out(written, 4)}\n"


def show_source(where: str, comment: str, text: str, constants: dict[str, Any]) -> None:
    """Appends a function's readable text to the file `where` (`-`: standard error), after a comment that
    says where in the rules it comes from and what each of its constants is."""
    lines = [comment] + [f"# {k} = {_described(v)}" for k, v in constants.items()]
    text = "\n".join(lines) + "\n" + text + "\n"
    if where == "-":
        sys.stderr.write(text)
        return
    with open(where, "a", encoding="utf-8") as out:
        out.write(text)


def _described(value: Any) -> str:
    """A constant as a comment shows it: a function by its name, a span by its place, the engine as such,
    any other value by its repr, cut short."""
    if isinstance(value, functools.partial):
        return f"{_described(value.func)} given the engine"
    if value.__class__.__name__ in ("Span", "Engine"):
        return "the engine" if value.__class__.__name__ == "Engine" else str(value)
    named = getattr(value, "__qualname__", None)
    text = (named if isinstance(named, str) else repr(value)).replace("\n", " ")
    return text if len(text) <= 80 else text[:77] + "..."


def _places_where(engine, name: str, places: list, test: Callable) -> Any:
    """The places, in their order, for which `test` (the fixed test `name` of `fixed_test`) holds: found once
    a game's map, kept by the state (GameState.fixed_places). A test that raises on any place keeps
    nothing: every place is gone through, and the filter raises where it always did."""
    st = engine.state
    kept = st.fixed_places
    if kept is None or kept[0] is not st.places or kept[1] != len(st.places):
        kept = st.fixed_places = (st.places, len(st.places), {})
    found = kept[2].get(name)
    if found is None:
        try:
            found = kept[2][name] = tuple(p for p in places if test(p))
        except Exception:  # noqa: BLE001 - the comprehension itself raises it, at the same place
            return places
    return found


def _kind_filtered(e, sym) -> str | None:
    """The kind `k` of `[… for u in all_units() where u is k and …]` (the built-in, no ruleset function of
    that name): the filter's first test is false, with no effect and no error, for every unit not of
    that kind, so going through the units of the kind alone (GameState.units_that_are, in the same
    order) keeps the same items, makes the same calls and raises the same errors. None: any other."""
    it, where = e.iterable, e.where
    if not (it.kind == "call" and it.func == "all_units" and not it.args and "all_units" not in sym.functions):
        return None
    first = where.items[0] if where is not None and where.kind == "boolop" and where.op == "and" else where
    if first is None or first.kind != "is" or first.negate:
        return None
    operand = first.operand
    return first.name if operand.kind == "var" and operand.name == e.var else None


class _Writer:
    """Writes one function: the text of its expression, and the constants it names."""

    def __init__(self, comp):
        self.comp, self.engine, self.sym = comp, comp.engine, comp.sym
        self.constants: dict[str, Any] = {}
        self.temps = 0
        self.locals: dict[str, str] = {}  # a comprehension's variable: a Python local while its body is written
        self.closures = 0  # closures called so far (they read the frame, where no local is)
        self.deeper = 0  # calls made so far from bodies written in place (`_deeper`)
        self.inlining: list[str] = []  # the functions whose bodies are being written in place, outermost first
        self.in_body = False  # writing an inlined body: a name that is no parameter is never a local of the frame
        self.per_item = 0  # comprehensions whose value or filter is being written (their calls made for each item)

    def const(self, value: Any) -> str:
        name = f"_c{len(self.constants)}"
        self.constants[name] = value
        return name

    def temp(self) -> str:
        self.temps += 1
        return f"_t{self.temps}"

    def literal(self, value: Any) -> str:
        return self.const(value) if value is X else repr(value)

    def write(self, e, depth: int) -> str:
        """The text of `e`; a kind not written here (or too deep) is a call of the compiler's closure."""
        method = getattr(self, "w_" + e.kind, None)
        text = method(e, depth + 1) if method is not None and depth <= MAX_INLINE_DEPTH else None
        if text is None:
            self.closures += 1
            return f"{self.const(self.comp.closure(e))}(env)"
        return text

    # ── leaves ──
    def w_int(self, e, d):
        return repr(e.value)

    w_bool = w_int

    def w_none(self, e, d):
        return "None"

    def w_x(self, e, d):
        return self.const(X)

    def w_str(self, e, d):
        if not e.parts:
            return repr(e.value)
        shown = self.const(show)
        pieces = ", ".join(repr(p.text) if p.expr is None else f"{shown}({self.write(p.expr, d)})" for p in e.parts)
        return f'{self.const(check_string)}("".join([{pieces}]), {self.const(e.span)}, {self.const(self.comp.cite)})'

    def w_place(self, e, d):
        return f"{self.const(ops.place_of)}({self.const(self.engine)}, {e.id!r}, {self.const(e.span)})"

    def w_var(self, e, d):
        if e.name in self.locals:
            return self.locals[e.name]
        name = repr(e.name)
        general = f"{self.const(self.engine.global_value)}({name}, {self.const(e.span)})"
        # Unless a unit has that id (Engine.global_value looks for units first; they change with the game):
        # a name that names itself, or a box (the state's own, which a restored position replaces).
        engine, sym = self.const(self.engine), self.sym
        local = "" if self.in_body else f"env[{name}] if {name} in env else "  # a function's frame holds its parameters only
        if e.name in self.comp.names_themselves():
            return f"({local}{general} if {name} in {engine}.state.units else {name})"
        if e.name in sym.boxes and not (e.name in sym.sides or e.name in sym.nations or e.name in sym.enum_values
                                        or e.name in sym.edges or e.name in sym.map_names):
            return f"({local}{general} if {name} in {engine}.state.units else {engine}.state.boxes[{name}])"
        return f"({local}{general})"

    # ── reading values ──
    def bound(self, text: str) -> tuple[str, str]:
        """A value read more than once: its name, and its first read. A comprehension's variable is read as it
        is; anything else is put in a new temporary by its first read."""
        if text in self.locals.values():
            return text, text
        t = self.temp()
        return t, f"({t} := {text})"

    def w_attr(self, e, d):
        if self.sym.enumeration_value(e) is not None:
            return None  # `region.west_indies`: the compiler's closure
        (t, obj), name = self.bound(self.write(e.obj, d)), repr(e.name)
        general = f"{self.const(self.engine.attribute)}({t}, {name}, {self.const(e.span)})"
        if e.name in self.sym.stats and e.name not in self.sym.place_props and e.name not in self.engine.faced:  # a unit's printed value
            v = self.temp()
            return f"({v} if {obj}.__class__ is _Unit and ({v} := {t}.stats.get({name})) is not _MISSING else {general})"
        on_unit = self.unit_field(e.name, t) or general
        on_place = self.place_field(e.name, t) or general
        return f"({on_unit} if {obj}.__class__ is _Unit else {on_place} if {t}.__class__ is _Place else {general})"

    def unit_field(self, name: str, t: str) -> str | None:
        """What Engine.attribute reads of a unit, written out (operations.unit_reading; None: the general path)."""
        reading = ops.unit_reading(self.sym, name)
        return ops.written(reading, t) if reading is not None else None

    def place_field(self, name: str, t: str) -> str | None:
        """What Engine.attribute reads of a place, written out (operations.place_reading; None: the general path)."""
        reading = ops.place_reading(self.sym, name)
        return ops.written(reading, t) if reading is not None else None

    def w_index(self, e, d):
        if self.comp.keyed_state(e) is not None:
            return None  # a per-key game state read by key: the compiler's closure checks the key
        return f"{self.const(ops.entry)}({self.write(e.obj, d)}, {self.write(e.key, d)}, {self.const(e.span)})"

    def w_call(self, e, d):
        if e.func in FUNCTION_ARGUMENTS and e.func not in self.sym.functions:
            return None  # a function passed by its name (cheapest, reach): the compiler's closure passes it
        if e.func in self.sym.tables and e.func not in self.sym.functions:
            return None  # a table read in an expression (language 8.4): the compiler's closure reads it
        args = ", ".join(self.write(a.value, d) for a in e.args)
        if e.func in self.sym.records:
            return None  # a record built: the compiler's closure (records.builder)
        decl = self.sym.functions.get(e.func)
        if decl is None:  # a built-in: given the span, then the values (names do not matter to them)
            call = f"{self.const(self.engine.builtin(e.func))}({self.const(e.span)}{', ' if args else ''}"
            if e.func == "count" and len(e.args) == 1:  # the commonest: a plain list's length, else the built-in
                v = self.temp()
                return f"(len({v}) if ({v} := {args}).__class__ is list else {call}{v}))"
            return f"{call}{args})"
        if self.engine.explain:
            return None  # explaining notes every call with its arguments: the closure does
        if all(a.name is None for a in e.args):  # f(u), f(p, s): the values as they are, no list
            inlined = self.inline(decl, e, d)
            if inlined is not None:
                return inlined
            caller = self.const(self.engine.function_positional(decl, len(e.args), e.span))
            if self.inlining:  # called from a body written in place: as many levels deeper as bodies around it
                self.deeper += 1
                return f"{self.const(_deeper)}({self.const(self.engine)}, {len(self.inlining)}, {caller}{', ' if args else ''}{args})"
            return f"{caller}({args})"
        if self.inlining:
            return None
        caller = self.engine.function_called(decl, [a.name for a in e.args], e.span)
        return f"{self.const(caller)}({args})"

    def inline(self, decl, e, d) -> str | None:
        """A call of a small function that counts no steps written in place: its arguments in temporaries, then
        its body with its parameters read from them (None: called as a function). The same value and errors as
        the call: the depth of calls checked as the caller checks it, the body written under its own citation,
        a call it makes of a function not written in place made as deep as from the function's own body
        (`_deeper`); a function whose body holds a comprehension or a matching (steps), or a list or a map
        (built once a state by the cache of calls), is called."""
        limit = MAX_INLINE_NODES_PER_ITEM if self.per_item else MAX_INLINE_NODES
        if not self.engine.inline or not _inlinable(decl, len(e.args), self.engine, limit) or decl.name in self.inlining:
            return None
        kept = self.comp.rule in self.engine.lasting.names
        if kept and self.inlining:
            # A function whose values last the game replays the calls its body made, one level deeper
            # each, giving way to its body within two of the depth limit (lasting.py): only a body
            # written in place one level deep, calling nothing, keeps those counts.
            return None
        deeper = self.deeper
        temps = [self.temp() for _ in e.args]
        bound = ", ".join(f"({t} := {self.write(a.value, d)})" for t, a in zip(temps, e.args))
        closures, outer = self.closures, (self.locals, self.comp.cite, self.in_body)
        self.locals, self.comp.cite, self.in_body = dict(zip((p.name for p in decl.params), temps)), decl.cite, True
        self.inlining.append(decl.name)
        try:
            body = self.write(decl.body, d)
        finally:
            self.locals, self.comp.cite, self.in_body = outer
            self.inlining.pop()
        if self.closures != closures:  # a closure reads the frame, which an inlined body does not have
            self.closures = closures
            return None
        if kept and self.deeper != deeper:  # it calls a function: a level the kept value's replay would miss
            self.deeper = deeper
            return None
        # Each call written in place is one level of calls deeper, as the call it stands for would be.
        depth = MAX_FUNCTION_DEPTH - len(self.inlining)
        deep = f"{self.const(_too_deep)}({decl.name!r}, {self.const(decl.cite)}, {self.const(e.span)})"
        return f"({bound}{', ' if bound else ''}{deep} if {self.const(self.engine)}.calls >= {depth} else {body},)[-1]"

    # ── operators ──
    def w_binop(self, e, d):
        a, b, v = self.temp(), self.temp(), self.temp()
        left, right = self.write(e.left, d), self.write(e.right, d)
        plain = f"(({a} := {left}).__class__ in _NUMBERS) & (({b} := {right}).__class__ in _NUMBERS)"
        if e.op in "/%":
            plain += f" and {b} != 0"
        fast = f"-{MAX_INT} <= ({v} := {a} {_PY_ARITH[e.op]} {b}) <= {MAX_INT}"
        general = f"{self.const(ops.arithmetic)}({a}, {b}, {e.op!r}, {self.const(e.span)}, {self.const(self.comp.cite)})"
        if e.op == "+":  # two plain lists joined (a list too long is left to the general path, which refuses it)
            joined = f"{a}.__class__ is list and {b}.__class__ is list and len({v} := {a} + {b}) <= {MAX_LIST}"
            return f"({v} if {plain} and {fast} else {v} if {joined} else {general})"
        return f"({v} if {plain} and {fast} else {general})"

    def w_compare(self, e, d):
        a, b, left = self.temp(), self.temp(), self.write(e.left, d)
        if e.op not in ("==", "!="):
            plain = f"(({a} := {left}).__class__ in _NUMBERS) & (({b} := {self.write(e.right, d)}).__class__ in _NUMBERS)"
            general = f"{self.const(ops.ordered)}({a}, {b}, {e.op!r}, {self.const(e.span)})"
            return f"({a} {_PY_ORDER[e.op]} {b} if {plain} else {general})"
        negate, pooled = e.op == "!=", self.const(ops.pooled_equal)
        value = ops.constant(e.right)
        if value is not ops.UNSET:  # a literal is never a roll: only the left side may need its total
            same = f"{a} == {self.literal(value)}"
            return f"({pooled}({a}, {self.literal(value)}, {negate}) if ({a} := {left}).__class__ is _Pool else {'not ' if negate else ''}({same}))"
        either = f"(({a} := {left}).__class__ is _Pool) != (({b} := {self.write(e.right, d)}).__class__ is _Pool)"
        return f"({pooled}({a}, {b}, {negate}) if {either} else {'not ' if negate else ''}({a} == {b}))"

    def w_boolop(self, e, d):
        if len(e.items) < 2:
            return None
        joined = f" {e.op} ".join(self.write(i, d) for i in e.items)
        # Two items give the value that decides, as Python's and/or; more give yes or no, as all()/any().
        return f"({joined})" if len(e.items) == 2 else f"(True if ({joined}) else False)"

    def w_not(self, e, d):
        return f"(not {self.write(e.operand, d)})"

    def w_neg(self, e, d):
        v = self.temp()
        return f"(-{v} if ({v} := {self.write(e.operand, d)}).__class__ is int else {self.const(ops.negative)}({v}, {self.const(e.span)}))"

    def w_is(self, e, d):
        (u, operand), name, negate = self.bound(self.write(e.operand, d)), repr(e.name), e.negate
        test = f"({name} == {u}.cls or {name} == {u}.type or {name} in {u}.flags) != {negate}"
        general = f"{self.const(ops.is_test)}({u}, {name}, {negate}, {self.const(e.span)})"
        return f"({test} if {operand}.__class__ is _Unit else {general})"

    def w_in(self, e, d):
        span = self.const(e.span)  # the collection is checked before the item is evaluated
        checked = f"{self.const(ops.collection)}({self.write(e.collection, d)}, {span})"
        return f"{self.const(ops.member)}({checked}, {self.write(e.item, d)}, {span})"

    def w_has(self, e, d):
        v = self.temp()
        general = f"{self.const(ops.holds_number)}({v})"
        return f"(True if ({v} := {self.write(e.operand, d)}).__class__ is int else False if {v} is _X or {v} is None else {general})"

    def w_comprehension(self, e, d):
        """A filter or a map as Python's own list comprehension, its variable a local of it; written only when
        nothing inside reads the frame (a closure would not see the variable there)."""
        if e.flat:
            return None
        seq, t, local = self.write(e.iterable, d), self.temp(), self.temp()
        closures = self.closures
        with self.each_item(e.var, local):
            body = self.write(e.expr, d)
            where = f" if {self.write(e.where, d)}" if e.where is not None else ""
        if self.closures != closures:
            return None
        # Python refuses ':=' in a comprehension's iterable: the items are named first, in a tuple.
        checked = f"{self.const(ops.items)}({seq}, {self.const(self.engine)}, {self.const(e.span)}, {self.const(self.comp.cite)})"
        kind = _kind_filtered(e, self.sym)
        if kind is not None:  # every unit counted as a step, those of the kind gone through (decision 30a)
            return f"(({t} := {checked}), [{body} for {local} in {self.const(self.engine)}.state.units_that_are({kind!r}){where}])[1]"
        fixed = self.fixed_test(e, d)
        if fixed is not None:  # every place counted as a step, those the fixed test keeps gone through (30a)
            (name, test), kept = fixed, self.temp()
            found = f"{self.const(_places_where)}({self.const(self.engine)}, {name!r}, {t}, {test})"
            return f"(({t} := {checked}), ({kept} := {found}), [{body} for {local} in {kept}{where}])[2]"
        return f"(({t} := {checked}), [{body} for {local} in {t}{where}])[1]"

    @contextlib.contextmanager
    def each_item(self, var: str, local: str):
        """Within: what is written for each item of a comprehension, its variable `var` read as the Python
        local `local` (calls written there may be larger: `per_item`)."""
        outer = self.locals.get(var)
        self.locals[var] = local
        self.per_item += 1
        try:
            yield
        finally:
            self.per_item -= 1
            if outer is None:
                del self.locals[var]
            else:
                self.locals[var] = outer

    def fixed_test(self, e, d) -> tuple[str, str] | None:
        """`[… for p in places() where f(p) and …]`, f a function written in place whose value depends on its
        argument alone (lasting, reading no game state): f's name and a Python function of the place giving
        f(p) as the filter writes it. None: any other comprehension."""
        it, where, engine = e.iterable, e.where, self.engine
        if not (it.kind == "call" and it.func == "places" and not it.args and "places" not in self.sym.functions):
            return None
        first = where.items[0] if where is not None and where.kind == "boolop" and where.op == "and" else where
        if first is None or first.kind != "call" or len(first.args) != 1 or first.args[0].name is not None:
            return None
        arg, decl = first.args[0].value, self.sym.functions.get(first.func)
        if (decl is None or arg.kind != "var" or arg.name != e.var or engine.explain or not engine.inline
                or engine.lasting.reads.get(decl.name) != () or self.inlining
                or not _inlinable(decl, 1, engine, MAX_INLINE_NODES_PER_ITEM)):
            return None
        local, closures = self.temp(), self.closures
        with self.each_item(e.var, local):
            test = self.write(first, d)
        if self.closures != closures or not test.startswith("("):
            return None  # not written in place
        return decl.name, f"(lambda {local}: {test})"

    def w_matching(self, e, d):
        """compile.py's matching with its test written inline, the die and the unit locals of a comprehension
        of the edges; written only when nothing inside the test reads the frame (as a comprehension)."""
        dice, units = self.write(e.dice, d), self.write(e.units, d)
        ds, us, j, die, unit = (self.temp() for _ in range(5))
        closures, outer = self.closures, {name: self.locals.get(name) for name in (e.die_var, e.unit_var)}
        self.locals[e.die_var], self.locals[e.unit_var] = die, unit  # the unit's name last, as the closure binds them
        try:
            where = self.write(e.where, d)
        finally:
            for name, local in outer.items():
                if local is None:
                    self.locals.pop(name, None)
                else:
                    self.locals[name] = local
        if self.closures != closures:
            return None
        as_list, span, steps = self.const(ops.as_list), self.const(e.span), self.const(self.engine.count_steps)
        edges = f"[[{j} for {j}, {unit} in enumerate({us}) if {where}] for {die} in {ds}]"
        dice_of = self.const(ops.dice_of)
        return (f"(({ds} := {dice_of}({dice}, {'the dice of ' + chr(39) + 'matching' + chr(39)!r}, {span})), "
                f"({us} := {as_list}({units}, {'the units of ' + chr(39) + 'matching' + chr(39)!r}, {span})), "
                f"{steps}(len({ds}) * len({us}), {span}, {self.const(self.comp.cite)}), "
                f"{self.const(ops.matched)}({edges}, len({us}), {ds}))[3]")

    def w_cond(self, e, d):
        return f"({self.write(e.then, d)} if {self.write(e.test, d)} else {self.write(e.orelse, d)})"

    def w_list(self, e, d):
        return "[" + ", ".join(self.write(i, d) for i in e.items) + "]"

    def w_map(self, e, d):
        as_key, span = self.const(ops.as_key), self.const(e.span)
        return "{" + ", ".join(f"{as_key}({self.write(x.key, d)}, {span}): {self.write(x.value, d)}" for x in e.entries) + "}"


def _deeper(engine, levels: int, caller, *values):
    """A call made by a body written in place: the calls that body stands for (`levels` of them) counted
    in the depth of calls while it runs, as they would be had they been made."""
    engine.calls += levels
    try:
        return caller(*values)
    finally:
        engine.calls -= levels


def _too_deep(name: str, cite: str | None, span) -> None:
    """An inlined call one level past the depth of calls: the error its call would raise."""
    raise function_too_deep(name, cite, span)


def _inlinable(decl, arity: int, engine, limit: int = MAX_INLINE_NODES) -> bool:
    """Whether calls of `decl` with `arity` positional values may be written in place: a body of at most
    `limit` nodes, counting no steps, calling only functions that may be written in place too, with every
    table it needs supplied (else its call stops the run with the reason)."""
    known = engine.inlinable.get(decl.name)
    if known is None or known[0] is not decl:
        nodes = list(descendants([decl.body]))
        fit = not engine.missing_tables(decl.needs) and not any(getattr(x, "kind", None) in _NOT_INLINED for x in nodes)
        known = engine.inlinable[decl.name] = (decl, len(nodes), fit)
    return known[2] and known[1] <= limit and arity == len(decl.params)


# ───────────────────────────── blocks of statements ─────────────────────────────

# Python refuses more than 20 blocks nested in one function: a run whose `if`s and loops nest deeper
# than this is left to the machine, statement by statement.
MAX_BLOCK_NESTING = 12


def _over(engine, frame) -> None:
    """The step budget passed by the statement a block's frame has begun: the machine's error, at it."""
    op = frame.code.ops[frame.pc - 1]
    raise over_budget(engine.max_steps, op.span, op.cite)


class _TooDeep(Exception):
    """A run of statements nested past MAX_BLOCK_NESTING: not written as a block."""


def block(comp, run: list[tuple[Any, int]], ops: list, end: int, first: dict[int, tuple[Any, int]], tail=None):
    """A run of statements that never wait (vm.straight: effects, `let`, `set`, and `if`, `for` and `repeat
    … times` around only such statements) written as one Python function of the frame's locals and the
    frame, `run` giving each statement and its first instruction; `first` gives the first instruction of
    each statement nested in them. The function does what the machine does instruction by instruction
    (vm.CodeFrame.advance): each statement begun sets the frame's `pc` to its instruction, changes the
    epoch and counts its step against the budget, so a trace line, an error or a position reads the
    frame as the machine leaves it; when the run ends, `pc` is `end`. With `tail`, the statement at
    `end` (an `if` or a `for each` that waits), the function also runs its first instruction as the
    machine would: the test read and the branch taken (`pc` at the branch), or the list read and the
    loop opened in the frame. None when the run cannot be written (nested too deep, or an instruction
    not where the lowering put it)."""
    writer = _BlockWriter(comp, ops, first)
    try:
        lines = writer.statements(run, 1)
        lines += writer.tail(tail, end) if tail is not None else [("    ", f"_f.pc = {end}", None, "")]
    except _TooDeep:
        return None
    span = run[0][0].span
    name = function_name(comp.rule, f"line_{span.line}" if span is not None else None)
    written = "\n".join(_line(line, False) for line in lines)
    fn = _defined(name, written, block_source, writer.w.constants, f"statements at {span}", comp.engine.sym)
    shown = os.environ.get(SHOW_VARIABLE)
    if shown:
        text = f"def {name}(env, _f):\n" + "\n".join(_line(line, True) for line in lines) + "\n"
        show_source(shown, f"# {span}", text, writer.w.constants)
    return fn


def block_source(name: str, written: str) -> str:
    """A block's text as it is compiled: its statements one a line, each expression on one line."""
    return f"def {name}(env, _f):\n{written}\n"


def _line(line: tuple[str, str, str | None, str], readable: bool) -> str:
    """One line of a block: its indent, what comes before its expression, the expression (laid out over
    lines when read, layout.py), what comes after."""
    indent, head, expression, tail = line
    if expression is None:
        return indent + head + tail
    return indent + head + (laid_out(expression, len(indent)) if readable else expression) + tail


def _python_name(name: str) -> str | None:
    """The Python local a rules name is kept in inside a block (`v_defender`); None for a name Python
    could not take as it is (it is then read from the frame)."""
    return f"v_{name}" if name.isidentifier() and name.isascii() else None


class _BlockWriter:
    """Writes one block: its lines, and through one expression writer the constants they name.

    A local given a value by `let` (or `set`, `for each`) in the block is also a Python local
    (`v_NAME`), read as such from there on in the same stretch of code; the frame's locals are
    written at the same moment, so the closures, the machine and a position see the same values. A
    name is read from the Python local only where every way to that point gave it one (`known`):
    what an `if`'s branch or a loop's body gives is forgotten at its end."""

    def __init__(self, comp, ops: list, first: dict[int, tuple[Any, int]]):
        self.comp, self.ops, self.first = comp, ops, first
        self.w = _Writer(comp)
        self.w.constants["_e"] = comp.engine  # the engine, which every statement begun counts its step in
        self.w.constants["_over"] = _over
        self.known: dict[str, str] = {}  # rules name -> its Python local, where it surely holds the value

    def statements(self, run, depth: int) -> list:
        if depth > MAX_BLOCK_NESTING:
            raise _TooDeep()
        lines = []
        for s, at in run:
            if self.ops[at].node is not s:
                raise _TooDeep()  # not where the lowering put it: leave the run to the machine
            lines.extend(self.statement(s, at, "    " * depth, depth))
        return lines

    def tail(self, s, at: int) -> list:
        """The first instruction of a statement that waits, `if` or `for each`: its test or its list read."""
        op = self.ops[at]
        if op.node is not s:
            raise _TooDeep()
        lines = self.begun(op, at, "    ")
        outer, self.comp.cite = self.comp.cite, s.cite
        try:
            if s.kind == "if":
                return lines + [("    ", "if not (", self.expr(s.test), f"): _f.pc = {op.orelse}")]
            opened = f'_f.loops.append(["for", {self.w.const(ops.loop_items)}('
            return lines + [("    ", opened, self.expr(s.iterable), f", {self.w.const(s.span)}), 0])")]
        finally:
            self.comp.cite = outer

    def begun(self, op, at: int, ind: str) -> list:
        """A statement begun as the machine begins it: `pc` past its first instruction, a new epoch, its step
        counted against the budget."""
        return [(ind, f"_f.pc = {at + 1}", None, ""), (ind, "_e.epoch += 1", None, ""), (ind, "_e.steps += 1", None, ""),
                (ind, "if _e.steps > _e.max_steps: _over(_e, _f)", None, "")]

    def nested(self, stmts, depth: int) -> list:
        known = dict(self.known)
        try:
            lines = self.statements([(s, self.first.get(id(s), (None, 0))[1]) for s in stmts], depth)
        finally:
            self.known = known
        return lines or [("    " * depth, "pass", None, "")]

    def expr(self, e) -> str:
        self.w.locals = dict(self.known)
        return self.w.write(e, 0)

    def statement(self, s, at: int, ind: str, depth: int) -> list:
        begun = self.begun(self.ops[at], at, ind)
        outer, self.comp.cite = self.comp.cite, s.cite  # its expressions carry its citation, as the machine's
        try:
            write = getattr(self, "s_" + s.kind, None)
            written = write(s, at, ind, depth) if write is not None else None
            return begun + (written if written is not None else self.closure(s, at, ind))
        finally:
            self.comp.cite = outer

    def closure(self, s, at: int, ind: str) -> list:
        """The statement run by the compiler's closure (the machine's own `Do`); a local it may set is read
        back into its Python local."""
        lines = [(ind, f"{self.w.const(self.ops[at].closure())}(env)", None, "")]
        target = getattr(s, "target", None)
        if target is not None and target.kind == "var" and target.name in self.known:
            lines.append((ind, f"{self.known[target.name]} = env[{target.name!r}]", None, ""))
        return lines

    def assigned(self, name: str, ind: str, value: str) -> list:
        """A local given `value`: in the frame, and in its Python local from here on."""
        local = _python_name(name)
        if local is None:
            return [(ind, f"env[{name!r}] = ", value, "")]
        self.known[name] = local
        return [(ind, f"env[{name!r}] = {local} = ", value, "")]

    def s_let(self, s, at, ind, depth):
        return self.assigned(s.name, ind, self.expr(s.value))

    def s_set(self, s, at, ind, depth):
        if s.target.kind != "var" or s.target.name not in self.known:
            return None  # a game state, a map's entry, or a local not known here: the closure decides
        return self.assigned(s.target.name, ind, self.expr(s.value))

    def s_say(self, s, at, ind, depth):
        if s.known_by is not None or s.face_down is not None:
            return None
        return [(ind, f"if _e.narrate: _e.trace({self.w.const(s.cite)}, ", self.expr(s.text), ")"),
                (ind, f"else: {self.w.const(self.ops[at])}.fn(env)", None, "")]  # its values, read unshown (made if ever)

    def s_record(self, s, at, ind, depth):
        key, value = self.expr(s.key), self.expr(s.value)
        return [(ind, "", f"_e.record({key}, {value}, {self.w.const(s.cite)})", "")]

    def s_if(self, s, at, ind, depth):
        lines = [(ind, "if ", self.expr(s.test), ":")] + self.nested(s.body, depth + 1)
        if s.orelse:
            lines += [(ind, "else:", None, "")] + self.nested(s.orelse, depth + 1)
        return lines

    def s_for(self, s, at, ind, depth):
        items = self.w.temp()
        lines = [(ind, f"{items} = {self.w.const(ops.loop_items)}(", self.expr(s.iterable), f", {self.w.const(s.span)})")]
        known = dict(self.known)
        item = self.w.temp()
        lines.append((ind, f"for {item} in {items}:", None, ""))
        lines += self.assigned(s.var, ind + "    ", item)
        body = self.nested(s.body, depth + 1)
        self.known = known  # an empty list leaves the name as it was
        return lines + [line for line in body if line[1] != "pass"]

    def s_repeat_times(self, s, at, ind, depth):
        count = f"{self.w.const(ops.times)}({self.expr(s.count)}, {self.w.const(s.span)})"
        return [(ind, f"for {self.w.temp()} in range(", count, "):")] + self.nested(s.body, depth + 1)


# ───────────────────────────── bodies ─────────────────────────────

# Statements that wait whose instruction always hands the process something (a request, or a frame pushed):
# the body returns what the instruction returns.
_ALWAYS_RETURNS = frozenset({"call", "lookup", "eliminate", "reroll", "choose"})
# Statements the body leaves to the machine (vm.CodeFrame.instructions) from their first instruction on:
# loops of rounds and impulses, whose hooks, limits and `stop`s move `pc` from inside other instructions.
_LEFT_TO_THE_MACHINE = frozenset({"repeat", "impulses", "stop", "pass"})


def body(comp, ops: list, stmts: list, first: dict[int, tuple[Any, int]], straight, machine, done):
    """A body (a procedure, a step, a hook, a row's effect) as one Python function of the process and the
    frame, which runs it from the frame's `pc` as the machine runs its instructions (vm.CodeFrame.advance)
    and returns what the machine would return: a request, a frame pushed, or `done` at the body's end.

    `pc` stays data: the function begins where `pc` says, every instruction it runs sets `pc`, the epoch
    and the steps as the machine does, and a statement that waits returns with `pc` past it, so a position,
    its key and a save read the frame as the machine leaves it. Runs of statements that never wait are
    written inline (`_BlockWriter`); the test of an `if` and the steps of a `for each` or `repeat … times`
    whose body waits are written as Python, the loop's cursor kept in the frame's loops; any other statement
    that waits calls its instruction's `run`. Each piece of the body is guarded by the first instruction it
    runs from (`if pc <= 12:`), so the function can begin at any place a frame can stand: a forward jump
    sets `pc` past what it skips, and a loop goes round with `pc` set back to 0, where every guard holds.
    A place the function does not name (`_entries`), and the statements in _LEFT_TO_THE_MACHINE, are run by
    the machine itself (`machine`). Returns the function and the instructions it leaves to the machine
    (`left`); no function for a body with no statement, or one nested too deep to write."""
    if not stmts:
        return None, set()
    writer = _BodyWriter(comp, ops, first, straight)
    try:
        lines = writer.sequence(stmts, len(ops), 1)
    except _TooDeep:
        return None, set()
    writer.entries.add(len(ops))
    constants = writer.w.constants
    constants.update(_entries=frozenset(writer.entries), _machine=machine, _done=done)
    span = stmts[0].span
    name = function_name(comp.rule, "body")
    written = "\n".join(_line(line, False) for line in lines)
    fn = _defined(name, written, body_source, constants, f"body at {span}", comp.engine.sym)
    shown = os.environ.get(SHOW_VARIABLE)
    if shown:
        text = _BODY_HEAD.format(name=name) + "\n".join(_line(line, True) for line in lines) + "\n    return _done\n"
        show_source(shown, f"# {span}: the body of {comp.rule}", text, constants)
    return fn, writer.left


_BODY_HEAD = ("def {name}(_p, _f):\n    env, pc = _f.env, _f.pc\n"
              "    if pc not in _entries:  # a place no piece of the body begins at: the machine runs on from it\n"
              "        return _machine(_f, _p)\n")


def body_source(name: str, written: str) -> str:
    """A body's text as it is compiled: its pieces one statement a line, each expression on one line."""
    return _BODY_HEAD.format(name=name) + f"{written}\n    return _done\n"


class _BodyWriter(_BlockWriter):
    """Writes one body: its runs of statements that never wait as a block writes them, and around them the
    statements that wait, each piece guarded by the instruction it begins at (`entries`: every place the
    function may begin). A Python local of the rules' locals (`known`) holds only within a run: a piece can
    be begun at, after the frame waited, with nothing of the pieces before it run."""

    def __init__(self, comp, ops: list, first: dict[int, tuple[Any, int]], straight):
        super().__init__(comp, ops, first)
        self.straight = straight
        self.entries: set[int] = set()
        self.left: set[int] = set()  # the instructions the machine runs (vm.CodeFrame.instructions)
        self.loops = 0

    def at(self, s) -> int:
        return self.first[id(s)][1]

    def sequence(self, stmts: list, end: int, depth: int) -> list:
        """Statements from their first instruction to `end`: each run of straight ones a piece, each other
        statement its own."""
        starts = [self.at(s) for s in stmts] + [end]
        lines, run = [], []
        for i, s in enumerate(stmts):
            if self.straight(s):
                run.append((s, starts[i]))
                continue
            lines += self.run(run, starts[i], depth)
            run = []
            lines += self.piece(s, starts[i], starts[i + 1], depth)
        return lines + self.run(run, end, depth)

    def guard(self, at: int, depth: int) -> tuple:
        self.entries.add(at)
        self.known = {}
        return ("    " * depth, f"if pc <= {at}:", None, "")

    def machine(self, at: int, end: int, depth: int) -> list:
        """Instructions `at` to `end` run by the machine, from wherever the frame stands in them."""
        self.entries.update(range(at, end))
        self.left.update(range(at, end))
        return [("    " * depth, f"if pc < {end}: return _machine(_f, _p)", None, "")]

    def run(self, run: list, end: int, depth: int) -> list:
        if not run:
            return []
        at = run[0][1]
        guard = self.guard(at, depth)
        try:
            lines = self.statements(run, depth + 1)
        except _TooDeep:
            return self.machine(at, end, depth)
        return [guard] + lines + [("    " * (depth + 1), f"_f.pc = {end}", None, "")]

    def piece(self, s, at: int, end: int, depth: int) -> list:
        if s.kind in _LEFT_TO_THE_MACHINE or depth + 2 > MAX_BLOCK_NESTING:
            return self.machine(at, end, depth)
        self.known = {}  # a piece may be begun at with nothing before it run: no Python local holds yet
        outer, self.comp.cite = self.comp.cite, s.cite  # its expressions carry its citation, as the machine's
        try:
            note = ("    " * depth, f"# line {s.span.line if s.span is not None else '?'}: {s.kind}", None, "")
            write = getattr(self, "p_" + s.kind, None)
            return [note] + (write(s, at, end, depth) if write is not None else self.instruction(s.kind, at, depth))
        finally:
            self.comp.cite = outer

    def begun_at(self, at: int, ind: str) -> list:
        """An instruction begun as the machine begins it (`begun`, or for one that is no statement's first,
        `pc` and the epoch only)."""
        if self.ops[at].counts:
            return self.begun(self.ops[at], at, ind)
        return [(ind, f"_f.pc = {at + 1}", None, ""), (ind, "_e.epoch += 1", None, "")]

    def instruction(self, kind: str, at: int, depth: int) -> list:
        """An instruction that waits, run by its own `run`, returning what it returns unless that is nothing."""
        ind = "    " * (depth + 1)
        run = self.w.const(self.ops[at].run)
        if kind in _ALWAYS_RETURNS:
            done = [(ind, f"return {run}(_p, _f)", None, "")]
        elif kind == "return":  # the frame is over: `pc` is at its end
            done = [(ind, f"_r = {run}(_p, _f)", None, ""), (ind, "return _done if _r is None else _r", None, "")]
        else:
            done = [(ind, f"_r = {run}(_p, _f)", None, ""), (ind, "if _r is not None: return _r", None, "")]
        return [self.guard(at, depth)] + self.begun_at(at, ind) + done

    def p_if(self, s, at, end, depth):
        """The test as Python, then each branch from the place it begins at; the then-branch's jump past the
        else-branch is a Python jump forward, `pc` set to the statement's end."""
        ind, inner = "    " * depth, "    " * (depth + 1)
        orelse = self.ops[at].orelse  # where the test sends a frame when it fails
        lines = [self.guard(at, depth)] + self.begun_at(at, inner)
        lines.append((inner, "if not (", self.expr(s.test), f"): _f.pc = pc = {orelse}"))
        if not s.orelse:
            return lines + [(ind, f"if pc < {orelse}:", None, "")] + self.sequence(s.body, orelse, depth + 1)
        jump = orelse - 1  # the then-branch ends with a jump to the statement's end
        self.entries.add(jump)
        lines += [(ind, f"if pc <= {jump}:", None, "")] + self.sequence(s.body, jump, depth + 1)
        lines += [(inner, "_e.epoch += 1", None, ""), (inner, f"_f.pc = pc = {end}", None, "")]
        return lines + [(ind, f"if pc < {end}:", None, "")] + self.sequence(s.orelse, end, depth + 1)

    def p_for(self, s, at, end, depth):
        opened = f'_f.loops.append(["for", {self.w.const(ops.loop_items)}('
        return self.loop(s, at, end, depth, (opened, self.expr(s.iterable), f", {self.w.const(s.span)}), 0])"))

    def p_repeat_times(self, s, at, end, depth):
        opened = f'_f.loops.append(["for", list(range(1, {self.w.const(ops.times)}('
        return self.loop(s, at, end, depth, (opened, self.expr(s.count), f", {self.w.const(s.span)}) + 1)), 0])"))

    def loop(self, s, at, end, depth, opened) -> list:
        """A loop whose body waits: opened in the frame's loops, then round a Python loop whose every turn
        takes the next item as the machine's `ForNext` does (its cursor stays in the frame), and whose end
        (the machine's jump back) sets `pc` to 0, so the next turn runs its body from the top."""
        ind, inner, turn = "    " * depth, "    " * (depth + 1), "    " * (depth + 2)
        top, back = at + 1, end - 1  # ForNext; the jump back to it
        self.entries.update((top, back))
        lines = [self.guard(at, depth)] + self.begun_at(at, inner) + [(inner, *opened)]
        self.loops += 1
        cursor = f"_l{self.loops}"
        lines += [(ind, f"if pc < {end}:", None, ""), (inner, "while True:", None, ""),
                  (turn, f"if pc <= {top}:", None, "")]
        step = turn + "    "
        lines += [(step, f"_f.pc = {top + 1}", None, ""), (step, "_e.epoch += 1", None, ""),
                  (step, f"{cursor} = _f.loops[-1]", None, ""), (step, f"if {cursor}[2] >= len({cursor}[1]):", None, ""),
                  (step + "    ", "_f.loops.pop()", None, ""), (step + "    ", f"_f.pc = {end}", None, ""),
                  (step + "    ", "break", None, "")]
        if s.kind == "for":
            lines.append((step, f"env[{s.var!r}] = {cursor}[1][{cursor}[2]]", None, ""))
        lines.append((step, f"{cursor}[2] += 1", None, ""))
        lines += self.sequence(s.body, back, depth + 2)
        return lines + [(turn, "_e.epoch += 1", None, ""), (turn, "pc = 0", None, "")]

    def p_simultaneously(self, s, at, end, depth):
        """`simultaneously`: its opening and its end are instructions run as they are, its body a sequence."""
        return (self.instruction(s.kind, at, depth) + self.sequence(s.body, end - 1, depth)
                + self.instruction(s.kind, end - 1, depth))

    def p_secretly(self, s, at, end, depth):
        """`secretly`: its opening, each decision, and its reveal, one instruction after another."""
        return [line for k in range(at, end) for line in self.instruction("secretly" if k in (at, end - 1) else "choose", k, depth)]
