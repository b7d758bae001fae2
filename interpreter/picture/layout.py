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

SQRT3 = math.sqrt(3)
LABEL = 18  # room for a place's id above its stack and its marks below
MARGIN = 24


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


def lay_out(map_decl, places: list[tuple[str, str]], at: dict[str, tuple[int, int]],
            sizes: dict[str, tuple[float, float]]) -> Layout:
    """The layout of ``places`` (id, shape), in order, each needing room for a block of ``sizes[id]``."""
    grid = map_decl.grid if map_decl is not None else None
    shape = grid.shape if grid is not None else "area"
    biggest = (max((w for w, _ in sizes.values()), default=0), max((h for _, h in sizes.values()), default=0))
    if shape == "hex":
        layout = _hexes(grid, [p for p, _ in places], _hex_radius(*biggest))
    elif shape == "square":
        layout = _squares(map_decl, [p for p, _ in places], max(90.0, max(biggest[0], biggest[1] + 2 * LABEL) + 16))
    else:
        layout = Layout({})
    w, h = max(120.0, biggest[0] + 20), max(64.0, biggest[1] + 2 * LABEL + 8)
    for pid, pshape in places:
        if pid not in layout.cells and pid in at:
            x, y = at[pid]
            layout.cells[pid] = Cell(pid, pshape, x * (w + 24), y * (h + 24), w, h)
    _place_the_rest(layout, places, w, h)
    _to_margin(layout)
    return layout


def _hex_radius(w: float, h: float) -> float:
    """The smallest circumradius whose hex holds a w x h block between its id above and marks below."""
    h += 2 * LABEL
    return max(48.0, h / SQRT3 + 4, w / 2 + h / (2 * SQRT3) + 4)


def _hexes(grid, ids: list[str], r: float) -> Layout:
    form = grid.id_format or DEFAULT_HEX_ID
    down = 0 if grid.columns == "even_q" or grid.columns is None else 1  # the columns shifted half a hex down
    layout = Layout({})
    cells = {}
    for pid in ids:
        cr = parse_hex_id(pid, form)
        if cr is not None:
            cells[pid] = cr
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


def _squares(map_decl, ids: list[str], side: float) -> Layout:
    layout = Layout({})
    grid = square_grid(map_decl)
    for pid in ids:
        cr = grid.form.read(pid) if grid is not None else None
        if cr is not None:
            layout.cells[pid] = Cell(pid, "square", cr[0] * side, cr[1] * side, side, side)
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
    scenario's order, their `at` positions, and the links between them (a, b, edge kind or None)."""

    map: object
    places: list[tuple[str, str]]
    at: dict[str, tuple[int, int]]
    links: list[tuple[str, str, str | None]]


def board_of(engine, scenario) -> Board:
    """The board of an engine set up from ``scenario`` (None: a game with no set-up has no places)."""
    st = engine.state
    at = {p.id: p.at for p in scenario.places if p.at is not None} if scenario is not None else {}
    links: list[tuple[str, str, str | None]] = []
    seen: set[tuple[str, str, str | None]] = set()
    for place in st.places.values():
        pairs = [(b, None) for b in place.neighbours] + [(b, kind) for kind, bs in place.links.items() for b in bs]
        for b, kind in pairs:
            key = (min(place.id, b.id), max(place.id, b.id), kind)
            if key not in seen:
                seen.add(key)
                links.append(key)
    return Board(engine.sym.map, [(p.id, p.shape) for p in st.places.values()], at, links)
