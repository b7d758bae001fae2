"""Square grids: place ids in a declared format, eight directions, wrapping edges.

A square grid's id format is the hex one (`"CCRR"`: a `C` per digit of the column, an `R` per
digit of the row) or is written with named fields, which a rulebook's letter-and-number squares
need: `{row}` and `{column}` are numbers of any width, `{row letter}` and `{column letter}` a
capital letter (A is 1). Any other character of a braced format stands for itself ("C12" is
`"{row letter}{column}"`). Rows count from the north edge, columns from the west edge.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..digits import is_number
from ..lang import DIRECTIONS

DEFAULT_SQUARE_ID = "CCRR"
_FIELD = re.compile(r"\{(row|column)( letter)?\}")
# A step in each direction as (columns east, rows south).
STEPS = {"n": (0, -1), "ne": (1, -1), "e": (1, 0), "se": (1, 1), "s": (0, 1), "sw": (-1, 1), "w": (-1, 0), "nw": (-1, -1)}
assert tuple(STEPS) == DIRECTIONS


@dataclass(frozen=True)
class IdFormat:
    """The fields of an id format, in order: (axis, kind, width) or a literal string."""

    fields: tuple
    pattern: re.Pattern

    def read(self, pid: str) -> tuple[int, int] | None:
        """(column, row) of an id written in the format, or None for an id that does not fit it."""
        m = self.pattern.fullmatch(pid)
        if m is None:
            return None
        got = {}
        for f, text in zip((f for f in self.fields if isinstance(f, tuple)), m.groups()):
            got[f[0]] = ord(text) - ord("A") + 1 if f[1] == "letter" else int(text)
        return got["column"], got["row"]

    def write(self, col: int, row: int) -> str | None:
        """The id of (column, row), or None when the format cannot write it (off the grid's numbering)."""
        out = []
        for f in self.fields:
            if isinstance(f, str):
                out.append(f)
                continue
            text = self.write_field(f, col if f[0] == "column" else row)
            if text is None:
                return None
            out.append(text)
        return "".join(out)

    @staticmethod
    def write_field(f: tuple, v: int) -> str | None:
        _axis, kind, width = f
        if kind == "letter":
            return chr(ord("A") + v - 1) if 1 <= v <= 26 else None
        if v < (0 if width else 1) or (width and len(str(v)) > width):
            return None  # digit fields count from 0 as on a hex map, others from 1 as a rulebook does
        return f"{v:0{width}d}" if width else str(v)

    def coordinate(self, axis: str, written: str) -> int | None:
        """A column or row number as a wrap declaration writes it (a letter on a lettered axis)."""
        kind = next((f[1] for f in self.fields if isinstance(f, tuple) and f[0] == axis), None)
        if kind == "letter":
            return ord(written) - ord("A") + 1 if len(written) == 1 and written.isalpha() and written.isupper() else None
        return int(written) if is_number(written) else None


@lru_cache(maxsize=64)
def id_format(form: str) -> IdFormat | None:
    """The format parsed, or None for one that does not give exactly one column and one row."""
    fields: list = []
    if "{" in form:
        pos = 0
        for m in _FIELD.finditer(form):
            fields.extend([form[pos:m.start()]] if m.start() > pos else [])
            fields.append((m.group(1), "letter" if m.group(2) else "number", 0))
            pos = m.end()
        fields.extend([form[pos:]] if pos < len(form) else [])
    elif form and set(form) <= {"C", "R"}:
        for m in re.finditer(r"C+|R+", form):
            fields.append(("column" if m.group()[0] == "C" else "row", "number", len(m.group())))
    axes = [f[0] for f in fields if isinstance(f, tuple)]
    if sorted(axes) != ["column", "row"] or any(isinstance(f, str) and "{" in f for f in fields):
        return None
    regex = "".join(re.escape(f) if isinstance(f, str) else _field_regex(f) for f in fields)
    return IdFormat(tuple(fields), re.compile(regex))


def _field_regex(f: tuple) -> str:
    _axis, kind, width = f
    if kind == "letter":
        return "([A-Z])"
    return f"([0-9]{{{width}}})" if width else "(0|[1-9][0-9]*)"  # ASCII digits: digits.py


@dataclass(frozen=True)
class WrapRule:
    """One wrapping edge, in numbers: the axis whose ends meet, its ends, and the rows (or columns) it holds on."""

    axis: str  # "column" or "row"
    low: int
    high: int
    on: tuple[int, int] | None = None

    def step(self, col: int, row: int, dcol: int, drow: int) -> tuple[int, int] | None:
        """Where a step lands across this wrap, or None when it does not cross it."""
        c, r = col + dcol, row + drow
        moved, across = (c, (row, r)) if self.axis == "column" else (r, (col, c))
        if self.low <= moved <= self.high:
            return None
        if self.on and not all(self.on[0] <= x <= self.on[1] for x in across):
            return None
        span = self.high - self.low + 1
        if moved == self.low - 1:
            moved += span
        elif moved == self.high + 1:
            moved -= span
        else:
            return None
        return (moved, r) if self.axis == "column" else (c, moved)


def neighbour_id(pid: str, direction: str, form: IdFormat, wraps: tuple[WrapRule, ...]) -> str | None:
    """The id of the square one step from `pid` in a direction (across a wrap when one applies)."""
    cell = form.read(pid)
    if cell is None:
        return None
    dcol, drow = STEPS[direction]
    for wrap in wraps:
        landed = wrap.step(cell[0], cell[1], dcol, drow)
        if landed is not None:
            return form.write(*landed)
    return form.write(cell[0] + dcol, cell[1] + drow)


@lru_cache(maxsize=65536)
def square_neighbours(pid: str, form: IdFormat, wraps: tuple[WrapRule, ...]) -> tuple[tuple[str, str], ...]:
    """(direction, id) of each square around `pid`, n first and clockwise: the same for every set-up."""
    out = []
    for d in DIRECTIONS:
        nid = neighbour_id(pid, d, form, wraps)
        if nid is not None and nid != pid:
            out.append((d, nid))
    return tuple(out)


@dataclass(frozen=True)
class SquareGrid:
    form: IdFormat
    wraps: tuple[WrapRule, ...]
    directions = DIRECTIONS  # a class value, not a field: what `neighbour` accepts on this grid

    def neighbours(self, pid: str) -> tuple[tuple[str, str], ...]:
        return square_neighbours(pid, self.form, self.wraps)


def square_grid(map_decl) -> SquareGrid | None:
    """The square grid a map declares, or None (another shape, or an unreadable format: a check error)."""
    grid = map_decl.grid if map_decl else None
    if grid is None or grid.shape != "square":
        return None
    wraps = tuple((w.axis, w.low, w.high, w.on_axis, w.on_low, w.on_high) for w in map_decl.wraps)
    return _square_grid(grid.id_format or DEFAULT_SQUARE_ID, wraps)


@lru_cache(maxsize=64)
def _square_grid(form_text: str, wraps: tuple) -> SquareGrid | None:
    form = id_format(form_text)
    if form is None:
        return None
    rules = []
    for axis, low, high, on_axis, on_low, on_high in wraps:
        rule = wrap_rule(form, axis, low, high, on_axis, on_low, on_high)
        if rule is not None:
            rules.append(rule)
    return SquareGrid(form, tuple(rules))


def wrap_rule(form: IdFormat, axis, low, high, on_axis=None, on_low=None, on_high=None) -> WrapRule | None:
    """A wrap declaration in numbers, or None when its axes or ends cannot be read (a check error)."""
    axes = {"columns": "column", "rows": "row"}
    if axis not in axes or (on_axis is not None and (on_axis not in axes or on_axis == axis)):
        return None
    ends = (form.coordinate(axes[axis], low), form.coordinate(axes[axis], high))
    on = None
    if on_axis is not None:
        on = (form.coordinate(axes[on_axis], on_low), form.coordinate(axes[on_axis], on_high))
        if None in on:
            return None
    if None in ends or ends[0] >= ends[1]:
        return None
    return WrapRule(axes[axis], ends[0], ends[1], on)
