"""The grids whose places have directions: a square grid (eight, language 6.1a) and a hex grid in
flat-topped columns (six, language 6.1d).

`neighbour` and `direction` read either through the one interface here, `neighbours(id)`: the
(direction, id) pairs around a place, north first and clockwise. Both are computed from the id
alone, so they are the same for every set-up of a map.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..lang import DIRECTIONS, HEX_DIRECTIONS
from .geometry import DEFAULT_HEX_ID, hex_directions
from .squares import square_grid


@dataclass(frozen=True)
class HexGrid:
    """A hex grid whose columns say how the hexes touch (`grid hex "CCRR" columns even_q`)."""

    columns: str
    form: str
    directions = HEX_DIRECTIONS  # a class value, not a field: what `neighbour` accepts on this grid

    def neighbours(self, pid: str) -> tuple[tuple[str, str], ...]:
        return _hex_around(pid, self.columns, self.form)


@lru_cache(maxsize=65536)
def _hex_around(pid: str, columns: str, form: str) -> tuple[tuple[str, str], ...]:
    return hex_directions(pid, columns, form)


def hex_grid(map_decl) -> HexGrid | None:
    """The hex grid a map declares with its columns, or None (no columns: no directions to compute)."""
    grid = map_decl.grid if map_decl else None
    if grid is None or grid.shape != "hex" or not grid.columns:
        return None
    return HexGrid(grid.columns, grid.id_format or DEFAULT_HEX_ID)


def compass(map_decl):
    """The grid that gives the map's places directions (a SquareGrid or a HexGrid), or None."""
    return square_grid(map_decl) or hex_grid(map_decl)


def direction_hint(word: str, directions: tuple[str, ...] = DIRECTIONS) -> str | None:
    """A direction written out ('north', 'South-West') as its short name; a square grid's 'e' or 'w' on a
    hex grid, whose sides face the other way, as the two it lies between."""
    words = word.lower().replace("-", " ").replace("north", "north ").replace("south", "south ").split()
    short = "".join(w[0] for w in words)
    listing = ", ".join(directions)
    if words and all(w in ("north", "south", "east", "west") for w in words) and short in directions:
        return f"did you mean '{short}'? directions are written short: {listing}"
    if word.lower() in ("e", "w", "east", "west") and short not in directions:
        return f"did you mean 'n{short}' or 's{short}'? a hex grid's six directions are {listing}"
    return None
