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


NO_SPAN = Span(file=NOWHERE, line=0, col=0, end_line=0, end_col=0)
