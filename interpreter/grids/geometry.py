"""Map geometry: which places a grid makes adjacent (the scenario's own links come on top).

A hex grid's place ids follow the format the map declares (`grid hex "CCRR"`): each `C` is a
digit of the column, each `R` a digit of the row, in that order in the id ("RRCC" puts the row
first; "CCCRR" allows 100 columns and more). Without a format, "CCRR".
"""

from __future__ import annotations

from ..digits import is_number

DEFAULT_HEX_ID = "CCRR"


def usable_id_format(form: str) -> bool:
    """A format computed adjacency can read: only C and R, at least one of each."""
    return bool(form) and set(form) == {"C", "R"}


def parse_hex_id(pid: str, form: str = DEFAULT_HEX_ID) -> tuple[int, int] | None:
    """(column, row) of an id written in the format, or None for an id that does not fit it."""
    if len(pid) != len(form) or not is_number(pid) or not usable_id_format(form):
        return None
    col = "".join(d for d, f in zip(pid, form) if f == "C")
    row = "".join(d for d, f in zip(pid, form) if f == "R")
    return int(col), int(row)


def hex_id(col: int, row: int, form: str = DEFAULT_HEX_ID) -> str | None:
    """The id of (column, row) in the format, or None when a number needs more digits than it has."""
    digits = {"C": f"{col:0{form.count('C')}d}", "R": f"{row:0{form.count('R')}d}"}
    if len(digits["C"]) != form.count("C") or len(digits["R"]) != form.count("R"):
        return None
    taken = {"C": iter(digits["C"]), "R": iter(digits["R"])}
    return "".join(next(taken[f]) for f in form)


def hex_directions(pid: str, columns: str, form: str = DEFAULT_HEX_ID) -> tuple[tuple[str, str], ...]:
    """(direction, id) of each hex around `pid` in a flat-topped column layout (even_q or odd_q), n first
    and clockwise; a neighbour off the grid's numbering is left out."""
    cell = parse_hex_id(pid, form)
    if cell is None:
        return ()
    c, r = cell
    up_shift = (c % 2 == 1) if columns == "even_q" else (c % 2 == 0)
    upper, lower = (r - 1, r) if up_shift else (r, r + 1)  # the rows this hex touches in the columns beside it
    cells = (("n", c, r - 1), ("ne", c + 1, upper), ("se", c + 1, lower),
             ("s", c, r + 1), ("sw", c - 1, lower), ("nw", c - 1, upper))
    out = ((d, hex_id(cc, rr, form)) for d, cc, rr in cells if cc >= 0 and rr >= 0)
    return tuple((d, i) for d, i in out if i is not None)


def hex_neighbours(pid: str, columns: str, form: str = DEFAULT_HEX_ID) -> set[str]:
    """Neighbours of a hex in a flat-topped column layout (even_q or odd_q)."""
    return {nid for _d, nid in hex_directions(pid, columns, form)}
