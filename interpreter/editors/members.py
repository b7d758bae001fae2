"""What may follow a dot: the language server's completion after `NAME.` offers what NAME has.

A unit has its stats, flags and unit states and the attributes every unit has (lang.UNIT_ATTRS); a
place its properties and place states and `id`; a record its fields; an enumeration's name its
values (`kind.harbour`). What NAME is comes from the names declared (a unit or place of a
scenario, a counter, a game state's type) or, for a local, from where it is bound in the procedure,
function, hook or step around the cursor: a parameter's type, a `let`, a `for each`, a `choose` or a
`pick` from a list whose elements are known (`units_at(p)`, `b.cargo`, `[u for u in all_units() …]`,
a function that gives such a list). A name of no known kind is offered every attribute.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..ir import nodes as n
from ..ir.visit import blocks
from ..lang import PLACE_ATTRS, UNIT_ATTRS
from .index import Declaration, Parsed, unchanged_lines

UNIT, PLACE = "unit", "place"
_UNIT_LISTS = frozenset({"units_at", "all_units"})
_PLACE_LISTS = frozenset({"places", "adjacent", "linked", "exits", "between", "within", "reach"})
_PLACES = frozenset({"neighbour", "follow"})
# What the attributes every unit has are (the rest are not units, places or lists of them).
_UNIT_ATTR_TYPES = {"carrier": UNIT, "location": PLACE, "cargo": f"[{UNIT}]"}
_UNIT_MEMBERS = ("stat", "flag", "unit state")
_PLACE_MEMBERS = ("place property", "place state")
_SCOPES = (n.FunctionDecl, n.ProcedureDecl, n.HookDecl, n.StepDecl, n.InvariantDecl)
_DOTTED = re.compile(r"(@?)([A-Za-z0-9_]+(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\.[A-Za-z0-9_]*$")


@dataclass(frozen=True)
class Member:
    """One thing that may follow the dot: its name, what it is and the line that declares it."""

    name: str
    what: str
    line: str
    cite: str | None = None


def dotted(line: str) -> tuple[str, bool] | None:
    """What is before the dot the text up to the cursor ends with (`u.`, `u.lo`, `b.location.`), and
    whether it starts with a place written `@NAME`; None when the cursor is not after a dot."""
    found = _DOTTED.search(line)
    return (found.group(2), bool(found.group(1))) if found else None


def members(before: str, at_place: bool, known: list[Declaration], parsed: list[Parsed], here: Parsed | None,
            text: str, line: int) -> list[Member]:
    """What may follow `NAME.` (or `NAME.ATTR.`) on ``line`` (1-based) of ``text``: ``known`` are the
    names the file sees, ``parsed`` the files they come from, ``here`` the file's own last text that parsed."""
    name, *attrs = before.split(".")
    values = [d for d in known if d.what == f"value of {name}"]
    if values and not at_place and not attrs:
        return [_member(d) for d in values]
    kinds = _Kinds(known, parsed)
    scope = _scope(here, text, line)
    expr = n.PlaceLit.model_construct(id=name) if at_place else n.Var.model_construct(name=name)
    for attr in attrs:
        expr = n.Attr.model_construct(obj=expr, name=attr)
    return kinds.members(kinds.of(expr, kinds.locals(scope) if scope is not None else {}))


def _member(d: Declaration) -> Member:
    return Member(d.name, d.what, d.line, d.cite)


def _scope(here: Parsed | None, text: str, line: int):
    """The procedure, function, hook or step around the cursor in the file's last text that parsed
    (the cursor's line found through the nearest line above it the edit left unchanged), or None."""
    if here is None or here.tree is None:
        return None
    back = {new: old for old, new in unchanged_lines(here.text, text).items()}
    above = max((new for new in back if new <= line), default=None)
    if above is None:
        return None
    old = back[above] + (line - above)
    decls = getattr(here.tree, "decls", ())
    scopes = [d for d in decls if isinstance(d, _SCOPES)]
    scopes += [step for d in decls if isinstance(d, n.SequenceDecl) for phase in d.phases for step in phase.steps]
    return next((d for d in scopes if d.span.line <= old <= d.span.end_line), None)


class _Kinds:
    """What a name or an expression is (UNIT, PLACE, a record type's name, `[KIND]` for a list of
    them, or None), and what such a thing has."""

    def __init__(self, known: list[Declaration], parsed: list[Parsed]) -> None:
        self.known = known
        decls = [d for p in parsed for d in getattr(p.tree, "decls", ())]  # a rules file's declarations
        nodes = decls + [prop for d in decls if isinstance(d, n.MapDecl) for prop in d.props]
        self.functions = {d.name: d for d in nodes if isinstance(d, n.FunctionDecl)}
        self.records = {d.name: d for d in nodes if isinstance(d, n.RecordDecl)}
        self.states = {d.name: d.type.name for d in nodes if isinstance(d, n.GameStateDecl)}
        self.unit_states = {d.name: d.type.name for d in nodes if isinstance(d, n.UnitStateDecl)}
        self.place_states = {d.name: d.type.name for d in nodes if isinstance(d, n.PlaceProp | n.PlaceStateDecl)}
        self.units = {d.name for d in known if d.what in ("unit", "counter")}
        self.places = {d.name for d in known if d.what in ("place", "box")}

    def members(self, kind: str | None) -> list[Member]:
        unit = [_member(d) for d in self.known if d.what in _UNIT_MEMBERS]
        unit += [Member(a, "unit attribute", what) for a, what in UNIT_ATTRS.items()]
        place = [_member(d) for d in self.known if d.what in _PLACE_MEMBERS]
        place += [Member(a, "place attribute", what) for a, what in PLACE_ATTRS.items()]
        if kind == UNIT:
            return unit
        if kind == PLACE:
            return place
        if kind in self.records:
            return [Member(f.name, f"field of {kind}", f"{f.name}: {f.type.name}", str(f.cite) if f.cite else None)
                    for f in self.records[kind].fields]
        return unit + [m for m in place if m.name not in {u.name for u in unit}]

    def locals(self, scope) -> dict[str, str | None]:
        """The locals of a procedure, function, hook or step and what each is, in the order they are bound."""
        env: dict[str, str | None] = {p.name: p.type for p in getattr(scope, "params", ())}
        body = scope.body if isinstance(scope.body, tuple) else ()
        self._bind(body, env)
        return env

    def _bind(self, stmts: tuple, env: dict[str, str | None]) -> None:
        for s in stmts:
            if isinstance(s, n.Let):
                env[s.name] = self.of(s.value, env)
            elif isinstance(s, n.ForEach):
                env[s.var] = _element(self.of(s.iterable, env))
            elif isinstance(s, n.Choose):
                options = self.of(s.options, env)
                env[s.name] = _element(options) if s.mode == "one" else options
            elif isinstance(s, n.Pick):
                options = self.of(s.options, env)
                env[s.name] = _element(options) if s.count is None else options
            for _, inner in blocks(s):
                self._bind(inner, env)

    def of(self, e, env: dict[str, str | None], depth: int = 0) -> str | None:
        """What an expression gives, as far as its shape says (a function's body read a few calls deep)."""
        if depth > 8:
            return None
        if isinstance(e, n.Var):
            if e.name in env:
                return env[e.name]
            return (self.states.get(e.name) or (UNIT if e.name in self.units else PLACE if e.name in self.places else None))
        if isinstance(e, n.PlaceLit):
            return PLACE
        if isinstance(e, n.Attr):
            obj = self.of(e.obj, env, depth + 1)
            if obj == UNIT:
                return _UNIT_ATTR_TYPES.get(e.name) or self.unit_states.get(e.name)
            if obj == PLACE:
                return self.place_states.get(e.name)
            record = self.records.get(obj or "")
            field = next((f for f in record.fields if f.name == e.name), None) if record else None
            return field.type.name if field else None
        if isinstance(e, n.Index):
            return _element(self.of(e.obj, env, depth + 1))
        if isinstance(e, n.Comprehension):
            inner = {**env, e.var: _element(self.of(e.iterable, env, depth + 1))}
            item = self.of(e.expr, inner, depth + 1)
            return f"[{item}]" if item else None
        if isinstance(e, n.BinOp):
            return self.of(e.left, env, depth + 1) or self.of(e.right, env, depth + 1)
        if isinstance(e, n.CallExpr):
            return self._called(e, env, depth)
        return None

    def _called(self, e: n.CallExpr, env: dict[str, str | None], depth: int) -> str | None:
        if e.func in _UNIT_LISTS:
            return f"[{UNIT}]"
        if e.func in _PLACE_LISTS:
            return f"[{PLACE}]"
        if e.func in _PLACES:
            return PLACE
        function = self.functions.get(e.func)
        if function is None:
            return None
        return self.of(function.body, {p.name: p.type for p in function.params}, depth + 1)


def _element(kind: str | None) -> str | None:
    """The kind of a list's elements, for a list of a known kind."""
    return kind[1:-1] if kind and kind.startswith("[") and kind.endswith("]") else None
