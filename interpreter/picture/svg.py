"""The picture: the map with its places and stacks, and beside it the legend, the tracks, the game
values and the boxes. Every element a reader (or a test) looks for carries a class and data-
attributes: `polygon.place` per hex (`rect.place` per square or area) with `data-place`,
`g.stack` per stack, `g.counter` per unit with `data-unit`, `data-side` and `data-type`,
`.owner` for a place state naming a side (a capture, an owner), `g.box` per box.
"""

from __future__ import annotations

import drawsvg as dw

from .colours import NEUTRAL, side_colours, tint
from .counters import block_size, draw_stack
from .layout import Board, Cell, Layout, lay_out
from .scene import Mark, Scene, Spot

TOP = 72  # the title, the clock and the moment above the map
PANEL = 280  # the least width of the column beside the map
FONT = "sans-serif"
NAMED = 12  # the line of a place's name under its id
LAND = "#f3eddc"


class Polygon(dw.DrawingBasicElement):
    """An SVG polygon (drawsvg draws paths; a hex is a polygon, which readers of the file expect)."""

    TAG_NAME = "polygon"

    def __init__(self, points: list[tuple[float, float]], **kwargs):
        super().__init__(points=" ".join(f"{x:.1f},{y:.1f}" for x, y in points), **kwargs)


def draw(scene: Scene, board: Board) -> dw.Drawing:
    """The picture of a scene on its board."""
    colours = side_colours([name for name, _ in scene.sides])
    sizes = {pid: _room(spot) for pid, spot in scene.places.items()}
    layout = lay_out(board.map, board.places, board.at, sizes)
    panel = _Panel(layout.width + 10, TOP, colours)
    panel.legend(scene)
    panel.texts("Tracks", scene.tracks, "track")
    panel.texts("Game values", scene.values, "value")
    panel.texts("Notes", _notes(scene, layout), "note")
    for box in scene.boxes:
        panel.box(box)
    width = max(layout.width + 10 + panel.width + 14, 420)
    drawing = dw.Drawing(width, max(TOP + layout.height, panel.y) + 16, font_family=FONT)
    drawing.append(dw.Rectangle(0, 0, "100%", "100%", fill="white"))
    _heading(drawing, scene, width)
    drawing.append(_map(scene, board, layout, colours))
    drawing.append(panel.group)
    return drawing


def _room(spot: Spot) -> tuple[float, float]:
    """The room a place's stack and its marks need, below its id (and its name, where it is drawn)."""
    w, h = block_size(spot.stack)
    return (max(w, max((len(m.text) * 5.6 + 12 for m in spot.marks), default=0)),
            h + len(spot.marks) * 16 + (NAMED if _name_drawn(spot) else 0))


def _name_drawn(spot: Spot) -> bool:
    """A place's name is drawn under its id; a hex has no room for it (its name is its tooltip)."""
    return bool(spot.name) and spot.shape != "hex"


def _heading(drawing: dw.Drawing, scene: Scene, width: float) -> None:
    """The title, the clock (with whose view), and the moment drawn, cut to the picture's width."""
    chars = int((width - 32) / 6.2)
    drawing.append(dw.Text(_cut(scene.title, int(chars * 0.75)), 17, 16, 24, font_weight="bold", class_="title"))
    seen = f" — as {scene.viewer} sees it" if scene.viewer else ""
    drawing.append(dw.Text(_cut(scene.clock + seen, chars), 12, 16, 43, fill="#222", class_="clock"))
    drawing.append(dw.Text(_cut(scene.moment, chars), 11, 16, 60, fill="#444", class_="moment"))


def _cut(text: str, chars: int) -> str:
    return text if len(text) <= chars else text[:max(chars - 1, 1)] + "…"


def _notes(scene: Scene, layout: Layout) -> list[str]:
    notes = []
    if layout.unplaced:
        notes.append(f"{len(layout.unplaced)} place(s) have no position ('at X, Y' in the scenario): laid out in a grid")
    if scene.viewer:  # said whatever is there: a count, or the note only where units are hidden, would tell them
        notes.append(f"units {scene.viewer} does not see are drawn face down as the rules say they are seen, or not at all")
    return notes


def _map(scene: Scene, board: Board, layout: Layout, colours: dict[str, str]) -> dw.Group:
    group = dw.Group(class_="map", transform=f"translate(0,{TOP})")
    for a, b, kind in board.links:
        if a in layout.cells and b in layout.cells and layout.cells[a].shape != "hex":
            ca, cb = layout.cells[a], layout.cells[b]
            if kind is None and _wraps_round(ca, cb):
                group.append(_wrap_note(ca, cb))
                group.append(_wrap_note(cb, ca))
                continue
            group.append(dw.Line(ca.x, ca.y, cb.x, cb.y, stroke="#9a9a9a", stroke_width=1.5, class_="link",
                                 stroke_dasharray="5,4" if kind else None, data_kind=kind or "adjacent"))
    for cell in layout.fillers:
        group.append(_outline(cell, fill="#fafafa", stroke="#c8c8c8", class_="filler", stroke_dasharray="4,3"))
        group.append(dw.Text(cell.id, 10, cell.x, cell.y - cell.extent()[1] + 14, fill="#aaa", text_anchor="middle"))
    for pid, cell in layout.cells.items():
        spot = scene.places.get(pid)
        if spot is not None:
            group.append(_place(cell, spot, colours))
    return group


def _wraps_round(a: Cell, b: Cell) -> bool:
    """Two grid squares that touch across a wrapping edge (language 6.1a): neighbours, but drawn at
    the map's two ends. A line between them would cross the whole map."""
    return a.shape == b.shape == "square" and (abs(a.x - b.x) > 1.5 * a.w or abs(a.y - b.y) > 1.5 * a.h)


def _wrap_note(cell: Cell, other: Cell) -> dw.DrawingElement:
    """A square's note, on the side of the map edge it wraps across, of the square it touches there."""
    dx = 0 if abs(cell.x - other.x) <= 1.5 * cell.w else (-1 if other.x > cell.x else 1)
    dy = 0 if abs(cell.y - other.y) <= 1.5 * cell.h else (-1 if other.y > cell.y else 1)
    x, y = cell.x + dx * (cell.w / 2 - 4), cell.y + dy * (cell.h / 2 - 4) + (4 if dy == 0 else 0)
    anchor = "start" if dx < 0 else "end" if dx > 0 else "middle"
    return dw.Text(f"\u21c4 {other.id}", 9, x, y, fill="#777", text_anchor=anchor, class_="wrap")


def _outline(cell: Cell, **style) -> dw.DrawingElement:
    if cell.shape == "hex":
        return Polygon(cell.corners(), **style)
    rounded = 14 if cell.shape not in ("square",) else 0
    return dw.Rectangle(cell.x - cell.w / 2, cell.y - cell.h / 2, cell.w, cell.h, rx=rounded, **style)


def _place(cell: Cell, spot: Spot, colours: dict[str, str]) -> dw.Group:
    group = dw.Group(class_="spot", data_place=spot.id)
    if spot.name:
        group.append(dw.Title(f"{spot.id} {spot.name}"))
    group.append(_outline(cell, fill=LAND, stroke="#555", stroke_width=1.5, class_=f"place {cell.shape}",
                          data_place=spot.id))
    half = cell.extent()[1]
    group.append(dw.Text(spot.id, 12, cell.x, cell.y - half + 14, text_anchor="middle", font_weight="bold",
                         class_="place-id"))
    name = _cut(spot.name, int((cell.w - 8) / 5.6)) if _name_drawn(spot) else ""  # cut to the place's width
    if name:
        group.append(dw.Text(name, 10, cell.x, cell.y - half + 26, text_anchor="middle", fill="#444", class_="place-name"))
    w, h = block_size(spot.stack)
    top = cell.y - _room(spot)[1] / 2 + 4 + (NAMED if name else 0)  # the stack and its marks below it, centred together
    if spot.stack:
        group.append(draw_stack(spot.stack, cell.x - w / 2, top, colours, spot.id))
        top += h + 4
    for i, mark in enumerate(spot.marks):
        group.append(_mark(mark, cell.x, top + i * 16, colours))
    return group


def _mark(mark: Mark, x: float, y: float, colours: dict[str, str]) -> dw.Group:
    """A place state as a label; one naming a side (a capture, an owner) on a pill of that side's colour."""
    width = len(mark.text) * 5.6 + 12
    colour = colours.get(mark.side, NEUTRAL) if mark.side else "#777777"
    group = dw.Group(class_="place-mark owner" if mark.side else "place-mark", data_state=mark.name,
                     data_side=mark.side or None)
    group.append(dw.Rectangle(x - width / 2, y, width, 14, rx=7, fill=tint(colour, 0.8 if mark.side else 0.9),
                              stroke=colour, stroke_width=1.5 if mark.side else 0.8))
    group.append(dw.Text(mark.text, 9.5, x, y + 10.5, text_anchor="middle", fill="#111",
                         font_weight="bold" if mark.side else None))
    return group


class _Panel:
    """The column beside the map, filled from the top down."""

    def __init__(self, x: float, y: float, colours: dict[str, str]):
        self.x, self.y, self.colours = x, y, colours
        self.width = PANEL
        self.group = dw.Group(class_="panel")

    def heading(self, text: str) -> None:
        self.group.append(dw.Text(text, 12, self.x, self.y + 12, font_weight="bold"))
        self.y += 18

    def legend(self, scene: Scene) -> None:
        self.heading("Sides")
        for name, label in scene.sides:
            colour = self.colours.get(name, NEUTRAL)
            item = dw.Group(class_="legend", data_side=name)
            item.append(dw.Rectangle(self.x, self.y, 16, 12, fill=colour, stroke="#222"))
            item.append(dw.Text(f"{label} ({name})" if label != name else name, 11, self.x + 22, self.y + 10))
            self.group.append(item)
            self.y += 16
        self.y += 8

    def texts(self, title: str, lines: list[str], kind: str) -> None:
        if not lines:
            return
        self.heading(title)
        for line in lines:
            self.group.append(dw.Text(line, 10.5, self.x, self.y + 10, class_=kind))
            self.y += 14
            self.width = max(self.width, len(line) * 6 + 10)
        self.y += 8

    def box(self, box: Spot) -> None:
        w, h = block_size(box.stack)
        colour = self.colours.get(box.side, NEUTRAL) if box.side else "#555555"
        group = dw.Group(class_="box", data_place=box.id)
        group.append(dw.Rectangle(self.x, self.y, max(w + 16, 180), h + 34, rx=6,
                                  fill=tint(colour, 0.9), stroke=colour, stroke_width=1.5))
        group.append(dw.Text(box.label, 11, self.x + 8, self.y + 15, font_weight="bold"))
        group.append(draw_stack(box.stack, self.x + 8, self.y + 24, self.colours, box.id))
        self.group.append(group)
        self.width = max(self.width, w + 16)
        self.y += h + 44
