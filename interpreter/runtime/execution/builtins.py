"""The built-in functions of the rules language, as the runtime computes them.

`lang.BUILTINS` declares each one (name, number of arguments, what it gives) for the checker
and the docs; here each is implemented once, as a function of its own registered under the same
name. tests/syntax/test_structure.py proves the two agree: the same names, and each implementation takes
the declared arguments.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from ...limits import MAX_RANGE
from ...syntax.diagnostics import did_you_mean
from ..common.builtin_table import Implementation, registrar
from ..common.requests import RuleError
from ..common.spread import read_extreme, read_total
from ..common.values import Place, Pool, Record, show
from ..world import map_builtins, paths
from .calendar import names_of
from .operations import as_key, as_number

if TYPE_CHECKING:
    from .engine import Engine


# The built-ins computed here, by their names in the language (the map's are in world/).
IMPLEMENTED: dict[str, Implementation] = {}
builtin = registrar(IMPLEMENTED)


def implementations(engine: Engine) -> dict:
    """Each built-in of the language (lang.BUILTINS declares its name, arity and doc) bound to an engine:
    called with the call's span, then its arguments."""
    tables = (IMPLEMENTED, map_builtins.IMPLEMENTED, paths.IMPLEMENTED)
    return {name: partial(fn, engine) for table in tables for name, fn in table.items()}


# ── what the arguments must be ──

def _list(span, v, fn):
    if isinstance(v, dict):
        v = list(v)
    if not isinstance(v, list):
        raise RuleError(f"{fn} needs a list, not {show(v)}", span)
    return v


def _numbers(span, v, fn):
    items = _list(span, v, fn)
    for x in items:
        if not (isinstance(x, int) and not isinstance(x, bool)):
            raise RuleError(f"{fn} needs numbers, but the list holds {show(x)}", span)
    return items


# ── the position ──

@builtin("units_at")
def units_at(engine, span, place):
    if not isinstance(place, Place):
        raise RuleError(f"units_at needs a place, not {show(place)}", span)
    return engine.state.units_at(place)


@builtin("all_units")
def all_units(engine, span):
    return list(engine.state.units.values())


@builtin("places")
def places(engine, span):
    return list(engine.state.places.values())


@builtin("adjacent")
def adjacent(engine, span, place):
    if not isinstance(place, Place):
        raise RuleError(f"adjacent needs a place, not {show(place)}", span)
    return list(place.neighbours)


@builtin("linked")
def linked(engine, span, place, kind):
    if not isinstance(place, Place) or kind not in engine.sym.edges:
        raise RuleError(f"linked needs a place and an edge kind, not {show(place)} and {show(kind)}", span)
    return list(place.links.get(kind, []))


@builtin("sides")
def sides(engine, span):
    return list(engine.sym.sides)


@builtin("turn")
def turn(engine, span):
    return engine.state.turn


@builtin("turn_name")
def turn_name(engine, span, number):
    """The printed name of turn `number` (none in a game whose turns have no names)."""
    names = names_of(engine.sym.game)
    if not names:
        return None
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= len(names):
        raise RuleError(f"turn_name({show(number)}): the game's turns are 1..{len(names)} ({names[0]} … {names[-1]})", span)
    return names[number - 1]


@builtin("phase")
def phase(engine, span):
    return engine.state.phase


@builtin("step")
def step(engine, span):
    return engine.state.step


@builtin("enemy")
def enemy(engine, span, side):
    if not isinstance(side, str):
        raise RuleError(f"enemy({show(side)}) needs a side", span)
    others = [s for s in engine.sym.sides if s != side]
    if side not in engine.sym.sides or len(others) != 1:
        raise RuleError(f"enemy({show(side)}) needs a side of a two-sided game", span)
    return others[0]


@builtin("fact")
def fact(engine, span, key):
    if not isinstance(key, str):
        raise RuleError(f"fact needs the text of a record, not {show(key)}", span)
    if key not in engine.state.facts:
        raise RuleError(f"nothing was recorded as '{key}'", span, hint=did_you_mean(key, engine.state.facts))
    return engine.state.facts[key]


# ── lists and numbers ──

@builtin("count")
def count(engine, span, v):
    return len(_list(span, v, "count"))


@builtin("sum")
def sum_(engine, span, v):
    if v.__class__ is Pool and v.spread is not None:  # exact odds keep the roll as a distribution (common/spread.py)
        return read_total(v)
    return sum(int(x) for x in _numbers(span, v, "sum"))


def _extreme(fn: str, pick, span, a, b):
    """min or max: of a list of numbers, or of two numbers."""
    if b is not None:
        a, b = as_number(a), as_number(b)
    if b is None:
        if a.__class__ is Pool and a.spread is not None:  # exact odds keep the roll as a distribution
            return read_extreme(a, pick)
        items = _numbers(span, a, fn)
        if not items:
            raise RuleError(f"{fn} of an empty list", span)
        return int(pick(items))
    if not all(isinstance(x, int) for x in (a, b)):
        raise RuleError(f"{fn} needs numbers, not {show(a)} and {show(b)}", span)
    return pick(a, b)


@builtin("min")
def min_(engine, span, a, b=None):
    return _extreme("min", min, span, a, b)


@builtin("max")
def max_(engine, span, a, b=None):
    return _extreme("max", max, span, a, b)


@builtin("any")
def any_(engine, span, v):
    return any(_list(span, v, "any"))


@builtin("all")
def all_(engine, span, v):
    return all(_list(span, v, "all"))


@builtin("distinct")
def distinct(engine, span, v):
    items = _list(span, v, "distinct")
    for x in items:
        as_key(x, span)
    return list(dict.fromkeys(items))


@builtin("rotated")
def rotated(engine, span, v, first):
    """The seats in playing order from the one who goes first: the list turned round, not reordered."""
    items = _list(span, v, "rotated")
    if first is None:  # the likeliest cause: the initiative read before any rule has set it
        raise RuleError(f"rotated: the seat to start from is none, not one of {show(items)}: "
                        "is it a state no rule has set yet (the initiative, before it is determined)?", span)
    if first not in items:
        raise RuleError(f"rotated: {show(first)} is not in the list {show(items)}", span)
    i = items.index(first)
    return items[i:] + items[:i]


@builtin("range")
def range_(engine, span, low, high):
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in (low, high)):
        raise RuleError(f"range needs two whole numbers, not {show(low)} and {show(high)}", span)
    if high - low >= MAX_RANGE:
        raise RuleError(f"range({low}, {high}) would hold more than {MAX_RANGE} numbers", span)
    return list(range(low, high + 1))


# ── maps ──

@builtin("keys")
def keys(engine, span, m):
    return list(m) if isinstance(m, dict) else _list(span, m, "keys")


@builtin("values")
def values(engine, span, m):
    return list(m.values()) if isinstance(m, dict) else _list(span, m, "values")


@builtin("get")
def get(engine, span, m, k, default):
    if m.__class__ is Record:  # a field by its name, as a map's entry: a rule written for a map reads a record
        return m.fields.get(k, default) if k.__class__ is str else default
    if not isinstance(m, dict):
        raise RuleError(f"get needs a map or a record, not {show(m)}", span)
    return m.get(as_key(k, span), default)

