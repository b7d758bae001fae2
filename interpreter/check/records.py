"""The checker's part for record types (language 3.1) and enumeration values (language 15).

An enumeration value is a global name; one that two enumerations share is written qualified by
the name that declares the enumeration (`region.west_indies`), and a bare use of it is an error
listing those forms. A value of one enumeration may be written either way.

Mixed into `resolve.Checker`: the declarations (field types, defaults), constructions
(`NAME(field: value, …)`: every field known, each given once, the required ones given), field
reads and writes where the record's type is known, and the kind of a literal given to a field.
A local's record type is known when it is a parameter declared with that type or was bound to a
construction; elsewhere a field name of any record is accepted, and the run checks it.
"""

from __future__ import annotations

from ..ir import nodes as n
from ..ir.visit import descendants
from ..lang import BUILTINS, VALUE_TYPES
from ..syntax.diagnostics import did_you_mean

# What a literal is, for a field whose type it cannot be: (the types it fits, how it reads in a message).
_LITERALS = {
    n.IntLit: (("int",), "a number"),
    n.StrLit: (("str",), "a text"),
    n.BoolLit: (("bool",), "true or false"),
    n.ListLit: (("list",), "a list"),
    n.Comprehension: (("list",), "a list"),
    n.MapLit: (("map",), "a map"),
}


class RecordChecks:
    """Checks of record types and of the values given to their fields (see the module's account)."""

    typed: dict[str, str]  # a local name -> its record type, where known

    def type_names(self) -> tuple[str, ...]:
        return VALUE_TYPES + tuple(self.sym.records)

    def check_records(self) -> None:
        for decl in self.sym.records.values():
            if decl.name in self.sym.functions or decl.name in BUILTINS:
                self.error(f"record '{decl.name}' has the name of a function: 'NAME(…)' could not say which is meant", decl.span)
            seen: set[str] = set()
            for f in decl.fields:
                if f.name in seen:
                    self.error(f"record '{decl.name}' has two fields named '{f.name}'", f.span)
                seen.add(f.name)
                if f.type.name and f.type.name not in self.type_names():
                    self.unknown("type", f.type.name, f.type.span, self.type_names())
                if f.default is not None:
                    self.expr(f.default, set())  # the game's names only: a default is computed without locals
                    self.check_fits(decl, f, f.default, set())

    def start_body(self, params: tuple[n.Param, ...]) -> None:
        """A new body: its parameters declared with a record type are the locals whose type is known."""
        self.typed = {p.name: p.type for p in params if p.type in self.sym.records}

    def record_of(self, e, scope: set[str]) -> n.RecordDecl | None:
        """The record type of an expression, where the checker knows it."""
        if isinstance(e, n.Var) and e.name in scope:
            return self.sym.records.get(self.typed.get(e.name, ""))
        if isinstance(e, n.CallExpr):
            fn = self.sym.functions.get(e.func)
            return self.sym.records.get(e.func) or (self.function_record(fn) if fn else None)
        if isinstance(e, n.CondExpr):
            then, orelse = self.record_of(e.then, scope), self.record_of(e.orelse, scope)
            return then if then is orelse else None
        if isinstance(e, n.Attr):
            outer = self.record_of(e.obj, scope)
            field = outer.field(e.name) if outer else None
            return self.sym.records.get(field.type.name or "") if field else None
        return None

    def function_record(self, fn: n.FunctionDecl) -> n.RecordDecl | None:
        """The record type a function gives, when its body builds one (`= Tally(attacker: s)`)."""
        body = fn.body
        while isinstance(body, n.CondExpr):  # the same type on both branches, or not known
            kinds = {b.func if isinstance(b, n.CallExpr) else None for b in (body.then, body.orelse)}
            if len(kinds) != 1:
                return None
            body = body.then
        return self.sym.records.get(body.func) if isinstance(body, n.CallExpr) else None

    def procedure_record(self, proc: n.ProcedureDecl) -> n.RecordDecl | None:
        """The record type a procedure returns, when every `return EXPR` of it gives one the text shows: a build,
        a parameter declared with the type, or a local bound to a build."""
        built = {p.name: self.sym.records[p.type] for p in proc.params if p.type in self.sym.records}
        for s in descendants(proc.body):
            if isinstance(s, n.Let) and isinstance(s.value, n.CallExpr):
                built[s.name] = self.record_of(s.value, set())
        found = set()
        for r in descendants(proc.body):
            if isinstance(r, n.Return) and r.value is not None:
                v = r.value
                found.add(built.get(v.name) if isinstance(v, n.Var) else self.record_of(v, set()))
        return found.pop() if len(found) == 1 else None

    def receive(self, name: str, proc: n.ProcedureDecl | None) -> None:
        """`let name = call proc(…)`: the local's record type is known when the procedure's is."""
        decl = self.procedure_record(proc) if proc is not None else None
        if decl is None:
            self.typed.pop(name, None)
        else:
            self.typed[name] = decl.name

    def bind(self, name: str, value, scope: set[str]) -> None:
        """A local bound to a value: its record type is known from now on if the value's is."""
        decl = self.record_of(value, scope) if value is not None else None
        if decl is None:
            self.typed.pop(name, None)
        else:
            self.typed[name] = decl.name

    def construction(self, decl: n.RecordDecl, e: n.CallExpr, scope: set[str]) -> None:
        """`NAME(field: value, …)`: named fields of the record, each once, every field without a default given."""
        given: set[str] = set()
        names = [f.name for f in decl.fields]
        for a in e.args:
            if a.name is None:
                self.error(f"record '{decl.name}' is built with named fields, as in '{decl.name}({names[0] if names else 'field'}: …)'",
                           a.span)
            elif decl.field(a.name) is None:
                self.error(f"record '{decl.name}' has no field '{a.name}'", a.span, did_you_mean(a.name, names))
            elif a.name in given:
                self.error(f"field '{a.name}' of record '{decl.name}' is given twice", a.span)
            else:
                self.check_fits(decl, decl.field(a.name), a.value, scope)
            given.add(a.name or "")
        missing = [f.name for f in decl.fields if f.default is None and f.name not in given]
        if missing:
            self.error(f"record '{decl.name}' needs a value for its field(s) {', '.join(repr(m) for m in missing)}", e.span,
                       f"give it, as in '{decl.name}({missing[0]}: …)', or declare a default in the record: '{missing[0]}: TYPE = VALUE'")

    def check_fits(self, decl: n.RecordDecl, field: n.RecordField, value, scope: set[str]) -> None:
        """A value whose kind the checker can see (a literal, a construction, an enumeration value) fits the field."""
        what = self.kind_of(value, scope)
        if what is None:
            return
        fits, text = what
        t = field.type
        if t.enum:
            ok = fits == ("enum",) and text in t.enum
            shown = "{" + ", ".join(t.enum) + "}"
        else:
            ok = t.name in fits or (t.name in ("side", "nation", "faction") and fits == ("enum",) and self.faction(text, t.name))
            shown = t.name
        if not ok:
            given = text if fits != ("enum",) else f"'{text}'"
            self.error(f"field '{field.name}' of record '{decl.name}' is of type {shown}: it cannot hold {given}", value.span)

    def kind_of(self, e, scope: set[str]) -> tuple[tuple[str, ...], str] | None:
        """The types a value fits and how it reads, when its kind is plain from the text; None otherwise."""
        found = _LITERALS.get(type(e))
        if found is not None:
            return found
        if isinstance(e, n.CallExpr) and e.func in self.sym.records:
            return (e.func,), f"a {e.func}"
        qualified = self.sym.enumeration_value(e)
        if qualified is not None and e.obj.name not in scope:
            return ("enum",), qualified
        if isinstance(e, n.Var) and e.name not in scope:
            sym = self.sym
            if e.name in sym.enum_values or e.name in sym.sides or e.name in sym.nations:
                return ("enum",), e.name
        return None

    def bare_enumeration_value(self, e: n.Var) -> None:
        """A bare global name that is a value of two enumerations or more: which one is meant?"""
        forms = self.sym.qualified_forms(e.name)
        if forms and not self.other_global(e.name):
            self.error(f"'{e.name}' is a value of {len(forms)} enumerations: write which one is meant", e.span,
                       "write " + " or ".join(forms))

    def other_global(self, name: str) -> bool:
        """A side, nation, box, track, game state or counter of that name: the bare name is that, whatever the enumerations."""
        sym = self.sym
        return any(name in space for space in (sym.sides, sym.nations, sym.boxes, sym.tracks, sym.game_states, sym.counters))

    def qualified_value(self, e: n.Attr, scope: set[str]) -> bool:
        """`NAME.value` where NAME declares an enumeration (and is not a local): the value must be one of it.
        True when the expression is read so."""
        obj = e.obj
        if not isinstance(obj, n.Var) or obj.name in scope or obj.name not in self.sym.enumerations:
            return False
        values = self.sym.enumerations[obj.name]
        if e.name not in values:
            if e.name in self.attributes or self.field_read(e, scope):
                return False  # an attribute of a game state's value, perhaps: read as an attribute
            self.error(f"the enumeration of '{obj.name}' has no value '{e.name}'", e.name_span,
                       did_you_mean(e.name, values) or f"its values are {', '.join(values)}")
        return True

    def faction(self, name: str, kind: str) -> bool:
        sides, nations = name in self.sym.sides, name in self.sym.nations
        return sides if kind == "side" else nations if kind == "nation" else sides or nations

    def field_read(self, e: n.Attr, scope: set[str]) -> bool:
        """`r.name` of a record whose type is known: the field exists. True when the attribute is a record's."""
        decl = self.record_of(e.obj, scope)
        if decl is not None:
            if decl.field(e.name) is None:
                self.error(f"record '{decl.name}' has no field '{e.name}'", e.name_span,
                           did_you_mean(e.name, [f.name for f in decl.fields]))
            return True
        return any(d.field(e.name) for d in self.sym.records.values()) and e.name not in self.attributes

    def field_write(self, target: n.Attr, value, scope: set[str]) -> bool:
        """`set r.name = value`: as a read, and the value's kind fits the field. True when the target is a record's field."""
        decl = self.record_of(target.obj, scope)
        if decl is None:
            return any(d.field(target.name) for d in self.sym.records.values())
        field = decl.field(target.name)
        if field is None:
            self.error(f"record '{decl.name}' has no field '{target.name}'", target.name_span,
                       did_you_mean(target.name, [f.name for f in decl.fields]))
        elif value is not None:
            self.check_fits(decl, field, value, scope)
        return True
