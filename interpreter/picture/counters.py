"""Counters drawn as counters: a square in the colour of the side it shows (its owner, by the ruleset's
`look unit { owner: … }`; its class or type's own colour when it shows no side's), its id along the top,
its type's symbol (or a short label) in the middle, its printed factors along the bottom in the
conventional layout (`4-2-6`), and its reduced face visibly different: a pale face crossed by a band.
The units it carries are small chips along its foot, in their own sides' colours.

On the map a place's units are a pile: each counter a little up and to the right of the one under it,
the top one whole, and a badge with how many there are. In a box beside the map they are laid out in
rows. The units a side does not see are blank counters labelled by what they are `seen as` and how many.
A counter's `<title>` holds its whole text (its values, states and cargo), which a browser shows on hover.
"""

from __future__ import annotations

import drawsvg as dw

from .colours import NEUTRAL, readable_on, tint
from .scene import Counter

OFFSET = 4  # how far each counter of a pile stands from the one under it
SHOWN = 5  # the most steps a pile is drawn with (a taller pile's count says the rest)
BLANK = "#ece9e2"  # a face-down counter: no side's colour
GAP = 6
FONT = "sans-serif"


def pile_size(stack: list[Counter], size: float) -> tuple[float, float]:
    """The room a pile of ``stack`` needs: the counter and its offsets."""
    if not stack:
        return 0.0, 0.0
    steps = min(len(stack), SHOWN) - 1
    return size + steps * OFFSET, size + steps * OFFSET


def draw_pile(stack: list[Counter], x: float, y: float, size: float, colours: dict[str, str], place: str) -> dw.Group:
    """A place's pile, its bottom counter's top left corner at (x, y + the offsets): the first unit listed on top."""
    group = dw.Group(class_="stack", data_place=place)
    steps = min(len(stack), SHOWN) - 1
    for i, c in enumerate(reversed(stack)):
        step = max(0, steps - (len(stack) - 1 - i))  # the top counters take the offsets, the bottom ones share one
        group.append(draw_counter(c, x + step * OFFSET, y + (steps - step) * OFFSET, size, colours))
    if len(stack) > 1:
        group.append(_count_badge(len(stack), x + steps * OFFSET + size, y))
    return group


def draw_rows(stack: list[Counter], x: float, y: float, size: float, across: int, colours: dict[str, str],
              place: str) -> dw.Group:
    """A box's counters in rows of ``across``, in the order listed."""
    group = dw.Group(class_="stack", data_place=place)
    for i, c in enumerate(stack):
        group.append(draw_counter(c, x + (i % across) * (size + GAP), y + (i // across) * (size + GAP), size, colours))
    return group


def rows_height(count: int, size: float, across: int) -> float:
    rows = -(-count // max(across, 1))
    return rows * (size + GAP) - GAP if rows else 0.0


def counter_colour(c: Counter, colours: dict[str, str]) -> str:
    if c.owner is not None:
        return colours.get(c.owner, NEUTRAL)
    return c.colour or NEUTRAL


def draw_counter(c: Counter, x: float, y: float, size: float, colours: dict[str, str]) -> dw.Group:
    if c.face_down:
        return _face_down(c, x, y, size)
    colour = counter_colour(c, colours)
    face = tint(colour, 0.55) if c.reduced else colour
    ink = readable_on(face)
    group = dw.Group(class_="counter", data_unit=c.id, data_side=c.side, data_type=c.type, data_owner=c.owner or "none",
                     data_reduced="true" if c.reduced else None)
    group.append(dw.Title(_whole(c)))
    group.append(dw.Rectangle(x, y, size, size, rx=size * 0.08, fill=face, stroke="#1a1a1a", stroke_width=1))
    if c.reduced:  # the reduced face: pale, crossed by a band of the full colour
        group.append(dw.Rectangle(x + 1, y + size * 0.40, size - 2, size * 0.13, fill=colour, class_="reduced-band"))
    small = max(6.0, size * 0.2)
    id_font = max(4.5, min(small * 0.9, (size - 3) / max(text_width(c.id, 1), 0.1)))  # a long id in smaller type
    group.append(dw.Text(_fit(c.id, size - 2, id_font), id_font, x + size / 2, y + small, fill=ink,
                         text_anchor="middle", font_family=FONT, class_="counter-id"))
    middle = c.symbol or _short(c.label)
    big = size * (0.34 if c.symbol else 0.24)
    group.append(dw.Text(_fit(middle, size - 4, big), big, x + size / 2, y + size * 0.56, fill=ink, text_anchor="middle",
                         font_family=FONT, font_weight="bold", class_="counter-symbol"))
    if c.factors:
        factors = "-".join(c.factors)
        group.append(dw.Text(_fit(factors, size - 4, small * 1.1), small * 1.1, x + size / 2, y + size - small * 0.45,
                             fill=ink, text_anchor="middle", font_family=FONT, font_weight="bold", class_="factors"))
    aboard = _aboard(c)[:4]  # the chips along the counter's foot, as many as fit across it
    chip = min(size * 0.32, (size - 4) / max(len(aboard), 1) - 1)
    for i, (cargo, _depth) in enumerate(aboard):
        group.append(_chip(cargo, x + 2 + i * (chip + 1), y + size - chip * 0.45, chip, colours))
    return group


def _face_down(c: Counter, x: float, y: float, size: float) -> dw.Group:
    """Units not seen: a blank counter with their `seen as` text and, for more than one, how many."""
    group = dw.Group(class_="counter face-down", data_face=c.label, data_count=c.face_down)
    group.append(dw.Title(_whole(c)))
    group.append(dw.Rectangle(x, y, size, size, rx=size * 0.08, fill=BLANK, stroke=NEUTRAL, stroke_width=1,
                              stroke_dasharray="3,2"))
    font = max(3.5, min(size * 0.18, (size - 4) / max(text_width(c.label, 1), 0.1)))
    group.append(dw.Text(_fit(c.label, size - 2, font), font, x + size / 2, y + size / 2, fill="#333",
                         text_anchor="middle", font_style="italic", font_family=FONT))
    if c.face_down > 1:
        group.append(dw.Text(f"x{c.face_down}", font * 1.2, x + size / 2, y + size / 2 + font * 1.4, fill="#333",
                             font_weight="bold", text_anchor="middle", font_family=FONT))
    return group


def _chip(c: Counter, x: float, y: float, size: float, colours: dict[str, str]) -> dw.Group:
    """A unit aboard: a small counter at its carrier's foot, in its own side's colour (blank face down)."""
    if c.face_down:
        group = dw.Group(class_="counter aboard face-down", data_face=c.label, data_count=c.face_down)
        fill, text = BLANK, "?"
    else:
        group = dw.Group(class_="counter aboard", data_unit=c.id, data_side=c.side, data_type=c.type)
        fill, text = counter_colour(c, colours), c.symbol or _short(c.label)[:2]
    group.append(dw.Title(_whole(c)))
    group.append(dw.Rectangle(x, y, size, size, rx=1.5, fill=fill, stroke="#1a1a1a", stroke_width=0.7))
    group.append(dw.Text(_fit(text, size - 1, size * 0.55), size * 0.55, x + size / 2, y + size * 0.72,
                         fill=readable_on(fill), text_anchor="middle", font_family=FONT))
    return group


def _count_badge(count: int, x: float, y: float) -> dw.Group:
    """How many counters a pile holds, on a white disc at its top right corner."""
    group = dw.Group(class_="pile-count", data_count=count)
    group.append(dw.Circle(x - 1, y + 1, 7, fill="white", stroke="#1a1a1a", stroke_width=1))
    group.append(dw.Text(str(count), 8.5, x - 1, y + 4, text_anchor="middle", font_weight="bold", font_family=FONT))
    return group


def _aboard(c: Counter, depth: int = 0) -> list[tuple[Counter, int]]:
    """Everything a counter carries, and what that carries, with how deep each is."""
    out = []
    for cargo in c.cargo:
        out.append((cargo, depth))
        out.extend(_aboard(cargo, depth + 1))
    return out


def _short(label: str) -> str:
    """A type's label as a counter has room for it: its first word, or the initials of a long label."""
    words = [w for w in label.replace("(", " ").replace(")", " ").split() if w]
    if not words:
        return "?"
    return words[0] if len(words[0]) <= 6 else words[0][:5] + "."


def _whole(c: Counter) -> str:
    if c.face_down:
        return f"{c.face_text}: face down, not seen"
    whose = c.owner if c.owner == c.side else f"{c.side}, shown as {c.owner or 'no side'}'s"
    parts = [f"{c.id}: {c.label} of {whose}" + (" (reduced)" if c.reduced else ""), ", ".join(c.values), ", ".join(c.marks)]
    aboard = ", ".join(cargo.id or cargo.face_text for cargo in c.cargo)
    return "; ".join(p for p in parts if p) + (f"; aboard: {aboard}" if aboard else "")


def text_width(text: str, font: float) -> float:
    """A text's width in a sans-serif face, about: what keeps it inside its counter and the picture."""
    return sum(0.33 if ch in "il.,:;'|!" else 0.95 if ch.isupper() or ch in "mwMW@" else 0.58 for ch in text) * font


def _fit(text: str, width: float, font: float) -> str:
    """The text cut (with an ellipsis) to what ``width`` holds at ``font``."""
    if text_width(text, font) <= width:
        return text
    while text and text_width(text + "…", font) > width:
        text = text[:-1]
    return text + "…" if text else ""
