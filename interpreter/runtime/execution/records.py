"""Record values at run time (language 3.1): built from a declaration, read and set field by field.

A record is plain data (`values.Record`: its type's name and a dict of fields in the declared
order), so positions copy, key and write it as they do a map. Every field is checked against its
declared type when the record is built and when a field is set: a wrong value stops the run
where it is written, not later where it is read. `none` fits every field (a field not known yet).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...ir import nodes as n
from ..common.values import Die, Place, Pool, Record, Unit, show


def fits(value: Any, t: n.TypeName, sym) -> bool:
    """Whether a value is one of the declared type (a name of VALUE_TYPES, a record type, an enumeration)."""
    if value is None:
        return True
    if t.enum:
        return value.__class__ is str and value in t.enum
    name = t.name
    test = _TESTS.get(name)
    if test is not None:
        return test(value, sym)
    return value.__class__ is Record and value.type == name


_TESTS: dict[str, Callable[[Any, Any], bool]] = {
    "int": lambda v, sym: (v.__class__ is int or v.__class__ is Die or v.__class__ is Pool),
    "bool": lambda v, sym: v.__class__ is bool,
    "str": lambda v, sym: v.__class__ is str,
    "side": lambda v, sym: v.__class__ is str and v in sym.sides,
    "nation": lambda v, sym: v.__class__ is str and v in sym.nations,
    "faction": lambda v, sym: v.__class__ is str and (v in sym.sides or v in sym.nations),
    "place": lambda v, sym: v.__class__ is Place,
    "unit": lambda v, sym: v.__class__ is Unit,
    "list": lambda v, sym: isinstance(v, (list, tuple)),
    "map": lambda v, sym: v.__class__ is dict,
}


def type_text(t: n.TypeName) -> str:
    return t.name if t.name else "{" + ", ".join(t.enum) + "}"


def misfit(decl: n.RecordDecl, field: n.RecordField, value: Any) -> str:
    """The message for a value that does not fit a field."""
    return f"field '{field.name}' of {decl.name} is of type {type_text(field.type)}: it cannot hold {show(value)}"


def builder(decl: n.RecordDecl, given: dict[str, Callable], defaults: dict[str, Callable], sym, error) -> Callable:
    """`NAME(field: value, …)` as a function of the frame's locals: each field's value, given or its
    default (computed anew at each build, so a default list is never shared), checked against its type.
    `error(message)` raises the run's error at the construction's place."""
    order = [(f, given.get(f.name) or defaults[f.name]) for f in decl.fields]
    name = decl.name

    def build(env) -> Record:
        fields = {}
        for f, value in order:
            v = value(env)
            if v is not None and not fits(v, f.type, sym):
                error(misfit(decl, f, v))
            fields[f.name] = v
        return Record(name, fields)

    return build


def read(record: Record, name: str, error) -> Any:
    try:
        return record.fields[name]
    except KeyError:
        error(f"a {record.type} has no field '{name}'")


def write(record: Record, name: str, value: Any, sym, error) -> None:
    """`set r.name = value`: the field must exist and the value fit its type. Not traced: a record is
    the rules' own bookkeeping, as a map is (narrate it with `say` or `record`)."""
    decl = sym.records[record.type]
    field = decl.field(name)
    if field is None:
        error(f"a {record.type} has no field '{name}'")
    if value is not None and not fits(value, field.type, sym):
        error(misfit(decl, field, value))
    record.fields[name] = value
