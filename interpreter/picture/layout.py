"""Where each place is drawn: a centre and an outline, sized so that the largest stack fits.

- A hex grid computes it from the id, in the map's id format (`grid hex "CCRR"`) and column
  layout: flat-topped hexes, `even_q` shifting the even columns half a hex down, `odd_q` the odd
  ones (as grids/geometry.py makes them neighbours). The hexes between the places a scenario
  defines are drawn too, faintly, so the map reads as a map.
- A square grid computes it from the id, in the map's format (grids/squares.py).
- Areas and points take the scenario's `at X, Y` (language 6.1), X and Y counting places across
  and down.
- A place none of these places is laid out in a grid below the others, and the picture says so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..grids.geometry import DEFAULT_HEX_ID, hex_id, parse_hex_id
from ..grids.squares import square_grid
from .look import Look, PlaceLook, look_of

SQRT3 = math.sqrt(3)
MARGIN = 24
WIDE = 1400  # what a map is drawn across, about: legible once the picture is shown 1600 px wide
GAP = 14  # between areas laid out by their `at` positions


@dataclass
class Cell:
    """A place's outline: a hex of circumradius `w` (`h` unused), or a w x h square or area, at (x, y)."""

    id: str
    shape: str
    x: float
    y: float
    w: float
    h: float
    filler: bool = False  # a hex of the grid no scenario place stands on

    def corners(self) -> list[tuple[float, float]]:
        """A flat-topped hex's six corners."""
        r = self.w
        return [(self.x + r * math.cos(math.pi / 3 * i), self.y + r * math.sin(math.pi / 3 * i)) for i in range(6)]

    def extent(self) -> tuple[float, float]:
        """Half its width and half its height."""
        return (self.w, self.w * SQRT3 / 2) if self.shape == "hex" else (self.w / 2, self.h / 2)


@dataclass
class Layout:
    cells: dict[str, Cell]
    fillers: list[Cell] = field(default_factory=list)
    unplaced: list[str] = field(default_factory=list)  # places with no position, laid out in a grid
    width: float = 0
    height: float = 0
    counter: float = 36  # a counter's side on this map


def lay_out(map_decl, places: list[tuple[str, str]], at: dict[str, tuple[int, int]]) -> Layout:
    """The layout of ``places`` (id, shape), in order: hexes and squares sized so the map in use spans
    about WIDE, areas and points a fixed size; the counter's size follows the place's."""
    grid = map_decl.grid if map_decl is not None else None
    shape = grid.shape if grid is not None else "area"
    if shape == "hex":
        layout = _hexes(grid, [p for p, _ in places])
    elif shape == "square":
        layout = _squares(map_decl, [p for p, _ in places])
    else:
        layout = Layout({}, counter=34)
    w, h = 104.0, 72.0
    for pid, pshape in places:
        if pid not in layout.cells and pid in at:
            x, y = at[pid]
            layout.cells[pid] = Cell(pid, pshape, x * (w + GAP), y * (h + GAP), w, h)
    _place_the_rest(layout, places, w, h)
    _to_margin(layout)
    return layout


def _span(values) -> int:
    values = list(values)
    return max(values) - min(values) + 1 if values else 1


def _hexes(grid, ids: list[str]) -> Layout:
    form = grid.id_format or DEFAULT_HEX_ID
    down = 0 if grid.columns == "even_q" or grid.columns is None else 1  # the columns shifted half a hex down
    cells = {}
    for pid in ids:
        cr = parse_hex_id(pid, form)
        if cr is not None:
            cells[pid] = cr
    r = min(46.0, max(24.0, WIDE / (1.5 * _span(c for c, _ in cells.values()) + 0.5)))
    layout = Layout({}, counter=round(r * 0.92))
    for pid, (c, row) in cells.items():
        layout.cells[pid] = _hex_cell(pid, c, row, r, down)
    if cells:
        cols, rows = [c for c, _ in cells.values()], [row for _, row in cells.values()]
        for c in range(min(cols), max(cols) + 1):
            for row in range(min(rows), max(rows) + 1):
                pid = hex_id(c, row, form)
                if pid is not None and pid not in layout.cells:
                    layout.fillers.append(_hex_cell(pid, c, row, r, down, filler=True))
    return layout


def _hex_cell(pid: str, c: int, row: int, r: float, down: int, filler: bool = False) -> Cell:
    y = row * SQRT3 * r + (SQRT3 / 2 * r if c % 2 == down else 0)
    return Cell(pid, "hex", c * 1.5 * r, y, r, r, filler)


def _squares(map_decl, ids: list[str]) -> Layout:
    grid = square_grid(map_decl)
    read = {pid: cr for pid in ids if grid is not None and (cr := grid.form.read(pid)) is not None}
    side = min(96.0, max(48.0, WIDE / _span(c for c, _ in read.values())))
    layout = Layout({}, counter=round(side * 0.56))
    for pid, (c, r) in read.items():
        layout.cells[pid] = Cell(pid, "square", c * side, r * side, side, side)
    return layout


def _place_the_rest(layout: Layout, places: list[tuple[str, str]], w: float, h: float) -> None:
    """The places with no position, in a grid below the placed ones, in the scenario's order."""
    rest = [(pid, shape) for pid, shape in places if pid not in layout.cells]
    if not rest:
        return
    bottom = max((c.y + c.extent()[1] for c in layout.cells.values()), default=-h / 2 - 24)
    left = min((c.x - c.extent()[0] for c in layout.cells.values()), default=0)
    across = max(1, math.ceil(math.sqrt(len(rest))))
    for i, (pid, shape) in enumerate(rest):
        col, row = i % across, i // across
        x = left + w / 2 + col * (w + 24)
        y = bottom + 24 + h / 2 + row * (h + 24)
        layout.cells[pid] = Cell(pid, "square" if shape == "square" else "area", x, y, w, h)
    layout.unplaced = [pid for pid, _ in rest]


def _to_margin(layout: Layout) -> None:
    """Move every cell so the map's top left corner is at the margin; note its size."""
    every = list(layout.cells.values()) + layout.fillers
    if not every:
        return
    left = min(c.x - c.extent()[0] for c in every)
    top = min(c.y - c.extent()[1] for c in every)
    for c in every:
        c.x, c.y = c.x - left + MARGIN, c.y - top + MARGIN
    layout.width = max(c.x + c.extent()[0] for c in every) + MARGIN
    layout.height = max(c.y + c.extent()[1] for c in every) + MARGIN


@dataclass
class Board:
    """What of the map never changes in a game: its declaration, the places (id, shape) in the
    scenario's order, their `at` positions, the links between them (a, b, edge kind or None), how the
    ruleset draws it (its `look`s), each place's look by its properties, the sides between places a
    border look draws (a, b, colour, pattern), and the demo data it stands on (None: the published map)."""

    map: object
    places: list[tuple[str, str]]
    at: dict[str, tuple[int, int]]
    links: list[tuple[str, str, str | None]]
    look: Look = field(default_factory=lambda: Look({}))
    terrain: dict[str, PlaceLook] = field(default_factory=dict)
    borders: list[tuple[str, str, str, str]] = field(default_factory=list)
    demo: str | None = None


def board_of(engine, scenario) -> Board:
    """The board of an engine set up from ``scenario`` (None: a game with no set-up has no places)."""
    from ..runtime.games.stands_in import stands_in_brief

    st = engine.state
    at = {p.id: p.at for p in scenario.places if p.at is not None} if scenario is not None else {}
    links: list[tuple[str, str, str | None]] = []
    seen: set[tuple[str, str, str | None]] = set()
    look = look_of(engine.sym)
    borders = []
    for place in st.places.values():
        pairs = [(b, None) for b in place.neighbours] + [(b, kind) for kind, bs in place.links.items() for b in bs]
        for b, kind in pairs:
            key = (min(place.id, b.id), max(place.id, b.id), kind)
            if key not in seen:
                seen.add(key)
                links.append(key)
        for other, values in place.borders.items():
            style = next((look.edges[(name, value)] for name, value in values.items() if (name, value) in look.edges), None)
            if style is not None and place.id < other:
                borders.append((place.id, other, *style))
    terrain = {p.id: look.place(p.props) for p in st.places.values()}
    return Board(engine.sym.map, [(p.id, p.shape) for p in st.places.values()], at, links, look, terrain, borders,
                 stands_in_brief(scenario))
