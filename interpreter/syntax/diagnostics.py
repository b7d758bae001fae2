"""Spans and diagnostics: the one place where every error of every stage is shaped.

A diagnostic prints as ``file:line:col: error: message``, then the source line with a
caret under the span, then an optional hint (for instance "did you mean 'infantry'?").
Nothing in Umpire reports a problem to a user any other way.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .. import library
from ..limits import MAX_QUOTED_LINE
from ..style import paint, printable

if TYPE_CHECKING:
    from .spans import NO_SPAN as NO_SPAN
    from .spans import Span as Span


NOWHERE = "<none>"  # the file of NO_SPAN: a diagnostic about the run as a whole, not a place in a file


def __getattr__(name: str):
    """``Span`` and ``NO_SPAN`` (spans.py), imported when first named: they are pydantic models, and
    importing pydantic is half of a check the cache answers, which renders kept diagnostics alone."""
    if name in ("Span", "NO_SPAN"):
        from . import spans

        return getattr(spans, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True, slots=True)
class Where:
    """A span as plain data, with a span's fields: where a diagnostic of a verdict the cache keeps
    stands (cli/check.py), read back without pydantic."""

    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


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

    def _lines(self, name: str) -> list[str] | None:
        """A file's lines; a library mechanic's are the package's own, read when first asked for (a
        load from the cache reads none of them, yet its diagnostics may quote them)."""
        if name not in self._texts:
            text = library.text(name)
            if text is not None:
                self.add(name, text)
        return self._texts.get(name)

    def names(self) -> list[str]:
        """The files read, in the order first read."""
        return list(self._texts)

    def text(self, name: str) -> str | None:
        """The text of a file read (its lines joined by newlines), or None."""
        lines = self._lines(name)
        return None if lines is None else "\n".join(lines)

    def line(self, name: str, number: int) -> str | None:
        lines = self._lines(name)
        if lines is None or not 1 <= number <= len(lines):
            return None
        return lines[number - 1]


def render(diag: Diagnostic, sources: Sources, colour: bool = False) -> str:
    """Render a diagnostic with its source line and caret, as the user sees it; with ``colour``
    (on a terminal, style.py) the severity, caret and hint are coloured, the text otherwise the same.

    A diagnostic about a whole file (line 0, such as "cannot read") prints as
    ``file: error: message``, with no line to quote.
    """
    span = diag.span
    where = f"{span.file}:{span.line}:{span.col}" if span.line > 0 else span.file
    if span.file == NOWHERE:  # about the run as a whole, not a place in a file
        where = "umpire"
    message, hint = printable(diag.message), printable(diag.hint or "")
    out = [f"{printable(where)}: {paint(diag.severity, diag.severity, colour)}: {message}"]
    text = sources.line(span.file, span.line) if span.line > 0 else None
    if text is not None:
        text = text.rstrip("\n")
        gutter = f"{span.line:>6} | "
        col = max(1, span.col)
        width = span.end_col - col if span.end_line == span.line else len(text) - col + 1
        width = max(1, width)
        text, col, width = _shown(*_clip(text, col, width))
        out.append(gutter + text)
        # Keep the tabs of the quoted line so that the caret stands under the span.
        lead = "".join(c if c == "\t" else " " for c in text[: col - 1])
        lead += " " * (col - 1 - len(lead))
        caret = " " * (len(gutter) - 2) + "| " + lead + paint("^" * width, "caret", colour)
        if hint:
            caret += " " + paint(hint, "hint", colour)
        out.append(caret)
    elif hint:
        out.append("    " + paint(hint, "hint", colour))
    out.extend("    " + paint("note", "note", colour) + ": " + printable(n) for n in diag.notes)
    return "\n".join(out)


# A quoted line longer than this (a generated file, a huge string) is shown around the caret only.
_LONGEST_QUOTE = MAX_QUOTED_LINE
_CONTEXT = 80


def _clip(text: str, col: int, width: int) -> tuple[str, int, int]:
    """The part of a very long line around the span, with '…' where it is cut; the column and
    width of the span in that part."""
    if len(text) <= _LONGEST_QUOTE:
        return text, col, width
    width = min(width, _CONTEXT)
    start = max(0, col - 1 - _CONTEXT)
    end = min(len(text), col - 1 + width + _CONTEXT)
    head = "…" if start > 0 else ""
    tail = "…" if end < len(text) else ""
    return head + text[start:end] + tail, col - start + len(head), width


def _shown(text: str, col: int, width: int) -> tuple[str, int, int]:
    """The quoted line with its control characters escaped (tabs kept), and the column and width of
    the span in it, so that the caret stays under the span."""
    before, spanned = text[: col - 1], text[col - 1: col - 1 + width]
    shown_before, shown_span = printable(before, "\t"), printable(spanned, "\t")
    return printable(text, "\t"), len(shown_before) + 1, width + len(shown_span) - len(spanned)


def render_all(diags: Iterable[Diagnostic], sources: Sources, colour: bool = False) -> str:
    return "\n".join(render(d, sources, colour) for d in diags)


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A "did you mean" hint for a misspelt name, or None when nothing is close.

    Case does not count ('cornwall' finds 'CORNWALL'), and a short name one edit away
    from a candidate is close ('d8' finds 'd6', which difflib's ratio would miss).
    """
    name = str(name)
    names = sorted({str(c) for c in candidates if str(c) != name})
    if not names:
        return None
    folded: dict[str, str] = {}
    for c in names:
        folded.setdefault(c.casefold(), c)
    key = name.casefold()
    if key in folded:
        return f"did you mean '{folded[key]}'?"
    close = difflib.get_close_matches(key, list(folded), n=1, cutoff=0.6)
    if not close and len(key) >= 2:
        close = [c for c in folded if len(c) >= 2 and _one_edit(key, c)][:1]
    return f"did you mean '{folded[close[0]]}'?" if close else None


def _one_edit(a: str, b: str) -> bool:
    """True when ``a`` becomes ``b`` by one insertion, deletion, substitution or swap of neighbours."""
    if abs(len(a) - len(b)) > 1 or a == b:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    i = 0
    while i < len(short) and short[i] == long_[i]:
        i += 1
    return short[i:] == long_[i + 1:]
