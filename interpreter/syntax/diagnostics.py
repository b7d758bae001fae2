"""Spans and diagnostics: the one place where every error of every stage is shaped.

A diagnostic prints as ``file:line:col: error: message``, then the source line with a
caret under the span, then an optional hint (for instance "did you mean 'frigate'?").
Nothing in Umpire reports a problem to a user any other way.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Iterable

from pydantic import BaseModel, ConfigDict


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


NO_SPAN = Span(file="<none>", line=0, col=0, end_line=0, end_col=0)


@dataclass
class Diagnostic:
    """One problem found in an input, at a span, with an optional hint."""

    severity: str  # "error" | "warning" | "note"
    message: str
    span: Span
    hint: str | None = None
    notes: list[str] = field(default_factory=list)


class UmpireError(Exception):
    """Carries diagnostics out of a stage; the CLI renders them, never a traceback."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("; ".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics


class Sources:
    """The text of every file read, so that diagnostics can quote source lines."""

    def __init__(self) -> None:
        self._texts: dict[str, list[str]] = {}

    def add(self, name: str, text: str) -> None:
        self._texts[name] = text.splitlines()

    def line(self, name: str, number: int) -> str | None:
        lines = self._texts.get(name)
        if lines is None or not 1 <= number <= len(lines):
            return None
        return lines[number - 1]


def render(diag: Diagnostic, sources: Sources) -> str:
    """Render a diagnostic with its source line and caret, as the user sees it."""
    span = diag.span
    head = f"{span.file}:{span.line}:{span.col}: {diag.severity}: {diag.message}"
    out = [head]
    text = sources.line(span.file, span.line)
    if text is not None:
        gutter = f"{span.line:>6} | "
        out.append(gutter + text.rstrip("\n"))
        width = span.end_col - span.col if span.end_line == span.line else len(text) - span.col + 1
        width = max(1, width)
        pad = " " * (len(gutter) - 2) + "| " + " " * (span.col - 1)
        caret = pad + "^" * width
        if diag.hint:
            caret += " " + diag.hint
        out.append(caret)
    elif diag.hint:
        out.append("    " + diag.hint)
    out.extend("    note: " + n for n in diag.notes)
    return "\n".join(out)


def render_all(diags: Iterable[Diagnostic], sources: Sources) -> str:
    return "\n".join(render(d, sources) for d in diags)


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A "did you mean" hint for a misspelt name, or None when nothing is close."""
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None
