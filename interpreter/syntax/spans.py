"""Where a thing is written: a 1-based region of one source file (every IR node has one).

Kept apart from diagnostics.py, which names them lazily: a check the cache answers renders its kept
diagnostics without importing pydantic.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from .diagnostics import NOWHERE


class Span(BaseModel):
    """A 1-based region of one source file; ``end_col`` is exclusive."""

    model_config = ConfigDict(frozen=True)

    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    # A span is pickled (the cache of loads, cache.py) as its five values: pydantic's own state is a dict
    # of four entries (its fields, the set of their names, two always None), and a ruleset's IR holds
    # about as many spans as nodes. The pickles are a third smaller, and about 40% quicker to write.
    def __reduce__(self) -> tuple:
        values = self.__dict__
        return _unpickled, (values["file"], values["line"], values["col"], values["end_line"], values["end_col"])


_EVERY_FIELD = set(Span.model_fields)  # a span is always given all five, so every span's set of fields given is this one


def _unpickled(file: str, line: int, col: int, end_line: int, end_col: int) -> Span:
    """A span read back from its pickle, with the state validating it gave it (its fields in order, all
    of them given: the set is shared, as frozen nodes share theirs, ir/trust.py)."""
    span = Span.__new__(Span)
    object.__setattr__(span, "__dict__", {"file": file, "line": line, "col": col, "end_line": end_line, "end_col": end_col})
    object.__setattr__(span, "__pydantic_fields_set__", _EVERY_FIELD)
    object.__setattr__(span, "__pydantic_extra__", None)
    object.__setattr__(span, "__pydantic_private__", None)
    return span


NO_SPAN = Span(file=NOWHERE, line=0, col=0, end_line=0, end_col=0)
