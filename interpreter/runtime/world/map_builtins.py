"""Built-ins of the map's geometry (language 6.1a-6.1d): square and hex directions, borders, exits,
coasts, and the paths of a secondary map.

Listed in this module's table, which execution/builtins.py binds with the others; each reads the map data set up
from the scenario, never the position, except through the places it returns.
"""

from __future__ import annotations

from functools import lru_cache

from ...grids.compass import compass, direction_hint
from ...grids.squares import square_grid
from ...lang import DIAGONALS
from ...syntax.diagnostics import did_you_mean
from ..common.builtin_table import Implementation, registrar
from ..common.requests import RuleError
from ..common.values import Place, show

# The built-ins of the map's geometry, by their names in the language (execution/builtins.py binds them).
IMPLEMENTED: dict[str, Implementation] = {}
builtin = registrar(IMPLEMENTED)


# The grids of the maps read, by the map's declaration: a grid depends on the declaration alone, and a
# step function reads a direction at every move it costs (a campaign over a hex sea: some 130,000).
_GRIDS: dict[tuple[int, str], tuple] = {}


def _grid(map_decl, kind: str):
    """The map's square grid (kind "squares") or the grid that gives its places directions ("compass")."""
    kept = _GRIDS.get((id(map_decl), kind))
    if kept is None or kept[0] is not map_decl:
        if len(_GRIDS) > 64:  # maps of earlier loads in a long process: let them go
            _GRIDS.clear()
        kept = _GRIDS[(id(map_decl), kind)] = (map_decl, square_grid(map_decl) if kind == "squares" else compass(map_decl))
    return kept[1]


@lru_cache(maxsize=65536)
def _way(grid, a: str, b: str) -> str | None:
    """The direction from place a to place b on the grid, or None when they are not neighbours."""
    return next((d for d, nid in grid.neighbours(a) if nid == b), None)


def _squares(engine, span, fn: str):
    grid = _grid(engine.sym.map, "squares")
    if grid is None:
        raise RuleError(f"{fn} needs a square grid (grid square in the map)", span)
    return grid


def _place(span, v, fn: str) -> Place:
    if not isinstance(v, Place) or v.is_box:
        raise RuleError(f"{fn} needs a map place, not {show(v)}", span)
    return v


def _compass(engine, span, fn: str):
    grid = _grid(engine.sym.map, "compass")
    if grid is None:
        raise RuleError(f"{fn} needs a square grid, or a hex grid with columns (grid hex \"CCRR\" columns even_q)", span)
    return grid


def _direction(engine, span, a, b, fn: str) -> str | None:
    """The direction from a to b when they are neighbours on the grid (across a square grid's wrap too)."""
    grid = _compass(engine, span, fn) if fn == "direction" else _squares(engine, span, fn)
    a, b = _place(span, a, fn), _place(span, b, fn)
    return _way(grid, a.id, b.id)


@builtin("neighbour")
def neighbour(engine, span, place, direction):
    grid = _compass(engine, span, "neighbour")
    place = _place(span, place, "neighbour")
    if direction not in grid.directions:
        raise RuleError(f"neighbour needs a direction ({', '.join(grid.directions)}), not {show(direction)}", span,
                        hint=direction_hint(str(direction), grid.directions) or did_you_mean(str(direction), grid.directions))
    nid = dict(grid.neighbours(place.id)).get(direction)
    return engine.state.places.get(nid) if nid is not None else None


@builtin("direction")
def direction(engine, span, a, b):
    return _direction(engine, span, a, b, "direction")


@builtin("diagonal")
def diagonal(engine, span, a, b):
    return _direction(engine, span, a, b, "diagonal") in DIAGONALS


@builtin("flanking")
def flanking(engine, span, a, b):
    """The two squares beside a diagonal step (the two a step n and e of a for a step ne); [] for an
    orthogonal step. A flanking square the scenario does not define is left out."""
    d = _direction(engine, span, a, b, "flanking")
    if d is None:
        raise RuleError(f"flanking needs two neighbouring squares, not {show(a)} and {show(b)}", span)
    if d not in DIAGONALS:
        return []
    grid = _squares(engine, span, "flanking")
    around = dict(grid.neighbours(a.id))
    ids = (around.get(d[0]), around.get(d[1]))
    return [engine.state.places[i] for i in ids if i in engine.state.places]


@builtin("border")
def border(engine, span, a, b, name):
    a, b = _place(span, a, "border"), _place(span, b, "border")
    if name not in engine.sym.borders:
        raise RuleError(f"border needs a declared border property, not {show(name)}", span,
                        hint=did_you_mean(str(name), engine.sym.borders))
    if b not in a.neighbours:
        raise RuleError(f"{a.id} and {b.id} are not neighbours: no side lies between them", span)
    return a.borders.get(b.id, {}).get(name)


@builtin("exits")
def exits(engine, span, place, number=None):
    place = _place(span, place, "exits")
    if number is None:
        return [p for k in sorted(place.exits) for p in place.exits[k]]
    if not isinstance(number, int) or isinstance(number, bool):
        raise RuleError(f"exits needs an exit number, not {show(number)}", span)
    return list(place.exits.get(number, []))


@builtin("between")
def between(engine, span, coast, a, b):
    """The places of a coast from a to b, both included, in the order walked from a (the coast read
    backwards when b comes first); a coast is a line, so the walk never passes its ends."""
    if coast not in engine.sym.coasts:
        raise RuleError(f"between needs a declared coast, not {show(coast)}", span, hint=did_you_mean(str(coast), engine.sym.coasts))
    listed = engine.state.coasts.get(coast, [])
    for end in (a, b):
        if end not in listed:
            raise RuleError(f"{show(end)} is not on coast {coast}", span)
    i, j = listed.index(a), listed.index(b)
    return listed[i:j + 1] if i <= j else listed[j:i + 1][::-1]


@builtin("follow")
def follow(engine, span, chart, point, number):
    """The point the path from `point` that `number` picks leads to on a secondary map; none from a
    point with no paths (the walk has ended)."""
    decl = engine.sym.secondary_maps.get(chart) if isinstance(chart, str) else None
    if decl is None:
        raise RuleError(f"follow needs a secondary map, not {show(chart)}", span, hint=did_you_mean(str(chart), engine.sym.secondary_maps))
    here = next((p for p in decl.points if p.name == point), None)
    if here is None:
        raise RuleError(f"{show(point)} is not a point of {chart}", span, hint=did_you_mean(str(point), [p.name for p in decl.points]))
    if not here.paths:
        return None
    path = next((p for p in here.paths if isinstance(number, int) and p.low <= number <= p.high), None)
    if path is None:
        raise RuleError(f"no path from {point} on {chart} for {show(number)}", span)
    return path.to
