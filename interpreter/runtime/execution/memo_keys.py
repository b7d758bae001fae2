"""The keys of the memo of function calls (`Engine._memo`): a call's name, its parameters' names
and its values, each value by what it is (a list by its items, never by its identity; true is not
1), or none for a call whose values cannot be compared (a map, a roll), which is not cached.
The engine's calls and the callers written out per arity (calls.py) make the same keys."""

from __future__ import annotations

from typing import Any

from ..common.values import Place, Unit

# What `value_key` gives for a value that has no key, and a memo lookup for a call not in it.
MISS = object()
SCALARS = (int, str, Unit, Place)


def memo_key(name: str, names: list, values: list) -> tuple | None:
    """A hashable key for a function call, or None when an argument cannot be compared by value
    (a map, a roll): such calls are not cached. Lists are keyed by their items, never by identity
    (a temporary list's identity is reused), and true is not 1."""
    out: list = [name, tuple(names)]
    for v in values:
        k = value_key(v)
        if k is MISS:
            return None
        out.append(k)
    return tuple(out)


EXACT_SCALARS = frozenset({int, str, Unit, Place})  # their own key (a Die, a bool: value_key decides)


def call_key(prefix: tuple, values: list) -> tuple | None:
    """memo_key(name, names, values) with (name, tuple(names)) made once per call site: the same keys,
    the common arguments (units, places, numbers, text) taken as they are without a call each."""
    out = list(prefix)
    for v in values:
        if v.__class__ in EXACT_SCALARS:
            out.append(v)
            continue
        k = value_key(v)
        if k is MISS:
            return None
        out.append(k)
    return tuple(out)


def value_key(v: Any) -> Any:
    if v is None or isinstance(v, bool):
        return ("b", v)
    if isinstance(v, SCALARS):
        return v
    if isinstance(v, (list, tuple)):
        items = []
        for x in v:
            if x.__class__ in EXACT_SCALARS:  # a unit, place, number or text: its own key, without a call
                items.append(x)
                continue
            k = value_key(x)
            if k is MISS:
                return MISS
            items.append(k)
        return ("l", tuple(items))
    return MISS
