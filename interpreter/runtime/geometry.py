"""Map geometry: which places a grid makes adjacent (the scenario's own links come on top)."""

from __future__ import annotations


def hex_neighbours(pid: str, columns: str) -> set[str]:
    """Neighbours of a CCRR hex id in a flat-topped column layout (even_q or odd_q)."""
    if len(pid) != 4 or not pid.isdigit():
        return set()
    c, r = int(pid[:2]), int(pid[2:])
    up_shift = (c % 2 == 1) if columns == "even_q" else (c % 2 == 0)
    side_rows = (r - 1, r) if up_shift else (r, r + 1)
    cells = [(c, r - 1), (c, r + 1)] + [(c + dc, rr) for dc in (-1, 1) for rr in side_rows]
    return {f"{cc:02d}{rr:02d}" for cc, rr in cells if cc >= 0 and rr >= 0}
