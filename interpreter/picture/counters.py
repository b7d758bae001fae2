"""A stack drawn as its counters: each a square in its side's colour with its id, its type and its
printed values, and below it a tag for each unit aboard (in the carried unit's colour). The units a
side does not see are a blank counter (a tag aboard), grey since their side is not seen either,
labelled by what they are `seen as` and how many.

A stack is laid out in rows, as square as it comes (`block_size` says how much room it needs, so
the layout can size the places to hold the largest). Texts are cut to the counter's width with an
ellipsis: the counter's `<title>` holds the whole of it, which a browser shows on hover.
"""

from __future__ import annotations

import math

import drawsvg as dw

from .colours import NEUTRAL, tint
from .scene import Counter

W, H = 78, 60  # a counter
TAG = 13  # a unit aboard, below its carrier
GAP = 5
CHARS = 16  # what a line of small text holds across a counter
BLANK = "#ece9e2"  # a face-down counter: no side's colour


def slot_height(c: Counter) -> float:
    return H + TAG * len(_aboard(c))


def _aboard(c: Counter, depth: int = 0) -> list[tuple[Counter, int]]:
    """Everything a counter carries, and what that carries, with how deep each is."""
    out = []
    for cargo in c.cargo:
        out.append((cargo, depth))
        out.extend(_aboard(cargo, depth + 1))
    return out


def _rows(stack: list[Counter]) -> list[list[Counter]]:
    """A stack's rows: a little taller than wide (a counter is wider than high, and a hex fits a tall block better)."""
    across = max(1, math.ceil(math.sqrt(len(stack) * 0.8)))
    return [stack[i:i + across] for i in range(0, len(stack), across)]


def block_size(stack: list[Counter]) -> tuple[float, float]:
    """The room a stack needs (0 x 0 for none)."""
    if not stack:
        return 0.0, 0.0
    rows = _rows(stack)
    width = max(len(r) for r in rows) * (W + GAP) - GAP
    return width, sum(max(slot_height(c) for c in r) + GAP for r in rows) - GAP


def draw_stack(stack: list[Counter], x: float, y: float, colours: dict[str, str], place: str) -> dw.Group:
    """The stack's group, its block's top left corner at (x, y)."""
    group = dw.Group(class_="stack", data_place=place)
    top = y
    for row in _rows(stack):
        for i, c in enumerate(row):
            group.append(draw_counter(c, x + i * (W + GAP), top, colours))
        top += max(slot_height(c) for c in row) + GAP
    return group


def draw_counter(c: Counter, x: float, y: float, colours: dict[str, str]) -> dw.Group:
    if c.face_down:
        return _face_down(c, x, y)
    colour = colours.get(c.side, NEUTRAL)
    group = dw.Group(class_="counter", data_unit=c.id, data_side=c.side, data_type=c.type)
    group.append(dw.Title(_whole(c)))
    group.append(dw.Rectangle(x, y, W, H, rx=4, fill=colour, stroke="#222", stroke_width=1))
    lines = _lines(c)
    name = _cut(c.id, CHARS)
    group.append(dw.Text(name, min(11.0, 11 * 8 / len(name)), x + W / 2, y + 13, fill="white", font_weight="bold",
                         text_anchor="middle", font_family="sans-serif"))
    for i, text in enumerate(lines):
        group.append(dw.Text(text, 8.5, x + W / 2, y + 25 + i * 10, fill="white", text_anchor="middle",
                             font_family="sans-serif"))
    for i, (cargo, depth) in enumerate(_aboard(c)):
        group.append(_tag(cargo, depth, x, y + H + i * TAG, colours))
    return group


def _face_down(c: Counter, x: float, y: float) -> dw.Group:
    """Units not seen: a blank counter with their `seen as` text and, for more than one, how many."""
    group = dw.Group(class_="counter face-down", data_face=c.label, data_count=c.face_down)
    group.append(dw.Title(_whole(c)))
    group.append(dw.Rectangle(x, y, W, H, rx=4, fill=BLANK, stroke=NEUTRAL, stroke_width=1, stroke_dasharray="4,2"))
    middle = y + (H / 2 + 4 if c.face_down == 1 else H / 2 - 2)
    group.append(dw.Text(_cut(c.label, CHARS), 10, x + W / 2, middle, fill="#333", text_anchor="middle",
                         font_style="italic", font_family="sans-serif"))
    if c.face_down > 1:
        group.append(dw.Text(f"x{c.face_down}", 11, x + W / 2, middle + 15, fill="#333", font_weight="bold",
                             text_anchor="middle", font_family="sans-serif"))
    return group


def _lines(c: Counter) -> list[str]:
    """The type, then the printed values and states packed into at most three lines."""
    lines = [_cut(c.label, CHARS)]
    current = ""
    for item in c.values + c.marks:
        joined = f"{current} {item}".strip()
        if len(joined) <= CHARS or not current:
            current = joined
        else:
            lines.append(current)
            current = item
    if current:
        lines.append(current)
    if len(lines) > 4:
        lines = lines[:3] + ["…"]
    return [_cut(line, CHARS) for line in lines]


def _tag(c: Counter, depth: int, x: float, y: float, colours: dict[str, str]) -> dw.Group:
    """A unit aboard: a strip in its side's light colour, 'aboard' marked by the arrow."""
    colour = colours.get(c.side, NEUTRAL)
    if c.face_down:
        group = dw.Group(class_="counter aboard face-down", data_face=c.label, data_count=c.face_down)
    else:
        group = dw.Group(class_="counter aboard", data_unit=c.id, data_side=c.side, data_type=c.type)
    group.append(dw.Title(_whole(c)))
    group.append(dw.Rectangle(x + 3, y, W - 6, TAG, fill=BLANK if c.face_down else tint(colour), stroke=colour,
                              stroke_width=1))
    text = "›" * (depth + 1) + (f" {c.face_text}" if c.face_down else f" {c.id} {c.label}")
    group.append(dw.Text(_cut(text, CHARS - 1), 8.5, x + 6, y + TAG - 3.5, fill="#111", font_family="sans-serif"))
    return group


def _whole(c: Counter) -> str:
    if c.face_down:
        return f"{c.face_text}: face down, not seen"
    parts = [f"{c.id}: {c.label} of {c.side}", ", ".join(c.values), ", ".join(c.marks)]
    aboard = ", ".join(cargo.id for cargo in c.cargo)
    return "; ".join(p for p in parts if p) + (f"; aboard: {aboard}" if aboard else "")


def _cut(text: str, chars: int) -> str:
    return text if len(text) <= chars else text[:chars - 1] + "…"
