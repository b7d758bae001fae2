"""The general paths of the operators and the values they check: what the compiler's closures
(compile.py) and the generated code (generated_code.py) both call, so values and errors are the
same message for message whichever of the two evaluates an expression."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from ...limits import MAX_REPEAT
from ..common.requests import RuleError
from ..common.spread import read_matching, read_total
from ..common.values import ORDER_WATCH, Die, OrderedRead, Pool, Record, Unit, X, show
from .guards import check_int, check_list, over_budget

Env = dict
ExprFn = Callable[[Env], Any]
StmtFn = Callable[[Env], None]

# A constant's value when the expression is not a constant (`constant`).
UNSET = object()

ARITHMETIC = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.floordiv, "%": operator.mod}
COMPARISONS = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


def is_number(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def loop_items(seq: Any, span) -> list:
    """What a 'for each' goes through: a list's items (a map's keys), taken once as the loop begins."""
    if not isinstance(seq, (list, tuple, dict)):
        raise RuleError(f"cannot go through {show(seq)}: it is not a list", span)
    return list(seq)


def times(value: Any, span) -> int:
    """How many times a 'repeat N times' runs: a whole number from 0 to MAX_REPEAT (a roll counts as its total)."""
    count = as_number(value)
    if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= MAX_REPEAT:
        raise RuleError(f"'repeat … times' needs a whole number of times from 0 to {MAX_REPEAT}; it is {show(count)}", span)
    return count


def as_key(v: Any, span) -> Any:
    """A value used as a map key or searched for: lists and maps cannot be."""
    if isinstance(v, (list, dict)):
        raise RuleError(f"{show(v)} cannot be a key: lists and maps are not keys", span)
    if v.__class__ is Record:
        raise RuleError(f"{show(v)} cannot be a key: a record is changeable, so it is not a key", span)
    return v



def as_list(v: Any, what: str, span) -> list:
    if not isinstance(v, (list, tuple)):
        raise RuleError(f"{what} must be a list, not {show(v)}", span)
    return list(v)


def as_number(v: Any) -> Any:
    """A pool of dice used as a number is the total of its dice (a 2d6 roll reads as its sum)."""
    if isinstance(v, Pool):
        return sum(int(d) for d in v) if v.spread is None else read_total(v)  # read_total: exact odds (common/spread.py)
    return v


class FacesRead(list):
    """The dice of a matching when exact odds keep the pool as a distribution: one die of each face, the
    matching's test run once a face (`matched` then reads the pool's distribution); its length the pool's,
    so the step budget counts the dice as it does for faces rolled."""

    def __init__(self, pool: Pool):
        low, high = pool.spread.low, pool.spread.high
        super().__init__(Die(f, pool.label) for f in range(low, high + 1))
        self.pool = pool

    def __len__(self) -> int:
        return len(self.pool)


def dice_of(v: Any, what: str, span) -> list:
    """The dice of a matching, as a list (`FacesRead` for a pool exact odds keep as a distribution)."""
    if v.__class__ is Pool and v.spread is not None:
        return FacesRead(v)
    return as_list(v, what, span)


def matched(edges: list[list[int]], n_right: int, dice: list) -> int:
    """A matching's size from its edges: each die's, or for `FacesRead`, each face's (read by the distribution)."""
    if dice.__class__ is FacesRead:
        return read_matching(dice.pool, edges, n_right, max_matching)
    return max_matching(edges, n_right)


def items(seq: Any, engine, span, cite: str | None) -> Any:
    """What a comprehension goes through, checked, each item counted as a step of the budget (Engine.count_steps)."""
    if not isinstance(seq, (list, tuple, dict)):
        raise RuleError(f"cannot go through {show(seq)}: it is not a list", span)
    engine.steps += len(seq)
    if engine.steps > engine.max_steps:
        raise over_budget(engine.max_steps, span, cite)
    return seq


def place_of(engine, pid: str, span) -> Any:
    """A place written in the rules (`#3018`), as the game in progress has it."""
    p = engine.state.places.get(pid)
    if p is None:
        raise RuleError(f"there is no place '{pid}' in this game", span)
    return p


def entry(container: Any, k: Any, span) -> Any:
    """`container[k]`; of a record, its field named k, as a map's entry (language 3.1)."""
    if container.__class__ is Pool and len(container) > 1:
        watched = ORDER_WATCH.get()
        if watched is not None and container.label not in watched:
            raise OrderedRead(container.label)  # exact odds sorted these dice: they must come in every order
    try:
        return container[k]
    except (KeyError, IndexError, TypeError):
        if container.__class__ is Record and k.__class__ is str and k in container.fields:
            return container.fields[k]
        raise RuleError(f"{show(container)} has no entry {show(k)}", span) from None


def arithmetic(a: Any, b: Any, sym: str, span, cite: str | None) -> Any:
    """`a + b` and the others, every case: lists joined, rolls as their totals, every error explained."""
    if sym == "+" and isinstance(a, list) and isinstance(b, list) and not isinstance(a, Pool):
        return check_list(a + b, span, cite)
    a, b = as_number(a), as_number(b)
    if not (is_number(a) and is_number(b)):
        raise RuleError(f"cannot compute {show(a)} {sym} {show(b)}: both sides must be numbers", span)
    if sym in "/%" and b == 0:
        raise RuleError(f"division by zero in {show(a)} {sym} {show(b)}", span)
    return check_int(ARITHMETIC[sym](a, b), span, cite)


def rounded_division(a: Any, b: Any, mode: str, least: Any, span, cite: str | None) -> int:
    """`a / b rounded up|down|nearest [at least N]` (language 12.3a): exact whole-number arithmetic, a half
    rounded up for `nearest`, then the floor."""
    a, b = as_number(a), as_number(b)
    if not (is_number(a) and is_number(b)):
        raise RuleError(f"cannot compute {show(a)} / {show(b)}: both sides must be numbers", span)
    if b == 0:
        raise RuleError(f"division by zero in {show(a)} / {show(b)} rounded {mode}", span)
    if b < 0:
        a, b = -a, -b
    q = -(-a // b) if mode == "up" else (2 * a + b) // (2 * b) if mode == "nearest" else a // b
    if least is not None:
        floor = as_number(least)
        if not is_number(floor):
            raise RuleError(f"'at least {show(floor)}': the floor must be a number", span)
        q = max(q, floor)
    return check_int(q, span, cite)


def ordered(a: Any, b: Any, op: str, span) -> bool:
    """`a < b` and the others, every case: rolls as their totals, anything but numbers refused."""
    a, b = as_number(a), as_number(b)
    if not (is_number(a) and is_number(b)):
        raise RuleError(f"cannot compare {show(a)} {op} {show(b)}: both sides must be numbers", span)
    return COMPARISONS[op](a, b)


def pooled_equal(a: Any, b: Any, negate: bool) -> bool:
    """`a == b` (or `!=`, negated) when one side is a roll: its total is compared."""
    return (as_number(a) == as_number(b)) != negate


def negative(v: Any, span) -> Any:
    v = as_number(v)
    if not is_number(v):
        raise RuleError(f"cannot negate {show(v)}", span)
    return -v


def is_test(u: Any, name: str, negate: bool, span) -> bool:
    """`u is name` (or `is not`): the unit's class, type or flag; none is no unit."""
    if u is None:
        return negate
    if not isinstance(u, Unit):
        raise RuleError(f"'is {name}' tests a unit, not {show(u)}", span)
    result = name == u.cls or name == u.type or name in u.flags
    return result != negate


def collection(c: Any, span) -> Any:
    """The right side of `in`, checked before the item is evaluated."""
    if not isinstance(c, (list, tuple, dict)):
        raise RuleError(f"'in' needs a list or a map, not {show(c)}", span)
    return c


def member(c: Any, x: Any, span) -> bool:
    """`x in c`, once the collection is checked (a map's keys are searched for a key)."""
    return as_key(x, span) in c if isinstance(c, dict) else x in c


def holds_number(v: Any) -> bool:
    """`has …`: a number, or a roll (its total)."""
    return is_number(as_number(v))


def constant(e) -> Any:
    """The value of a literal that can neither fail nor change (a number, plain text, yes/no, none, X);
    UNSET for any other expression."""
    if e.kind in ("int", "bool") or (e.kind == "str" and not e.parts):
        return e.value
    return {"none": None, "x": X}.get(e.kind, UNSET)


def max_matching(edges: list[list[int]], n_right: int) -> int:
    """Size of a maximum bipartite matching (Kuhn's augmenting paths); sizes here are tiny."""
    match_right = [-1] * n_right

    def augment(i: int, seen: list[bool]) -> bool:
        for j in edges[i]:
            if not seen[j]:
                seen[j] = True
                if match_right[j] == -1 or augment(match_right[j], seen):
                    match_right[j] = i
                    return True
        return False

    matched = 0
    for i, row in enumerate(edges):
        if row and augment(i, [False] * n_right):
            matched += 1
            if matched == n_right:  # every unit has its die: no path can add one
                break
    return matched


# ── what `.name` reads of a unit or a place ──
# Each reading is written once, as Python text over the object read (`{o}`): the generated code writes
# it in place, the closures and Engine.attribute call it compiled (`reader`). A unit's printed value
# (a stat) is no reading: it may be missing, which Engine.attribute explains.
UNIT_FIELDS = {"id": "{o}.id", "side": "{o}.side", "type": "{o}.type", "location": "{o}._location",
               "carrier": "{o}.carrier", "cargo": "list({o}.cargo)",
               "on_map": "({o}._location is not None and not {o}._location.is_box)"}


def unit_reading(sym, name: str) -> str | None:
    """What a unit's `.name` reads, as text over `{o}`; None for a stat or a name a unit lacks (the general
    path, which explains)."""
    if name in sym.stats:
        return None
    if name in sym.flags:
        return f"({name!r} in {{o}}.flags)"
    if name in sym.unit_states:
        default = False if sym.unit_states[name].type.name == "bool" else None
        return f"{{o}}.state.get({name!r}, {default!r})"
    return UNIT_FIELDS.get(name)


def place_reading(sym, name: str) -> str | None:
    """What a place's `.name` reads, as text over `{o}`; None for a name no property declares (the general
    path: the place's own state, or an error)."""
    if name == "id":
        return "{o}.id"
    prop = sym.place_props.get(name)
    if prop is None:
        return None
    if prop.mutable:
        return f"{{o}}.state.get({name!r})"  # its state, or none (the state is all there is)
    return f"({{o}}.state[{name!r}] if {name!r} in {{o}}.state else {{o}}.props.get({name!r}))"


def written(reading: str, obj: str) -> str:
    """A reading written over the Python text `obj` (a made name of the generated code)."""
    return reading.replace("{o}", obj)


_READERS: dict[str, Callable[[Any], Any]] = {}  # per text, so per process (the text holds only reprs)


def reader(reading: str) -> Callable[[Any], Any]:
    """A reading as a function of the object read, compiled once per process."""
    fn = _READERS.get(reading)
    if fn is None:
        fn = _READERS[reading] = eval(compile(f"lambda o: {written(reading, 'o')}", "<reading>", "eval"), {})
    return fn


_FIELD_READERS = {name: reader(text) for name, text in UNIT_FIELDS.items()}


def unit_attr(u: Unit, name: str) -> Any:
    """A unit's own field (`id`, `side`, `location` …); KeyError for a name that is none."""
    return _FIELD_READERS[name](u)
