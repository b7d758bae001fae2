"""The picture: the map with its places and stacks, and beside it (below a map much wider than tall)
the legend and map key, the tracks, the game values and the boxes, flowed into columns. Every element a
reader (or a test) looks for carries a class and data- attributes: `polygon.place` per hex
(`rect.place` per square or area) with `data-place` and `data-fill`, `g.stack` per stack, `g.counter`
per unit with `data-unit`, `data-side`, `data-owner` and `data-type`, `text.place-name` per name drawn,
`.owner` for a place state naming a side (a capture, an owner), `g.box` per box, `g.demo` for the
demo-data banner.
"""

from __future__ import annotations

import drawsvg as dw

from .colours import NEUTRAL, tint
from .counters import draw_pile, draw_rows, pile_size, rows_height, text_width
from .layout import Board, Cell, Layout, lay_out
from .look import LAND, PlaceLook
from .scene import Mark, Scene, Spot

COLUMN = 300  # a column of the panel beside the map
FONT = "sans-serif"
BOX_COUNTER = 34  # a counter in a box beside the map
DASHES = {"solid": None, "dashed": "7,4", "dotted": "2,3"}
BOLD = 1.1  # bold type is this much wider


class Polygon(dw.DrawingBasicElement):
    """An SVG polygon (drawsvg draws paths; a hex is a polygon, which readers of the file expect)."""

    TAG_NAME = "polygon"

    def __init__(self, points: list[tuple[float, float]], **kwargs):
        super().__init__(points=" ".join(f"{x:.1f},{y:.1f}" for x, y in points), **kwargs)


class Segment(dw.DrawingBasicElement):
    """An SVG line (drawsvg draws a path): a border along the side two places share, read back by its ends."""

    TAG_NAME = "line"

    def __init__(self, x1: float, y1: float, x2: float, y2: float, **kwargs):
        super().__init__(x1=round(x1, 2), y1=round(y1, 2), x2=round(x2, 2), y2=round(y2, 2), **kwargs)


def draw(scene: Scene, board: Board) -> dw.Drawing:
    """The picture of a scene on its board."""
    colours = board.look.sides
    layout = lay_out(board.map, board.places, board.at)
    below = layout.width > 1.4 * layout.height  # a long, low map: the panel goes under it
    panel = _Panel(colours)
    panel.legend(scene, board)
    panel.texts("Tracks", scene.tracks, "track")
    panel.texts("Game values", scene.values, "value")
    panel.texts("Notes", _notes(scene, layout), "note")
    for box in scene.boxes:
        panel.box(box)
    heading = _Heading(scene, board)
    if below:
        width = max(layout.width, 900.0)
        heading.wrap(width)
        top = heading.height
        panel_w, panel_h = panel.flow(16, top + layout.height + 10, width - 16, max_height=panel.balanced(width - 16))
        width, height = max(width, panel_w + 16), top + layout.height + 10 + panel_h + 16
    else:
        limit = max(layout.height, 700.0)
        panel_w, panel_h = panel.flow(layout.width + 10, 0, None, max_height=limit)
        width = max(layout.width + 10 + panel_w + 12, 640.0)
        heading.wrap(width)
        top = heading.height
        panel.group.args["transform"] = f"translate(0,{top:.0f})"
        height = top + max(layout.height, panel_h) + 16
    drawing = dw.Drawing(width, height, font_family=FONT)
    for pattern in _patterns():
        drawing.append_def(pattern)
    drawing.append(dw.Rectangle(0, 0, "100%", "100%", fill="white"))
    heading.draw(drawing)
    drawing.append(_map(scene, board, layout, colours, top))
    drawing.append(panel.group)
    return drawing


class _Heading:
    """The title, the clock (with whose view), the moment drawn, and the demo data's banner, each
    wrapped to the picture's width."""

    def __init__(self, scene: Scene, board: Board):
        seen = f" — as {scene.viewer} sees it" if scene.viewer else ""
        self.parts = [(scene.title, 17, "title", "bold"), (scene.clock + seen, 12, "clock", None),
                      (scene.moment, 11, "moment", None)]
        self.demo = board.demo
        self.lines: list[tuple[str, float, str, str | None]] = []
        self.demo_lines: list[str] = []
        self.height = 0.0

    def wrap(self, width: float) -> None:
        self.lines = [(line, size, kind, weight) for text, size, kind, weight in self.parts
                      for line in wrap(text, width - 32, size * (BOLD if weight else 1))]
        self.demo_lines = wrap(f"DEMO — {self.demo}", width - 48, 11 * BOLD) if self.demo else []
        self.height = 14 + sum(size * 1.35 for _, size, _, _ in self.lines) + (len(self.demo_lines) * 15 + 14
                                                                               if self.demo_lines else 0) + 8

    def draw(self, drawing: dw.Drawing) -> None:
        y = 14.0
        for line, size, kind, weight in self.lines:
            y += size * 1.35
            drawing.append(dw.Text(line, size, 16, y - size * 0.3, font_weight=weight, fill="#222", class_=kind))
        if self.demo_lines:
            y += 6
            group = dw.Group(class_="demo")
            group.append(dw.Rectangle(12, y, max(text_width(line, 11 * BOLD) for line in self.demo_lines) + 20,
                                      len(self.demo_lines) * 15 + 6, rx=4, fill="#fff3cd", stroke="#b7791f"))
            for i, line in enumerate(self.demo_lines):
                group.append(dw.Text(line, 11, 22, y + 15 + i * 15, fill="#7a4b00", font_weight="bold", class_="demo-text"))
            drawing.append(group)


def wrap(text: str, width: float, size: float) -> list[str]:
    """The text in lines that each fit ``width`` at ``size`` (a word longer than a line is cut to it)."""
    lines, current = [], ""
    for word in text.split(" "):
        joined = f"{current} {word}" if current else word
        if text_width(joined, size) <= width or not current:
            current = joined
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    return [_fit_line(line, width, size) for line in lines] or [""]


def _fit_line(text: str, width: float, size: float) -> str:
    while text_width(text, size) > width and len(text) > 1:
        text = text[:-2] + "…"
    return text


def _notes(scene: Scene, layout: Layout) -> list[str]:
    notes = []
    if layout.unplaced:
        notes.append(f"{len(layout.unplaced)} place(s) have no position ('at X, Y' in the scenario): laid out in a grid")
    if scene.viewer:  # said whatever is there: a count, or the note only where units are hidden, would tell them
        notes.append(f"units {scene.viewer} does not see are drawn face down as the rules say they are seen, or not at all")
    return notes


# ───────────────────────────── the map ─────────────────────────────

def _patterns() -> list[dw.Pattern]:
    """The fill patterns a place's look may name, drawn over its fill colour."""
    defs = []
    shapes = {
        "dots": [dw.Circle(3, 3, 1.1, fill="#00000040")],
        "hatch": [dw.Line(0, 8, 8, 0, stroke="#00000038", stroke_width=1)],
        "waves": [dw.Path(stroke="#ffffff90", fill="none", stroke_width=1).M(0, 4).Q(2, 2, 4, 4).Q(6, 6, 8, 4)],
        "grid": [dw.Line(0, 0, 8, 0, stroke="#00000030"), dw.Line(0, 0, 0, 8, stroke="#00000030")],
    }
    for name, parts in shapes.items():
        size = 6 if name == "dots" else 8
        pattern = dw.Pattern(size, size, id=f"pattern-{name}", patternUnits="userSpaceOnUse")
        for part in parts:
            pattern.append(part)
        defs.append(pattern)
    return defs


def _map(scene: Scene, board: Board, layout: Layout, colours: dict[str, str], top: float) -> dw.Group:
    group = dw.Group(class_="map", transform=f"translate(0,{top:.0f})")
    for cell in layout.fillers:
        group.append(_outline(cell, fill="#f7f7f4", stroke="#dcdcd6", class_="filler", stroke_width=0.6))
    grid = any(c.shape in ("hex", "square") for c in layout.cells.values())
    if not grid:  # areas and points: the lines between them run under them
        group.append(_links(board, layout))
    for pid, cell in layout.cells.items():
        if pid in scene.places:
            group.append(_ground(cell, scene.places[pid], board.terrain.get(pid) or PlaceLook()))
    for a, b, colour, pattern in board.borders:
        if a in layout.cells and b in layout.cells:
            side = _shared_side(layout.cells[a], layout.cells[b])
            if side is not None:
                (x1, y1), (x2, y2) = side
                group.append(Segment(x1, y1, x2, y2, stroke=colour, stroke_width=3.5, stroke_linecap="round",
                                     stroke_dasharray=DASHES.get(pattern), class_="border"))
    if grid:
        group.append(_links(board, layout))
    for pid, cell in layout.cells.items():
        spot = scene.places.get(pid)
        if spot is not None:
            group.append(_contents(cell, spot, board.terrain.get(pid) or PlaceLook(), colours, layout.counter))
    return group


def _links(board: Board, layout: Layout) -> dw.Group:
    """Each adjacency between areas or points (hexes and squares show theirs by touching), and each named
    kind of edge in its declared line, or dashed grey."""
    group = dw.Group(class_="links")
    for a, b, kind in board.links:
        if a not in layout.cells or b not in layout.cells:
            continue
        ca, cb = layout.cells[a], layout.cells[b]
        if kind is None and ca.shape in ("hex", "square"):
            if _wraps_round(ca, cb) and (abs(ca.y - cb.y) < 0.5 or abs(ca.x - cb.x) < 0.5):  # a diagonal follows from these
                group.append(_wrap_note(ca, cb))
                group.append(_wrap_note(cb, ca))
            continue
        colour, pattern = board.look.edges.get((kind, None), ("#8d8d8d", "solid" if kind is None else "dashed"))
        group.append(dw.Line(ca.x, ca.y, cb.x, cb.y, stroke=colour, stroke_width=2 if kind else 1.3, class_="link",
                             stroke_dasharray=DASHES.get(pattern), data_kind=kind or "adjacent", stroke_opacity=0.85))
    return group


def _shared_side(a: Cell, b: Cell):
    """The side two touching places share: its two ends, or None when they do not touch where drawn."""
    if a.shape == b.shape == "hex":
        near = [p for p in a.corners() if any(abs(p[0] - q[0]) < 0.5 and abs(p[1] - q[1]) < 0.5 for q in b.corners())]
        return (near[0], near[1]) if len(near) == 2 else None
    if a.shape == b.shape == "square":
        dx, dy = b.x - a.x, b.y - a.y
        h = a.w / 2
        if abs(abs(dx) - a.w) < 0.5 and abs(dy) < 0.5:
            x = a.x + (h if dx > 0 else -h)
            return (x, a.y - h), (x, a.y + h)
        if abs(abs(dy) - a.h) < 0.5 and abs(dx) < 0.5:
            y = a.y + (h if dy > 0 else -h)
            return (a.x - h, y), (a.x + h, y)
    return None


def _wraps_round(a: Cell, b: Cell) -> bool:
    """Two grid squares that touch across a wrapping edge (language 6.1a): neighbours, but drawn at
    the map's two ends. A line between them would cross the whole map."""
    return a.shape == b.shape == "square" and (abs(a.x - b.x) > 1.5 * a.w or abs(a.y - b.y) > 1.5 * a.h)


def _wrap_note(cell: Cell, other: Cell) -> dw.DrawingElement:
    """A square's note, on the side of the map edge it wraps across, of the square it touches there."""
    dx = 0 if abs(cell.x - other.x) <= 1.5 * cell.w else (-1 if other.x > cell.x else 1)
    dy = 0 if abs(cell.y - other.y) <= 1.5 * cell.h else (-1 if other.y > cell.y else 1)
    x, y = cell.x + dx * (cell.w / 2 - 3), cell.y + dy * (cell.h / 2 - 3) + (cell.h * 0.3 if dy == 0 else 0)
    anchor = "start" if dx < 0 else "end" if dx > 0 else "middle"
    return dw.Text(f"\u21c4 {other.id}", 7.5, x, y, fill="#555", text_anchor=anchor, class_="wrap")


def _outline(cell: Cell, **style) -> dw.DrawingElement:
    if cell.shape == "hex":
        return Polygon(cell.corners(), **style)
    rounded = 10 if cell.shape not in ("square",) else 0
    return dw.Rectangle(cell.x - cell.w / 2, cell.y - cell.h / 2, cell.w, cell.h, rx=rounded, **style)


def _ground(cell: Cell, spot: Spot, look: PlaceLook) -> dw.Group:
    """The place itself: its fill and pattern by its properties' looks, its outline."""
    group = dw.Group(class_="ground", data_place=spot.id)
    fill = look.fill or LAND
    outline = look.outline or ("#8a8170" if cell.shape in ("hex", "square") else "#555")
    width = 2.5 if look.outline else (0.8 if cell.shape in ("hex", "square") else 1.3)
    group.append(_outline(cell, fill=fill, stroke=outline, stroke_width=width, class_=f"place {cell.shape}",
                          data_place=spot.id, data_fill=fill))
    if look.pattern:
        group.append(_outline(cell, fill=f"url(#pattern-{look.pattern})", stroke="none", class_="pattern",
                              data_pattern=look.pattern))
    return group


def _contents(cell: Cell, spot: Spot, look: PlaceLook, colours: dict[str, str], size: float) -> dw.Group:
    """What stands on a place: its id (a hex's number, an area's name), its mark and name, its pile, its states."""
    group = dw.Group(class_="spot", data_place=spot.id)
    group.append(dw.Title(f"{spot.id} {spot.name}" if spot.name else spot.id))
    half_w, half_h = cell.extent()
    grid = cell.shape in ("hex", "square")
    if grid:
        font = max(7.0, min(10.0, cell.w * 0.2))
        group.append(dw.Text(spot.id, font, cell.x, cell.y - half_h + font + 1, text_anchor="middle", fill="#555",
                             class_="place-id"))
        top = font
    else:  # an area or a point: its name (its id without one) in as many as three lines, its mark before it
        label, kind = (spot.name, "place-name") if spot.name else (spot.id.replace("_", " "), "place-id")
        font = _font_to_fit(label, cell.w - 30, 10.5, 8)
        lines = wrap(label, cell.w - 30, font)[:3]
        for i, line in enumerate(lines):
            group.append(dw.Text(line, font, cell.x, cell.y - half_h + font + 2 + i * font * 1.1, text_anchor="middle",
                                 fill="#111", font_weight="bold", class_=kind))
        if look.mark:
            group.append(dw.Text(look.mark, 9, cell.x - half_w + 3, cell.y - half_h + 11, class_="place-symbol"))
        top = font * 1.1 * len(lines)
    if grid and (look.mark or spot.name and cell.shape == "square"):
        _name_label(group, cell, spot, look.mark)
    w, h = pile_size(spot.stack, size)
    room = cell.y - h / 2 + (top * 0.45 if spot.stack else 0)
    if not grid:  # an area's pile stands under its name
        room = max(room, cell.y - half_h + top + 5)
    if spot.stack:
        group.append(draw_pile(spot.stack, cell.x - w / 2, room, size, colours, spot.id))
    y = room + h + 2 if spot.stack else cell.y - 6
    for i, mark in enumerate(spot.marks):
        group.append(_mark(mark, cell.x, y + i * 13, colours))
    return group


def _font_to_fit(text: str, width: float, size: float, least: float) -> float:
    """The largest size from ``size`` down to ``least`` at which the text fits ``width``."""
    while size > least and text_width(text, size) > width:
        size -= 0.5
    return size


def _name_label(group: dw.Group, cell: Cell, spot: Spot, mark: str | None) -> None:
    """A marked place (a port, a city) shows its symbol and its name at its foot, on a white halo."""
    text = " ".join(x for x in (mark, spot.name) if x)  # an unnamed place's id is drawn already
    y = cell.y + cell.extent()[1] - 3
    group.append(dw.Text(text, 8.5, cell.x, y, text_anchor="middle", fill="#111", font_weight="bold",
                         stroke="white", stroke_width=2.5, paint_order="stroke", class_="place-name"))


def _mark(mark: Mark, x: float, y: float, colours: dict[str, str]) -> dw.Group:
    """A place state as a label; one naming a side (a capture, an owner) on a pill of that side's colour."""
    width = text_width(mark.text, 8) + 10
    colour = colours.get(mark.side, NEUTRAL) if mark.side else "#777777"
    group = dw.Group(class_="place-mark owner" if mark.side else "place-mark", data_state=mark.name,
                     data_side=mark.side or None)
    group.append(dw.Rectangle(x - width / 2, y, width, 12, rx=6, fill=tint(colour, 0.8 if mark.side else 0.9),
                              stroke=colour, stroke_width=1.2 if mark.side else 0.8))
    group.append(dw.Text(mark.text, 8, x, y + 9, text_anchor="middle", fill="#111",
                         font_weight="bold" if mark.side else None))
    return group


# ───────────────────────────── the panel ─────────────────────────────

class _Panel:
    """The blocks beside the map (the legend, the tracks, each box), flowed into columns."""

    def __init__(self, colours: dict[str, str]):
        self.colours = colours
        self.blocks: list[tuple[float, object]] = []  # (height, draw(group, x, y))
        self.group = dw.Group(class_="panel")

    def flow(self, x0: float, y0: float, width: float | None, max_height: float) -> tuple[float, float]:
        """Place the blocks in columns of at most ``max_height`` from (x0, y0): new columns to the right
        (within ``width`` when given, else as many as needed). The room taken: (width, height)."""
        x, y, tallest = x0, y0, 0.0
        for height, paint in self.blocks:
            room = width is None or x + 2 * COLUMN + 14 <= x0 + width  # a column more still fits across
            if y > y0 and y + height > y0 + max_height and room:
                x, y = x + COLUMN + 14, y0
            paint(self.group, x, y)
            y += height + 10
            tallest = max(tallest, y - y0)
        return x + COLUMN - x0, tallest

    def balanced(self, width: float) -> float:
        """The column height that shares the blocks out over the columns ``width`` holds."""
        columns = max(1, int((width + 14) // (COLUMN + 14)))
        total = sum(height + 10 for height, _ in self.blocks)
        return max(max((height for height, _ in self.blocks), default=0), total / columns * 1.1, 300)

    def legend(self, scene: Scene, board: Board) -> None:
        rows = [("side", name, f"{label} ({name})" if label != name else name) for name, label in scene.sides]
        key = [(k, v, look) for (k, v), look in board.look.places.items() if look.fill or look.mark or look.outline]
        edges = [(k, v, style) for (k, v), style in board.look.edges.items()]
        height = 18 + 16 * len(rows) + ((18 + 16 * (len(key) + len(edges))) if key or edges else 0)

        def paint(g, x, y):
            g.append(dw.Text("Sides", 12, x, y + 12, font_weight="bold"))
            y += 18
            for _, name, text in rows:
                item = dw.Group(class_="legend", data_side=name)
                item.append(dw.Rectangle(x, y, 16, 12, fill=self.colours.get(name, NEUTRAL), stroke="#222"))
                item.append(dw.Text(_fit_line(text, COLUMN - 24, 11), 11, x + 22, y + 10))
                g.append(item)
                y += 16
            if key or edges:
                g.append(dw.Text("Map", 12, x, y + 12, font_weight="bold"))
                y += 18
                for prop, value, look in key:
                    item = dw.Group(class_="legend-map", data_property=prop)
                    item.append(dw.Rectangle(x, y, 16, 12, fill=look.fill or "white", stroke=look.outline or "#888",
                                             stroke_width=2 if look.outline else 1))
                    if look.pattern:
                        item.append(dw.Rectangle(x, y, 16, 12, fill=f"url(#pattern-{look.pattern})"))
                    text = f"{look.mark + ' ' if look.mark else ''}{prop}{': ' + value if value else ''}"
                    item.append(dw.Text(_fit_line(text, COLUMN - 24, 10.5), 10.5, x + 22, y + 10))
                    g.append(item)
                    y += 16
                for kind, value, (colour, pattern) in edges:
                    g.append(dw.Line(x, y + 6, x + 16, y + 6, stroke=colour, stroke_width=3,
                                     stroke_dasharray=DASHES.get(pattern)))
                    g.append(dw.Text(_fit_line(f"{kind}{': ' + value if value else ''}", COLUMN - 24, 10.5), 10.5,
                                     x + 22, y + 10))
                    y += 16
        self.blocks.append((height, paint))

    def texts(self, title: str, lines: list[str], kind: str) -> None:
        if not lines:
            return
        wrapped = [(piece, i) for line in lines for i, piece in enumerate(wrap(line, COLUMN - 12, 10.5))]

        def paint(g, x, y):
            g.append(dw.Text(title, 12, x, y + 12, font_weight="bold"))
            for i, (piece, cont) in enumerate(wrapped):
                g.append(dw.Text(piece, 10.5, x + (10 if cont else 0), y + 28 + i * 14, class_=kind))
        self.blocks.append((18 + 14 * len(wrapped), paint))

    def box(self, box: Spot) -> None:
        across = int((COLUMN - 16 + 6) // (BOX_COUNTER + 6))
        title = wrap(box.label, COLUMN - 16, 11)
        inner = rows_height(len(box.stack), BOX_COUNTER, across)
        height = 10 + 14 * len(title) + inner + 10
        colour = self.colours.get(box.side, NEUTRAL) if box.side else "#555555"

        def paint(g, x, y):
            group = dw.Group(class_="box", data_place=box.id)
            group.append(dw.Rectangle(x, y, COLUMN, height, rx=6, fill=tint(colour, 0.9), stroke=colour, stroke_width=1.5))
            for i, line in enumerate(title):
                group.append(dw.Text(line, 11, x + 8, y + 15 + i * 14, font_weight="bold", class_="box-title"))
            group.append(draw_rows(box.stack, x + 8, y + 10 + 14 * len(title), BOX_COUNTER, across, self.colours, box.id))
            g.append(group)
        self.blocks.append((height, paint))
