"""IR nodes made by the builder without pydantic's validation (``trusted``).

Validating a node checks each field's type; the builder (ir/build.py, overlay/ir.py) already
makes every field of the type declared (a rules file's text reaches the IR only through its
code, as str, int, bool, tuples and nodes), so there the check proves nothing about the input.
It costs much, though: pydantic makes a model's validator the first time the model is
validated, and making those of the ~95 models a ruleset uses took about a fifth of a cold
``umpire check``. So within ``trusted()`` a node is filled as pydantic's ``model_construct``
does, still refusing a field that does not exist or a required field left out, and gets exactly
the state validation would give it (the same values, in the fields' order, the same fields
set, the same nodes shared): tests/syntax/test_trusted_build.py builds every rules, scenario and
overlay file of the repository both ways and compares them, types included. Everywhere else
(a save's position read back, a test, any other code) a node is validated as before; an IR
unpickled from the cache is trusted for other reasons (docs/safety.md §4).
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from pydantic import BaseModel

_TRUSTED: ContextVar[bool] = ContextVar("umpire_ir_trusted", default=False)


@contextmanager
def trusted() -> Iterator[None]:
    """Nodes made within are not validated (the builder's, and the ruleset it assembles)."""
    token = _TRUSTED.set(True)
    try:
        yield
    finally:
        _TRUSTED.reset(token)


class IRModel(BaseModel):
    """The base of every IR model: validated, except within ``trusted()``."""

    def __init__(self, /, **data: Any) -> None:
        if not _TRUSTED.get():
            super().__init__(**data)
            return
        values, given = {}, 0
        for name, how, default in _plan(type(self)):
            if name in data:
                values[name] = data[name]
                given += 1
            elif how is _AS_IS:
                values[name] = default
            elif how is _REQUIRED:
                raise TypeError(f"{type(self).__name__}: the field {name} is required")
            else:
                values[name] = default.get_default(call_default_factory=True)
        if given < len(data):
            unknown = sorted(set(data) - set(type(self).__pydantic_fields__))
            raise TypeError(f"{type(self).__name__} has no field {', '.join(unknown)}")
        object.__setattr__(self, "__dict__", values)
        object.__setattr__(self, "__pydantic_fields_set__", _fields_set(type(self), tuple(data)))
        object.__setattr__(self, "__pydantic_extra__", None)
        object.__setattr__(self, "__pydantic_private__", None)

    # A node is pickled (the cache of loads, cache.py) as its fields and the names of those set:
    # pydantic's state is a dict of four entries a node, two of them always None for the IR (no
    # extra fields, no private attributes). About a tenth fewer bytes, and faster both ways.
    def __getstate__(self) -> Any:
        if self.__pydantic_extra__ is not None or self.__pydantic_private__ is not None:
            return super().__getstate__()
        return self.__dict__, self.__pydantic_fields_set__

    def __setstate__(self, state: Any) -> None:
        if isinstance(state, dict):
            super().__setstate__(state)
            return
        values, fields_set = state
        object.__setattr__(self, "__dict__", values)
        object.__setattr__(self, "__pydantic_fields_set__", fields_set)
        object.__setattr__(self, "__pydantic_extra__", None)
        object.__setattr__(self, "__pydantic_private__", None)


_FIELDS_SET: dict[tuple[type, tuple[str, ...]], set[str]] = {}


def _fields_set(model: type, given: tuple[str, ...]) -> set[str]:
    """The names of the fields a trusted node was given, one set for all the nodes of a model given
    the same: pickled once per entry of the cache rather than once a node (a sixth of the bytes of a
    ruleset's IR). Sharing it is safe: the nodes are frozen, so pydantic never adds to the set, and
    ``model_copy`` copies it before it adds the fields it updates."""
    key = (model, given)
    shared = _FIELDS_SET.get(key)
    if shared is None:
        shared = _FIELDS_SET[key] = set(given)
    return shared


_REQUIRED, _AS_IS, _MADE = object(), object(), object()


@functools.cache
def _plan(model: type[BaseModel]) -> tuple[tuple[str, object, Any], ...]:
    """How a trusted node of the model fills each field it is not given, found once per model: it is
    required; its default as is (None, (), "", a number: what pydantic's get_default gives, the
    same object every time); or made by pydantic each time (a factory's, a default it copies)."""
    plan = []
    for name, info in model.__pydantic_fields__.items():
        if info.is_required():
            plan.append((name, _REQUIRED, None))
        elif info.default_factory is None and copy.deepcopy(info.default) is info.default:  # immutable
            plan.append((name, _AS_IS, info.default))
        else:
            plan.append((name, _MADE, info))
    return tuple(plan)
