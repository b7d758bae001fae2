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
        fields = type(self).__pydantic_fields__
        values, given = {}, 0
        for name, info in fields.items():
            if name in data:
                values[name] = data[name]
                given += 1
            elif info.is_required():
                raise TypeError(f"{type(self).__name__}: the field {name} is required")
            else:
                values[name] = info.get_default(call_default_factory=True)
        if given < len(data):
            unknown = sorted(set(data) - set(fields))
            raise TypeError(f"{type(self).__name__} has no field {', '.join(unknown)}")
        object.__setattr__(self, "__dict__", values)
        object.__setattr__(self, "__pydantic_fields_set__", set(data))
        object.__setattr__(self, "__pydantic_extra__", None)
        object.__setattr__(self, "__pydantic_private__", None)
